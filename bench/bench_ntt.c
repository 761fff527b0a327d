/*
 * cuzk-bench ntt: in-place transforms of 2^K random Fr elements, one line per kind (--kind).
 *
 * CPU: the domain (twiddles) is created once per size, untimed (its time is reported as
 * domain_ms); each run transforms the same array again on the thread pool.
 * GPU: the twiddles are built and cached on the device by the warm-up run (--warmup 0 leaves
 * that in the first timed run). copies = false transforms data already on the device
 * (cz_<curve>_gpu_ntt_dev); copies = true transforms host memory (upload, transform, download:
 * cz_<curve>_gpu_ntt).
 */
#include <stdlib.h>

#include "bench.h"
#include "cuzk/clock.h"
#include "cuzk/gpu.h"
#include "cuzk/ntt.h"
#include "cuzk/threadpool.h"

typedef struct {
    cz_curve_id curve;
    unsigned log_n;
    int kind, dev;
    void *a, *d_a;
    cz_bn254_ntt_domain *bn;
    cz_bls12381_ntt_domain *bls;
    cz_bn254_fr bn_g;
    cz_bls12381_fr bls_g;
    cz_threadpool *pool;
} ntt_ctx;

static int cpu_fn(void *p, cz_errinfo *ei) {
    ntt_ctx *c = p;
    (void)ei;
    if (c->curve == CZ_CURVE_BN254) {
        switch (c->kind) {
        case BENCH_NTT_FORWARD:
            cz_bn254_ntt_forward(c->a, c->bn, c->pool);
            break;
        case BENCH_NTT_INVERSE:
            cz_bn254_ntt_inverse(c->a, c->bn, c->pool);
            break;
        case BENCH_NTT_COSET_FORWARD:
            cz_bn254_ntt_coset_forward(c->a, c->bn, &c->bn_g, c->pool);
            break;
        default:
            cz_bn254_ntt_coset_inverse(c->a, c->bn, &c->bn_g, c->pool);
        }
        return CZ_OK;
    }
    switch (c->kind) {
    case BENCH_NTT_FORWARD:
        cz_bls12381_ntt_forward(c->a, c->bls, c->pool);
        break;
    case BENCH_NTT_INVERSE:
        cz_bls12381_ntt_inverse(c->a, c->bls, c->pool);
        break;
    case BENCH_NTT_COSET_FORWARD:
        cz_bls12381_ntt_coset_forward(c->a, c->bls, &c->bls_g, c->pool);
        break;
    default:
        cz_bls12381_ntt_coset_inverse(c->a, c->bls, &c->bls_g, c->pool);
    }
    return CZ_OK;
}

/* The bench kinds are numbered as cz_gpu_ntt_kind. */
static int gpu_host_fn(void *p, cz_errinfo *ei) {
    ntt_ctx *c = p;
    cz_gpu_ntt_kind k = (cz_gpu_ntt_kind)c->kind;
    return c->curve == CZ_CURVE_BN254
               ? cz_bn254_gpu_ntt(c->a, c->log_n, CZ_NTT_ROOTS_SNARKJS, k, c->dev, ei)
               : cz_bls12381_gpu_ntt(c->a, c->log_n, CZ_NTT_ROOTS_SNARKJS, k, c->dev, ei);
}

static int gpu_dev_fn(void *p, cz_errinfo *ei) {
    ntt_ctx *c = p;
    cz_gpu_ntt_kind k = (cz_gpu_ntt_kind)c->kind;
    return c->curve == CZ_CURVE_BN254
               ? cz_bn254_gpu_ntt_dev(c->d_a, c->log_n, CZ_NTT_ROOTS_SNARKJS, k, c->dev, ei)
               : cz_bls12381_gpu_ntt_dev(c->d_a, c->log_n, CZ_NTT_ROOTS_SNARKJS, k, c->dev, ei);
}

