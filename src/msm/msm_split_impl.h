/*
 * The 0/1 split in front of the GLV + Pippenger MSM (msm_impl.h), and the public entry points
 * M_EXPORT_msm and M_EXPORT_msm_bytes. Included by msm.c right after msm_impl.h, with the same
 * parameters (M_G, M_AFF, ...), once per group.
 *
 * Why. Groth16 witnesses are mostly bits: in a PoRep-like circuit ~99 % of the scalars are 0 or 1,
 * and most B2 bases (variables that never appear in B) are the point at infinity. Pippenger pays
 * per point and window whatever the scalar, and the GLV pass doubles and copies every base, so a
 * zero scalar costs as much as a random one. The split removes those points before any of that.
 *
 * How. One threaded pass over chunks of MSM_CONV_CHUNK points counts the points that need
 * Pippenger; a point is
 *   skipped   when its scalar is 0 or its base is infinity (the base is not even read for a zero
 *             scalar),
 *   a "one"   when its scalar is 1 (Montgomery one for Fr scalars, the integer 1 for bytes),
 *   the rest  otherwise (including unreduced byte scalars such as r + 1: they stay correct).
 * The count pass reads a base only for a scalar other than 0 and 1. If the split is on, a second
 * pass (fill: 4 tasks per pool thread, each over a range of chunks) writes, per chunk at the
 * chunk's prefix-sum offset, the index of every rest point (so the rest keeps the input order) and
 * sums the task's ones batch-affine: MSM_ONES_K affine accumulators, every MSM_ONES_K queued
 * additions sharing one inversion (5M + 1S each instead of an XYZZ mixed addition's 8M + 2S); at
 * the end the accumulators go into the task's XYZZ partial sum. The result is Σ partial sums +
 * GLV/Pippenger over the rest, which convert_and_run reads through the index array (no copy of
 * bases or scalars beyond the one GLV makes anyway).
 *
 * Costs. The count pass reads n scalars (and the bases of the rest); the fill reads them again and
 * the bases of the non-zero scalars, plus one batch-affine addition per one (BLS12-381 G2: ~17 Fp
 * multiplications, ~1.2 µs measured, against ~2 · nwin batch-affine bucket additions for a point
 * in Pippenger), plus 8 bytes of index per rest point and one ~120 KB workspace per fill task.
 * With all scalars random the count pass is the only overhead (≈ one read of scalars and bases).
 * cz_tuning.msm_profile prints each phase's wall and CPU time (msm_common.h).
 *
 * When. Automatic: the split runs when the skipped points and ones together are at least n/8
 * (MSM_SPLIT_MIN); cz_tuning.msm_split forces it off or on (for benchmarks),
 * and the internal entry points cz__<group>_msm_split / _msm_bytes_split (msm.h) take the mode as
 * an argument (for tests).
 */
#include <stdlib.h>
#include <string.h>

#include "field/cz_macros.h"

#define M(name)  CZ_CAT3(M_G, _msm_, name)
#define G(name)  CZ_CAT3(M_G, _, name)
#define F(name)  CZ_CAT3(M_F, _, name)
#define EX(name) CZ_CAT3(M_EXPORT, _, name)
#define M_NAME   MSM_STR(M_G)

typedef struct {
    const M_AFF *bases;
    const M_FR_T *fr;
    const uint8_t *bytes;
    size_t n;
    M_FR_T one;    /* Montgomery one, for Fr scalars */
    size_t *nrest; /* per chunk: the count of rest points, then (exclusive prefix) their offset */
    size_t *idx;   /* the rest points' indices */
    size_t nchunk, ntask; /* chunks of MSM_CONV_CHUNK points; fill tasks (ranges of chunks) */
    M_XYZZ *ones;         /* per fill task: the sum of the bases with scalar 1 */
    int nomem;            /* set by a fill task that could not allocate */
} M(split);

/* Accumulators of the batch-affine ones sum (split_fill): one inversion per MSM_ONES_K adds. */
#define MSM_ONES_K 256

/* A fill task's batch-affine accumulators: acc[0..nacc) affine partial sums; q[0..m) the points
 * queued onto acc[0..m); pre the prefix products; x the XYZZ sum of what could not go affine. */
typedef struct {
    M_AFF acc[MSM_ONES_K], q[MSM_ONES_K];
    M_F_T pre[MSM_ONES_K];
    uint8_t skip[MSM_ONES_K];
    size_t nacc, m;
    M_XYZZ x;
} M(ones_ws);

