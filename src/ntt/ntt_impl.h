/*
 * CPU number-theoretic transform over a curve's scalar field Fr, written once and instantiated per
 * curve (ntt_bn254.c, ntt_bls12381.c) by defining before inclusion:
 *
 *   NTT_CURVE    curve tag: public names are cz_<NTT_CURVE>_ntt_*   (bn254, bls12381)
 *   NTT_F     prefix of the inline field functions of field/field.h (bn254_fr)
 *   NTT_T          the element type (cz_bn254_fr)
 *   NTT_TWO_ADICITY, NTT_ROOT_OF_UNITY, NTT_NQR   from field/field_consts.h
 *   NTT_BP_ROOT_OF_UNITY, NTT_BP_GENERATOR   bellperson's w[s] (Montgomery limbs) and coset
 *                  generator, defined only for a curve that has bellperson's domain (BLS12-381)
 *
 * Roots (cuzk/ntt.h, cz_ntt_roots): snarkjs's are ffjavascript's, w[s] = NTT_ROOT_OF_UNITY =
 * nqr^((r-1) >> s), s = NTT_TWO_ADICITY; bellperson's are blstrs's, w[s] = NTT_BP_ROOT_OF_UNITY =
 * 7^((r-1) >> s); in both w[k] = w[k+1]^2. A domain of size n = 2^k uses ω = w[k]; forward gives
 * A[i] = Σ_j a[j]·ω^(i·j), inverse gives a[j] = n⁻¹·Σ_i A[i]·ω^(-i·j). The roots choose ω only:
 * the transforms are the same code for both, and the coset ones take g from the caller.
 *
 * Algorithm: iterative radix-2 decimation in time. The input is permuted into bit-reversed order
 * (one swap pass), then log2(n) butterfly stages x, y <- x + ω_2h^j·y, x - ω_2h^j·y bring it to
 * natural order. The inverse runs the same forward transform and then maps A[i] -> A[(n-i) mod n]
 * and multiplies by n⁻¹ (a DFT with ω⁻¹ equals a DFT with ω read backwards), so one twiddle table
 * serves both directions. Cost: about (n/2)·log2(n) - n multiplications (twiddles equal to 1
 * are skipped in the first stage group) and n·log2(n) additions or subtractions.
 *
 * Memory layout (cache blocking): stages are done in groups of up to NTT_TILE_LOG stages; within
 * a group the butterflies connect only elements that lie in one "tile", so each tile is loaded
 * into cache once per group, not once per stage. Group 0 (stages 0..g-1) works in place on
 * contiguous blocks; later groups gather a tile of 2^g rows × 8 adjacent columns (rows are 2^s0
 * elements apart) into scratch memory, run their stages there and scatter it back. Every tile
 * is an independent task on the thread pool; groups are separated by the pool's barrier.
 * Radix-4 was not used: in Fr a multiplication by the 4th root of unity is a full
 * multiplication, so it saves no arithmetic, and the tiling already removes the memory passes
 * it would save.
 *
 * Twiddles: the domain keeps ω^j for j < n/2 (16·n bytes); stage s uses every (n/2^(s+1))-th.
 *
 * Lifetime: a domain is created once per size, is read-only afterwards and may be shared by any
 * number of concurrent transforms. Transforms work in place on the caller's array.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/ntt.h"
#include "field/cz_macros.h"
#include "field/field.h"
#include "ntt/ntt_common.h"

#define FF(name)  CZ_CAT3(NTT_F, _, name)
#define PUB(name) CZ_CAT(CZ_CAT3(cz_, NTT_CURVE, _ntt_), name)
#define DOMAIN    CZ_CAT3(cz_, NTT_CURVE, _ntt_domain)

struct DOMAIN {
    unsigned log_n;
    size_t n;
    cz_ntt_roots roots;
    NTT_T omega; /* w[log_n], a primitive n-th root of unity */
    NTT_T n_inv; /* n⁻¹ */
    NTT_T *tw;   /* tw[j] = ω^j for j < n/2 (NULL when n = 1) */
};

