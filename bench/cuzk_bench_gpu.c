/*
 * GPU benchmarks: the Fr NTT and the G1 MSM of cuzk/gpu.h, timed with CUDA events on the legacy
 * default stream (every cuzk GPU call runs there and is synchronous), after one warm-up call that
 * also builds the cached twiddles. One JSON line per result, times in milliseconds:
 *
 *   cuzk-bench-gpu ntt --curve bn254|bls12381 --log-n K [--runs N] [--dev D]
 *   cuzk-bench-gpu msm --curve bn254|bls12381 --log-n K [--runs N] [--dev D]
 *   cuzk-bench-gpu fmul --curve bn254|bls12381 [--log-n K] [--runs N] [--dev D]
 *
 * ntt: "forward" and "inverse" (and "coset_forward") on device-resident data (copies: false),
 *      and "forward" through host memory (copies: true: host->device, transform, device->host).
 * fmul: device field multiplication throughput, Fr and Fp of the curve: 2^K threads (default
 *      2^20) × 4 independent chains × 256 rounds; variants "mul" (fe_mul), "evenodd" (an
 *      operand-scanning multiplication with even/odd accumulators, in gpu_ntt.cu) and "sqr"
 *      (fe_sqr); "gops" = 10^9 operations per second (from the fastest run). Also checks that
 *      mul and evenodd give identical results ("fmul_check").
 * msm: bases resident on the device; "dev_scalars" (copies: false) and "host_scalars" (the
 *      scalar upload included, copies: true). Bases: 2^16 distinct points [a + i·d]G repeated to
 *      fill n (the kernels' work does not depend on repetition); scalars uniform below 2^252.
 */
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
               "\"device\":\"%s\",\"runs\":%d,\"ms\":%.3f,\"min\":%.3f,\"max\":%.3f,"
               "\"git\":\"%s\"}\n",
               o->op, op, o->curve ? "bls12381" : "bn254", o->log_n, copies ? "true" : "false",
               devname, o->runs, s.median, s.min, s.max, bench_git_sha());
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

/* ---- field multiplication ---- */

/* In src/gpu/gpu_ntt.cu (internal): field 0 BN254 Fr, 1 BLS12-381 Fr, 2 BN254 Fp, 3 BLS12-381 Fp;
 * variant 0 fe_mul, 1 even/odd operand scanning, 2 fe_sqr; d_io = 5·count elements, 4·count·iters
 * operations. */
int cz__gpu_fmul_bench(int field, int variant, void *d_io, size_t count, unsigned iters, int dev,
                       cz_errinfo *ei);

#define FMUL_ITERS 256u

