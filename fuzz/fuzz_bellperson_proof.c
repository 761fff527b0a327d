/*
 * libFuzzer target for the reader of proof files (cz_groth16_proofs_decode), BLS12-381 (Filecoin's
 * 192-byte proofs) and BN254 (256-byte snarkjs points): any input must be accepted or refused with
 * an error naming the input, never crash. Accepted proofs have every point on its curve, in the
 * subgroup and not infinity, and encode back to exactly the input. Seeds:
 * fuzz/corpus/fuzz_bellperson_proof/ (noble's proofs.bin from tests/vectors/bellperson_vectors.mjs
 * and its first proof).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one_curve(cz_curve_id curve, const uint8_t *data, size_t size) {
    cz_groth16_proof *pr;
    size_t n;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (cz_groth16_proofs_decode(&pr, &n, curve, data, size, "fuzz.bin", &ei) != CZ_OK) {
        if (ei.code == CZ_OK || strstr(ei.msg, "fuzz.bin") == NULL || pr != NULL || n != 0)
            __builtin_trap();
        return;
    }
    size_t pb = cz_groth16_proof_bytes(curve);
    uint8_t *enc = malloc(pb);
    if (enc == NULL || n * pb != size)
        __builtin_trap();
    for (size_t i = 0; i < n; i++) {
        int ok;
        if (curve == CZ_CURVE_BLS12381) {
            const cz_bls12381_groth16_proof *q = &pr[i].u.bls12381;
            ok = cz_bls12381_g1_on_curve(&q->a) && cz_bls12381_g1_in_subgroup(&q->a) &&
                 !cz_bls12381_g1_is_infinity(&q->a) && cz_bls12381_g2_on_curve(&q->b) &&
                 cz_bls12381_g2_in_subgroup(&q->b) && !cz_bls12381_g2_is_infinity(&q->b) &&
                 cz_bls12381_g1_on_curve(&q->c) && cz_bls12381_g1_in_subgroup(&q->c) &&
                 !cz_bls12381_g1_is_infinity(&q->c);
        } else {
            const cz_bn254_groth16_proof *q = &pr[i].u.bn254;
            ok = cz_bn254_g1_on_curve(&q->a) && !cz_bn254_g1_is_infinity(&q->a) &&
                 cz_bn254_g2_on_curve(&q->b) && cz_bn254_g2_in_subgroup(&q->b) &&
                 !cz_bn254_g2_is_infinity(&q->b) && cz_bn254_g1_on_curve(&q->c) &&
                 !cz_bn254_g1_is_infinity(&q->c);
        }
        if (!ok || cz_groth16_proof_encode(enc, &pr[i]) != pb || memcmp(enc, data + i * pb, pb))
            __builtin_trap();
    }
    free(enc);
    free(pr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    one_curve(CZ_CURVE_BLS12381, data, size);
    one_curve(CZ_CURVE_BN254, data, size);
    return 0;
}
