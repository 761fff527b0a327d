/*
 * libFuzzer target for the bellperson .vk reader (cz_bellperson_vk_read_mem): any input must be
 * accepted or refused with an error naming the input, never crash or read outside the buffer. An
 * accepted key has every point on the curve, in the subgroup and not infinity, and encodes back
 * to exactly the input. Seeds: fuzz/corpus/fuzz_bellperson_vk/ (noble's small.vk from
 * tests/vectors/bellperson_vectors.mjs).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/bellperson.h"
#include "cuzk/curve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cz_bellperson_vk vk;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (cz_bellperson_vk_read_mem(&vk, data, size, "fuzz.vk", NULL, &ei) != CZ_OK) {
        if (ei.code == CZ_OK || strstr(ei.msg, "fuzz.vk") == NULL || vk.ic != NULL)
            __builtin_trap();
        return 0;
    }
    const cz_bls12381_g1_affine *g1[3] = {&vk.alpha_g1, &vk.beta_g1, &vk.delta_g1};
    const cz_bls12381_g2_affine *g2[3] = {&vk.beta_g2, &vk.gamma_g2, &vk.delta_g2};
    for (int i = 0; i < 3; i++)
        if (!cz_bls12381_g1_on_curve(g1[i]) || !cz_bls12381_g1_in_subgroup(g1[i]) ||
            !cz_bls12381_g2_on_curve(g2[i]) || !cz_bls12381_g2_in_subgroup(g2[i]))
            __builtin_trap();
    for (uint32_t i = 0; i < vk.nic; i++)
        if (!cz_bls12381_g1_on_curve(&vk.ic[i]) || cz_bls12381_g1_is_infinity(&vk.ic[i]))
            __builtin_trap();
    uint8_t *enc = malloc(size);
    if (enc == NULL || cz_bellperson_vk_bytes(&vk) != size ||
        cz_bellperson_vk_encode(enc, &vk, NULL) != CZ_OK || memcmp(enc, data, size) != 0)
        __builtin_trap();
    free(enc);
    cz_bellperson_vk_free(&vk);
    return 0;
}
