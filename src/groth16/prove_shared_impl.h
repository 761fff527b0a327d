/*
 * The parts of the snarkjs Groth16 prover that the CPU prover (prove_impl.h) and the GPU prover
 * (prove_gpu_impl.h) share, written once per curve: include after defining CURVE (bn254 or
 * bls12381). Defines I(name) = <curve>_name and P(name) = cz_<curve>_name and the type I(fr_t);
 * the including file #undefs I and P when it is done.
 *
 *   I(groth16_eval_abc)  step 1 of the prover: a = A·w, b = B·w from the coefficient section,
 *                        and c = a∘b (c may be NULL: the GPU prover forms c on the device).
 *   I(groth16_finish)    step 5: the blinding combination of the five MSM results into the proof.
 *
 * Threading of the evaluation, without changing a bit of the result: the rows are cut into blocks
 * and the coefficient entries are sorted by row block with a stable counting sort (count per
 * (chunk of entries, block), prefix sums, scatter of the entry indices), so every block's entries
 * keep their file order. One task per block then accumulates its rows in exactly the order the
 * single-threaded loop does (the sums are exact field sums anyway, so any order would give the same
 * elements; keeping the order makes that obvious). Extra memory: 4 bytes per coefficient entry
 * plus a (chunks × blocks) table; cost: two extra passes over the 44-byte entries that read only
 * the row (memory-bound) against one field multiplication per entry in the main pass. Without a
 * pool, with one thread, for small keys and for keys of 2^32 entries or more the single loop runs.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/threadpool.h"
#include "field/cz_macros.h"

/* Below this many coefficient entries the evaluation runs in one loop (a test may lower it). */
#ifndef CZ_GROTH16_EVAL_SERIAL_MAX
#define CZ_GROTH16_EVAL_SERIAL_MAX ((size_t)1 << 14)
#endif

#define I(name) CZ_CAT3(CURVE, _, name)
#define P(name) CZ_CAT3(CZ_CAT(cz_, CURVE), _, name)

typedef P(fr) I(fr_t);

/* Adds coefficient entry i times its witness value into a (matrix 0) or b (matrix 1). The stored
 * coefficient is v·R², so one Montgomery product with the standard-form witness value gives v·w in
 * Montgomery form. */
static inline void I(groth16_eval_one)(I(fr_t) * a, I(fr_t) * b, const cz_zkey *zk,
                                       const uint64_t (*wit)[4], size_t i) {
    cz_zkey_coef e;
    I(fr_t) coef, wraw, t;
    cz_zkey_coef_at(&e, zk, i);
    memcpy(coef.l, e.value, sizeof coef.l);
    memcpy(wraw.l, wit[e.signal], sizeof wraw.l);
    I(fr_mul)(&t, &coef, &wraw);
    I(fr_t) *dst = e.matrix == 0 ? &a[e.row] : &b[e.row];
    I(fr_add)(dst, dst, &t);
}

/* The state of one threaded evaluation (see the file comment). */
typedef struct {
    I(fr_t) * a, *b, *c;
    const cz_zkey *zk;
    const uint64_t (*wit)[4];
    size_t nchunks, nblocks, rows_per_block;
    size_t *cnt;   /* [chunk][block]: counts, then (after the prefix sums) write positions */
    size_t *start; /* [block + 1]: where each block's entries begin in idx */
    uint32_t *idx; /* entry indices sorted by block, stable */
} I(eval_ctx);

static inline size_t I(eval_row)(const cz_zkey *zk, size_t i) {
    uint32_t row;
    memcpy(&row, zk->coefs + i * CZ_ZKEY_COEF_BYTES + 4, sizeof row);
    return row;
}

static void I(eval_count_task)(void *arg, size_t t) {
    I(eval_ctx) *x = arg;
    size_t lo = x->zk->ncoefs * t / x->nchunks, hi = x->zk->ncoefs * (t + 1) / x->nchunks;
    size_t *cnt = x->cnt + t * x->nblocks;
    for (size_t i = lo; i < hi; i++)
        cnt[I(eval_row)(x->zk, i) / x->rows_per_block]++;
}

static void I(eval_scatter_task)(void *arg, size_t t) {
    I(eval_ctx) *x = arg;
    size_t lo = x->zk->ncoefs * t / x->nchunks, hi = x->zk->ncoefs * (t + 1) / x->nchunks;
    size_t *pos = x->cnt + t * x->nblocks;
    for (size_t i = lo; i < hi; i++)
        x->idx[pos[I(eval_row)(x->zk, i) / x->rows_per_block]++] = (uint32_t)i;
}

static void I(eval_block_task)(void *arg, size_t blk) {
    I(eval_ctx) *x = arg;
    size_t n = x->zk->domain_size;
    size_t r0 = blk * x->rows_per_block, r1 = r0 + x->rows_per_block;
    if (r0 >= n)
        return;
    if (r1 > n)
        r1 = n;
    memset(x->a + r0, 0, (r1 - r0) * sizeof *x->a);
    memset(x->b + r0, 0, (r1 - r0) * sizeof *x->b);
    for (size_t j = x->start[blk]; j < x->start[blk + 1]; j++)
        I(groth16_eval_one)(x->a, x->b, x->zk, x->wit, x->idx[j]);
    if (x->c != NULL)
        for (size_t j = r0; j < r1; j++)
            I(fr_mul)(&x->c[j], &x->a[j], &x->b[j]);
}

