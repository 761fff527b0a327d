/*
 * The byte encoding of a Groth16 proof (include/cuzk/groth16.h, cz_groth16_proof_encode). The
 * engine keeps a job's partition proofs as structs, verifies them as structs, and encodes them
 * here once when it assembles the job's result, so the point encodings are written in one place.
 * The encoding is the one each curve's ecosystem verifies: bellman's compressed points for
 * BLS12-381, snarkjs's in-memory points for BN254.
 */
#include <string.h>

#include "cuzk/encoding.h"
#include "cuzk/groth16.h"

size_t cz_groth16_proof_bytes(cz_curve_id curve) {
    return curve == CZ_CURVE_BLS12381 ? 192 : 256;
}

size_t cz_groth16_proof_encode(uint8_t *out, const cz_groth16_proof *p) {
    if (p->curve == CZ_CURVE_BLS12381) {
        cz_bls12381_g1_to_compressed(out, &p->u.bls12381.a);
        cz_bls12381_g2_to_compressed(out + 48, &p->u.bls12381.b);
        cz_bls12381_g1_to_compressed(out + 144, &p->u.bls12381.c);
    } else {
        memcpy(out, &p->u.bn254.a, 64);
        memcpy(out + 64, &p->u.bn254.b, 128);
        memcpy(out + 192, &p->u.bn254.c, 64);
    }
    return cz_groth16_proof_bytes(p->curve);
}
