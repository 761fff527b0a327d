/*
 * One field's benchmark for cuzk_bench_field.c, instantiated per field by including this file after
 * defining BF_PREFIX (internal prefix, e.g. bn254_fr), BF_T (element type) and BF_NAME (a string).
 *
 * Each op runs as a chain of dependent operations (x = x·y, x = x², x = x + y, x = x⁻¹), so the
 * time is the latency of one operation, as blst's and noble's benchmarks measure it.
 */
#include "field/cz_macros.h"

#define BF(name)  CZ_CAT3(BF_PREFIX, _, name)
#define BFB(name) CZ_CAT3(bench_, BF_PREFIX, CZ_CAT(_, name))

static void BFB(run)(int nruns) {
    BF_T x0, y;
    double v[BENCH_MAX_RUNS];
    if (CZ_CAT3(cz_, BF_PREFIX, _random)(&x0) != 0 || CZ_CAT3(cz_, BF_PREFIX, _random)(&y) != 0) {
        fprintf(stderr, "random failed\n");
        exit(1);
    }
    static const struct {
        const char *op;
        long iters;
    } ops[] = {{"mul", 400000}, {"sqr", 400000}, {"add", 2000000}, {"sub", 2000000}, {"inv", 4000}};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        for (int run = 0; run < nruns; run++) {
            BF_T x = x0;
            long n = ops[k].iters;
            uint64_t t0 = bench_now_ns();
            switch (k) {
            case 0:
                for (long i = 0; i < n; i++)
                    BF(mul)(&x, &x, &y);
                break;
            case 1:
                for (long i = 0; i < n; i++)
                    BF(sqr)(&x, &x);
                break;
            case 2:
                for (long i = 0; i < n; i++)
                    BF(add)(&x, &x, &y);
                break;
            case 3:
                for (long i = 0; i < n; i++)
                    BF(sub)(&x, &x, &y);
                break;
            default:
                for (long i = 0; i < n; i++)
                    BF(inv)(&x, &x);
                break;
            }
            uint64_t t1 = bench_now_ns();
            bench_sink ^= x.l[0];
            v[run] = (double)(t1 - t0) / (double)n;
        }
        char fields[128];
        snprintf(fields, sizeof fields, "\"op\":\"%s\",\"field\":\"%s\"", ops[k].op, BF_NAME);
        bench_print_json("field", fields, bench_stats_of(v, (size_t)nruns));
    }
}

#undef BF
#undef BFB
#undef BF_PREFIX
#undef BF_T
#undef BF_NAME
