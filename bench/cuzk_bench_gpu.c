/*
 * GPU benchmarks: the Fr NTT and the G1 MSM of cuzk/gpu.h, timed with CUDA events on the legacy
 * default stream (every cuzk GPU call runs there and is synchronous), after one warm-up call that
 * also builds the cached twiddles. One JSON line per result, times in milliseconds:
 *
 *   cuzk-bench-gpu ntt --curve bn254|bls12381 --log-n K [--runs N] [--dev D]
 *   cuzk-bench-gpu msm --curve bn254|bls12381 --log-n K [--runs N] [--dev D]
 *                  [--scalars uniform|bits|equal] [--split auto|on|off] [--dev-only 1]
 *
 * ntt: "forward" and "inverse" (and "coset_forward") on device-resident data (copies: false),
 *      and "forward" through host memory (copies: true: host->device, transform, device->host).
 * msm: bases resident on the device; "dev_scalars" (copies: false) and "host_scalars" (the
 *      scalar upload included, copies: true). Bases: n distinct points [a + i·d]G made on the GPU
 *      (cz_<curve>_gpu_g1_bases_progression). Scalars: "uniform" below 2^252, "bits" 98.7 % zeros
 *      and ones (half each) and 1.3 % uniform (a Filecoin PoRep aux vector), "equal" one random
 *      value everywhere (the most skewed bucket load). --split sets CZ_GPU_MSM_SPLIT (auto leaves
 *      the library's choice); CZ_GPU_MSM_C and CZ_GPU_MSM_PROFILE pass through to the library.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "cuzk/curve.h"
#include "cuzk/err.h"
#include "cuzk/gpu.h"

static uint64_t prng_state = 0x6a09e667f3bcc908ULL;

static uint64_t prng_next(void) {
    uint64_t z = (prng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* n random Fr elements (4 u64 limbs each, below 2^252) at out. */
static void random_fr(uint64_t *out, size_t n) {
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 4; k++)
            out[4 * i + k] = prng_next();
        out[4 * i + 3] &= 0x0fffffffffffffffULL;
    }
}

typedef struct {
    const char *op;
    int curve; /* 0 bn254, 1 bls12381 */
    unsigned log_n;
    int runs, dev;
    const char *scalars, *split;
    int dev_only; /* msm: skip the host-scalar timing */
} opts;

typedef int (*timed_fn)(void *ctx, cz_errinfo *ei);

/* Runs fn once to warm up, then runs times between CUDA events; prints one JSON line. */
static int time_it(const opts *o, const char *op, int copies, timed_fn fn, void *ctx,
                   const char *devname) {
    cudaEvent_t e0, e1;
    cz_errinfo ei;
    double *ms = malloc((size_t)o->runs * sizeof *ms);
    int rc;
    cz_errinfo_clear(&ei);
    if (ms == NULL)
        return CZ_ENOMEM;
    if ((rc = fn(ctx, &ei)) != CZ_OK) {
        fprintf(stderr, "cuzk-bench-gpu: %s\n", ei.msg);
        free(ms);
        return rc;
    }
    if (cudaEventCreate(&e0) != cudaSuccess || cudaEventCreate(&e1) != cudaSuccess) {
        free(ms);
        return CZ_EGPU;
    }
    for (int r = 0; r < o->runs; r++) {
        float t = 0;
        cudaEventRecord(e0, 0);
        rc = fn(ctx, &ei);
        cudaEventRecord(e1, 0);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&t, e0, e1);
        if (rc != CZ_OK) {
            fprintf(stderr, "cuzk-bench-gpu: %s\n", ei.msg);
            break;
        }
        ms[r] = t;
    }
    if (rc == CZ_OK) {
        bench_stats s = bench_stats_of(ms, (size_t)o->runs);
        printf("{\"bench\":\"gpu\",\"op\":\"%s_%s\",\"curve\":\"%s\",\"log_n\":%u,\"copies\":%s,"
               "\"scalars\":\"%s\",\"split\":\"%s\",\"device\":\"%s\",\"runs\":%d,\"ms\":%.3f,"
               "\"min\":%.3f,\"max\":%.3f,\"git\":\"%s\"}\n",
               o->op, op, o->curve ? "bls12381" : "bn254", o->log_n, copies ? "true" : "false",
               o->scalars, o->split, devname, o->runs, s.median, s.min, s.max, bench_git_sha());
        fflush(stdout);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    free(ms);
    return rc;
}

/* ---- NTT ---- */

typedef struct {
    const opts *o;
    void *d_a, *h_a;
    cz_gpu_ntt_kind kind;
} ntt_ctx;

