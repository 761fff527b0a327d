/*
 * cuzk-bench-gpu-r1cs: how fast a, b, c = A·w, B·w, C·w of a constraint system resident on the
 * GPU are computed (cz_gpu_r1cs_eval, cuzk/gpu.h), against the CPU's cz_r1cs_eval on all cores
 * (the reference, measured in the same run). The system is synthetic and shaped like a PoRep
 * partition: 2^log_n - 1000 rows; A and C of one or two terms a row with 1 % of rows of 80-90
 * terms (the packing and MultiEq rows), B of one term; variables drawn at random over the whole
 * witness (the worst gather); coefficients 60 % one, 10 % minus one, 25 % powers of two, 5 %
 * random; the witness half ones, half zeros, 1 % random values. The GPU's a, b, c must equal the
 * CPU's, element for element. JSON lines: op "upload" (once), "gpu" and "cpu" (median, min, max
 * over runs, ns), and "ratio" (cpu / gpu).
 *
 *   cuzk-bench-gpu-r1cs [--log-n N (24)] [--runs R (5)]
 * Exit 77 without a GPU, 1 when the results differ.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "cuzk/gpu.h"
#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"

#define MAX_RUNS 21

static uint64_t rng = 0x1234567;

static uint64_t next(void) {
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A random element below r (the top limb cleared below r's). */
static void random_fr(uint64_t out[4]) {
    for (int j = 0; j < 4; j++)
        out[j] = next();
    out[3] &= 0x0fffffffffffffffull;
}

/* The synthetic system (see the file comment) into cs, its witness in cs->w. */
static int make_system(cz_r1cs *cs, unsigned log_n, cz_errinfo *ei) {
    const uint32_t nrows = (1u << log_n) - 1000, npublic = 9, naux = nrows - 10, ncoefs = 300;
    static const unsigned long_pm[3] = {10, 0, 10}, long_len[3] = {90, 0, 80},
                          max_short[3] = {2, 1, 2};
    uint64_t *len[3], nnz[3];
    cz_r1cs_mat *m[3] = {&cs->a, &cs->b, &cs->c};
    int rc;
    for (int k = 0; k < 3; k++) {
        if ((len[k] = malloc(nrows * sizeof *len[k])) == NULL)
            return cz_fail(ei, CZ_ENOMEM, "bench: rows");
        nnz[k] = 0;
        for (uint32_t i = 0; i < nrows; i++) {
            uint64_t r = next();
            len[k][i] = r % 1000 < long_pm[k] ? long_len[k] : 1 + (r >> 20) % max_short[k];
            nnz[k] += len[k][i];
        }
    }
    rc = cz_r1cs_alloc(cs, CZ_CURVE_BLS12381, npublic, naux, nrows, nnz, ncoefs, ei);
    for (int k = 0; rc == CZ_OK && k < 3; k++) {
        uint64_t t = 0;
        for (uint32_t i = 0; i < nrows; i++) {
            m[k]->row_ptr[i] = t;
            for (uint64_t e = 0; e < len[k][i]; e++, t++) {
                uint64_t r = next(), c = (r >> 40) % 100;
                m[k]->var[t] = (uint32_t)(r % cs->nvars);
                m[k]->coef[t] = c < 60   ? 0
                                : c < 70 ? 1
                                : c < 95 ? 2 + (r >> 48) % 198
                                         : 200 + (r >> 48) % 100;
            }
        }
        m[k]->row_ptr[nrows] = t;
    }
    for (int k = 0; k < 3; k++)
        free(len[k]);
    if (rc != CZ_OK)
        return rc;
    cz_r1cs_coef_set_i64(cs, 0, 1);
    cz_r1cs_coef_set_i64(cs, 1, -1);
    for (uint32_t i = 2; i < ncoefs; i++) {
        if (i < 200)
            cz_r1cs_coef_set_pow2(cs, i, i % 63);
        else {
            uint64_t v[4];
            random_fr(v);
            cz_r1cs_coef_set(cs, i, v);
        }
    }
    for (uint32_t v = 1; v < cs->nvars; v++) {
        uint64_t r = next() % 1000;
        if (r < 500)
            cz_r1cs_fr_from_u64(cs->w[v], CZ_CURVE_BLS12381, 1);
        else if (r < 990)
            memset(cs->w[v], 0, sizeof cs->w[v]);
        else {
            uint64_t s[4];
            random_fr(s);
            cz_r1cs_fr_from_std(cs->w[v], CZ_CURVE_BLS12381, s);
        }
    }
    return CZ_OK;
}

