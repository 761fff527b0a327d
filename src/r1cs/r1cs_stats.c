/*
 * Statistics of a constraint system (cz_r1cs_stats_get in cuzk/r1cs.h): terms per matrix, which
 * variables occur in A and B (the "density" bitmaps of the Groth16 A and B MSMs), and how many aux
 * values are 0 or 1 (what makes split-MSM fast paths pay). Occurrence is marked in one byte per
 * variable and matrix with relaxed atomic stores (several tasks may mark the same variable); the
 * value pass counts per task and sums. Memory: 2 bytes per variable.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"
#include "r1cs/r1cs_internal.h"

#define STATS_CHUNK 65536

struct stats_ctx {
    const cz_r1cs *cs;
    uint64_t one[4], zero[4];
    uint64_t *bits, *ones; /* per task of the value pass */
};

struct mark_ctx {
    const cz_r1cs *cs;
    uint8_t *in_a, *in_b;
};

static void mark_task(void *arg, size_t task) {
    struct mark_ctx *x = arg;
    const cz_r1cs *cs = x->cs;
    size_t lo = task * STATS_CHUNK,
           hi = lo + STATS_CHUNK < cs->nrows ? lo + STATS_CHUNK : cs->nrows;
    for (uint64_t k = cs->a.row_ptr[lo]; k < cs->a.row_ptr[hi]; k++)
        __atomic_store_n(&x->in_a[cs->a.var[k]], 1, __ATOMIC_RELAXED);
    for (uint64_t k = cs->b.row_ptr[lo]; k < cs->b.row_ptr[hi]; k++)
        __atomic_store_n(&x->in_b[cs->b.var[k]], 1, __ATOMIC_RELAXED);
}

void cz__r1cs_mark_occurrence(uint8_t *in_a, uint8_t *in_b, const cz_r1cs *cs,
                              cz_threadpool *pool) {
    struct mark_ctx x = {cs, in_a, in_b};
    memset(in_a, 0, cs->nvars);
    memset(in_b, 0, cs->nvars);
    cz_threadpool_run(pool, mark_task, &x, ((size_t)cs->nrows + STATS_CHUNK - 1) / STATS_CHUNK);
}

static void value_task(void *arg, size_t task) {
    struct stats_ctx *x = arg;
    const cz_r1cs *cs = x->cs;
    size_t first = 1 + (size_t)cs->npublic;
    size_t lo = first + task * STATS_CHUNK;
    size_t hi = lo + STATS_CHUNK < cs->nvars ? lo + STATS_CHUNK : cs->nvars;
    uint64_t bits = 0, ones = 0;
    for (size_t v = lo; v < hi; v++) {
        int is_one = memcmp(cs->w[v], x->one, 32) == 0;
        ones += is_one;
        bits += is_one || memcmp(cs->w[v], x->zero, 32) == 0;
    }
    x->bits[task] = bits;
    x->ones[task] = ones;
}

int cz_r1cs_stats_get(cz_r1cs_stats *st, const cz_r1cs *cs, cz_threadpool *pool, cz_errinfo *ei) {
    memset(st, 0, sizeof *st);
    size_t nval = ((size_t)cs->naux + STATS_CHUNK - 1) / STATS_CHUNK;
    struct stats_ctx x = {.cs = cs};
    uint8_t *in_a = malloc(cs->nvars), *in_b = malloc(cs->nvars);
    x.bits = calloc(nval ? nval : 1, sizeof(uint64_t));
    x.ones = calloc(nval ? nval : 1, sizeof(uint64_t));
    int rc = CZ_OK;
    if (in_a == NULL || in_b == NULL || x.bits == NULL || x.ones == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "r1cs stats: out of memory for %u variables", cs->nvars);
        goto out;
    }
    cz_r1cs_fr_from_u64(x.one, cs->curve, 1);
    cz__r1cs_mark_occurrence(in_a, in_b, cs, pool);
    cz_threadpool_run(pool, value_task, &x, nval);
    st->nrows = cs->nrows;
    st->npublic = cs->npublic;
    st->naux = cs->naux;
    st->nnz[0] = cs->a.row_ptr[cs->nrows];
    st->nnz[1] = cs->b.row_ptr[cs->nrows];
    st->nnz[2] = cs->c.row_ptr[cs->nrows];
    for (uint32_t v = 0; v < cs->nvars; v++) {
        if (v <= cs->npublic) {
            st->b_input += in_b[v];
        } else {
            st->a_aux += in_a[v];
            st->b_aux += in_b[v];
        }
    }
    for (size_t t = 0; t < nval; t++) {
        st->aux_bits += x.bits[t];
        st->aux_ones += x.ones[t];
    }
out:
    free(in_a);
    free(in_b);
    free(x.bits);
    free(x.ones);
    return rc;
}
