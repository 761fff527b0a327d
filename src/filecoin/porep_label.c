/*
 * The PoRep label circuit (porep_label.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/sha256.h"
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

void cz__porep_label_native(cz_bls12381_fr *out, const cz_bls12381_fr *replica_id, uint32_t layer,
                            uint64_t node, const cz_bls12381_fr *parents, unsigned nparents) {
    uint8_t head[64], b[32], h[32];
    cz_sha256 s;
    memset(head, 0, sizeof head);
    cz_bls12381_fr_to_bytes_le(head, replica_id);
    for (int i = 0; i < 4; i++)
        head[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        head[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    cz_sha256_init(&s);
    cz_sha256_update(&s, head, sizeof head);
    for (unsigned k = 0; k < CZ__POREP_PARENTS; k++) {
        cz_bls12381_fr_to_bytes_le(b, &parents[k % nparents]);
        cz_sha256_update(&s, b, 32);
    }
    cz_sha256_final(h, &s);
    h[31] &= 0x3f;
    cz_bls12381_fr_from_bytes_le(out, h);
}