static void print(const char *op, unsigned log_n, double *ns, int runs) {
    char fields[128];
    snprintf(fields, sizeof fields, "\"op\":\"%s\",\"log_n\":%u", op, log_n);
    bench_print_json("gpu-r1cs", fields, bench_stats_of(ns, (size_t)runs));
}

int main(int argc, char **argv) {
    unsigned log_n = 24;
    int runs = 5, status = 1, count = 0;
    double gpu_ns[MAX_RUNS], cpu_ns[MAX_RUNS], up_ns[1];
    cz_r1cs cs;
    cz_gpu_r1cs_host h;
    cz_gpu_r1cs *m = NULL;
    cz_threadpool *pool = NULL;
    uint64_t(*host)[4] = NULL, (*dev)[4] = NULL;
    void *d_w = NULL, *d_abc = NULL;
    size_t n;
    cz_errinfo ei;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--log-n") == 0 && i + 1 < argc)
            log_n = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: cuzk-bench-gpu-r1cs [--log-n N] [--runs R]\n");
            return 2;
        }
    }
    if (log_n < 11 || log_n > 28 || runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "cuzk-bench-gpu-r1cs: --log-n 11..28, --runs 1..%d\n", MAX_RUNS);
        return 2;
    }
    cz_errinfo_clear(&ei);
    if (cz_gpu_device_count(&count, &ei) != CZ_OK || count == 0) {
        fprintf(stderr, "cuzk-bench-gpu-r1cs: no GPU: %s\n", ei.msg);
        return 77;
    }
    n = (size_t)1 << log_n;
    memset(&cs, 0, sizeof cs);
    if (make_system(&cs, log_n, &ei) != CZ_OK || cz_threadpool_create(&pool, 0, &ei) != CZ_OK)
        goto out;
    host = malloc(3 * n * sizeof *host);
    dev = malloc(3 * n * sizeof *dev);
    if (host == NULL || dev == NULL) {
        cz_fail(&ei, CZ_ENOMEM, "bench: 2 x 3 x %zu elements", n);
        goto out;
    }
    cz_r1cs_gpu_view(&h, &cs);
    uint64_t t0 = bench_now_ns();
    if (cz_bls12381_gpu_r1cs_upload(&m, &h, 0, &ei) != CZ_OK)
        goto out;
    up_ns[0] = (double)(bench_now_ns() - t0);
    print("upload", log_n, up_ns, 1);
    if (cz_gpu_alloc(&d_w, (size_t)cs.nvars * 32, 0, &ei) != CZ_OK ||
        cz_gpu_upload(d_w, cs.w, (size_t)cs.nvars * 32, 0, &ei) != CZ_OK ||
        cz_gpu_alloc(&d_abc, 3 * n * 32, 0, &ei) != CZ_OK)
        goto out;
    for (int r = 0; r < runs; r++) {
        t0 = bench_now_ns();
        if (cz_gpu_r1cs_eval(m, d_abc, n, d_w, &ei) != CZ_OK)
            goto out;
        gpu_ns[r] = (double)(bench_now_ns() - t0);
        t0 = bench_now_ns();
        if (cz_r1cs_eval(host, host + n, host + 2 * n, &cs, n, CZ_R1CS_EVAL_INPUT_ROWS, pool,
                         &ei) != CZ_OK)
            goto out;
        cpu_ns[r] = (double)(bench_now_ns() - t0);
    }
    if (cz_gpu_download(dev, d_abc, 3 * n * 32, 0, &ei) != CZ_OK)
        goto out;
    if (memcmp(host, dev, 3 * n * sizeof *host) != 0) {
        fprintf(stderr, "cuzk-bench-gpu-r1cs: the GPU's a, b, c differ from the CPU's\n");
        goto out;
    }
    print("gpu", log_n, gpu_ns, runs);
    print("cpu", log_n, cpu_ns, runs);
    {
        double g = bench_stats_of(gpu_ns, (size_t)runs).median,
               c = bench_stats_of(cpu_ns, (size_t)runs).median;
        printf("{\"bench\":\"gpu-r1cs\",\"op\":\"ratio\",\"log_n\":%u,\"terms\":%llu,\"cpu_over_"
               "gpu\":%.1f}\n",
               log_n, (unsigned long long)(cs.a.nnz + cs.b.nnz + cs.c.nnz), c / g);
    }
    status = 0;
out:
    if (status != 0 && ei.code != CZ_OK)
        fprintf(stderr, "cuzk-bench-gpu-r1cs: %s\n", ei.msg);
    cz_gpu_free(d_w, 0);
    cz_gpu_free(d_abc, 0);
    cz_gpu_r1cs_free(m);
    free(host);
    free(dev);
    cz_threadpool_destroy(pool);
    cz_r1cs_free(&cs);
    return status;
}