static int bench_fmul(const opts *o, const char *devname) {
    static const char *const fname[4] = {"fr", "fr", "fp", "fp"};
    static const char *const vname[3] = {"mul", "evenodd", "sqr"};
    size_t count = (size_t)1 << o->log_n;
    int rc = CZ_OK;
    for (int f = o->curve; f < 4; f += 2) {
        size_t elem = f == 3 ? 48 : 32, bytes = 5 * count * elem;
        uint64_t *h = malloc(bytes), *out[2] = {malloc(bytes), malloc(bytes)};
        void *d = NULL;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        if (h == NULL || out[0] == NULL || out[1] == NULL) {
            rc = CZ_ENOMEM;
            goto next;
        }
        for (size_t i = 0; i < 5 * count; i++) {
            uint64_t *l = h + i * (elem / 8);
            random_fr(l, 1); /* 4 limbs below 2^252 */
            if (elem == 48) {
                l[4] = prng_next();
                l[5] = prng_next() & 0x0fffffffffffffffULL; /* below 2^380 < p */
            }
        }
        if ((rc = cz_gpu_alloc(&d, bytes, o->dev, &ei)) != CZ_OK)
            goto next;
        for (int v = 0; v < 3; v++) {
            cudaEvent_t e0, e1;
            double *ms = malloc((size_t)o->runs * sizeof *ms);
            if (ms == NULL) {
                rc = CZ_ENOMEM;
                goto next;
            }
            cudaEventCreate(&e0);
            cudaEventCreate(&e1);
            /* warm-up plus runs, all from the same input, so mul and ref end equal */
            if ((rc = cz_gpu_upload(d, h, bytes, o->dev, &ei)) == CZ_OK)
                rc = cz__gpu_fmul_bench(f, v, d, count, FMUL_ITERS, o->dev, &ei);
            for (int r = 0; r < o->runs && rc == CZ_OK; r++) {
                float t = 0;
                cudaEventRecord(e0, 0);
                rc = cz__gpu_fmul_bench(f, v, d, count, FMUL_ITERS, o->dev, &ei);
                cudaEventRecord(e1, 0);
                cudaEventSynchronize(e1);
                cudaEventElapsedTime(&t, e0, e1);
                ms[r] = t;
            }
            if (rc == CZ_OK && v < 2)
                rc = cz_gpu_download(out[v], d, bytes, o->dev, &ei);
            if (rc == CZ_OK) {
                bench_stats s = bench_stats_of(ms, (size_t)o->runs);
                double ops = 4.0 * (double)count * FMUL_ITERS;
                printf("{\"bench\":\"gpu\",\"op\":\"fmul_%s_%s\",\"curve\":\"%s\",\"log_n\":%u,"
                       "\"copies\":false,\"device\":\"%s\",\"runs\":%d,\"ms\":%.3f,\"min\":%.3f,"
                       "\"max\":%.3f,\"gops\":%.2f,\"git\":\"%s\"}\n",
                       fname[f], vname[v], o->curve ? "bls12381" : "bn254", o->log_n, devname,
                       o->runs, s.median, s.min, s.max, ops / (s.min * 1e6), bench_git_sha());
            }
            cudaEventDestroy(e0);
            cudaEventDestroy(e1);
            free(ms);
            if (rc != CZ_OK)
                goto next;
        }
        printf("{\"bench\":\"gpu\",\"op\":\"fmul_%s_check\",\"curve\":\"%s\",\"equal\":%s}\n",
               fname[f], o->curve ? "bls12381" : "bn254",
               memcmp(out[0], out[1], bytes) == 0 ? "true" : "false");
        if (memcmp(out[0], out[1], bytes) != 0)
            rc = CZ_EINVAL;
    next:
        if (rc != CZ_OK && ei.msg[0])
            fprintf(stderr, "cuzk-bench-gpu: %s\n", ei.msg);
        cz_gpu_free(d, o->dev);
        free(h);
        free(out[0]);
        free(out[1]);
        if (rc != CZ_OK)
            return rc;
    }
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

/* Writes n bases at out: 2^16 distinct points [a + i·d]G, repeated. */
#define MAKE_BASES(curve, out, n)                                                                  \
    do {                                                                                           \
        size_t nd_ = (n) < ((size_t)1 << 16) ? (n) : ((size_t)1 << 16);                            \
        cz_##curve##_g1_affine g_, *o_ = (out);                                                    \
        cz_##curve##_g1_jacobian p_, step_, *j_ = malloc(nd_ * sizeof *j_);                        \
        cz_##curve##_fr a_, d_;                                                                    \
        if (j_ == NULL)                                                                            \
            return CZ_ENOMEM;                                                                      \
        random_fr(a_.l, 1);                                                                        \
        random_fr(d_.l, 1);                                                                        \
        cz_##curve##_g1_generator(&g_);                                                            \
        cz_##curve##_g1_from_affine(&p_, &g_);                                                     \
        step_ = p_;                                                                                \
        cz_##curve##_g1_mul(&p_, &p_, &a_);                                                        \
        cz_##curve##_g1_mul(&step_, &step_, &d_);                                                  \
        for (size_t i_ = 0; i_ < nd_; i_++) {                                                      \
            j_[i_] = p_;                                                                           \
            cz_##curve##_g1_add(&p_, &p_, &step_);                                                 \
        }                                                                                          \
        cz_##curve##_g1_batch_to_affine(o_, j_, nd_);                                              \
        free(j_);                                                                                  \
        for (size_t i_ = nd_; i_ < (n); i_++)                                                      \
            o_[i_] = o_[i_ - nd_];                                                                 \
    } while (0)

static int upload_bases(cz_gpu_bases **b, const opts *o) {
    size_t n = (size_t)1 << o->log_n;
    int rc;
    if (o->curve) {
        cz_bls12381_g1_affine *pts = malloc(n * sizeof *pts);
        if (pts == NULL)
            return CZ_ENOMEM;
        MAKE_BASES(bls12381, pts, n);
        rc = cz_bls12381_gpu_g1_bases_upload(b, pts, n, o->dev, NULL);
        free(pts);
    } else {
        cz_bn254_g1_affine *pts = malloc(n * sizeof *pts);
        if (pts == NULL)
            return CZ_ENOMEM;
        MAKE_BASES(bn254, pts, n);
        rc = cz_bn254_gpu_g1_bases_upload(b, pts, n, o->dev, NULL);
        free(pts);
    }
    return rc;
}

static int bench_msm(const opts *o, const char *devname) {
    size_t n = (size_t)1 << o->log_n, bytes = 32 * n;
    msm_ctx c = {o, NULL, NULL, NULL};
    int rc;
    c.h_s = malloc(bytes);
    if (c.h_s == NULL)
        return CZ_ENOMEM;
    random_fr(c.h_s, n);
    if ((rc = upload_bases(&c.b, o)) != CZ_OK)
        goto out;
    if ((rc = cz_gpu_alloc(&c.d_s, bytes, o->dev, NULL)) != CZ_OK)
        goto out;
    if ((rc = cz_gpu_upload(c.d_s, c.h_s, bytes, o->dev, NULL)) != CZ_OK)
        goto out;
    if ((rc = time_it(o, "g1", 0, msm_dev_fn, &c, devname)) != CZ_OK)
        goto out;
    rc = time_it(o, "g1", 1, msm_host_fn, &c, devname);
out:
    cz_gpu_free(c.d_s, o->dev);
    cz_gpu_bases_free(c.b);
    free(c.h_s);
    return rc;
}

static void usage(void) {
    fprintf(stderr,
            "usage: cuzk-bench-gpu ntt|msm|fmul --curve bn254|bls12381 --log-n K [--runs N] "
            "[--dev D]\n");
    exit(2);
}

int main(int argc, char **argv) {
    opts o = {NULL, 0, 20, 0, 0};
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
    } else if (strcmp(o.op, "fmul") == 0) {
        if (o.runs <= 0)
            o.runs = 5;
        rc = bench_fmul(&o, info.name);
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
