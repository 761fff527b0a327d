/*
 * libFuzzer target for the bellperson .params reader (cz_bellperson_params_read_mem) and the walk
 * of its counts (cz_bellperson_info_mem): any input must be accepted or refused with an error
 * naming the input, never crash or read outside the buffer. The walk and the reader must agree on
 * whether the structure is sound and on the counts; an accepted key holds only points on the
 * curve and none at infinity, and its verifying key encodes back to the input's first bytes.
 * The subgroup check of the proving sections is left off (the default; it is a scalar
 * multiplication per point). Seeds: fuzz/corpus/fuzz_bellperson_params/ (noble's files from
 * tests/vectors/bellperson_vectors.mjs).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/bellperson.h"
#include "cuzk/curve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int g1_ok(const cz_bls12381_g1_affine *p, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (!cz_bls12381_g1_on_curve(&p[i]) || cz_bls12381_g1_is_infinity(&p[i]))
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cz_bellperson_info info;
    cz_bellperson_params p;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int walked = cz_bellperson_info_mem(&info, data, size, "fuzz.params", CZ_BELLPERSON_PARAMS,
                                        NULL) == CZ_OK;
    if (cz_bellperson_params_read_mem(&p, data, size, "fuzz.params", NULL, &ei) != CZ_OK) {
        if (ei.code == CZ_OK || strstr(ei.msg, "fuzz.params") == NULL)
            __builtin_trap(); /* every error carries a message naming the input */
        if (!walked && ei.code != CZ_EFORMAT)
            __builtin_trap(); /* a structure the walk refuses is a format error */
        return 0;
    }
    if (!walked || info.count[CZ_BELLPERSON_H] != p.nh || info.count[CZ_BELLPERSON_L] != p.nl ||
        info.count[CZ_BELLPERSON_A] != p.na || info.count[CZ_BELLPERSON_B_G1] != p.nb_g1 ||
        info.count[CZ_BELLPERSON_B_G2] != p.nb_g2 || info.count[CZ_BELLPERSON_IC] != p.vk.nic)
        __builtin_trap();
    if (!g1_ok(p.vk.ic, p.vk.nic) || !g1_ok(p.h, p.nh) || !g1_ok(p.l, p.nl) || !g1_ok(p.a, p.na) ||
        !g1_ok(p.b_g1, p.nb_g1))
        __builtin_trap();
    for (uint32_t i = 0; i < p.nb_g2; i++)
        if (!cz_bls12381_g2_on_curve(&p.b_g2[i]) || cz_bls12381_g2_is_infinity(&p.b_g2[i]))
            __builtin_trap();
    size_t vkn = cz_bellperson_vk_bytes(&p.vk);
    uint8_t *enc = malloc(vkn);
    if (enc == NULL || vkn > size || cz_bellperson_vk_encode(enc, &p.vk, NULL) != CZ_OK ||
        memcmp(enc, data, vkn) != 0)
        __builtin_trap(); /* one encoding per point: what was read writes back the same */
    free(enc);
    cz_bellperson_params_free(&p);
    return 0;
}