/* The scalar alone: 0 (zero), 1 (one), 2 (anything else); reads no base. */
static inline int M(scalar_class)(const M(split) * sp, size_t i) {
    int one;
    if (sp->fr != NULL) {
        const M_FR_T *s = &sp->fr[i];
        uint64_t acc = 0;
        for (int l = 0; l < MSM_NLIMBS; l++)
            acc |= s->l[l];
        if (acc == 0)
            return 0;
        one = memcmp(s, &sp->one, sizeof *s) == 0;
    } else {
        uint64_t k[MSM_NLIMBS];
        msm_bytes_limbs(k, sp->bytes + 8 * MSM_NLIMBS * i);
        if ((k[0] | k[1] | k[2] | k[3]) == 0)
            return 0;
        one = k[0] == 1 && (k[1] | k[2] | k[3]) == 0;
    }
    return one ? 1 : 2;
}

/* Counts the chunk's rest points; the base is read only for a scalar other than 0 and 1. */
static void M(split_count)(void *arg, size_t t) {
    M(split) *sp = arg;
    size_t lo = t * MSM_CONV_CHUNK, hi = lo + MSM_CONV_CHUNK, cnt = 0;
    if (hi > sp->n)
        hi = sp->n;
    for (size_t i = lo; i < hi; i++)
        cnt += M(scalar_class)(sp, i) == 2 && !G(affine_is_infinity)(&sp->bases[i]);
    sp->nrest[t] = cnt;
}

/*
 * acc[j] += q[j] for j < m with one inversion (Montgomery's trick), as in msm_impl.h's flush:
 * λ = (q.y − a.y)/(q.x − a.x), x3 = λ² − a.x − q.x, y3 = λ(a.x − x3) − a.y; 5M + 1S each. A pair
 * with equal x (q = ±acc[j]: repeated or negated bases) goes into the XYZZ sum instead, so an
 * accumulator never becomes infinity.
 */
static void M(ones_flush)(M(ones_ws) * ws) {
    M_F_T acc, d, inv, ik, lam, t, x3;
    size_t m = ws->m;
    F(set_one)(&acc);
    for (size_t j = 0; j < m; j++) {
        ws->pre[j] = acc;
        F(sub)(&d, &ws->q[j].x, &ws->acc[j].x);
        ws->skip[j] = (uint8_t)F(is_zero)(&d);
        if (ws->skip[j])
            G(xyzz_add_mixed)(&ws->x, &ws->x, &ws->q[j]);
        else
            F(mul)(&acc, &acc, &d);
    }
    F(inv)(&inv, &acc);
    for (size_t j = m; j-- > 0;) {
        M_AFF *a = &ws->acc[j];
        const M_AFF *q = &ws->q[j];
        if (ws->skip[j])
            continue;
        F(mul)(&ik, &inv, &ws->pre[j]);
        F(sub)(&d, &q->x, &a->x);
        F(mul)(&inv, &inv, &d);
        F(sub)(&t, &q->y, &a->y);
        F(mul)(&lam, &t, &ik);
        F(sqr)(&x3, &lam);
        F(sub)(&x3, &x3, &a->x);
        F(sub)(&x3, &x3, &q->x);
        F(sub)(&t, &a->x, &x3);
        F(mul)(&t, &lam, &t);
        F(sub)(&a->y, &t, &a->y);
        a->x = x3;
    }
    ws->m = 0;
}

/* Adds base p (scalar 1, not infinity) to the task's ones sum. */
static inline void M(ones_add)(M(ones_ws) * ws, const M_AFF *p) {
    if (ws->nacc < MSM_ONES_K) {
        ws->acc[ws->nacc++] = *p;
        return;
    }
    ws->q[ws->m++] = *p;
    if (ws->m == MSM_ONES_K)
        M(ones_flush)(ws);
}

/*
 * Fill task t: chunks [t·nchunk/ntask, (t+1)·nchunk/ntask). Writes each chunk's rest indices at
 * its prefix-sum offset and sums the task's ones (bases with scalar 1) by batch-affine additions
 * into MSM_ONES_K accumulators, which are added up by XYZZ at the end: one partial sum per task,
 * one allocation per task. Zero scalars cost only the scalar read.
 */
static void M(split_fill)(void *arg, size_t t) {
    M(split) *sp = arg;
    size_t c0 = t * sp->nchunk / sp->ntask, c1 = (t + 1) * sp->nchunk / sp->ntask;
    M(ones_ws) *ws = malloc(sizeof *ws);
    if (ws == NULL) {
        __atomic_store_n(&sp->nomem, 1, __ATOMIC_RELAXED);
        return;
    }
    ws->nacc = 0;
    ws->m = 0;
    G(xyzz_set_infinity)(&ws->x);
    for (size_t ch = c0; ch < c1; ch++) {
        size_t lo = ch * MSM_CONV_CHUNK, hi = lo + MSM_CONV_CHUNK, o = sp->nrest[ch];
        if (hi > sp->n)
            hi = sp->n;
        for (size_t i = lo; i < hi; i++) {
            int cl = M(scalar_class)(sp, i);
            if (cl == 0 || G(affine_is_infinity)(&sp->bases[i]))
                continue;
            if (cl == 1)
                M(ones_add)(ws, &sp->bases[i]);
            else
                sp->idx[o++] = i;
        }
    }
    if (ws->m > 0)
        M(ones_flush)(ws);
    for (size_t j = 0; j < ws->nacc; j++)
        G(xyzz_add_mixed)(&ws->x, &ws->x, &ws->acc[j]);
    sp->ones[t] = ws->x;
    free(ws);
}

