/*
 * The constants of neptune v11's Poseidon (poseidon.h), derived from their definitions: the
 * Grain LFSR round constants, the Cauchy MDS matrix and its inverse, the compressed round
 * constants and the sparse factorization of the partial rounds. Matrices are t·t arrays, row
 * major, and act on row vectors (apply: out[j] = Σ_i m[i][j]·v[i]).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gadgets/poseidon.h"

#define MAXT (CZ__POSEIDON_MAX_ARITY + 1)

typedef cz_bls12381_fr fr;

/* R_P for width t = 2..17 (neptune's round-number table, standard strength); R_F is 8. */
static const unsigned partial_rounds[MAXT + 1] = {0,  0,  55, 55, 56, 56, 56, 56, 57,
                                                  57, 57, 57, 57, 57, 57, 57, 59, 59};

/* ---- the Grain LFSR ---- */

typedef struct {
    uint8_t b[80]; /* b[0] is the oldest bit */
} grain;

static int grain_step(grain *g) {
    const int nb = g->b[62] ^ g->b[51] ^ g->b[38] ^ g->b[23] ^ g->b[13] ^ g->b[0];
    memmove(g->b, g->b + 1, 79);
    g->b[79] = (uint8_t)nb;
    return nb;
}

/* Appends n bits of v, most significant first, at *at. */
static void grain_put(grain *g, unsigned *at, unsigned n, unsigned v) {
    for (unsigned i = n; i-- > 0;)
        g->b[(*at)++] = (uint8_t)((v >> i) & 1u);
}

static void grain_init(grain *g, unsigned t, unsigned rf, unsigned rp) {
    unsigned at = 0;
    grain_put(g, &at, 2, 1);    /* field: prime */
    grain_put(g, &at, 4, 1);    /* S-box: x^5 */
    grain_put(g, &at, 12, 255); /* field size */
    grain_put(g, &at, 12, t);
    grain_put(g, &at, 10, rf);
    grain_put(g, &at, 10, rp);
    grain_put(g, &at, 30, (1u << 30) - 1);
    for (int i = 0; i < 160; i++)
        grain_step(g);
}

/* The next output bit: of each pair (a, b), b when a is 1. */
static int grain_bit(grain *g) {
    while (!grain_step(g))
        grain_step(g);
    return grain_step(g);
}

/* The next constant: 255 bits big-endian, again while not below r. */
static void grain_constant(grain *g, fr *out) {
    uint8_t be[32];
    do {
        memset(be, 0, sizeof be);
        for (unsigned i = 0; i < 255; i++) {
            const unsigned bitpos = 254 - i; /* the first bit is the most significant */
            if (grain_bit(g))
                be[31 - bitpos / 8] |= (uint8_t)(1u << (bitpos % 8));
        }
    } while (cz_bls12381_fr_from_bytes_be(out, be) != CZ_OK);
}

/* ---- matrices ---- */

void cz__poseidon_apply(fr *out, const fr *m, const fr *v, unsigned n) {
    for (unsigned j = 0; j < n; j++) {
        fr acc, p;
        cz_bls12381_fr_zero(&acc);
        for (unsigned i = 0; i < n; i++) {
            cz_bls12381_fr_mul(&p, &m[i * n + j], &v[i]);
            cz_bls12381_fr_add(&acc, &acc, &p);
        }
        out[j] = acc;
    }
}

/* out = a·b, n·n; out may not alias a or b. */
static void mat_mul(fr *out, const fr *a, const fr *b, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            fr acc, p;
            cz_bls12381_fr_zero(&acc);
            for (unsigned k = 0; k < n; k++) {
                cz_bls12381_fr_mul(&p, &a[i * n + k], &b[k * n + j]);
                cz_bls12381_fr_add(&acc, &acc, &p);
            }
            out[i * n + j] = acc;
        }
}

