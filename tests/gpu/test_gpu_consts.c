/*
 * The device constants of src/gpu/gpu_consts.h (u32 limbs) against the host's
 * src/field/field_consts.h (u64 limbs): same moduli and Montgomery ones byte for byte, and
 * n0·p ≡ -1 (mod 2^32). Needs no GPU, so CI checks it on every build.
 */
#include <stdint.h>
#include <string.h>

#include "field/field_consts.h"
#include "gpu/gpu_consts.h"
#include "test.h"

static void check_field(const uint32_t *p32, const uint32_t *one32, uint32_t n0,
                        const uint64_t *p64, const uint64_t *one64, size_t nl64) {
    for (size_t i = 0; i < nl64; i++) {
        CHECK(p32[2 * i] == (uint32_t)p64[i] && p32[2 * i + 1] == (uint32_t)(p64[i] >> 32));
        CHECK(one32[2 * i] == (uint32_t)one64[i] && one32[2 * i + 1] == (uint32_t)(one64[i] >> 32));
    }
    CHECK((uint32_t)(n0 * p32[0]) == 0xffffffffu);
    /* a spare top bit: the device reduces sums and products with one conditional subtraction */
    CHECK(p32[2 * nl64 - 1] < 0x80000000u);
}

static void test_consts(void) {
    static const uint32_t bn_fp_p[] = CZ_GPU_BN254_FP_P, bn_fp_one[] = CZ_GPU_BN254_FP_ONE;
    static const uint32_t bn_fr_p[] = CZ_GPU_BN254_FR_P, bn_fr_one[] = CZ_GPU_BN254_FR_ONE;
    static const uint32_t bls_fp_p[] = CZ_GPU_BLS12381_FP_P, bls_fp_one[] = CZ_GPU_BLS12381_FP_ONE;
    static const uint32_t bls_fr_p[] = CZ_GPU_BLS12381_FR_P, bls_fr_one[] = CZ_GPU_BLS12381_FR_ONE;
    CHECK(sizeof bn_fp_p == 32 && sizeof bls_fp_p == 48 && sizeof bls_fr_one == 32);
    check_field(bn_fp_p, bn_fp_one, CZ_GPU_BN254_FP_N0, BN254_FP_P, BN254_FP_ONE, 4);
    check_field(bn_fr_p, bn_fr_one, CZ_GPU_BN254_FR_N0, BN254_FR_P, BN254_FR_ONE, 4);
    check_field(bls_fp_p, bls_fp_one, CZ_GPU_BLS12381_FP_N0, BLS12381_FP_P, BLS12381_FP_ONE, 6);
    check_field(bls_fr_p, bls_fr_one, CZ_GPU_BLS12381_FR_N0, BLS12381_FR_P, BLS12381_FR_ONE, 4);
}

static const test_case cases[] = {{"consts", test_consts}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