static int run_mode(const bench_opts *o, ntt_ctx *c, int copies, bench_fn fn, double domain_ms) {
    double ms[BENCH_MAX_RUNS];
    bench_json j;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (bench_time(ms, o->runs, o->warmup, o->gpu ? o->device : -1, fn, c, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-bench ntt: %s 2^%u %s: %s\n", bench_curve_name(c->curve), c->log_n,
                bench_ntt_kind_names[c->kind], ei.msg);
        return BENCH_FAIL;
    }
    bench_json_result(&j, o, "ntt", c->curve, c->log_n, copies, ms);
    bench_json_str(&j, "kind", bench_ntt_kind_names[c->kind]);
    if (domain_ms >= 0)
        bench_json_num(&j, "domain_ms", domain_ms);
    bench_json_print(&j);
    return BENCH_OK;
}

static int run_size(const bench_opts *o, cz_curve_id curve, unsigned log_n, cz_threadpool *pool) {
    size_t n = (size_t)1 << log_n;
    ntt_ctx c = {.curve = curve, .log_n = log_n, .dev = o->device, .pool = pool};
    double domain_ms = -1;
    cz_errinfo ei;
    int rc = BENCH_FAIL;
    cz_errinfo_clear(&ei);
    if ((c.a = malloc(32 * n)) == NULL) {
        fprintf(stderr, "cuzk-bench ntt: out of memory for 2^%u elements\n", log_n);
        goto out;
    }
    bench_random_fr(c.a, curve, n, 0x6e7474 ^ log_n);
    if (!o->gpu) {
        uint64_t t0 = cz_clock_now_ns();
        int e = curve == CZ_CURVE_BN254
                    ? cz_bn254_ntt_domain_create(&c.bn, log_n, CZ_NTT_ROOTS_SNARKJS, pool, &ei)
                    : cz_bls12381_ntt_domain_create(&c.bls, log_n, CZ_NTT_ROOTS_SNARKJS, pool, &ei);
        if (e == CZ_OK)
            e = curve == CZ_CURVE_BN254
                    ? cz_bn254_ntt_coset_gen(&c.bn_g, log_n, CZ_NTT_ROOTS_SNARKJS)
                    : cz_bls12381_ntt_coset_gen(&c.bls_g, log_n, CZ_NTT_ROOTS_SNARKJS);
        if (e != CZ_OK) {
            fprintf(stderr, "cuzk-bench ntt: %s 2^%u: %s\n", bench_curve_name(curve), log_n,
                    ei.msg[0] ? ei.msg : cz_strerror(e));
            goto out;
        }
        domain_ms = cz_clock_elapsed_s(t0) * 1e3;
    } else if (cz_gpu_alloc(&c.d_a, 32 * n, o->device, &ei) != CZ_OK ||
               cz_gpu_upload(c.d_a, c.a, 32 * n, o->device, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-bench ntt: GPU set-up for 2^%u: %s\n", log_n, ei.msg);
        goto out;
    }
    rc = BENCH_OK;
    for (c.kind = 0; c.kind < 4 && rc == BENCH_OK; c.kind++) {
        if (!(o->ntt_kinds & (1u << c.kind)))
            continue;
        if (!o->gpu) {
            rc = run_mode(o, &c, -1, cpu_fn, domain_ms);
            continue;
        }
        if (o->copies != 1) {
            rc = run_mode(o, &c, 0, gpu_dev_fn, -1);
        }
        if (rc == BENCH_OK && o->copies != 0)
            rc = run_mode(o, &c, 1, gpu_host_fn, -1);
    }
out:
    if (c.d_a != NULL)
        cz_gpu_free(c.d_a, o->device);
    cz_bn254_ntt_domain_destroy(c.bn);
    cz_bls12381_ntt_domain_destroy(c.bls);
    free(c.a);
    return rc;
}

int bench_cmd_ntt(bench_opts *o) {
    return bench_each_size(o, !o->gpu, run_size);
}
