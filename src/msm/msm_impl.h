/*
 * Pippenger multi-scalar multiplication Σ [k_i] P_i, written once and instantiated per group by
 * msm.c after defining:
 *
 *   M_G       the group's internal prefix in curve/ec.h (bn254_g1: bn254_g1_xyzz_add, ...)
 *   M_F       the coordinate field's internal prefix (bn254_fp, or bn254_fp2 for G2)
 *   M_F_T     the coordinate field's element type
 *   M_AFF, M_JAC, M_XYZZ   the point types
 *   M_FR, M_FR_T           the scalar field's internal prefix and element type
 *   M_EXPORT  the public prefix (cz_bn254_g1): defines M_EXPORT_msm, _msm_bytes and the internal
 *             cz__<group>_msm_limbs of msm.h
 *
 * GLV. The public entry points first split every scalar k_i = k1 + k2·λ mod r (msm/glv.h, |k1|,
 * |k2| < 2^128) and run the core below on 2n points ±P_i, ±φ(P_i) = ±(β·x_i, y_i) with the
 * half-length scalars |k1|, |k2| (signs moved onto the bases), so the core needs half the windows.
 * The core (cz__<group>_msm_limbs) itself takes any 256-bit scalars and does no GLV.
 *
 * Algorithm. Scalars are turned into canonical 4-limb integers once per call. With window width c
 * each scalar is a sum of nwin = bits/c + 1 signed digits d_j ∈ [-2^(c-1), 2^(c-1)] (see
 * msm_booth_digit), so a window needs only 2^(c-1) buckets: ±P_i goes into bucket |d_j| - 1.
 * One task handles one window over one range of points:
 *   1. accumulation, batch-affine: buckets are affine points; a bucket addition A + Q is queued
 *      (at most one pending addition per bucket) and every BATCH queued additions are done
 *      together, sharing one field inversion among them (Montgomery's trick): 5M + 1S each instead
 *      of the 8M + 2S of an XYZZ mixed addition. An empty bucket just takes the point; an addition
 *      to a bucket that already has one queued waits in a pending list for the next batch, and
 *      only when that list is full too goes into a second, XYZZ bucket by a mixed addition, so
 *      repeated digits never stall the batch. Equal x is decided when queuing: A = Q becomes an
 *      affine doubling (denominator 2y), A = -Q empties the bucket.
 *   2. reduction by running sums, in XYZZ: for b from the top, running += bucket b; total +=
 *      running, which gives Σ (b + 1)·bucket_b.
 * The caller then adds up the ranges of each window and combines windows from the top with c
 * doublings each (Horner). Window width and ranges per window come from msm_pick's cost model.
 *
 * Threads and memory. Tasks (window × range) run on the cz_threadpool; each allocates its own
 * buckets (2^(c-1) affine + 2^(c-1) XYZZ points + a byte of flags each) plus the batch queue, and
 * frees them before it returns, so the memory in use is at most (threads) × (one task's memory).
 * msm_pick is given a c bound that keeps one task under MSM_TASK_BYTES.
 */
#include <stdlib.h>
#include <string.h>

#include "field/cz_macros.h"
#include "msm/glv.h"

#define M(name)  CZ_CAT3(M_G, _msm_, name)
#define G(name)  CZ_CAT3(M_G, _, name)
#define F(name)  CZ_CAT3(M_F, _, name)
#define EX(name) CZ_CAT3(M_EXPORT, _, name)
#define M_NAME   MSM_STR(M_G)

_Static_assert(sizeof(M_FR_T) == 8 * MSM_NLIMBS, "scalars have four limbs");

/* A queued bucket addition: bucket b (+ the doubling flag) and the point ±P_i to add. */
typedef struct {
    uint32_t b, dbl;
    M_AFF q;
} M(ent);

typedef struct {
    const M_AFF *bases;
    const uint64_t *k; /* canonical scalars, MSM_NLIMBS limbs each */
    size_t n, chunk;   /* points; points per range */
    unsigned c, nwin, nsplit;
    M_XYZZ *part; /* part[w * nsplit + s]: the sum of window w over range s */
    int nomem;    /* set by a task that could not allocate */
} M(ctx);

