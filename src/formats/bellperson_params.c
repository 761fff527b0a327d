/*
 * bellperson's .params (cuzk/bellperson.h): reading into the caller's memory in parallel, and
 * writing. The reader walks the counts, reads the verifying key, allocates the five arrays from
 * the caller's allocator (nothing is allocated before the walk has matched the counts to the
 * file's size) and hands the five sections to the shared decoder of bellperson.c. The writer
 * (test and local keys, not Filecoin's) encodes the points in runs of RUN_POINTS on the caller's
 * pool and writes each run as one block: encoding a point takes about 230 ns on one core, so a
 * 32 GiB PoRep key (430 M points) took 100 s of encoding on the calling thread alone.
 */
#include "formats/bellperson_internal.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/encoding.h"
#include "cuzk/threadpool.h"
#include "formats/bufwrite.h"

#define NARRAYS (CZ_BELLPERSON_NSECTIONS - 1) /* H, L, A, B_G1, B_G2 */

/* The array and count of section H + k, k < NARRAYS. */
static void **array_of(cz_bellperson_params *p, int k) {
    void **a[NARRAYS] = {(void **)&p->h, (void **)&p->l, (void **)&p->a, (void **)&p->b_g1,
                         (void **)&p->b_g2};
    return a[k];
}

static uint32_t *count_of(cz_bellperson_params *p, int k) {
    uint32_t *n[NARRAYS] = {&p->nh, &p->nl, &p->na, &p->nb_g1, &p->nb_g2};
    return n[k];
}

static size_t array_bytes(int k, uint32_t n) {
    return (size_t)n * cz_bellperson_point_bytes(CZ_BELLPERSON_H + k);
}

void cz_bellperson_params_free(cz_bellperson_params *p) {
    if (p == NULL)
        return;
    for (int k = 0; k < NARRAYS; k++) {
        void **a = array_of(p, k);
        if (*a != NULL && p->mem.alloc != NULL)
            p->mem.free(p->mem.arg, *a, array_bytes(k, *count_of(p, k)));
        else
            free(*a);
        *a = NULL;
        *count_of(p, k) = 0;
    }
    cz_bellperson_vk_free(&p->vk);
}

static int params_read_src(cz_bellperson_params *p, const cz__bp_src *s,
                           const cz_bellperson_read_opts *opts, cz_errinfo *ei) {
    const cz_bellperson_read_opts none = {0, NULL, NULL};
    cz_bellperson_info info;
    cz__bp_job jobs[NARRAYS];
    size_t njobs = 0;
    if (opts == NULL)
        opts = &none;
    memset(p, 0, sizeof *p);
    if (opts->mem != NULL && opts->mem->alloc != NULL)
        p->mem = *opts->mem;
    int rc = cz__bp_walk(&info, s, CZ_BELLPERSON_PARAMS, ei);
    if (rc == CZ_OK)
        rc = cz__bp_vk_read(&p->vk, s, &info, opts->pool, ei);
    for (int k = 0; rc == CZ_OK && k < NARRAYS; k++) {
        int sect = CZ_BELLPERSON_H + k;
        uint32_t n = info.count[sect];
        size_t bytes = array_bytes(k, n);
        void **a = array_of(p, k);
        if (n == 0)
            continue;
        *a = p->mem.alloc != NULL ? p->mem.alloc(p->mem.arg, bytes) : malloc(bytes);
        if (*a == NULL) {
            rc = cz_fail(ei, CZ_ENOMEM, "%s: cannot allocate %zu bytes for the %u %s points",
                         s->name, bytes, n, cz_bellperson_section_name(sect));
            break;
        }
        *count_of(p, k) = n;
        jobs[njobs++] = (cz__bp_job){sect, *a, info.offset[sect] + 4, n, opts->check_subgroup};
    }
    if (rc == CZ_OK)
        rc = cz__bp_decode(s, jobs, njobs, opts->pool, ei);
    if (rc == CZ_OK && s->fd >= 0)
        rc = cz_file_check_unchanged(s->fd, &s->id, s->name, ei);
    if (rc == CZ_OK && s->fd >= 0)
        p->id = s->id;
    for (int k = 0; rc == CZ_OK && p->mem.filled != NULL && k < NARRAYS; k++)
        if (*array_of(p, k) != NULL)
            p->mem.filled(p->mem.arg, *array_of(p, k), array_bytes(k, *count_of(p, k)));
    if (rc != CZ_OK) {
        cz_bellperson_params_free(p);
        memset(p, 0, sizeof *p);
    }
    return rc;
}

