/*
 * The byte encoding of a Groth16 proof (include/cuzk/groth16.h, cz_groth16_proof_encode and
 * cz_groth16_proof_decode). The engine keeps a job's partition proofs as structs, verifies them as
 * structs, and encodes them here once when it assembles the job's result, so the point encodings
 * are written in one place; the readers of proof files decode here too. The encoding is the one
 * each curve's ecosystem verifies: bellman's compressed points for BLS12-381 (Filecoin's proofs,
 * bellperson's Proof::write), snarkjs's in-memory points for BN254. A file of proofs is the
 * proofs of a job's partitions one after the other, with nothing between them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/encoding.h"
#include "cuzk/fileio.h"
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

/* One point: rc from its decoder (which leaves a message in ei), then the infinity check. */
static int point_done(int rc, int infinity, const char *name, size_t off, cz_errinfo *ei) {
    if (rc == CZ_OK && infinity)
        rc = cz_fail(ei, CZ_EFORMAT, "the point at infinity");
    if (rc != CZ_OK)
        rc = cz_fail(ei, rc, "%s at offset %zu", name, off);
    return rc;
}

/* One proof of a file: offsets in messages count from base, the proof's place in the file. */
static int decode_at(cz_groth16_proof *proof, cz_curve_id curve, const uint8_t *in, size_t len,
                     size_t base, cz_errinfo *ei) {
    cz_groth16_proof p = {.curve = curve};
    int rc;
    if (curve != CZ_CURVE_BLS12381 && curve != CZ_CURVE_BN254)
        return cz_fail(ei, CZ_ECURVE, "proof: unknown curve id %d", (int)curve);
    if (len != cz_groth16_proof_bytes(curve))
        return cz_fail(ei, CZ_EFORMAT, "proof: %zu bytes, not the %zu of a %s proof", len,
                       cz_groth16_proof_bytes(curve), cz_curve_name(curve));
    if (curve == CZ_CURVE_BLS12381) {
        cz_bls12381_groth16_proof *q = &p.u.bls12381;
        rc = cz_bls12381_g1_from_compressed(&q->a, in, 48, ei);
        if ((rc = point_done(rc, cz_bls12381_g1_is_infinity(&q->a), "A", base, ei)) == CZ_OK) {
            rc = cz_bls12381_g2_from_compressed(&q->b, in + 48, 96, ei);
            rc = point_done(rc, cz_bls12381_g2_is_infinity(&q->b), "B", base + 48, ei);
        }
        if (rc == CZ_OK) {
            rc = cz_bls12381_g1_from_compressed(&q->c, in + 144, 48, ei);
            rc = point_done(rc, cz_bls12381_g1_is_infinity(&q->c), "C", base + 144, ei);
        }
    } else {
        cz_bn254_groth16_proof *q = &p.u.bn254;
        rc = cz_bn254_g1_from_lem(&q->a, in, 64, CZ_ENC_CHECK_SUBGROUP, ei);
        if ((rc = point_done(rc, cz_bn254_g1_is_infinity(&q->a), "A", base, ei)) == CZ_OK) {
            rc = cz_bn254_g2_from_lem(&q->b, in + 64, 128, CZ_ENC_CHECK_SUBGROUP, ei);
            rc = point_done(rc, cz_bn254_g2_is_infinity(&q->b), "B", base + 64, ei);
        }
        if (rc == CZ_OK) {
            rc = cz_bn254_g1_from_lem(&q->c, in + 192, 64, CZ_ENC_CHECK_SUBGROUP, ei);
            rc = point_done(rc, cz_bn254_g1_is_infinity(&q->c), "C", base + 192, ei);
        }
    }
    if (rc == CZ_OK)
        *proof = p;
    return rc;
}

int cz_groth16_proof_decode(cz_groth16_proof *proof, cz_curve_id curve, const uint8_t *in,
                            size_t len, cz_errinfo *ei) {
    return decode_at(proof, curve, in, len, 0, ei);
}

