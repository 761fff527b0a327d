/*
 * libFuzzer target for the PoSt vanilla proof reader (src/filecoin/post_vanilla.h): the first
 * byte picks the shape (2 KiB WindowPoSt, 10 inclusion proofs; 2 KiB WinningPoSt, 66; 32 GiB
 * WindowPoSt, 10; 64 GiB WindowPoSt, 10), the rest is the proof. Any input must be accepted or
 * refused with an error naming the proof, never crash or read outside the buffer; an accepted
 * proof must encode back to the same bytes, and the native check must answer (accepted or
 * refused) on it. Seeds: fuzz/corpus/fuzz_post_vanilla/ (from `cuzk filecoin fake-vanilla`, a
 * shape byte in front).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/post_vanilla.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const struct {
        cz__post_kind kind;
        uint64_t sector_size;
        unsigned nproofs;
    } shapes[4] = {{CZ__POST_WINDOW, 2048, 10},
                   {CZ__POST_WINNING, 2048, 66},
                   {CZ__POST_WINDOW, UINT64_C(1) << 35, 10},
                   {CZ__POST_WINDOW, UINT64_C(1) << 36, 10}};
    static const uint8_t randomness[32] = {7};
    cz__post_shape shape;
    cz__post_vanilla v;
    cz_errinfo ei;
    uint8_t *enc = NULL;
    size_t len = 0;
    int rc;
    if (size < 1)
        return 0;
    cz__post_shape_get(&shape, shapes[data[0] % 4].kind, shapes[data[0] % 4].sector_size, NULL);
    cz_errinfo_clear(&ei);
    rc = cz__post_vanilla_decode(&v, &shape, shapes[data[0] % 4].nproofs, data + 1, size - 1, 5,
                                 &ei);
    if (rc != CZ_OK) {
        if (ei.code == CZ_OK || strstr(ei.msg, "vanilla proof 5") == NULL)
            __builtin_trap(); /* every error names the proof */
        cz__post_vanilla_free(&v);
        return 0;
    }
    if (cz__post_vanilla_encode(&enc, &len, &v, &shape, NULL) != CZ_OK || len != size - 1 ||
        memcmp(enc, data + 1, len) != 0)
        __builtin_trap(); /* what was accepted writes back as it was read */
    rc = cz__post_vanilla_check(&v, &shape, randomness, 0, NULL);
    if (rc != CZ_OK && rc != CZ_EVERIFY)
        __builtin_trap();
    free(enc);
    cz__post_vanilla_free(&v);
    return 0;
}
