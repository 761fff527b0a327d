/*
 * cuzk-bench-ntt: times the CPU NTT (cuzk/ntt.h).
 *
 *   cuzk-bench-ntt --log-n K --curve bn254|bls12381 [--threads T] [--runs N] [--op OP]
 *
 * OP is forward (default), inverse, coset-forward or coset-inverse. The domain is created once
 * (not timed); each run transforms the same array in place. Prints one JSON line:
 * {"bench":"ntt","op":..,"curve":..,"log_n":..,"threads":..,"runs":..,"ms":median,"min":..,
 *  "max":..,"domain_ms":..,"domain_bytes":..,"git":..,"device":"cpu"}.
 * threads = 1 runs on the calling thread without a pool.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/field.h"
#include "cuzk/ntt.h"
#include "cuzk/threadpool.h"
#include "bench_util.h"

enum op { OP_FORWARD, OP_INVERSE, OP_COSET_FORWARD, OP_COSET_INVERSE };
static const char *const op_names[] = {"forward", "inverse", "coset-forward", "coset-inverse"};

/* The same timing loop for both curves (argument types differ, so a macro of one statement). */
#define RUN_CURVE(C)                                                                               \
    do {                                                                                           \
        cz_##C##_ntt_domain *dom = NULL;                                                           \
        uint64_t t0 = cz_clock_now_ns();                                                           \
        if (cz_##C##_ntt_domain_create(&dom, log_n, CZ_NTT_ROOTS_SNARKJS, pool, &ei) != CZ_OK)     \
            goto fail;                                                                             \
        domain_ms = cz_clock_elapsed_s(t0) * 1e3;                                                  \
        domain_bytes = cz_##C##_ntt_domain_bytes(log_n);                                           \
        cz_##C##_fr *a = malloc(n * sizeof *a), g;                                                 \
        if (a == NULL) {                                                                           \
            cz_##C##_ntt_domain_destroy(dom);                                                      \
            goto fail;                                                                             \
        }                                                                                          \
        for (size_t i = 0; i < n; i++)                                                             \
            cz_##C##_fr_from_u64(&a[i], i * 0x9e3779b97f4a7c15ULL);                                \
        cz_##C##_ntt_coset_gen(&g, log_n, CZ_NTT_ROOTS_SNARKJS);                                   \
        for (int r = 0; r < runs; r++) {                                                           \
            uint64_t s = cz_clock_now_ns();                                                        \
            switch (op) {                                                                          \
            case OP_FORWARD:                                                                       \
                cz_##C##_ntt_forward(a, dom, pool);                                                \
                break;                                                                             \
            case OP_INVERSE:                                                                       \
                cz_##C##_ntt_inverse(a, dom, pool);                                                \
                break;                                                                             \
            case OP_COSET_FORWARD:                                                                 \
                cz_##C##_ntt_coset_forward(a, dom, &g, pool);                                      \
                break;                                                                             \
            case OP_COSET_INVERSE:                                                                 \
                cz_##C##_ntt_coset_inverse(a, dom, &g, pool);                                      \
                break;                                                                             \
            }                                                                                      \
            ms[r] = cz_clock_elapsed_s(s) * 1e3;                                                   \
        }                                                                                          \
        free(a);                                                                                   \
        cz_##C##_ntt_domain_destroy(dom);                                                          \
    } while (0)

static void usage(void) {
    fprintf(stderr, "usage: cuzk-bench-ntt --log-n K --curve bn254|bls12381 [--threads T] "
                    "[--runs N] [--op forward|inverse|coset-forward|coset-inverse]\n");
}

int main(int argc, char **argv) {
    unsigned log_n = 16;
    const char *curve = "bn254";
    size_t threads = 0;
    int runs = 5;
    enum op op = OP_FORWARD;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) {
            usage();
            return 2;
        }
        const char *v = argv[++i];
        if (strcmp(argv[i - 1], "--log-n") == 0) {
            log_n = (unsigned)atoi(v);
        } else if (strcmp(argv[i - 1], "--curve") == 0) {
            curve = v;
        } else if (strcmp(argv[i - 1], "--threads") == 0) {
            threads = (size_t)atoi(v);
        } else if (strcmp(argv[i - 1], "--runs") == 0) {
            runs = atoi(v);
        } else if (strcmp(argv[i - 1], "--op") == 0) {
            size_t k = 0;
            while (k < 4 && strcmp(v, op_names[k]) != 0)
                k++;
            if (k == 4) {
                usage();
                return 2;
            }
            op = (enum op)k;
        } else {
            usage();
            return 2;
        }
    }
    int is_bn = strcmp(curve, "bn254") == 0;
    if ((!is_bn && strcmp(curve, "bls12381") != 0) || runs < 1 || log_n > 30) {
        usage();
        return 2;
    }

    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    cz_threadpool *pool = NULL;
    if (threads != 1 && cz_threadpool_create(&pool, threads, &ei) != CZ_OK)
        goto fail;
    threads = cz_threadpool_size(pool);
    size_t n = (size_t)1 << log_n;
    double *ms = calloc((size_t)runs, sizeof *ms), domain_ms = 0;
    size_t domain_bytes = 0;
    if (ms == NULL)
        goto fail;
    if (is_bn)
        RUN_CURVE(bn254);
    else
        RUN_CURVE(bls12381);

    qsort(ms, (size_t)runs, sizeof *ms, bench_cmp_double);
    printf("{\"bench\":\"ntt\",\"op\":\"%s\",\"curve\":\"%s\",\"log_n\":%u,\"threads\":%zu,"
           "\"runs\":%d,\"ms\":%.3f,\"min\":%.3f,\"max\":%.3f,\"domain_ms\":%.3f,"
           "\"domain_bytes\":%zu,\"git\":\"%s\",\"device\":\"cpu\"}\n",
           op_names[op], curve, log_n, threads, runs, ms[runs / 2], ms[0], ms[runs - 1], domain_ms,
           domain_bytes, bench_git_sha());
    free(ms);
    cz_threadpool_destroy(pool);
    return 0;
fail:
    fprintf(stderr, "cuzk-bench-ntt: %s\n", ei.code != 0 ? ei.msg : "out of memory");
    cz_threadpool_destroy(pool);
    return 1;
}