/* ---- roots ---- */

#define NTT_STR_(x) #x
#define NTT_STR(x)  NTT_STR_(x)

/* CZ_OK when the curve has the roots, else CZ_EINVAL (not an enum value) or CZ_EUNSUPPORTED. */
static int roots_check(cz_ntt_roots roots) {
    if ((unsigned)roots >= CZ_NTT_ROOTS_COUNT)
        return CZ_EINVAL;
#ifndef NTT_BP_ROOT_OF_UNITY
    if (roots == CZ_NTT_ROOTS_BELLPERSON)
        return CZ_EUNSUPPORTED;
#endif
    return CZ_OK;
}

#ifdef NTT_BP_ROOT_OF_UNITY
_Static_assert(NTT_TWO_ADICITY == 32, "blstrs's root of unity has order 2^32 = 2^s");
#endif

/* w[s] of roots (checked), Montgomery limbs. */
static const uint64_t *roots_top(cz_ntt_roots roots) {
#ifdef NTT_BP_ROOT_OF_UNITY
    if (roots == CZ_NTT_ROOTS_BELLPERSON)
        return NTT_BP_ROOT_OF_UNITY;
#endif
    (void)roots;
    return NTT_ROOT_OF_UNITY;
}

int PUB(root_of_unity)(NTT_T *w, unsigned log_n, cz_ntt_roots roots) {
    int rc = roots_check(roots);
    if (rc != CZ_OK)
        return rc;
    if (log_n > NTT_TWO_ADICITY)
        return CZ_ERANGE;
    NTT_T r;
    memcpy(r.l, roots_top(roots), sizeof r.l);
    for (unsigned i = NTT_TWO_ADICITY; i > log_n; i--)
        FF(sqr)(&r, &r);
    *w = r;
    return CZ_OK;
}

int PUB(coset_gen)(NTT_T *g, unsigned log_n, cz_ntt_roots roots) {
    int rc = roots_check(roots);
    if (rc != CZ_OK)
        return rc;
    if (log_n > NTT_TWO_ADICITY)
        return CZ_ERANGE;
#ifdef NTT_BP_ROOT_OF_UNITY
    if (roots == CZ_NTT_ROOTS_BELLPERSON) {
        /* bellperson's coset_fft: F::MULTIPLICATIVE_GENERATOR, whatever the size. */
        FF(from_u64)(g, NTT_BP_GENERATOR);
        return CZ_OK;
    }
#endif
    if (log_n == NTT_TWO_ADICITY) {
        /* ffjavascript's Fr.shift = nqr², used when no 2^(k+1)-th root exists. */
        NTT_T q;
        FF(from_u64)(&q, NTT_NQR);
        FF(sqr)(g, &q);
        return CZ_OK;
    }
    return PUB(root_of_unity)(g, log_n + 1, roots);
}

int PUB(coset_z)(NTT_T *z, unsigned log_n, cz_ntt_roots roots) {
    NTT_T g, one;
    int rc = PUB(coset_gen)(&g, log_n, roots);
    if (rc != CZ_OK)
        return rc;
    for (unsigned i = 0; i < log_n; i++) /* g^(2^log_n) */
        FF(sqr)(&g, &g);
    FF(set_one)(&one);
    FF(sub)(z, &g, &one);
    return CZ_OK;
}

/* ---- element-wise passes ---- */

/* r[j] = a[j]·c·g^j (a == NULL: r[j] = c·g^j), j < n; r may alias a. */
typedef struct {
    NTT_T *r;
    const NTT_T *a;
    NTT_T c, g;
    size_t n;
} powers_job;