/* MSM_SPLIT_AUTO decides by the counts (and cz_tuning.msm_split); MSM_SPLIT_OFF / _ON force it. */
static int M(split_run)(M_JAC *ret, const M_AFF *bases, const M_FR_T *fr, const uint8_t *bytes,
                        size_t n, cz_threadpool *pool, int mode) {
    M(split) sp;
    size_t nchunk = (n + MSM_CONV_CHUNK - 1) / MSM_CONV_CHUNK, nrest = 0;
    M_XYZZ acc;
    M_JAC ones;
    uint64_t t0 = msm_prof_start();
    int rc;

    if (mode == MSM_SPLIT_AUTO)
        mode = msm_split_tuned();
    if (mode == MSM_SPLIT_OFF || n == 0)
        return M(convert_and_run)(ret, bases, fr, bytes, NULL, n, pool);
    memset(&sp, 0, sizeof sp);
    sp.bases = bases;
    sp.fr = fr;
    sp.bytes = bytes;
    sp.n = n;
    CZ_CAT(M_FR, _set_one)(&sp.one);
    sp.nchunk = nchunk;
    /* A few fill tasks per thread (load balance); each ends with MSM_ONES_K additions. */
    sp.ntask = 4 * cz_threadpool_size(pool);
    if (sp.ntask > nchunk)
        sp.ntask = nchunk;
    sp.nrest = malloc(nchunk * sizeof *sp.nrest);
    sp.ones = malloc(sp.ntask * sizeof *sp.ones);
    if (sp.nrest == NULL || sp.ones == NULL) {
        rc = CZ_ENOMEM;
        goto out;
    }
    cz_threadpool_run(pool, M(split_count), &sp, nchunk);
    msm_prof_end(&t0, M_NAME, "count", n);
    for (size_t t = 0; t < nchunk; t++) {
        size_t c = sp.nrest[t];
        sp.nrest[t] = nrest;
        nrest += c;
    }
    if (mode == MSM_SPLIT_AUTO && n - nrest < (n + MSM_SPLIT_MIN - 1) / MSM_SPLIT_MIN) {
        rc = M(convert_and_run)(ret, bases, fr, bytes, NULL, n, pool);
        goto out;
    }
    sp.idx = malloc((nrest > 0 ? nrest : 1) * sizeof *sp.idx);
    if (sp.idx == NULL) {
        rc = CZ_ENOMEM;
        goto out;
    }
    cz_threadpool_run(pool, M(split_fill), &sp, sp.ntask);
    msm_prof_end(&t0, M_NAME, "ones", n);
    if (sp.nomem) {
        rc = CZ_ENOMEM;
        goto out;
    }
    rc = M(convert_and_run)(ret, bases, fr, bytes, sp.idx, nrest, pool);
    if (rc != CZ_OK)
        goto out;
    if (t0 != 0)
        t0 = msm_prof_start();
    G(xyzz_set_infinity)(&acc);
    for (size_t t = 0; t < sp.ntask; t++)
        G(xyzz_add)(&acc, &acc, &sp.ones[t]);
    G(xyzz_to_jacobian)(&ones, &acc);
    G(add)(ret, ret, &ones);
    msm_prof_end(&t0, M_NAME, "ones_sum", sp.ntask);
out:
    free(sp.idx);
    free(sp.ones);
    free(sp.nrest);
    return rc;
}

int CZ_CAT3(cz__, M_G, _msm_split)(M_JAC *ret, const M_AFF *bases, const M_FR_T *scalars, size_t n,
                                   cz_threadpool *pool, int mode) {
    return M(split_run)(ret, bases, scalars, NULL, n, pool, mode);
}

int CZ_CAT3(cz__, M_G, _msm_bytes_split)(M_JAC *ret, const M_AFF *bases, const uint8_t *scalars,
                                         size_t n, cz_threadpool *pool, int mode) {
    return M(split_run)(ret, bases, NULL, scalars, n, pool, mode);
}

int EX(msm)(M_JAC *ret, const M_AFF *bases, const M_FR_T *scalars, size_t n, cz_threadpool *pool) {
    return M(split_run)(ret, bases, scalars, NULL, n, pool, MSM_SPLIT_AUTO);
}

int EX(msm_bytes)(M_JAC *ret, const M_AFF *bases, const uint8_t *scalars, size_t n,
                  cz_threadpool *pool) {
    return M(split_run)(ret, bases, NULL, scalars, n, pool, MSM_SPLIT_AUTO);
}

#undef MSM_CONV_CHUNK
#undef MSM_ONES_K
#undef M_NAME
#undef M
#undef G
#undef F
#undef EX