static int ntt_dev_fn(void *p, cz_errinfo *ei) {
    ntt_ctx *c = p;
    return c->o->curve ? cz_bls12381_gpu_ntt_dev(c->d_a, c->o->log_n, c->kind, c->o->dev, ei)
                       : cz_bn254_gpu_ntt_dev(c->d_a, c->o->log_n, c->kind, c->o->dev, ei);
}

static int ntt_host_fn(void *p, cz_errinfo *ei) {
    ntt_ctx *c = p;
    return c->o->curve ? cz_bls12381_gpu_ntt(c->h_a, c->o->log_n, c->kind, c->o->dev, ei)
                       : cz_bn254_gpu_ntt(c->h_a, c->o->log_n, c->kind, c->o->dev, ei);
}

static int bench_ntt(const opts *o, const char *devname) {
    size_t n = (size_t)1 << o->log_n, bytes = 32 * n;
    ntt_ctx c = {o, NULL, NULL, CZ_GPU_NTT_FORWARD};
    int rc;
    c.h_a = malloc(bytes);
    if (c.h_a == NULL)
        return CZ_ENOMEM;
    random_fr(c.h_a, n);
    if ((rc = cz_gpu_alloc(&c.d_a, bytes, o->dev, NULL)) != CZ_OK)
        goto out;
    if ((rc = cz_gpu_upload(c.d_a, c.h_a, bytes, o->dev, NULL)) != CZ_OK)
        goto out;
    if ((rc = time_it(o, "forward", 0, ntt_dev_fn, &c, devname)) != CZ_OK)
        goto out;
    c.kind = CZ_GPU_NTT_INVERSE;
    if ((rc = time_it(o, "inverse", 0, ntt_dev_fn, &c, devname)) != CZ_OK)
        goto out;
    c.kind = CZ_GPU_NTT_COSET_FORWARD;
    if ((rc = time_it(o, "coset_forward", 0, ntt_dev_fn, &c, devname)) != CZ_OK)
        goto out;
    c.kind = CZ_GPU_NTT_FORWARD;
    rc = time_it(o, "forward", 1, ntt_host_fn, &c, devname);
out:
    cz_gpu_free(c.d_a, o->dev);
    free(c.h_a);
    return rc;
}

/* ---- MSM ---- */

typedef struct {
    const opts *o;
    cz_gpu_bases *b;
    void *d_s, *h_s;
} msm_ctx;

static int msm_dev_fn(void *p, cz_errinfo *ei) {
    msm_ctx *c = p;
    size_t n = (size_t)1 << c->o->log_n;
    if (c->o->curve) {
        cz_bls12381_g1_jacobian r;
        return cz_bls12381_gpu_g1_msm_dev(&r, c->b, c->d_s, n, ei);
    }
    cz_bn254_g1_jacobian r;
    return cz_bn254_gpu_g1_msm_dev(&r, c->b, c->d_s, n, ei);
}

static int msm_host_fn(void *p, cz_errinfo *ei) {
    msm_ctx *c = p;
    size_t n = (size_t)1 << c->o->log_n;
    if (c->o->curve) {
        cz_bls12381_g1_jacobian r;
        return cz_bls12381_gpu_g1_msm(&r, c->b, c->h_s, n, ei);
    }
    cz_bn254_g1_jacobian r;
    return cz_bn254_gpu_g1_msm(&r, c->b, c->h_s, n, ei);
}

/* n distinct bases [a + i·d]G made on the device. */
#define PROGRESSION(curve)                                                                         \
    do {                                                                                           \
        cz_##curve##_g1_affine g_, p0_, step_;                                                     \
        cz_##curve##_g1_jacobian j_, t_;                                                           \
        cz_##curve##_fr a_, d_;                                                                    \
        random_fr(a_.l, 1);                                                                        \
        random_fr(d_.l, 1);                                                                        \
        cz_##curve##_g1_generator(&g_);                                                            \
        cz_##curve##_g1_from_affine(&j_, &g_);                                                     \
        cz_##curve##_g1_mul(&t_, &j_, &a_);                                                        \
        cz_##curve##_g1_to_affine(&p0_, &t_);                                                      \
        cz_##curve##_g1_mul(&t_, &j_, &d_);                                                        \
        cz_##curve##_g1_to_affine(&step_, &t_);                                                    \
        return cz_##curve##_gpu_g1_bases_progression(b, &p0_, &step_, n, o->dev, NULL);            \
    } while (0)

static int upload_bases(cz_gpu_bases **b, const opts *o) {
    size_t n = (size_t)1 << o->log_n;
    if (o->curve)
        PROGRESSION(bls12381);
    PROGRESSION(bn254);
}

