/*
 * cuzk-bench fmul --gpu: device field-multiplication throughput (Fr and Fp of each curve).
 *
 * 2^K threads (default 2^20) each run 4 independent chains of 256 operations; variants "mul"
 * (fe_mul), "evenodd" (operand scanning with even/odd accumulators, a measured alternative kept
 * for comparison: docs/gpu.md) and "sqr" (fe_sqr). One JSON line per (field, variant) with
 * "gops" = 10^9 operations per second from the fastest run, and "equal" = the mul and evenodd
 * results are the same bytes (a check that the alternative is a multiplication at all).
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuzk/gpu.h"
#include "gpu/gpu_bench.h"

#define FMUL_ITERS 256u

typedef struct {
    int field, variant, dev;
    void *d;
    size_t count;
} fmul_ctx;

static int fmul_fn(void *p, cz_errinfo *ei) {
    const fmul_ctx *c = p;
    return cz__gpu_fmul_bench(c->field, c->variant, c->d, c->count, FMUL_ITERS, c->dev, ei);
}

/* Fills n elements of elem bytes with values below 2^252 (Fr) or 2^380 (Fp), both < p. */
static void fill(uint64_t *h, size_t n, size_t elem, cz_curve_id curve) {
    uint64_t s = 0x666d756c ^ (uint64_t)curve;
    for (size_t i = 0; i < n * (elem / 8); i++) {
        s += 0x9e3779b97f4a7c15ULL;
        uint64_t z = (s ^ (s >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        h[i] = z ^ (z >> 31);
        if (i % (elem / 8) == elem / 8 - 1)
            h[i] &= 0x0fffffffffffffffULL; /* top limb: below 2^252 (Fr) / 2^380 (Fp) */
    }
}

static int run_field(const bench_opts *o, cz_curve_id curve, int f, unsigned log_n) {
    static const char *const vname[3] = {"mul", "evenodd", "sqr"};
    size_t count = (size_t)1 << log_n, elem = f == 3 ? 48 : 32, bytes = 5 * count * elem;
    uint64_t *h = malloc(bytes), *out[2] = {malloc(bytes), malloc(bytes)};
    fmul_ctx c = {f, 0, o->device, NULL, count};
    double ms[BENCH_MAX_RUNS];
    cz_errinfo ei;
    int rc = BENCH_FAIL;
    cz_errinfo_clear(&ei);
    if (h == NULL || out[0] == NULL || out[1] == NULL) {
        fprintf(stderr, "cuzk-bench fmul: out of memory\n");
        goto out;
    }
    fill(h, 5 * count, elem, curve);
    if (cz_gpu_alloc(&c.d, bytes, o->device, &ei) != CZ_OK)
        goto fail;
    for (c.variant = 0; c.variant < 3; c.variant++) {
        bench_json j;
        double best;
        /* every variant starts from the same input, so mul and evenodd must end equal */
        if (cz_gpu_upload(c.d, h, bytes, o->device, &ei) != CZ_OK ||
            bench_time(ms, o->runs, o->warmup, o->device, fmul_fn, &c, &ei) != CZ_OK)
            goto fail;
        if (c.variant < 2 && cz_gpu_download(out[c.variant], c.d, bytes, o->device, &ei) != CZ_OK)
            goto fail;
        best = ms[0];
        for (int r = 1; r < o->runs; r++)
            best = ms[r] < best ? ms[r] : best;
        bench_json_result(&j, o, "fmul", curve, log_n, 0, ms);
        bench_json_str(&j, "field", f < 2 ? "fr" : "fp");
        bench_json_str(&j, "variant", vname[c.variant]);
        bench_json_num(&j, "gops", 4.0 * (double)count * FMUL_ITERS / (best * 1e6));
        if (c.variant == 2)
            bench_json_bool(&j, "equal", memcmp(out[0], out[1], bytes) == 0);
        bench_json_print(&j);
    }
    rc = memcmp(out[0], out[1], bytes) == 0 ? BENCH_OK : BENCH_FAIL;
    if (rc != BENCH_OK)
        fprintf(stderr, "cuzk-bench fmul: mul and evenodd results differ\n");
    goto out;
fail:
    fprintf(stderr, "cuzk-bench fmul: %s\n", ei.msg);
out:
    if (c.d != NULL)
        cz_gpu_free(c.d, o->device);
    free(h);
    free(out[0]);
    free(out[1]);
    return rc;
}

int bench_cmd_fmul(bench_opts *o) {
    int rc = BENCH_OK;
    if (!o->gpu) {
        fprintf(stderr, "cuzk-bench fmul: measures the GPU only (add --gpu)\n");
        return BENCH_USAGE;
    }
    for (int c = 0; c < 2 && rc == BENCH_OK; c++)
        for (size_t s = 0; s < o->nsizes && rc == BENCH_OK; s++)
            if (o->curves & (1u << c)) {
                /* BN254: fields 0 (Fr), 2 (Fp); BLS12-381: 1, 3 */
                rc = run_field(o, (cz_curve_id)c, c == CZ_CURVE_BN254 ? 0 : 1, o->log_n[s]);
                if (rc == BENCH_OK)
                    rc = run_field(o, (cz_curve_id)c, c == CZ_CURVE_BN254 ? 2 : 3, o->log_n[s]);
            }
    return rc;
}