/* One task's buckets and batch, in one allocation. */
typedef struct {
    M_AFF *bk;     /* affine buckets, (0, 0) = empty */
    M_XYZZ *xb;    /* overflow buckets, used only when the pending list is full */
    uint8_t *busy; /* bit 0: the bucket has a queued addition; bit 1: its xb bucket is in use */
    M(ent) * e;    /* the batch: e[0..m) */
    M(ent) * pend; /* additions to busy buckets, waiting for the next batch: pend[0..np) */
    M_F_T *pre;
    size_t nb, batch, m, np;
    void *mem;
} M(ws);

/*
 * Batch size: one inversion (about 250M with the binary-GCD inverse) is shared by `batch`
 * additions, so larger is better until the batch no longer fits the caches; an addition to a
 * bucket that is already queued waits in the pending list (as long again as the batch) for the
 * next batch. 2048 keeps a G2 batch (with its pending list) near 1 MB.
 */
static size_t M(batch_size)(size_t nb) {
    size_t b = nb / 2;
    return b < 16 ? 16 : b > MSM_BATCH ? MSM_BATCH : b;
}

static size_t M(ws_bytes)(unsigned c) {
    size_t nb = (size_t)1 << (c - 1), batch = M(batch_size)(nb);
    return nb * (sizeof(M_AFF) + sizeof(M_XYZZ) + 1) + batch * (2 * sizeof(M(ent)) + sizeof(M_F_T));
}

static int M(ws_init)(M(ws) * ws, unsigned c) {
    size_t nb = (size_t)1 << (c - 1), batch = M(batch_size)(nb);
    /* Point arrays first, then the byte flags, so every array stays 8-byte aligned. */
    char *p = calloc(1, M(ws_bytes)(c));
    if (p == NULL)
        return 0;
    ws->mem = p;
    ws->bk = (M_AFF *)(void *)p;
    p += nb * sizeof(M_AFF);
    ws->xb = (M_XYZZ *)(void *)p; /* all zero: zz = 0 is infinity */
    p += nb * sizeof(M_XYZZ);
    ws->e = (M(ent) *)(void *)p;
    p += batch * sizeof(M(ent));
    ws->pend = (M(ent) *)(void *)p;
    p += batch * sizeof(M(ent));
    ws->pre = (M_F_T *)(void *)p;
    p += batch * sizeof(M_F_T);
    ws->busy = (uint8_t *)p;
    ws->nb = nb;
    ws->batch = batch;
    ws->m = 0;
    ws->np = 0;
    return 1;
}

/*
 * Performs the queued additions bk[b] += q with one inversion. Forward pass: pre[i] = d_0···d_(i-1)
 * for the denominators d = q.x - A.x (or 2·A.y for a doubling); backward pass: 1/d_i =
 * (d_0···d_i)⁻¹ · pre[i], then λ = (q.y - A.y)/d (or 3·A.x²/d), x3 = λ² - A.x - q.x,
 * y3 = λ(A.x - x3) - A.y. Per addition 5M + 1S (+1S for a doubling), plus one inversion per batch.
 */
static void M(flush)(M(ws) * ws) {
    M_F_T acc, d, inv, ik, lam, t, x3;
    size_t m = ws->m;
    if (m == 0)
        return;
    F(set_one)(&acc);
    for (size_t i = 0; i < m; i++) {
        const M(ent) *e = &ws->e[i];
        const M_AFF *a = &ws->bk[e->b];
        ws->pre[i] = acc;
        if (e->dbl)
            F(dbl)(&d, &a->y);
        else
            F(sub)(&d, &e->q.x, &a->x);
        F(mul)(&acc, &acc, &d);
    }
    F(inv)(&inv, &acc);
    for (size_t i = m; i-- > 0;) {
        const M(ent) *e = &ws->e[i];
        M_AFF *a = &ws->bk[e->b];
        F(mul)(&ik, &inv, &ws->pre[i]);
        if (e->dbl) {
            F(dbl)(&d, &a->y);
            F(mul)(&inv, &inv, &d);
            F(sqr)(&t, &a->x);
            F(dbl)(&lam, &t);
            F(add)(&t, &lam, &t);
        } else {
            F(sub)(&d, &e->q.x, &a->x);
            F(mul)(&inv, &inv, &d);
            F(sub)(&t, &e->q.y, &a->y);
        }
        F(mul)(&lam, &t, &ik);
        F(sqr)(&x3, &lam);
        F(sub)(&x3, &x3, &a->x);
        F(sub)(&x3, &x3, &e->q.x);
        F(sub)(&t, &a->x, &x3);
        F(mul)(&t, &lam, &t);
        F(sub)(&a->y, &t, &a->y);
        a->x = x3;
        ws->busy[e->b] &= 2;
    }
    ws->m = 0;
}

