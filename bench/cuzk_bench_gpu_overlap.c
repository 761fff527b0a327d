/*
 * cuzk-bench-gpu-overlap: how much of a bellperson proof's h (six NTTs and two element-wise
 * passes over 2^K elements, bound by memory bandwidth) the GPU runs for free beside a G1 MSM of
 * 2^K - 1 uniform scalars (the H MSM, bound by the multiplier), when the two are launched from
 * two host threads (the library's per-thread default streams). The question it answers: whether
 * a device should start the next partition's h while this partition's MSMs run.
 *
 * On GPU 0, with BLS12-381 points made on the device (a progression) and pseudo-random scalars
 * and vectors: RUNS MSMs alone, RUNS h chains alone, then RUNS MSMs while a second thread runs h
 * chains back to back until the MSMs are done. One JSON line:
 *
 *   {"bench":"gpu-overlap","k":27,"runs":3,"msm_ms":...,"h_ms":...,"msm_beside_ms":...,
 *    "h_beside":...,"saved_ms_per_h":...}
 *
 * msm_ms and h_ms are medians alone; msm_beside_ms the mean MSM time with h chains beside it and
 * h_beside the chains finished meanwhile (whole chains only); saved_ms_per_h = h_ms - (RUNS ·
 * (msm_beside_ms - msm_ms)) / h_beside: what a chain run beside the MSM costs less than alone
 * (h_ms: all of it hidden; 0: none). Usage: cuzk-bench-gpu-overlap [K [RUNS]] (26, 3; K 16..27).
 * Device memory at 2^27: the bases (12 GiB), the scalars and three vectors (16 GiB), the MSM's
 * and the NTT's temporaries.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/curve.h"
#include "cuzk/gpu.h"
#include "cuzk/ntt.h"

#define DEV 0

typedef struct {
    void *vec[3];
    unsigned log_n;
    _Atomic int stop;
    int chains, rc;
    cz_errinfo ei;
} h_loop;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One h as the bellperson prover computes it (prove_bellperson_gpu.c): three inverse NTTs, two
 * coset NTTs, a·b, a coset inverse NTT, (a·b - c)·k. */
static int h_chain(void *const vec[3], unsigned log_n, cz_errinfo *ei) {
    const cz_ntt_roots roots = CZ_NTT_ROOTS_BELLPERSON;
    size_t n = (size_t)1 << log_n;
    cz_bls12381_fr k = {{3}};
    int rc = CZ_OK;
    for (int v = 0; v < 3 && rc == CZ_OK; v++)
        if ((rc = cz_bls12381_gpu_ntt_dev(vec[v], log_n, roots, CZ_GPU_NTT_INVERSE, DEV, ei)) ==
                CZ_OK &&
            v < 2)
            rc = cz_bls12381_gpu_ntt_dev(vec[v], log_n, roots, CZ_GPU_NTT_COSET_FORWARD, DEV, ei);
    if (rc == CZ_OK &&
        (rc = cz_bls12381_gpu_fr_mul_dev(vec[0], vec[0], vec[1], n, DEV, ei)) == CZ_OK &&
        (rc = cz_bls12381_gpu_ntt_dev(vec[0], log_n, roots, CZ_GPU_NTT_COSET_INVERSE, DEV, ei)) ==
            CZ_OK)
        rc = cz_bls12381_gpu_fr_sub_scale_dev(vec[0], vec[0], vec[2], &k, n, DEV, ei);
    return rc;
}

static void *h_main(void *arg) {
    h_loop *h = arg;
    while (!h->stop && h->rc == CZ_OK)
        if ((h->rc = h_chain(h->vec, h->log_n, &h->ei)) == CZ_OK && !h->stop)
            h->chains++;
    return NULL;
}

/* n pseudo-random field elements below 2^254 (under r): splitmix64 words, the top two bits cut. */
static void fill_random(uint64_t *w, size_t n, uint64_t seed) {
    for (size_t i = 0; i < 4 * n; i++) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        w[i] = z ^ (z >> 31);
        if (i % 4 == 3)
            w[i] >>= 2;
    }
}