/* Fills a (matrix 0) and b (matrix 1) from the coefficient section, then c = a∘b unless c is
 * NULL. Threaded on pool (see the file comment); CZ_ENOMEM only for the sort's index. */
static int I(groth16_eval_abc)(I(fr_t) * a, I(fr_t) * b, I(fr_t) * c, const cz_zkey *zk,
                               const uint64_t (*wit)[4], cz_threadpool *pool, cz_errinfo *ei) {
    size_t n = zk->domain_size, threads = cz_threadpool_size(pool);
    I(eval_ctx) x = {.a = a, .b = b, .c = c, .zk = zk, .wit = wit};
    int rc = CZ_OK;
    if (threads <= 1 || zk->ncoefs < CZ_GROTH16_EVAL_SERIAL_MAX || zk->ncoefs > UINT32_MAX) {
        memset(a, 0, n * sizeof *a);
        memset(b, 0, n * sizeof *b);
        for (size_t i = 0; i < zk->ncoefs; i++)
            I(groth16_eval_one)(a, b, zk, wit, i);
        if (c != NULL)
            for (size_t j = 0; j < n; j++)
                I(fr_mul)(&c[j], &a[j], &b[j]);
        return CZ_OK;
    }
    x.nchunks = 4 * threads;
    x.nblocks = 4 * threads < n ? 4 * threads : n;
    x.rows_per_block = (n + x.nblocks - 1) / x.nblocks;
    x.cnt = calloc(x.nchunks * x.nblocks, sizeof *x.cnt);
    x.start = malloc((x.nblocks + 1) * sizeof *x.start);
    x.idx = malloc(zk->ncoefs * sizeof *x.idx);
    if (x.cnt == NULL || x.start == NULL || x.idx == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "prove: cannot allocate the index of %zu coefficients",
                     zk->ncoefs);
        goto out;
    }
    cz_threadpool_run(pool, I(eval_count_task), &x, x.nchunks);
    /* Write positions: block-major, chunks in order inside a block (a stable sort). */
    {
        size_t pos = 0;
        for (size_t blk = 0; blk < x.nblocks; blk++) {
            x.start[blk] = pos;
            for (size_t t = 0; t < x.nchunks; t++) {
                size_t k = x.cnt[t * x.nblocks + blk];
                x.cnt[t * x.nblocks + blk] = pos;
                pos += k;
            }
        }
        x.start[x.nblocks] = pos;
    }
    cz_threadpool_run(pool, I(eval_scatter_task), &x, x.nchunks);
    cz_threadpool_run(pool, I(eval_block_task), &x, x.nblocks);
out:
    free(x.cnt);
    free(x.start);
    free(x.idx);
    return rc;
}

/*
 * The blinding combination (step 5):
 *   πA = A' + α₁ + r·δ₁, πB = B' + β₂ + s·δ₂, B1 = B1' + β₁ + s·δ₁,
 *   πC = C' + H' + s·πA + r·B1 - r·s·δ₁.
 */
static inline void I(groth16_finish)(P(groth16_proof) * proof, const CZ_CAT(cz_zkey_, CURVE) * k,
                                     const P(g1_jacobian) * msm_a, const P(g1_jacobian) * msm_b1,
                                     const P(g2_jacobian) * msm_b2, const P(g1_jacobian) * msm_c,
                                     const P(g1_jacobian) * msm_h, const I(fr_t) * r,
                                     const I(fr_t) * s) {
    P(g1_jacobian) t1, pa, b1, pc;
    P(g2_jacobian) t2, pb;
    I(fr_t) rs;
    /* πA = A' + α₁ + r·δ₁ */
    I(g1_add_mixed)(&pa, msm_a, &k->alpha1);
    I(g1_from_affine)(&t1, &k->delta1);
    I(g1_mul)(&t1, &t1, r);
    I(g1_add)(&pa, &pa, &t1);
    /* πB = B' + β₂ + s·δ₂ */
    I(g2_add_mixed)(&pb, msm_b2, &k->beta2);
    I(g2_from_affine)(&t2, &k->delta2);
    I(g2_mul)(&t2, &t2, s);
    I(g2_add)(&pb, &pb, &t2);
    /* B1 = B1' + β₁ + s·δ₁ */
    I(g1_add_mixed)(&b1, msm_b1, &k->beta1);
    I(g1_from_affine)(&t1, &k->delta1);
    I(g1_mul)(&t1, &t1, s);
    I(g1_add)(&b1, &b1, &t1);
    /* πC = C' + H' + s·πA + r·B1 - r·s·δ₁ */
    I(g1_add)(&pc, msm_c, msm_h);
    I(g1_mul)(&t1, &pa, s);
    I(g1_add)(&pc, &pc, &t1);
    I(g1_mul)(&t1, &b1, r);
    I(g1_add)(&pc, &pc, &t1);
    I(fr_mul)(&rs, r, s);
    I(g1_from_affine)(&t1, &k->delta1);
    I(g1_mul)(&t1, &t1, &rs);
    I(g1_jac_neg)(&t1, &t1);
    I(g1_add)(&pc, &pc, &t1);
    memset(&rs, 0, sizeof rs);
    I(g1_to_affine)(&proof->a, &pa);
    I(g2_to_affine)(&proof->b, &pb);
    I(g1_to_affine)(&proof->c, &pc);
}
