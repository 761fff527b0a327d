/*
 * cuzk-bench-field: nanoseconds per prime-field operation (mul, sqr, add, sub, inv) for the four
 * fields, as the latency of a chain of dependent operations with the inline arithmetic of
 * src/field/field.h. Prints one JSON line per (op, field) with the median, min and max over runs.
 *
 *   cuzk-bench-field [runs]      (default 11 runs)
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "field/field.h"

#define BENCH_MAX_RUNS 101

/* Results are folded into this so the compiler cannot drop the timed chains. */
static volatile uint64_t bench_sink;

#define BF_PREFIX bls12381_fp
#define BF_T      cz_bls12381_fp
#define BF_NAME   "bls12381_fp"
#include "bench_field_impl.h"

#define BF_PREFIX bls12381_fr
#define BF_T      cz_bls12381_fr
#define BF_NAME   "bls12381_fr"
#include "bench_field_impl.h"

#define BF_PREFIX bn254_fp
#define BF_T      cz_bn254_fp
#define BF_NAME   "bn254_fp"
#include "bench_field_impl.h"

#define BF_PREFIX bn254_fr
#define BF_T      cz_bn254_fr
#define BF_NAME   "bn254_fr"
#include "bench_field_impl.h"

int main(int argc, char **argv) {
    int nruns = argc > 1 ? atoi(argv[1]) : 11;
    if (nruns < 1 || nruns > BENCH_MAX_RUNS) {
        fprintf(stderr, "usage: cuzk-bench-field [runs 1..%d]\n", BENCH_MAX_RUNS);
        return 2;
    }
    bench_bls12381_fp_run(nruns);
    bench_bls12381_fr_run(nruns);
    bench_bn254_fp_run(nruns);
    bench_bn254_fr_run(nruns);
    return 0;
}
