/*
 * The four prime fields and both Fp2 against GMP: arithmetic, inversion, powers, Legendre symbols,
 * square roots, byte and decimal conversions and their rejections, on edge and random values
 * (see field_gmp_impl.h and fp2_gmp_impl.h). The moduli are the published ones, hard-coded here.
 * Deterministic: GMP's generator with a fixed seed. Both products (mulx/adcx/adox where the CPU
 * has them, and the portable one) are checked.
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

/* Each case seeds its own generator, so that one run alone sees the values it sees in a full run.
 * Where the CPU has BMI2 and ADX, a case runs twice: with the mulx/adcx/adox product
 * (field/mont_adx.h) and with the portable one. */
static void seeded(void (*run)(gmp_randstate_t rs)) {
#ifdef CZ_FIELD_ADX
    const int have_adx = cz__field_adx;
#else
    const int have_adx = 0;
#endif
    for (int pass = 0; pass <= have_adx; pass++) {
#ifdef CZ_FIELD_ADX
        cz__field_adx = have_adx && pass == 0;
#endif
        gmp_randstate_t rs;
        gmp_randinit_default(rs);
        gmp_randseed_ui(rs, 20240611);
        run(rs);
        gmp_randclear(rs);
    }
#ifdef CZ_FIELD_ADX
    cz__field_adx = have_adx;
#endif
}

/* Fp2 needs its base field's oracle state again. */
static void bls12381_fp2_run(gmp_randstate_t rs) {
    t_bls12381_fp_setup(rs);
    t_bls12381_fp2_run(rs);
    t_bls12381_fp_teardown();
}

static void bn254_fp2_run(gmp_randstate_t rs) {
    t_bn254_fp_setup(rs);
    t_bn254_fp2_run(rs);
    t_bn254_fp_teardown();
}

static void test_bls12381_fp(void) {
    seeded(t_bls12381_fp_run);
}

static void test_bls12381_fr(void) {
    seeded(t_bls12381_fr_run);
}

static void test_bn254_fp(void) {
    seeded(t_bn254_fp_run);
}

static void test_bn254_fr(void) {
    seeded(t_bn254_fr_run);
}

static void test_bls12381_fp2(void) {
    seeded(bls12381_fp2_run);
}

static void test_bn254_fp2(void) {
    seeded(bn254_fp2_run);
}

static const test_case cases[] = {
    {"bls12381_fp", test_bls12381_fp},   {"bls12381_fr", test_bls12381_fr},
    {"bn254_fp", test_bn254_fp},         {"bn254_fr", test_bn254_fr},
    {"bls12381_fp2", test_bls12381_fp2}, {"bn254_fp2", test_bn254_fp2},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
