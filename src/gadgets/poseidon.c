/*
 * The native Poseidon hash of neptune v11 (poseidon.h): the optimized schedule neptune runs by
 * default, and the plain rounds it is checked against.
 *
 * Optimized schedule (R_F = 8, h = 4; C the compressed constants, consumed in order): add C to
 * every lane; h full rounds (x^5 on every lane, then add the next t constants, then multiply:
 * by M, except the h-th round, which multiplies by the pre-sparse matrix); R_P partial rounds
 * (x^5 on lane 0, add one constant to it, multiply by sparse matrix k: new[0] = Σ w_hat[i]·s[i],
 * new[j] = s[j] + v_rest[j-1]·s[0]); h - 1 full rounds with constants and M; a last full round
 * without constants. The output is lane 1.
 */
#include <string.h>

#include "gadgets/poseidon.h"

typedef cz_bls12381_fr fr;

#define MAXT (CZ__POSEIDON_MAX_ARITY + 1)

void cz__poseidon_tag_merkle(fr *tag, unsigned arity) {
    cz_bls12381_fr_from_u64(tag, (UINT64_C(1) << arity) - 1);
}

void cz__poseidon_tag_custom(fr *tag, uint64_t id) {
    fr shift;
    cz_bls12381_fr_from_u64(tag, id);
    cz_bls12381_fr_from_u64(&shift, UINT64_C(1) << 40);
    cz_bls12381_fr_mul(tag, tag, &shift);
}

void cz__poseidon_sbox(fr *x) {
    fr x2, x4;
    cz_bls12381_fr_sqr(&x2, x);
    cz_bls12381_fr_sqr(&x4, &x2);
    cz_bls12381_fr_mul(x, &x4, x);
}

/* s = s·m (row vector) for a t·t matrix. */
static void mix(fr *s, const fr *m, unsigned t) {
    fr out[MAXT];
    cz__poseidon_apply(out, m, s, t);
    memcpy(s, out, t * sizeof *s);
}

/* s = s·(sparse matrix k). */
static void mix_sparse(fr *s, const cz__poseidon *p, unsigned k) {
    const unsigned t = p->t;
    const fr *w = &p->sparse_w[(size_t)k * t], *v = &p->sparse_v[(size_t)k * (t - 1)];
    fr s0 = s[0], acc, q;
    cz_bls12381_fr_zero(&acc);
    for (unsigned i = 0; i < t; i++) {
        cz_bls12381_fr_mul(&q, &w[i], &s[i]);
        cz_bls12381_fr_add(&acc, &acc, &q);
    }
    for (unsigned j = 1; j < t; j++) {
        cz_bls12381_fr_mul(&q, &v[j - 1], &s0);
        cz_bls12381_fr_add(&s[j], &s[j], &q);
    }
    s[0] = acc;
}

static void load(fr *s, const cz__poseidon *p, const fr *tag, const fr *preimage) {
    s[0] = *tag;
    memcpy(&s[1], preimage, p->arity * sizeof *s);
}

void cz__poseidon_hash(fr *out, const cz__poseidon *p, const fr *tag, const fr *preimage) {
    const unsigned t = p->t, h = p->rf / 2;
    const fr *c = p->crc;
    fr s[MAXT];
    load(s, p, tag, preimage);
    for (unsigned i = 0; i < t; i++)
        cz_bls12381_fr_add(&s[i], &s[i], &c[i]);
    c += t;
    for (unsigned r = 0; r < h; r++, c += t) {
        for (unsigned i = 0; i < t; i++) {
            cz__poseidon_sbox(&s[i]);
            cz_bls12381_fr_add(&s[i], &s[i], &c[i]);
        }
        mix(s, r + 1 == h ? p->pre : p->m, t);
    }
    for (unsigned k = 0; k < p->rp; k++, c++) {
        cz__poseidon_sbox(&s[0]);
        cz_bls12381_fr_add(&s[0], &s[0], c);
        mix_sparse(s, p, k);
    }
    for (unsigned r = 0; r < h; r++) {
        for (unsigned i = 0; i < t; i++) {
            cz__poseidon_sbox(&s[i]);
            if (r + 1 < h)
                cz_bls12381_fr_add(&s[i], &s[i], &c[i]);
        }
        if (r + 1 < h)
            c += t;
        mix(s, p->m, t);
    }
    *out = s[1];
}

void cz__poseidon_hash_plain(fr *out, const cz__poseidon *p, const fr *tag, const fr *preimage) {
    const unsigned t = p->t, h = p->rf / 2, rounds = p->rf + p->rp;
    fr s[MAXT];
    load(s, p, tag, preimage);
    for (unsigned r = 0; r < rounds; r++) {
        const int full = r < h || r >= h + p->rp;
        for (unsigned i = 0; i < t; i++)
            cz_bls12381_fr_add(&s[i], &s[i], &p->rc[(size_t)r * t + i]);
        for (unsigned i = 0; i < (full ? t : 1); i++)
            cz__poseidon_sbox(&s[i]);
        mix(s, p->m, t);
    }
    *out = s[1];
}

int cz__poseidon_merkle(cz_bls12381_fr *out, const cz_bls12381_fr *in, unsigned n, cz_errinfo *ei) {
    const cz__poseidon *p;
    cz_bls12381_fr tag;
    int rc = cz__poseidon_get(&p, n, ei);
    if (rc == CZ_OK) {
        cz__poseidon_tag_merkle(&tag, n);
        cz__poseidon_hash(out, p, &tag, in);
    }
    return rc;
}