/* out = m⁻¹ by Gauss-Jordan; 0 when m is singular. m is n·n, n <= MAXT. */
static int mat_inv(fr *out, const fr *m, unsigned n) {
    fr a[MAXT * MAXT], inv, f, p;
    memcpy(a, m, (size_t)n * n * sizeof *a);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            if (i == j)
                cz_bls12381_fr_one(&out[i * n + j]);
            else
                cz_bls12381_fr_zero(&out[i * n + j]);
        }
    for (unsigned c = 0; c < n; c++) {
        unsigned piv = c;
        while (piv < n && cz_bls12381_fr_is_zero(&a[piv * n + c]))
            piv++;
        if (piv == n)
            return 0;
        for (unsigned j = 0; j < n && piv != c; j++) {
            fr t = a[c * n + j];
            a[c * n + j] = a[piv * n + j];
            a[piv * n + j] = t;
            t = out[c * n + j];
            out[c * n + j] = out[piv * n + j];
            out[piv * n + j] = t;
        }
        cz_bls12381_fr_inv(&inv, &a[c * n + c]);
        for (unsigned j = 0; j < n; j++) {
            cz_bls12381_fr_mul(&a[c * n + j], &a[c * n + j], &inv);
            cz_bls12381_fr_mul(&out[c * n + j], &out[c * n + j], &inv);
        }
        for (unsigned i = 0; i < n; i++) {
            if (i == c || cz_bls12381_fr_is_zero(&a[i * n + c]))
                continue;
            f = a[i * n + c];
            for (unsigned j = 0; j < n; j++) {
                cz_bls12381_fr_mul(&p, &f, &a[c * n + j]);
                cz_bls12381_fr_sub(&a[i * n + j], &a[i * n + j], &p);
                cz_bls12381_fr_mul(&p, &f, &out[c * n + j]);
                cz_bls12381_fr_sub(&out[i * n + j], &out[i * n + j], &p);
            }
        }
    }
    return 1;
}

/* ---- the optimized constants ---- */

/* Compressed round constants (neptune's compress_round_constants with every partial round
 * preprocessed): rk(0); m⁻¹·rk(1..h-1); m⁻¹·acc, acc the keys of the partial rounds folded
 * backwards from rk(h + R_P); the partial rounds' single keys, first round first; m⁻¹·rk of the
 * second half's rounds 1..h-1. */
static void compress(cz__poseidon *p) {
    const unsigned t = p->t, h = p->rf / 2, rp = p->rp;
    fr acc[MAXT], inv[MAXT], *out = p->crc;
    memcpy(out, p->rc, t * sizeof *out);
    out += t;
    for (unsigned i = 0; i + 1 < h; i++, out += t)
        cz__poseidon_apply(out, p->m_inv, &p->rc[(i + 1) * t], t);
    memcpy(acc, &p->rc[(h + rp) * t], t * sizeof *acc);
    for (unsigned i = 0; i < rp; i++) {
        const fr *prev = &p->rc[(h + rp - i - 1) * t];
        cz__poseidon_apply(inv, p->m_inv, acc, t);
        out[t + rp - 1 - i] = inv[0]; /* pushed last-round first, stored first-round first */
        cz_bls12381_fr_zero(&inv[0]);
        for (unsigned j = 0; j < t; j++)
            cz_bls12381_fr_add(&acc[j], &prev[j], &inv[j]);
    }
    cz__poseidon_apply(out, p->m_inv, acc, t);
    out += t + rp;
    for (unsigned i = 1; i < h; i++, out += t)
        cz__poseidon_apply(out, p->m_inv, &p->rc[(h + rp + i) * t], t);
}

/* The sparse factorization: curr = M; R_P times, the sparse matrix of curr (first column
 * w_hat = (curr[0][0], m̂⁻¹ applied to curr's first column below row 0), first row
 * v_rest = curr[0][1..]) and curr = M·[[1, 0], [0, m̂]] (m̂ = curr without row and column 0);
 * the last curr is the pre-sparse matrix, the sparse matrices are used in reverse order. */