int cz_bellperson_params_equal(const cz_bellperson_params *x, const cz_bellperson_params *y) {
    const cz_bellperson_vk *a = &x->vk, *b = &y->vk;
#define SAME(n, p, q) ((n) == 0 || memcmp((p), (q), (size_t)(n) * sizeof *(p)) == 0)
    return memcmp(&a->alpha_g1, &b->alpha_g1, sizeof a->alpha_g1) == 0 &&
           memcmp(&a->beta_g1, &b->beta_g1, sizeof a->beta_g1) == 0 &&
           memcmp(&a->delta_g1, &b->delta_g1, sizeof a->delta_g1) == 0 &&
           memcmp(&a->beta_g2, &b->beta_g2, sizeof a->beta_g2) == 0 &&
           memcmp(&a->gamma_g2, &b->gamma_g2, sizeof a->gamma_g2) == 0 &&
           memcmp(&a->delta_g2, &b->delta_g2, sizeof a->delta_g2) == 0 && a->nic == b->nic &&
           x->nh == y->nh && x->nl == y->nl && x->na == y->na && x->nb_g1 == y->nb_g1 &&
           x->nb_g2 == y->nb_g2 && SAME(a->nic, a->ic, b->ic) && SAME(x->nh, x->h, y->h) &&
           SAME(x->nl, x->l, y->l) && SAME(x->na, x->a, y->a) && SAME(x->nb_g1, x->b_g1, y->b_g1) &&
           SAME(x->nb_g2, x->b_g2, y->b_g2);
#undef SAME
}

int cz_bellperson_params_read(cz_bellperson_params *p, const char *path,
                              const cz_bellperson_read_opts *opts, cz_errinfo *ei) {
    cz__bp_src s;
    memset(p, 0, sizeof *p);
    int rc = cz__bp_src_open(&s, path, ei);
    if (rc != CZ_OK)
        return rc;
    rc = params_read_src(p, &s, opts, ei);
    cz__bp_src_close(&s);
    return rc;
}

int cz_bellperson_params_read_mem(cz_bellperson_params *p, const void *data, size_t size,
                                  const char *name, const cz_bellperson_read_opts *opts,
                                  cz_errinfo *ei) {
    cz__bp_src s;
    cz__bp_src_mem(&s, data, size, name);
    return params_read_src(p, &s, opts, ei);
}

/* The five arrays of a params the writer only reads. */
typedef struct arrays {
    const void *a[NARRAYS];
    uint32_t n[NARRAYS];
} arrays;

static void arrays_of(arrays *x, const cz_bellperson_params *p) {
    *x = (arrays){{p->h, p->l, p->a, p->b_g1, p->b_g2}, {p->nh, p->nl, p->na, p->nb_g1, p->nb_g2}};
}

#define RUN_POINTS (1u << 18) /* points encoded at once: 24 MiB of G1, 48 MiB of G2 */
#define RUN_TASKS  64         /* pool tasks a run is split into */

/* One run of one array: points [first, first + count) of a, encoded into out, or (out NULL)
 * searched for infinity, each task's first one in inf[task] (UINT32_MAX: none). */
typedef struct run {
    const void *a;
    int g2;
    uint32_t first, count;
    uint8_t *out;
    uint32_t inf[RUN_TASKS];
} run;