static void powers_task(void *arg, size_t task) {
    const powers_job *job = arg;
    size_t j0, j1;
    cz__ntt_chunk(&j0, &j1, task, job->n);
    NTT_T p;
    uint64_t e = (uint64_t)j0;
    FF(pow_limbs)(&p, &job->g, &e, 1);
    FF(mul)(&p, &p, &job->c);
    for (size_t j = j0; j < j1; j++) {
        if (job->a != NULL)
            FF(mul)(&job->r[j], &job->a[j], &p);
        else
            job->r[j] = p;
        FF(mul)(&p, &p, &job->g);
    }
}

static void powers_run(NTT_T *r, const NTT_T *a, const NTT_T *c, const NTT_T *g, size_t n,
                       cz_threadpool *pool) {
    powers_job job = {.r = r, .a = a, .c = *c, .g = *g, .n = n};
    if (n == 0)
        return;
    cz__ntt_run(pool, powers_task, &job, cz__ntt_ntasks(n, NTT_CHUNK_LOG));
}

void PUB(mul_powers)(NTT_T *r, const NTT_T *a, const NTT_T *c, const NTT_T *g, size_t n,
                     cz_threadpool *pool) {
    powers_run(r, a, c, g, n, pool);
}

/* The element-wise helpers, one task over a chunk for each: r = a∘b (MUL), a∘b - c (MUL_SUB),
 * a·k (SCALE), (a - b)·k (SUB_SCALE), with k, one element, passed in c. */
typedef enum { PW_MUL, PW_MUL_SUB, PW_SCALE, PW_SUB_SCALE } pointwise_op;

typedef struct {
    pointwise_op op;
    NTT_T *r;
    const NTT_T *a, *b, *c;
    size_t n;
} pointwise_job;

static void pointwise_task(void *arg, size_t task) {
    const pointwise_job *job = arg;
    size_t j0, j1;
    NTT_T t;
    cz__ntt_chunk(&j0, &j1, task, job->n);
    switch (job->op) {
    case PW_MUL:
        for (size_t j = j0; j < j1; j++)
            FF(mul)(&job->r[j], &job->a[j], &job->b[j]);
        break;
    case PW_MUL_SUB:
        for (size_t j = j0; j < j1; j++) {
            FF(mul)(&t, &job->a[j], &job->b[j]);
            FF(sub)(&job->r[j], &t, &job->c[j]);
        }
        break;
    case PW_SCALE:
        for (size_t j = j0; j < j1; j++)
            FF(mul)(&job->r[j], &job->a[j], job->c);
        break;
    case PW_SUB_SCALE:
        for (size_t j = j0; j < j1; j++) {
            FF(sub)(&t, &job->a[j], &job->b[j]);
            FF(mul)(&job->r[j], &t, job->c);
        }
        break;
    }
}

static void pointwise_run(pointwise_op op, NTT_T *r, const NTT_T *a, const NTT_T *b, const NTT_T *c,
                          size_t n, cz_threadpool *pool) {
    pointwise_job job = {.op = op, .r = r, .a = a, .b = b, .c = c, .n = n};
    if (n > 0)
        cz__ntt_run(pool, pointwise_task, &job, cz__ntt_ntasks(n, NTT_CHUNK_LOG));
}

void PUB(mul)(NTT_T *r, const NTT_T *a, const NTT_T *b, size_t n, cz_threadpool *pool) {
    pointwise_run(PW_MUL, r, a, b, NULL, n, pool);
}

void PUB(mul_sub)(NTT_T *r, const NTT_T *a, const NTT_T *b, const NTT_T *c, size_t n,
                  cz_threadpool *pool) {
    pointwise_run(PW_MUL_SUB, r, a, b, c, n, pool);
}

void PUB(scale)(NTT_T *r, const NTT_T *a, const NTT_T *k, size_t n, cz_threadpool *pool) {
    pointwise_run(PW_SCALE, r, a, NULL, k, n, pool);
}

void PUB(sub_scale)(NTT_T *r, const NTT_T *a, const NTT_T *b, const NTT_T *k, size_t n,
                    cz_threadpool *pool) {
    pointwise_run(PW_SUB_SCALE, r, a, b, k, n, pool);
}

/* ---- permutations ---- */