/* 1 when data (a proof's bytes) starts with a point of the curve other than infinity. */
static int first_point_ok(cz_curve_id curve, const uint8_t *data) {
    if (curve == CZ_CURVE_BLS12381) {
        cz_bls12381_g1_affine a;
        return cz_bls12381_g1_from_compressed_unchecked(&a, data, 48, NULL) == CZ_OK &&
               !cz_bls12381_g1_is_infinity(&a);
    }
    cz_bn254_g1_affine a;
    return cz_bn254_g1_from_lem(&a, data, 64, 0, NULL) == CZ_OK && !cz_bn254_g1_is_infinity(&a);
}

int cz_groth16_proofs_decode(cz_groth16_proof **proofs, size_t *n, cz_curve_id curve,
                             const uint8_t *data, size_t size, const char *name, cz_errinfo *ei) {
    size_t pb = cz_groth16_proof_bytes(curve);
    *proofs = NULL;
    *n = 0;
    if (name == NULL)
        name = "(buffer)";
    if (size == 0 || size % pb != 0)
        return cz_fail(ei, CZ_EFORMAT,
                       "%s: %zu bytes are not a whole number of %zu-byte %s proofs (%zu, and %zu "
                       "bytes over)",
                       name, size, pb, cz_curve_name(curve), size / pb, size % pb);
    /* A file of proofs has no magic either (src/formats/bellperson.c): until its first point
     * decodes, an error says only that the file is no proof, nothing about its bytes. */
    if (!first_point_ok(curve, data))
        return cz_fail(ei, CZ_EFORMAT,
                       "%s: not a file of %s proofs: its first bytes are not a point of the "
                       "curve (A)",
                       name, cz_curve_name(curve));
    cz_groth16_proof *out = malloc(size / pb * sizeof *out);
    if (out == NULL)
        return cz_fail(ei, CZ_ENOMEM, "%s: cannot allocate %zu proofs", name, size / pb);
    for (size_t i = 0; i < size / pb; i++) {
        int rc = decode_at(&out[i], curve, data + i * pb, pb, i * pb, ei);
        if (rc != CZ_OK) {
            free(out);
            return cz_fail(ei, rc, "%s: partition %zu", name, i);
        }
    }
    *proofs = out;
    *n = size / pb;
    return CZ_OK;
}

int cz_groth16_proofs_read(cz_groth16_proof **proofs, size_t *n, cz_curve_id curve,
                           const char *path, cz_errinfo *ei) {
    void *data;
    size_t size;
    *proofs = NULL;
    *n = 0;
    int rc = cz_file_load(&data, &size, NULL, path, NULL, ei);
    if (rc != CZ_OK)
        return rc;
    rc = cz_groth16_proofs_decode(proofs, n, curve, data, size, path, ei);
    free(data);
    return rc;
}

int cz_groth16_proofs_write(const char *path, const cz_groth16_proof *proofs, size_t n,
                            cz_errinfo *ei) {
    if (n == 0)
        return cz_fail(ei, CZ_EINVAL, "%s: no proofs to write", path);
    size_t pb = cz_groth16_proof_bytes(proofs[0].curve);
    uint8_t *buf = malloc(n * pb);
    int rc = CZ_OK;
    if (buf == NULL)
        return cz_fail(ei, CZ_ENOMEM, "%s: out of memory for %zu proofs", path, n);
    for (size_t i = 0; i < n && rc == CZ_OK; i++) {
        if (proofs[i].curve != proofs[0].curve)
            rc = cz_fail(ei, CZ_ECURVE, "%s: proof %zu is %s, proof 0 %s", path, i,
                         cz_curve_name(proofs[i].curve), cz_curve_name(proofs[0].curve));
        else
            cz_groth16_proof_encode(buf + i * pb, &proofs[i]);
    }
    FILE *f = rc == CZ_OK ? fopen(path, "wb") : NULL;
    if (rc == CZ_OK && f == NULL)
        rc = cz_fail(ei, CZ_EIO, "%s: cannot create: %s", path, strerror(errno));
    if (f != NULL) {
        int err = fwrite(buf, 1, n * pb, f) != n * pb ? errno : 0;
        if (fclose(f) != 0 && err == 0)
            err = errno ? errno : EIO;
        if (err != 0) {
            unlink(path);
            rc = cz_fail(ei, CZ_EIO, "%s: write failed: %s", path, strerror(err ? err : EIO));
        }
    }
    free(buf);
    return rc;
}