/* The scalar set named by o->scalars (see the file comment). */
static void fill_scalars(uint64_t *s, size_t n, const opts *o) {
    /* Montgomery one: R mod r, from the library */
    cz_bn254_fr one0;
    cz_bls12381_fr one1;
    const uint64_t *one;
    cz_bn254_fr_one(&one0);
    cz_bls12381_fr_one(&one1);
    one = o->curve ? one1.l : one0.l;
    random_fr(s, n);
    if (strcmp(o->scalars, "bits") == 0) {
        for (size_t i = 0; i < n; i++) {
            uint64_t r = prng_next() % 1000;
            if (r < 987)
                for (int k = 0; k < 4; k++)
                    s[4 * i + k] = (r & 1) ? one[k] : 0;
        }
    } else if (strcmp(o->scalars, "equal") == 0) {
        for (size_t i = 1; i < n; i++)
            memcpy(&s[4 * i], s, 32);
    }
}

static int bench_msm(const opts *o, const char *devname) {
    size_t n = (size_t)1 << o->log_n, bytes = 32 * n;
    msm_ctx c = {o, NULL, NULL, NULL};
    int rc;
    c.h_s = malloc(bytes);
    if (c.h_s == NULL)
        return CZ_ENOMEM;
    fill_scalars(c.h_s, n, o);
    if (strcmp(o->split, "on") == 0)
        setenv("CZ_GPU_MSM_SPLIT", "1", 1);
    else if (strcmp(o->split, "off") == 0)
        setenv("CZ_GPU_MSM_SPLIT", "0", 1);
    if ((rc = upload_bases(&c.b, o)) != CZ_OK)
        goto out;
    if ((rc = cz_gpu_alloc(&c.d_s, bytes, o->dev, NULL)) != CZ_OK)
        goto out;
    if ((rc = cz_gpu_upload(c.d_s, c.h_s, bytes, o->dev, NULL)) != CZ_OK)
        goto out;
    if ((rc = time_it(o, "g1", 0, msm_dev_fn, &c, devname)) != CZ_OK)
        goto out;
    if (!o->dev_only)
        rc = time_it(o, "g1", 1, msm_host_fn, &c, devname);
out:
    cz_gpu_free(c.d_s, o->dev);
    cz_gpu_bases_free(c.b);
    free(c.h_s);
    return rc;
}

static void usage(void) {
    fprintf(stderr,
            "usage: cuzk-bench-gpu ntt|msm --curve bn254|bls12381 --log-n K [--runs N] "
            "[--dev D] [--scalars uniform|bits|equal] [--split auto|on|off] [--dev-only 1]\n");
    exit(2);
}

int main(int argc, char **argv) {
    opts o = {NULL, 0, 20, 0, 0, "uniform", "auto", 0};
    cz_gpu_info info;
    cz_errinfo ei;
    int rc, count;
    if (argc < 2)
        usage();
    o.op = argv[1];
    for (int i = 2; i < argc; i++) {
        if (i + 1 >= argc)
            usage();
        if (strcmp(argv[i], "--curve") == 0) {
            const char *c = argv[++i];
            if (strcmp(c, "bn254") == 0)
                o.curve = 0;
            else if (strcmp(c, "bls12381") == 0)
                o.curve = 1;
            else
                usage();
        } else if (strcmp(argv[i], "--log-n") == 0) {
            o.log_n = (unsigned)atoi(argv[++i]);
        } else if (strcmp(argv[i], "--runs") == 0) {
            o.runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--dev") == 0) {
            o.dev = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--dev-only") == 0) {
            o.dev_only = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--scalars") == 0) {
            o.scalars = argv[++i];
            if (strcmp(o.scalars, "uniform") && strcmp(o.scalars, "bits") &&
                strcmp(o.scalars, "equal"))
                usage();
        } else if (strcmp(argv[i], "--split") == 0) {
            o.split = argv[++i];
            if (strcmp(o.split, "auto") && strcmp(o.split, "on") && strcmp(o.split, "off"))
                usage();
        } else {
            usage();
        }
    }
    if (o.log_n < 1 || o.log_n > 30)
        usage();
    cz_errinfo_clear(&ei);
    if (cz_gpu_device_count(&count, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-bench-gpu: %s\n", ei.msg);
        return 77;
    }
    if (cz_gpu_device_info(&info, o.dev, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-bench-gpu: %s\n", ei.msg);
        return 1;
    }
    if (strcmp(o.op, "ntt") == 0) {
        if (o.runs <= 0)
            o.runs = 10;
        rc = bench_ntt(&o, info.name);
    } else if (strcmp(o.op, "msm") == 0) {
        if (o.runs <= 0)
            o.runs = 5;
        rc = bench_msm(&o, info.name);
    } else {
        usage();
        rc = CZ_EINVAL;
    }
    if (rc != CZ_OK)
        fprintf(stderr, "cuzk-bench-gpu: %s failed: %s\n", o.op, cz_strerror(rc));
    return rc == CZ_OK ? 0 : 1;
}