typedef struct {
    NTT_T *a;
    size_t n;
    unsigned log_n;
} perm_job;

/* Swaps a[i] and a[bitrev(i)] for the i of this task with i < bitrev(i): every pair is swapped
 * by exactly one task, so tasks never touch the same pair. */
static void bitrev_task(void *arg, size_t task) {
    const perm_job *job = arg;
    size_t i0, i1;
    cz__ntt_chunk(&i0, &i1, task, job->n);
    for (size_t i = i0; i < i1; i++) {
        size_t r = cz__ntt_bitrev(i, job->log_n);
        if (i < r) {
            NTT_T t = job->a[i];
            job->a[i] = job->a[r];
            job->a[r] = t;
        }
    }
}

/* Swaps a[i] and a[n-i] for 0 < i < n/2 (the index map i -> -i mod n). */
static void negate_index_task(void *arg, size_t task) {
    const perm_job *job = arg;
    size_t half = job->n / 2;
    size_t i0, i1;
    cz__ntt_chunk(&i0, &i1, task, half);
    if (i0 == 0)
        i0 = 1;
    for (size_t i = i0; i < i1; i++) {
        NTT_T t = job->a[i];
        job->a[i] = job->a[job->n - i];
        job->a[job->n - i] = t;
    }
}

/* ---- butterfly stages ---- */

/* One radix-2 DIT butterfly: x, y <- x + w·y, x - w·y. */
static inline void butterfly(NTT_T *x, NTT_T *y, const NTT_T *w) {
    NTT_T v;
    FF(mul)(&v, y, w);
    FF(sub)(y, x, &v);
    FF(add)(x, x, &v);
}

/* Stages 0..g-1 on the contiguous block x[0 .. 2^g). Stage t pairs x[j] and x[j + 2^t] (within
 * blocks of 2^(t+1)) with twiddle ω_(2^(t+1))^j = ω^(j·n/2^(t+1)) = tw[j << (log_n - 1 - t)]. */
static void stages_contiguous(NTT_T *x, unsigned g, const NTT_T *tw, unsigned log_n) {
    size_t len = (size_t)1 << g;
    for (unsigned t = 0; t < g; t++) {
        size_t h = (size_t)1 << t;
        unsigned tshift = log_n - 1 - t;
        for (size_t b = 0; b < len; b += 2 * h) {
            NTT_T u = x[b]; /* j = 0: twiddle 1 */
            FF(add)(&x[b], &u, &x[b + h]);
            FF(sub)(&x[b + h], &u, &x[b + h]);
            for (size_t j = 1; j < h; j++)
                butterfly(&x[b + j], &x[b + j + h], &tw[j << tshift]);
        }
    }
}

/* Stages s0 .. s0+g-1 (s0 >= 1) on a tile: 2^g rows of cnt columns, row R at x + R·row_stride.
 * Row R holds the elements R·2^s0 + c0 + c of a superblock of 2^(s0+g) elements. At stage
 * s = s0 + t, rows R and R + 2^t are paired (R mod 2^(t+1) < 2^t) and the twiddle exponent is
 * j = (R mod 2^t)·2^s0 + c0 + c, the offset inside the half-block of 2^s elements. */
static void stages_tile(NTT_T *x, size_t row_stride, size_t cnt, size_t c0, unsigned s0, unsigned g,
                        const NTT_T *tw, unsigned log_n) {
    size_t rows = (size_t)1 << g;
    for (unsigned t = 0; t < g; t++) {
        size_t hr = (size_t)1 << t;
        unsigned tshift = log_n - 1 - (s0 + t);
        for (size_t b = 0; b < rows; b += 2 * hr) {
            for (size_t r = 0; r < hr; r++) {
                NTT_T *xr = x + (b + r) * row_stride;
                NTT_T *yr = xr + hr * row_stride;
                size_t j0 = (r << s0) + c0;
                for (size_t c = 0; c < cnt; c++)
                    butterfly(&xr[c], &yr[c], &tw[(j0 + c) << tshift]);
            }
        }
    }
}

