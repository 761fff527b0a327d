/*
 * The four prime fields and both Fp2 against GMP: arithmetic, inversion, powers, Legendre symbols,
 * square roots, byte and decimal conversions and their rejections, on edge and random values
 * (see field_gmp_impl.h and fp2_gmp_impl.h). The moduli are the published ones, hard-coded here.
 * Deterministic: GMP's generator with a fixed seed.
 */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/field.h"
#include "test.h"

#define TF_PREFIX bls12381_fp
#define TF_T      cz_bls12381_fp
#define TF_N      6
#define TF_HEX                                                                                     \
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffff" \
    "aaab"
#define TF_SQRT 1
#include "field_gmp_impl.h"

#define TF_PREFIX bls12381_fr
#define TF_T      cz_bls12381_fr
#define TF_N      4
#define TF_HEX    "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"
#define TF_SQRT   0
#include "field_gmp_impl.h"

#define TF_PREFIX bn254_fp
#define TF_T      cz_bn254_fp
#define TF_N      4
#define TF_HEX    "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47"
#define TF_SQRT   1
#include "field_gmp_impl.h"

#define TF_PREFIX bn254_fr
#define TF_T      cz_bn254_fr
#define TF_N      4
#define TF_HEX    "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"
#define TF_SQRT   0
#include "field_gmp_impl.h"

#define T2_PREFIX bls12381_fp2
#define T2_T      cz_bls12381_fp2
#define T2_BASE   bls12381_fp
#define T2_BASE_T cz_bls12381_fp
#define T2_XI0    1
#include "fp2_gmp_impl.h"

#define T2_PREFIX bn254_fp2
#define T2_T      cz_bn254_fp2
#define T2_BASE   bn254_fp
#define T2_BASE_T cz_bn254_fp
#define T2_XI0    9
#include "fp2_gmp_impl.h"

int main(void) {
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, 20240611);
    t_bls12381_fp_run(rs);
    t_bls12381_fr_run(rs);
    t_bn254_fp_run(rs);
    t_bn254_fr_run(rs);
    /* Fp2 needs its base field's oracle state again. */
    t_bls12381_fp_setup(rs);
    t_bls12381_fp2_run(rs);
    t_bls12381_fp_teardown();
    t_bn254_fp_setup(rs);
    t_bn254_fp2_run(rs);
    t_bn254_fp_teardown();
    gmp_randclear(rs);
    return test_finish();
}