/*
 * Queues bucket b += q (q not infinity). An empty bucket takes q at once; equal x is settled here
 * (A = q: a doubling is queued; A = -q: the bucket empties); a busy bucket sends q to the pending
 * list, or, when that is full, into the overflow bucket by an XYZZ mixed addition.
 */
static inline void M(bucket_add)(M(ws) * ws, uint32_t b, const M_AFF *q) {
    M_AFF *a = &ws->bk[b];
    M(ent) * e;
    if (ws->busy[b] & 1) {
        if (ws->np < ws->batch) {
            e = &ws->pend[ws->np++];
            e->b = b;
            e->q = *q;
        } else {
            G(xyzz_add_mixed)(&ws->xb[b], &ws->xb[b], q);
            ws->busy[b] |= 2;
        }
        return;
    }
    if (G(affine_is_infinity)(a)) {
        *a = *q;
        return;
    }
    uint32_t dbl = 0;
    if (F(eq)(&a->x, &q->x)) {
        if (!F(eq)(&a->y, &q->y)) {
            G(affine_set_infinity)(a); /* A + (-A) */
            return;
        }
        dbl = 1;
    }
    e = &ws->e[ws->m++];
    e->b = b;
    e->dbl = dbl;
    e->q = *q;
    ws->busy[b] |= 1;
}

/*
 * Runs the batch, then queues the pending additions again (all buckets are free now, so only
 * pending additions to the same bucket wait again), and repeats while the batch is full, or, with
 * `all`, until nothing is queued or pending.
 */
static void M(drain)(M(ws) * ws, int all) {
    do {
        M(flush)(ws);
        size_t np = ws->np;
        ws->np = 0;
        for (size_t i = 0; i < np; i++) {
            M(ent) e = ws->pend[i]; /* bucket_add may write pend[j], j <= i */
            M(bucket_add)(ws, e.b, &e.q);
        }
    } while (ws->m == ws->batch || (all && (ws->m > 0 || ws->np > 0)));
}

/* Digits are computed this many points ahead, and their buckets prefetched. */
#define MSM_AHEAD 8