static int factor(cz__poseidon *p) {
    const unsigned t = p->t, n = t - 1;
    fr curr[MAXT * MAXT], prime[MAXT * MAXT], next[MAXT * MAXT], hat[MAXT * MAXT],
        hat_inv[MAXT * MAXT], w[MAXT];
    memcpy(curr, p->m, (size_t)t * t * sizeof *curr);
    for (unsigned k = 0; k < p->rp; k++) {
        fr *sw = &p->sparse_w[(size_t)(p->rp - 1 - k) * t];
        fr *sv = &p->sparse_v[(size_t)(p->rp - 1 - k) * n];
        for (unsigned i = 0; i < n; i++)
            for (unsigned j = 0; j < n; j++)
                hat[i * n + j] = curr[(i + 1) * t + (j + 1)];
        if (!mat_inv(hat_inv, hat, n))
            return 0;
        for (unsigned i = 0; i < n; i++)
            w[i] = curr[(i + 1) * t];
        sw[0] = curr[0];
        cz__poseidon_apply(&sw[1], hat_inv, w, n);
        for (unsigned j = 0; j < n; j++)
            sv[j] = curr[j + 1];
        memset(prime, 0, (size_t)t * t * sizeof *prime);
        cz_bls12381_fr_one(&prime[0]);
        for (unsigned i = 1; i < t; i++)
            for (unsigned j = 1; j < t; j++)
                prime[i * t + j] = curr[i * t + j];
        mat_mul(next, p->m, prime, t);
        memcpy(curr, next, (size_t)t * t * sizeof *curr);
    }
    memcpy(p->pre, curr, (size_t)t * t * sizeof *curr);
    return 1;
}

static int build(cz__poseidon *p, unsigned arity) {
    const unsigned t = arity + 1;
    grain g;
    size_t nrc;
    p->arity = arity;
    p->t = t;
    p->rf = 8;
    p->rp = partial_rounds[t];
    nrc = (size_t)(p->rf + p->rp) * t;
    p->rc = malloc(nrc * sizeof *p->rc);
    p->m = malloc((size_t)t * t * sizeof *p->m);
    p->m_inv = malloc((size_t)t * t * sizeof *p->m_inv);
    p->crc = malloc(((size_t)p->rf * t + p->rp) * sizeof *p->crc);
    p->pre = malloc((size_t)t * t * sizeof *p->pre);
    p->sparse_w = malloc((size_t)p->rp * t * sizeof *p->sparse_w);
    p->sparse_v = malloc((size_t)p->rp * (t - 1) * sizeof *p->sparse_v);
    if (p->rc == NULL || p->m == NULL || p->m_inv == NULL || p->crc == NULL || p->pre == NULL ||
        p->sparse_w == NULL || p->sparse_v == NULL)
        return CZ_ENOMEM;
    grain_init(&g, t, p->rf, p->rp);
    for (size_t i = 0; i < nrc; i++)
        grain_constant(&g, &p->rc[i]);
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            cz_bls12381_fr_from_u64(&p->m[i * t + j], i + j + t);
            cz_bls12381_fr_inv(&p->m[i * t + j], &p->m[i * t + j]);
        }
    if (!mat_inv(p->m_inv, p->m, t) || !factor(p))
        return CZ_EINVAL;
    compress(p);
    return CZ_OK;
}

static void free_tables(cz__poseidon *p) {
    free(p->rc);
    free(p->m);
    free(p->m_inv);
    free(p->crc);
    free(p->pre);
    free(p->sparse_w);
    free(p->sparse_v);
    memset(p, 0, sizeof *p);
}

static cz__poseidon tables[CZ__POSEIDON_MAX_ARITY + 1];
static int table_rc[CZ__POSEIDON_MAX_ARITY + 1];
static int table_built[CZ__POSEIDON_MAX_ARITY + 1];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER; /* protects the three above */

int cz__poseidon_get(const cz__poseidon **out, unsigned arity, cz_errinfo *ei) {
    int rc;
    *out = NULL;
    if (arity < 1 || arity > CZ__POSEIDON_MAX_ARITY)
        return cz_fail(ei, CZ_EINVAL, "poseidon: arity %u outside 1..%d", arity,
                       CZ__POSEIDON_MAX_ARITY);
    pthread_mutex_lock(&table_lock);
    if (!table_built[arity]) {
        table_rc[arity] = build(&tables[arity], arity);
        /* a failed allocation is tried again on the next call; a singular matrix is final */
        table_built[arity] = table_rc[arity] != CZ_ENOMEM;
        if (table_rc[arity] == CZ_ENOMEM)
            free_tables(&tables[arity]);
    }
    rc = table_rc[arity];
    pthread_mutex_unlock(&table_lock);
    if (rc != CZ_OK)
        return cz_fail(ei, rc, "poseidon: cannot build the constants of arity %u", arity);
    *out = &tables[arity];
    return CZ_OK;
}
