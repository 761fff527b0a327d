/* Instantiates curve_test_impl.h for the four groups (cz_<curve>_<g>_t_<name>). */
#ifndef CUZK_TESTS_CURVE_TEST_GROUPS_H
#define CUZK_TESTS_CURVE_TEST_GROUPS_H

#include "field/field_consts.h"

#define T_G     cz_bls12381_g1
#define T_AFF   cz_bls12381_g1_affine
#define T_JAC   cz_bls12381_g1_jacobian
#define T_XYZZ  cz_bls12381_g1_xyzz
#define T_FR    cz_bls12381_fr
#define T_FR_T  cz_bls12381_fr
#define T_F     cz_bls12381_fp
#define T_F_T   cz_bls12381_fp
#define T_B     cz_bls12381_fp
#define T_DEG   1
#define T_ORDER BLS12381_FR_P
#include "curve_test_impl.h"
#include "curve_test_undef.h"

#define T_G     cz_bls12381_g2
#define T_AFF   cz_bls12381_g2_affine
#define T_JAC   cz_bls12381_g2_jacobian
#define T_XYZZ  cz_bls12381_g2_xyzz
#define T_FR    cz_bls12381_fr
#define T_FR_T  cz_bls12381_fr
#define T_F     cz_bls12381_fp2
#define T_F_T   cz_bls12381_fp2
#define T_B     cz_bls12381_fp
#define T_DEG   2
#define T_ORDER BLS12381_FR_P
#include "curve_test_impl.h"
#include "curve_test_undef.h"

#define T_G     cz_bn254_g1
#define T_AFF   cz_bn254_g1_affine
#define T_JAC   cz_bn254_g1_jacobian
#define T_XYZZ  cz_bn254_g1_xyzz
#define T_FR    cz_bn254_fr
#define T_FR_T  cz_bn254_fr
#define T_F     cz_bn254_fp
#define T_F_T   cz_bn254_fp
#define T_B     cz_bn254_fp
#define T_DEG   1
#define T_ORDER BN254_FR_P
#include "curve_test_impl.h"
#include "curve_test_undef.h"

#define T_G     cz_bn254_g2
#define T_AFF   cz_bn254_g2_affine
#define T_JAC   cz_bn254_g2_jacobian
#define T_XYZZ  cz_bn254_g2_xyzz
#define T_FR    cz_bn254_fr
#define T_FR_T  cz_bn254_fr
#define T_F     cz_bn254_fp2
#define T_F_T   cz_bn254_fp2
#define T_B     cz_bn254_fp
#define T_DEG   2
#define T_ORDER BN254_FR_P
#include "curve_test_impl.h"
#include "curve_test_undef.h"

/* Dispatches a vector record to its group by fields 1 and 2 (curve, group); "zc" has no curve. */
static inline void curve_noble_dispatch(char **f, int nf) {
    if (nf < 3) {
        CHECK(!"short record");
        return;
    }
    const char *c = f[1], *g = f[2];
    if (strcmp(f[0], "zc") == 0)
        return;
    if (!strcmp(c, "bls12381") && !strcmp(g, "g1"))
        cz_bls12381_g1_t_noble_record(f, nf);
    else if (!strcmp(c, "bls12381") && !strcmp(g, "g2"))
        cz_bls12381_g2_t_noble_record(f, nf);
    else if (!strcmp(c, "bn254") && !strcmp(g, "g1"))
        cz_bn254_g1_t_noble_record(f, nf);
    else if (!strcmp(c, "bn254") && !strcmp(g, "g2"))
        cz_bn254_g2_t_noble_record(f, nf);
    else
        CHECK(!"unknown curve/group");
}

#endif