int main(int argc, char **argv) {
    unsigned k = argc > 1 ? (unsigned)atoi(argv[1]) : 26;
    int runs = argc > 2 ? atoi(argv[2]) : 3;
    size_t n = (size_t)1 << (k < 32 ? k : 0), fr = sizeof(cz_bls12381_fr);
    cz_gpu_bases *bases = NULL;
    void *d_s = NULL;
    uint64_t *host = NULL;
    double *alone = NULL, *halone = NULL, beside = 0;
    h_loop h = {.log_n = k, .stop = 0};
    cz_bls12381_g1_affine p0, step;
    cz_bls12381_g1_jacobian gj, tj, res;
    cz_errinfo ei;
    pthread_t th;
    int rc = CZ_OK, status = 1;

    cz_errinfo_clear(&ei);
    cz_errinfo_clear(&h.ei);
    if (k < 16 || k > 27 || runs < 1 || runs > 50) {
        fprintf(stderr, "usage: cuzk-bench-gpu-overlap [K (16..27) [RUNS (1..50)]]\n");
        return 2;
    }
    alone = calloc((size_t)runs, sizeof *alone);
    halone = calloc((size_t)runs, sizeof *halone);
    host = malloc(n * fr);
    if (alone == NULL || halone == NULL || host == NULL)
        goto out;
    cz_bls12381_g1_generator(&p0);
    cz_bls12381_g1_from_affine(&gj, &p0);
    cz_bls12381_g1_dbl(&tj, &gj);
    cz_bls12381_g1_to_affine(&step, &tj);
    if ((rc = cz_bls12381_gpu_g1_bases_progression(&bases, &p0, &step, n - 1, DEV, &ei)) != CZ_OK ||
        (rc = cz_gpu_alloc(&d_s, n * fr, DEV, &ei)) != CZ_OK)
        goto out;
    fill_random(host, n, 1);
    if ((rc = cz_gpu_upload(d_s, host, n * fr, DEV, &ei)) != CZ_OK)
        goto out;
    for (int v = 0; v < 3; v++) {
        fill_random(host, n, 100 + (uint64_t)v);
        if ((rc = cz_gpu_alloc(&h.vec[v], n * fr, DEV, &ei)) != CZ_OK ||
            (rc = cz_gpu_upload(h.vec[v], host, n * fr, DEV, &ei)) != CZ_OK)
            goto out;
    }
    /* warm-up: the twiddles, the pools */
    if ((rc = cz_bls12381_gpu_g1_msm_dev(&res, bases, d_s, n - 1, &ei)) != CZ_OK ||
        (rc = h_chain(h.vec, k, &ei)) != CZ_OK)
        goto out;
    for (int i = 0; i < runs; i++) {
        uint64_t t = cz_clock_now_ns();
        if ((rc = cz_bls12381_gpu_g1_msm_dev(&res, bases, d_s, n - 1, &ei)) != CZ_OK)
            goto out;
        alone[i] = (double)(cz_clock_now_ns() - t) / 1e6;
        t = cz_clock_now_ns();
        if ((rc = h_chain(h.vec, k, &ei)) != CZ_OK)
            goto out;
        halone[i] = (double)(cz_clock_now_ns() - t) / 1e6;
    }
    qsort(alone, (size_t)runs, sizeof *alone, cmp_double);
    qsort(halone, (size_t)runs, sizeof *halone, cmp_double);
    if (pthread_create(&th, NULL, h_main, &h) != 0)
        goto out;
    {
        uint64_t t = cz_clock_now_ns();
        for (int i = 0; i < runs && rc == CZ_OK; i++)
            rc = cz_bls12381_gpu_g1_msm_dev(&res, bases, d_s, n - 1, &ei);
        beside = (double)(cz_clock_now_ns() - t) / 1e6 / runs;
    }
    h.stop = 1;
    pthread_join(th, NULL);
    if (rc != CZ_OK)
        goto out;
    if (h.rc != CZ_OK) {
        ei = h.ei;
        rc = h.rc;
        goto out;
    }
    {
        double msm = alone[runs / 2], hm = halone[runs / 2];
        double saved = h.chains > 0 ? hm - runs * (beside - msm) / h.chains : 0;
        printf("{\"bench\":\"gpu-overlap\",\"k\":%u,\"runs\":%d,\"msm_ms\":%.3f,\"h_ms\":%.3f,"
               "\"msm_beside_ms\":%.3f,\"h_beside\":%d,\"saved_ms_per_h\":%.3f}\n",
               k, runs, msm, hm, beside, h.chains, saved);
    }
    status = 0;
out:
    if (status != 0)
        fprintf(stderr, "cuzk-bench-gpu-overlap: %s\n", ei.msg[0] ? ei.msg : "out of memory");
    for (int v = 0; v < 3; v++)
        cz_gpu_free(h.vec[v], DEV);
    cz_gpu_free(d_s, DEV);
    cz_gpu_bases_free(bases);
    free(host);
    free(alone);
    free(halone);
    return status;
}