/* One window over one range of points: the window's partial sum Σ d_j(k_i)·P_i into *out. */
static void M(task)(void *arg, size_t t) {
    M(ctx) *cx = arg;
    unsigned w = (unsigned)(t / cx->nsplit), s = (unsigned)(t % cx->nsplit);
    size_t lo = (size_t)s * cx->chunk, hi = lo + cx->chunk;
    M_XYZZ running, total;
    M(ws) ws;
    unsigned pos = w * cx->c, c = cx->c;
    int32_t ring[MSM_AHEAD];

    if (hi > cx->n)
        hi = cx->n;
    G(xyzz_set_infinity)(&total);
    if (lo >= hi) {
        cx->part[t] = total;
        return;
    }
    if (!M(ws_init)(&ws, c)) {
        __atomic_store_n(&cx->nomem, 1, __ATOMIC_RELAXED);
        return;
    }
    for (size_t i = lo; i < lo + MSM_AHEAD && i < hi; i++)
        ring[i % MSM_AHEAD] = msm_booth_digit(cx->k + MSM_NLIMBS * i, pos, c);
    for (size_t i = lo; i < hi; i++) {
        int32_t d = ring[i % MSM_AHEAD];
        if (i + MSM_AHEAD < hi) {
            int32_t da = msm_booth_digit(cx->k + MSM_NLIMBS * (i + MSM_AHEAD), pos, c);
            ring[i % MSM_AHEAD] = da;
            if (da != 0) {
                uint32_t ba = (uint32_t)(da < 0 ? -da : da) - 1;
                __builtin_prefetch(&ws.bk[ba]);
                __builtin_prefetch(&ws.busy[ba]);
            }
        }
        const M_AFF *p = &cx->bases[i];
        if (d == 0 || G(affine_is_infinity)(p))
            continue;
        if (d > 0) {
            M(bucket_add)(&ws, (uint32_t)d - 1, p);
        } else {
            M_AFF q;
            q.x = p->x;
            F(neg)(&q.y, &p->y);
            M(bucket_add)(&ws, (uint32_t)-d - 1, &q);
        }
        if (ws.m == ws.batch)
            M(drain)(&ws, 0);
    }
    M(drain)(&ws, 1);

    /* Running sums: running = Σ_{b' >= b} bucket_b', total = Σ_b running = Σ_b (b + 1)·bucket_b. */
    G(xyzz_set_infinity)(&running);
    for (size_t b = ws.nb; b-- > 0;) {
        G(xyzz_add_mixed)(&running, &running, &ws.bk[b]);
        if (ws.busy[b] & 2) /* the xb array is not even read where unused */
            G(xyzz_add)(&running, &running, &ws.xb[b]);
        G(xyzz_add)(&total, &total, &running);
    }
    cx->part[t] = total;
    free(ws.mem);
}

int CZ_CAT3(cz__, M_G, _msm_limbs)(M_JAC *ret, const M_AFF *bases, const uint64_t *k, size_t n,
                                   cz_threadpool *pool, unsigned c, unsigned nsplit) {
    uint64_t t0 = msm_prof_start();
    unsigned bits = msm_max_bits(k, n);
    M(ctx) cx;
    M_XYZZ acc;

    G(jac_set_infinity)(ret);
    if (bits == 0)
        return CZ_OK; /* n = 0, or every scalar zero */
    if (c == 0) {
        unsigned max_c = 1;
        while (max_c < MSM_MAX_C && M(ws_bytes)(max_c + 1) <= MSM_TASK_BYTES)
            max_c++;
        msm_pick(&c, &nsplit, n, cz_threadpool_size(pool), bits, max_c);
    }
    CZ_ASSERT(c >= 1 && c <= MSM_MAX_C);
    if (nsplit == 0)
        nsplit = 1;
    if (nsplit > n)
        nsplit = (unsigned)n;
    cx.bases = bases;
    cx.k = k;
    cx.n = n;
    cx.c = c;
    cx.nwin = bits / c + 1;
    cx.nsplit = nsplit;
    cx.chunk = (n + nsplit - 1) / nsplit;
    cx.nomem = 0;
    cx.part = malloc((size_t)cx.nwin * nsplit * sizeof *cx.part);
    if (cx.part == NULL)
        return CZ_ENOMEM;
    msm_prof_end(&t0, M_NAME, "max_bits", n);
    cz_threadpool_run(pool, M(task), &cx, (size_t)cx.nwin * nsplit);
    msm_prof_end(&t0, M_NAME, "buckets", n);
    if (cx.nomem) {
        free(cx.part);
        return CZ_ENOMEM;
    }
    G(xyzz_set_infinity)(&acc);
    for (unsigned w = cx.nwin; w-- > 0;) {
        for (unsigned i = 0; i < c && !G(xyzz_is_infinity)(&acc); i++)
            G(xyzz_dbl)(&acc, &acc);
        for (unsigned s = 0; s < nsplit; s++)
            G(xyzz_add)(&acc, &acc, &cx.part[(size_t)w * nsplit + s]);
    }
    G(xyzz_to_jacobian)(ret, &acc);
    free(cx.part);
    msm_prof_end(&t0, M_NAME, "windows", n);
    return CZ_OK;
}