typedef struct {
    NTT_T *a;
    const NTT_T *tw;
    unsigned log_n;
    unsigned s0, g; /* the group: stages s0 .. s0+g-1 */
} group_job;

static void group0_task(void *arg, size_t task) {
    const group_job *job = arg;
    stages_contiguous(job->a + (task << job->g), job->g, job->tw, job->log_n);
}

/* Task = (superblock, chunk of 2^NTT_COLS_LOG columns). */
static void group_task(void *arg, size_t task) {
    const group_job *job = arg;
    size_t cnt = (size_t)1 << NTT_COLS_LOG;
    size_t chunks_per_sb = (size_t)1 << (job->s0 - NTT_COLS_LOG);
    size_t sb = task / chunks_per_sb;
    size_t c0 = (task % chunks_per_sb) * cnt;
    size_t row_stride = (size_t)1 << job->s0;
    size_t rows = (size_t)1 << job->g;
    NTT_T *base = job->a + (sb << (job->s0 + job->g)) + c0;
    NTT_T *tile = malloc(rows * cnt * sizeof *tile);
    if (tile == NULL) { /* no scratch: the same stages in place, only slower */
        stages_tile(base, row_stride, cnt, c0, job->s0, job->g, job->tw, job->log_n);
        return;
    }
    for (size_t r = 0; r < rows; r++)
        memcpy(tile + r * cnt, base + r * row_stride, cnt * sizeof *tile);
    stages_tile(tile, cnt, cnt, c0, job->s0, job->g, job->tw, job->log_n);
    for (size_t r = 0; r < rows; r++)
        memcpy(base + r * row_stride, tile + r * cnt, cnt * sizeof *tile);
    free(tile);
}

/* The forward transform: bit reversal, then the stage groups. */
static void forward_natural(NTT_T *a, const struct DOMAIN *dom, cz_threadpool *pool) {
    unsigned log_n = dom->log_n;
    if (log_n == 0)
        return;
    perm_job pj = {.a = a, .n = dom->n, .log_n = log_n};
    cz__ntt_run(pool, bitrev_task, &pj, cz__ntt_ntasks(dom->n, NTT_CHUNK_LOG));

    unsigned tile_log = cz__ntt_tile_log;
    unsigned g0 = log_n < tile_log ? log_n : tile_log;
    group_job job = {.a = a, .tw = dom->tw, .log_n = log_n, .s0 = 0, .g = g0};
    cz__ntt_run(pool, group0_task, &job, dom->n >> g0);

    /* The remaining stages in groups of at most NTT_TILE_LOG - NTT_COLS_LOG, sized evenly. */
    unsigned rest = log_n - g0, gmax = tile_log - NTT_COLS_LOG;
    unsigned ngroups = (rest + gmax - 1) / gmax;
    for (unsigned s0 = g0; ngroups > 0; ngroups--) {
        unsigned g = (log_n - s0 + ngroups - 1) / ngroups;
        job.s0 = s0;
        job.g = g;
        cz__ntt_run(pool, group_task, &job, dom->n >> (g + NTT_COLS_LOG));
        s0 += g;
    }
}

/* ---- public transforms ---- */

void PUB(forward)(NTT_T *a, const struct DOMAIN *dom, cz_threadpool *pool) {
    forward_natural(a, dom, pool);
}

/* The inverse as the forward transform read backwards: A[i] -> A[-i mod n], then ·n⁻¹. */
static void inverse_unscaled(NTT_T *a, const struct DOMAIN *dom, cz_threadpool *pool) {
    forward_natural(a, dom, pool);
    if (dom->n > 2) {
        perm_job pj = {.a = a, .n = dom->n, .log_n = dom->log_n};
        cz__ntt_run(pool, negate_index_task, &pj, cz__ntt_ntasks(dom->n / 2, NTT_CHUNK_LOG));
    }
}

