/*
 * The porep-synth benchmark key (bench_key.h): header and B2 on the host, the G1 progressions'
 * start points and steps for the device. B2 in three threaded passes over the columns: mark the
 * columns B touches (one pass over B's terms), count them per chunk (prefix sums give each chunk
 * its first rank), then per chunk one scalar multiplication for its first point and one G2
 * addition per touched column, converted to affine in batches of B2_BATCH (one inversion each).
 */
#include "engine/bench_key.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/curve.h"
#include "field/cz_macros.h"

#define B2_BATCH 256

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

typedef struct {
    const uint8_t *touched; /* nvars flags */
    uint64_t *rank;         /* per chunk: touched columns before it */
    size_t n, chunk, nchunks;
    void *out;
    const void *p0, *d;
} b2_job;

typedef struct {
    const cz_r1cs_mat *m;
    uint8_t *touched;
    uint64_t nnz, chunk;
} mark_job;

/* Marks B's columns: every task writes only 1s, to bytes, so overlapping writes agree; the
 * flags are read only after cz_threadpool_run returned. */
static void mark_chunk(void *arg, size_t t) {
    mark_job *m = arg;
    uint64_t lo = t * m->chunk, hi = lo + m->chunk < m->nnz ? lo + m->chunk : m->nnz;
    for (uint64_t i = lo; i < hi; i++)
        __atomic_store_n(&m->touched[m->m->var[i]], 1, __ATOMIC_RELAXED);
}

static void count_chunk(void *arg, size_t t) {
    b2_job *b = arg;
    size_t lo = t * b->chunk, hi = lo + b->chunk < b->n ? lo + b->chunk : b->n;
    uint64_t c = 0;
    for (size_t s = lo; s < hi; s++)
        c += b->touched[s];
    b->rank[t] = c;
}

#define CURVE bn254
#include "engine/bench_key_impl.h"
#undef CURVE
#define CURVE bls12381
#include "engine/bench_key_impl.h"
#undef CURVE

void cz__bench_key_free(cz__bench_key *bk) {
    if (bk == NULL)
        return;
    free(bk->ic);
    free(bk->b2);
    free(bk);
}

int cz__bench_key_make(cz__bench_key **out, const cz_r1cs *cs, unsigned k, uint64_t seed,
                       cz_threadpool *pool, cz_errinfo *ei) {
    cz__bench_key *bk = calloc(1, sizeof *bk);
    uint8_t *touched = NULL;
    uint64_t st = seed ^ 0x6275636b6b6579ull, *rank = NULL;
    b2_job b;
    int rc;
    *out = NULL;
    if (bk == NULL)
        return cz_fail(ei, CZ_ENOMEM, "benchmark key");
    bk->zk.curve = cs->curve;
    bk->zk.nvars = cs->nvars;
    bk->zk.npublic = cs->npublic;
    bk->zk.domain_size = 1u << k;
    bk->zk.log_domain_size = k;
    memset(&b, 0, sizeof b);
    b.n = cs->nvars;
    b.chunk = 1u << 16;
    b.nchunks = (b.n + b.chunk - 1) / b.chunk;
    touched = calloc(b.n, 1);
    rank = calloc(b.nchunks, sizeof *rank);
    if (touched == NULL || rank == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "benchmark key: column flags");
        goto out;
    }
    {
        mark_job m = {&cs->b, touched, cs->b.nnz, 1u << 20};
        cz_threadpool_run(pool, mark_chunk, &m, (m.nnz + m.chunk - 1) / m.chunk);
    }
    b.touched = touched;
    b.rank = rank;
    cz_threadpool_run(pool, count_chunk, &b, b.nchunks);
    {
        uint64_t sum = 0;
        for (size_t t = 0; t < b.nchunks; t++) {
            uint64_t c = rank[t];
            rank[t] = sum;
            sum += c;
        }
        bk->b2_touched = sum;
    }
    rc = cs->curve == CZ_CURVE_BN254 ? bn254_make(bk, &b, &st, pool, ei)
                                     : bls12381_make(bk, &b, &st, pool, ei);
out:
    free(touched);
    free(rank);
    if (rc != CZ_OK) {
        cz__bench_key_free(bk);
        return rc;
    }
    *out = bk;
    return CZ_OK;
}
