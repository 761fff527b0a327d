/*
 * Poseidon as neptune v11 computes it over BLS12-381's Fr (Filecoin's tree hash): the constants,
 * derived here from their definitions, and the native hash. The circuit gadget builds on the
 * same constants.
 *
 * Parameters for arity a (width t = a + 1), standard strength: x^5 S-boxes, R_F = 8 full rounds
 * and R_P partial rounds from neptune's table (55 for a = 2, 56 for 4, 57 for 8 and 11).
 *   - Round constants: (R_F + R_P)·t elements from the Grain LFSR of the Poseidon paper. The
 *     80-bit seed is field 1, S-box 1, field size 255, t, R_F, R_P, thirty ones. The first 160
 *     bits are discarded, and bits come out of self-shrinking pairs. A candidate is 255 bits
 *     read as a big-endian integer, taken if below r. rc[r·t + i] belongs to round r, lane i.
 *   - MDS: the Cauchy matrix M[i][j] = 1/(i + j + t), symmetric.
 *   - The optimized constants of neptune's default hash: the compressed round constants
 *     (R_F·t + R_P), the pre-sparse matrix and R_P sparse matrices (w_hat: t, v_rest: t - 1),
 *     from the factorization of M over the partial rounds.
 * Matrices act on the state as row vectors: new[j] = Σ_i Mat[i][j]·s[i].
 *
 * The hash: lane 0 is the domain tag, lanes 1..a the preimage, the output lane 1.
 * cz__poseidon_hash runs neptune's optimized schedule. cz__poseidon_hash_plain runs the plain
 * rounds (add the round constants, S-boxes on all lanes or on lane 0, multiply by M); the two
 * agree, and the tests check both against neptune's published digests.
 *
 * Constants are built once per arity on first use (under a lock) and kept for the process.
 */
#ifndef CUZK_GADGETS_POSEIDON_H
#define CUZK_GADGETS_POSEIDON_H

#include "cuzk/err.h"
#include "cuzk/field.h"

#define CZ__POSEIDON_MAX_ARITY 16

typedef struct cz__poseidon {
    unsigned arity, t, rf, rp;
    cz_bls12381_fr *rc;       /* (rf + rp)·t round constants */
    cz_bls12381_fr *m;        /* t·t, m[i·t + j] */
    cz_bls12381_fr *m_inv;    /* t·t */
    cz_bls12381_fr *crc;      /* rf·t + rp compressed round constants */
    cz_bls12381_fr *pre;      /* t·t, the pre-sparse matrix */
    cz_bls12381_fr *sparse_w; /* rp·t: w_hat of sparse matrix k at k·t */
    cz_bls12381_fr *sparse_v; /* rp·(t - 1): v_rest of sparse matrix k at k·(t - 1) */
} cz__poseidon;

/* The constants for arity 1..CZ__POSEIDON_MAX_ARITY (standard strength); CZ_EINVAL for other
 * arities, CZ_ENOMEM. The result lives for the process. */
int cz__poseidon_get(const cz__poseidon **out, unsigned arity, cz_errinfo *ei);

/* x = x^5, the S-box. */
void cz__poseidon_sbox(cz_bls12381_fr *x);
/* out = v·m for an n·n matrix m, row major (out[j] = Σ_i m[i][j]·v[i]); out may not alias v. */
void cz__poseidon_apply(cz_bls12381_fr *out, const cz_bls12381_fr *m, const cz_bls12381_fr *v,
                        unsigned n);

/* The MerkleTree domain tag 2^arity - 1, and the Custom(id) tag id·2^40. */
void cz__poseidon_tag_merkle(cz_bls12381_fr *tag, unsigned arity);
void cz__poseidon_tag_custom(cz_bls12381_fr *tag, uint64_t id);

/* The hash of arity elements under tag (neptune's Poseidon::hash, optimized schedule). */
void cz__poseidon_hash(cz_bls12381_fr *out, const cz__poseidon *p, const cz_bls12381_fr *tag,
                       const cz_bls12381_fr *preimage);
/* The hash of n elements under the MerkleTree tag of arity n (a tree node, a PoRep column):
 * CZ_EINVAL for an arity without constants. */
int cz__poseidon_merkle(cz_bls12381_fr *out, const cz_bls12381_fr *in, unsigned n, cz_errinfo *ei);
/* The same through the plain rounds (for tests). */
void cz__poseidon_hash_plain(cz_bls12381_fr *out, const cz__poseidon *p, const cz_bls12381_fr *tag,
                             const cz_bls12381_fr *preimage);

#endif