/*
 * Scalar conversion and GLV split, spread over the pool in chunks: scalar i becomes canonical
 * limbs, then k_i = k1 + k2·λ; point i of the doubled MSM is ±P_i with scalar |k1|, point n + i is
 * ±φ(P_i) = ±(β·x, y) with scalar |k2| (the sign of each half moved onto its base).
 */
typedef struct {
    uint64_t *k; /* 2n half scalars */
    M_AFF *b;    /* 2n bases */
    const M_AFF *bases;
    const M_FR_T *fr;
    const uint8_t *bytes;
    const size_t *idx; /* NULL, or point i of this MSM is input point idx[i] */
    size_t n;
} M(conv);

#define MSM_CONV_CHUNK 4096

static void M(conv_task)(void *arg, size_t t) {
    M(conv) *cv = arg;
    size_t lo = t * MSM_CONV_CHUNK, hi = lo + MSM_CONV_CHUNK, n = cv->n;
    static const msm_glv gl = M_GLV;
    M_BETA_T beta;
    memcpy(&beta, M_GLV_BETA, sizeof beta);
    if (hi > n)
        hi = n;
    for (size_t i = lo; i < hi; i++) {
        uint64_t k[MSM_NLIMBS];
        size_t j = cv->idx != NULL ? cv->idx[i] : i;
        if (cv->fr != NULL)
            CZ_CAT(M_FR, _from_mont)(k, &cv->fr[j]);
        else
            msm_bytes_limbs(k, cv->bytes + 8 * MSM_NLIMBS * j);
        unsigned neg = msm_glv_split(cv->k + MSM_NLIMBS * i, cv->k + MSM_NLIMBS * (n + i), k, &gl);
        const M_AFF *p = &cv->bases[j];
        M_AFF *p1 = &cv->b[i], *p2 = &cv->b[n + i];
        if (G(affine_is_infinity)(p)) {
            *p1 = *p;
            *p2 = *p;
            continue;
        }
        p1->x = p->x;
        M_ENDO(&p2->x, &p->x, &beta);
        if (neg & 1)
            F(neg)(&p1->y, &p->y);
        else
            p1->y = p->y;
        if (neg & 2)
            F(neg)(&p2->y, &p->y);
        else
            p2->y = p->y;
    }
}

/* Σ [k_{j}] P_{j} over j = idx[i], i < n (over j = i < n when idx is NULL), by GLV + Pippenger;
 * exactly one of fr (Montgomery) and bytes (32-byte little-endian) is non-NULL. */
static int M(convert_and_run)(M_JAC *ret, const M_AFF *bases, const M_FR_T *fr,
                              const uint8_t *bytes, const size_t *idx, size_t n,
                              cz_threadpool *pool) {
    M(conv) cv;
    uint64_t t0 = msm_prof_start();
    int rc;
    if (n == 0) {
        G(jac_set_infinity)(ret);
        return CZ_OK;
    }
    if (n > SIZE_MAX / 2 / (8 * MSM_NLIMBS + sizeof(M_AFF)))
        return CZ_ENOMEM;
    cv.k = malloc(2 * n * 8 * MSM_NLIMBS);
    cv.b = malloc(2 * n * sizeof(M_AFF));
    if (cv.k == NULL || cv.b == NULL) {
        free(cv.k);
        free(cv.b);
        return CZ_ENOMEM;
    }
    cv.bases = bases;
    cv.fr = fr;
    cv.bytes = bytes;
    cv.idx = idx;
    cv.n = n;
    cz_threadpool_run(pool, M(conv_task), &cv, (n + MSM_CONV_CHUNK - 1) / MSM_CONV_CHUNK);
    msm_prof_end(&t0, M_NAME, "glv", n);
    rc = CZ_CAT3(cz__, M_G, _msm_limbs)(ret, cv.b, cv.k, 2 * n, pool, 0, 0);
    free(cv.k);
    free(cv.b);
    return rc;
}

/* The public entry points (EX(msm), EX(msm_bytes)) are in msm_split_impl.h, which puts the
 * 0/1 split in front of convert_and_run. */

#undef MSM_AHEAD
#undef M_NAME
#undef M
#undef G
#undef F
#undef EX
