/*
 * libFuzzer target for the SnapDeals vanilla proof reader (src/filecoin/snap_vanilla.h): the
 * first byte picks the shape (its low two bits: 2 KiB, 4 KiB: tree R 8-2-0, 32 KiB: 8-8-2 and two
 * partitions, 32 GiB; bit 2: the Poseidon variant), the rest is a PartitionProof. Any input must be
 * accepted or refused with an error naming the partition, never crash or read outside the buffer;
 * an accepted proof must encode back to the same bytes, and the native check must answer (accepted
 * or refused) on it. Seeds: fuzz/corpus/fuzz_snap_vanilla/ (from `cuzk filecoin fake-update`, a
 * shape byte in front).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/snap_vanilla.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const uint64_t sizes[4] = {2048, 4096, 32768, UINT64_C(1) << 35};
    cz__snap_shape shape;
    cz__snap_vanilla v;
    cz__snap_public pub;
    cz_errinfo ei;
    uint8_t *enc = NULL;
    size_t len = 0;
    int rc;
    if (size < 1)
        return 0;
    cz__snap_shape_get(&shape, sizes[data[0] % 4],
                       data[0] & 4 ? CZ__SNAP_POSEIDON : CZ__SNAP_SHA256, NULL);
    cz_errinfo_clear(&ei);
    rc = cz__snap_vanilla_decode(&v, &shape, data + 1, size - 1, 1, &ei);
    if (rc != CZ_OK) {
        if (ei.code == CZ_OK || strstr(ei.msg, "partition 1") == NULL)
            __builtin_trap(); /* every error names the partition */
        cz__snap_vanilla_free(&v);
        return 0;
    }
    if (cz__snap_vanilla_encode(&enc, &len, &v, &shape, NULL) != CZ_OK || len != size - 1 ||
        memcmp(enc, data + 1, len) != 0)
        __builtin_trap(); /* what was accepted writes back as it was read */
    memset(&pub, 0, sizeof pub);
    pub.k = shape.partitions - 1;
    pub.h = shape.hs[3];
    rc = cz__snap_vanilla_check(&v, &shape, &pub, NULL);
    if (rc != CZ_OK && rc != CZ_EVERIFY)
        __builtin_trap();
    free(enc);
    cz__snap_vanilla_free(&v);
    return 0;
}
