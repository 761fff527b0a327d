/*
 * libFuzzer target for the .zkey reader: any input must be accepted or refused with an error,
 * never crash or read outside the buffer. Accepted keys are walked completely (every point byte
 * and coefficient entry) so ASan sees any pointer that escapes the input, and validated.
 * Seeds: fuzz/corpus/fuzz_zkey/ (keys from tests/vectors/formats_vectors.mjs).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cuzk/zkey.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t sum_bytes(const void *p, size_t n) {
    const uint8_t *b = p;
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += b[i];
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cz_zkey *zk = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (cz_zkey_open_mem(&zk, data, size, "fuzz.zkey", &ei) != CZ_OK) {
        if (ei.code == CZ_OK || strstr(ei.msg, "fuzz.zkey") == NULL)
            __builtin_trap(); /* every error carries a message naming the input */
        return 0;
    }
    size_t g1 = zk->curve == CZ_CURVE_BN254 ? 64 : 96, g2 = 2 * g1;
    size_t nv = zk->nvars, np = (size_t)zk->npublic + 1;
    const void *ic, *a, *b1, *b2, *c, *h;
    if (zk->curve == CZ_CURVE_BN254) {
        const cz_zkey_bn254 *k = &zk->u.bn254;
        ic = k->ic, a = k->a, b1 = k->b1, b2 = k->b2, c = k->c, h = k->h;
    } else {
        const cz_zkey_bls12381 *k = &zk->u.bls12381;
        ic = k->ic, a = k->a, b1 = k->b1, b2 = k->b2, c = k->c, h = k->h;
    }
    volatile uint64_t s = sum_bytes(ic, np * g1) + sum_bytes(a, nv * g1) + sum_bytes(b1, nv * g1) +
                          sum_bytes(b2, nv * g2) + sum_bytes(c, (nv - np) * g1) +
                          sum_bytes(h, zk->domain_size * g1);
    for (size_t i = 0; i < zk->ncoefs; i++) {
        cz_zkey_coef e;
        cz_zkey_coef_at(&e, zk, i);
        if (e.matrix > 1 || e.row >= zk->domain_size || e.signal >= zk->nvars)
            __builtin_trap();
        s += e.value[0];
    }
    (void)s;
    /* On-curve checks on whatever points got through (subgroup checks are too slow to fuzz). */
    cz_errinfo_clear(&ei);
    int rc = cz_zkey_validate_points(zk, 0, &ei);
    if (rc != CZ_OK && (rc != CZ_ENOTONCURVE || strstr(ei.msg, "fuzz.zkey") == NULL))
        __builtin_trap();
    cz_zkey_close(zk);
    return 0;
}
