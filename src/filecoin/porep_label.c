/*
 * The PoRep label circuit (porep_label.h).
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep_label.h"
#include "gadgets/sha256.h"
#include "gadgets/uint32.h"

#define PREIMAGE_BITS ((2 + CZ__POREP_PARENTS) * 256)

cz__num cz__porep_label_circuit(cz__cs *cs, const cz__bool *replica_id, size_t nid, uint32_t layer,
                                const cz__bool node[64],
                                const cz__bool *const parents[CZ__POREP_PARENTS]) {
    cz__bool *pre = malloc(PREIMAGE_BITS * sizeof *pre), digest[256], le[256];
    cz__u32 layer_word = cz__u32_const(layer);
    cz__num r;
    memset(&r, 0, sizeof r);
    if (pre == NULL) {
        cz__cs_fail(cs, CZ_ENOMEM, "label: preimage");
        return r;
    }
    if (nid > 256) {
        cz__cs_fail(cs, CZ_EINVAL, "label: a replica id of %zu bits", nid);
        free(pre);
        return r;
    }
    for (size_t i = 0; i < 512; i++)
        pre[i] = i < nid ? replica_id[i] : cz__bool_const(0);
    cz__u32_into_bits_be(&pre[256], &layer_word);
    for (int i = 0; i < 64; i++)
        pre[288 + i] = node[63 - i];
    for (int p = 0; p < CZ__POREP_PARENTS; p++)
        memcpy(&pre[512 + 256 * p], parents[p], 256 * sizeof *pre);
    cz__sha256(cs, digest, pre, PREIMAGE_BITS);
    cz__bool_reverse_bytes(le, digest, 256);
    r = cz__pack_bits(cs, le, 254);
    free(pre);
    return r;
}