void PUB(inverse)(NTT_T *a, const struct DOMAIN *dom, cz_threadpool *pool) {
    inverse_unscaled(a, dom, pool);
    PUB(scale)(a, a, &dom->n_inv, dom->n, pool);
}

void PUB(coset_forward)(NTT_T *a, const struct DOMAIN *dom, const NTT_T *g, cz_threadpool *pool) {
    NTT_T one;
    FF(set_one)(&one);
    powers_run(a, a, &one, g, dom->n, pool);
    forward_natural(a, dom, pool);
}

void PUB(coset_inverse)(NTT_T *a, const struct DOMAIN *dom, const NTT_T *g, cz_threadpool *pool) {
    NTT_T g_inv;
    FF(inv)(&g_inv, g);
    inverse_unscaled(a, dom, pool);
    powers_run(a, a, &dom->n_inv, &g_inv, dom->n, pool); /* a[j]·n⁻¹·g^-j in one pass */
}

/* ---- domain ---- */

int PUB(domain_create)(struct DOMAIN **out, unsigned log_n, cz_ntt_roots roots, cz_threadpool *pool,
                       cz_errinfo *ei) {
    struct DOMAIN *dom = NULL;
    int rc = roots_check(roots);
    *out = NULL;
    if (rc == CZ_EINVAL)
        return cz_fail(ei, rc, "ntt: unknown roots %d", (int)roots);
    if (rc != CZ_OK)
        return cz_fail(ei, rc, "ntt: " NTT_STR(NTT_CURVE) " has no %s domain",
                       cz_ntt_roots_name(roots));
    if (log_n > NTT_TWO_ADICITY || log_n >= 8 * sizeof(size_t) - 6)
        return cz_fail(ei, CZ_ERANGE, "ntt: domain 2^%u exceeds the field's 2-adicity %u", log_n,
                       (unsigned)NTT_TWO_ADICITY);
    dom = calloc(1, sizeof *dom);
    if (dom == NULL)
        return cz_fail(ei, CZ_ENOMEM, "ntt: domain 2^%u", log_n);
    dom->log_n = log_n;
    dom->n = (size_t)1 << log_n;
    dom->roots = roots;
    PUB(root_of_unity)(&dom->omega, log_n, roots);
    NTT_T n_el;
    FF(from_u64)(&n_el, (uint64_t)dom->n);
    FF(inv)(&dom->n_inv, &n_el);
    if (dom->n >= 2) {
        size_t half = dom->n / 2;
        size_t bytes = (half * sizeof(NTT_T) + 63) & ~(size_t)63;
        dom->tw = aligned_alloc(64, bytes);
        if (dom->tw == NULL) {
            free(dom);
            return cz_fail(ei, CZ_ENOMEM, "ntt: %zu bytes of twiddles for domain 2^%u", bytes,
                           log_n);
        }
        NTT_T one;
        FF(set_one)(&one);
        powers_run(dom->tw, NULL, &one, &dom->omega, half, pool);
    }
    *out = dom;
    return CZ_OK;
}

void PUB(domain_destroy)(struct DOMAIN *dom) {
    if (dom == NULL)
        return;
    free(dom->tw);
    free(dom);
}

unsigned PUB(domain_log_n)(const struct DOMAIN *dom) {
    return dom->log_n;
}

size_t PUB(domain_size)(const struct DOMAIN *dom) {
    return dom->n;
}

void PUB(domain_root)(NTT_T *w, const struct DOMAIN *dom) {
    *w = dom->omega;
}

cz_ntt_roots PUB(domain_roots)(const struct DOMAIN *dom) {
    return dom->roots;
}

size_t PUB(domain_bytes)(unsigned log_n) {
    size_t half = log_n == 0 ? 0 : (size_t)1 << (log_n - 1);
    return sizeof(struct DOMAIN) + ((half * sizeof(NTT_T) + 63) & ~(size_t)63);
}

#undef FF
#undef PUB
#undef DOMAIN
#undef NTT_STR_
#undef NTT_STR