static void run_task(void *arg, size_t task) {
    run *r = arg;
    uint32_t per = (r->count + RUN_TASKS - 1) / RUN_TASKS;
    uint32_t lo = (uint32_t)task * per, hi = lo + per < r->count ? lo + per : r->count;
    size_t out_bytes =
        r->g2 ? CZ_BLS12381_G2_UNCOMPRESSED_BYTES : CZ_BLS12381_G1_UNCOMPRESSED_BYTES;
    r->inf[task] = UINT32_MAX;
    for (uint32_t i = lo; i < hi; i++) {
        uint32_t at = r->first + i;
        const cz_bls12381_g1_affine *p1 = (const cz_bls12381_g1_affine *)r->a + at;
        const cz_bls12381_g2_affine *p2 = (const cz_bls12381_g2_affine *)r->a + at;
        if (r->out == NULL) {
            if (r->g2 ? cz_bls12381_g2_is_infinity(p2) : cz_bls12381_g1_is_infinity(p1)) {
                r->inf[task] = at;
                return;
            }
        } else if (r->g2) {
            cz_bls12381_g2_to_uncompressed(r->out + (size_t)i * out_bytes, p2);
        } else {
            cz_bls12381_g1_to_uncompressed(r->out + (size_t)i * out_bytes, p1);
        }
    }
}

/* Array k of x in runs: encoded into out and written to bw, or (out NULL) searched for its
 * first infinity, returned (UINT32_MAX: none). */
static uint32_t array_runs(const arrays *x, int k, uint8_t *out, cz__bw *bw, cz_threadpool *pool) {
    run r;
    size_t out_bytes;
    memset(&r, 0, sizeof r);
    r.a = x->a[k];
    r.g2 = CZ_BELLPERSON_H + k == CZ_BELLPERSON_B_G2;
    r.out = out;
    out_bytes = r.g2 ? CZ_BLS12381_G2_UNCOMPRESSED_BYTES : CZ_BLS12381_G1_UNCOMPRESSED_BYTES;
    for (r.first = 0; r.first < x->n[k]; r.first += r.count) {
        r.count = x->n[k] - r.first < RUN_POINTS ? x->n[k] - r.first : RUN_POINTS;
        cz_threadpool_run(pool, run_task, &r, RUN_TASKS);
        if (out != NULL) {
            cz__bw_bytes(bw, out, (size_t)r.count * out_bytes);
            continue;
        }
        for (int t = 0; t < RUN_TASKS; t++)
            if (r.inf[t] != UINT32_MAX)
                return r.inf[t]; /* tasks cover ascending ranges: the first found is the first */
    }
    return UINT32_MAX;
}

int cz_bellperson_params_write(const char *path, const cz_bellperson_params *p, cz_threadpool *pool,
                               cz_errinfo *ei) {
    size_t vkn = cz_bellperson_vk_bytes(&p->vk);
    uint8_t *vkb = malloc(vkn),
            *out = malloc((size_t)RUN_POINTS * CZ_BLS12381_G2_UNCOMPRESSED_BYTES);
    cz__bw *bw = malloc(sizeof *bw);
    arrays x;
    int rc;
    arrays_of(&x, p);
    if (vkb == NULL || bw == NULL || out == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "%s: out of memory", path);
        goto out;
    }
    if ((rc = cz_bellperson_vk_encode(vkb, &p->vk, ei)) != CZ_OK) {
        rc = cz_fail(ei, rc, "%s", path);
        goto out;
    }
    /* an infinity is refused, naming the first, before anything is written */
    for (int k = 0; k < NARRAYS; k++) {
        uint32_t inf = array_runs(&x, k, NULL, NULL, pool);
        if (inf != UINT32_MAX) {
            rc = cz_fail(ei, CZ_EINVAL, "%s: %s point %u is the point at infinity", path,
                         cz_bellperson_section_name(CZ_BELLPERSON_H + k), inf);
            goto out;
        }
    }
    if ((rc = cz__bw_create(bw, path, ei)) != CZ_OK)
        goto out;
    cz__bw_bytes(bw, vkb, vkn);
    for (int k = 0; k < NARRAYS; k++) {
        uint8_t count[4];
        cz__put_be32(count, x.n[k]);
        cz__bw_bytes(bw, count, 4);
        (void)array_runs(&x, k, out, bw, pool);
    }
    rc = cz__bw_finish(bw, path, ei);
out:
    free(out);
    free(bw);
    free(vkb);
    return rc;
}
