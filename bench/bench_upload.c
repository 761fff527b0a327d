/*
 * cuzk-bench upload --gpu: host -> device copies of 2^K Fr elements (32 bytes each, the prover's
 * a, b and witness vectors), from pageable memory (malloc) and from pinned memory
 * (cz_gpu_host_alloc), one line per source ("host": "pageable" | "pinned") with GB/s.
 *
 * Each run is one cz_gpu_upload (a synchronous cudaMemcpy) of the whole vector, timed with the
 * monotonic clock; the buffers are touched first (no first-touch page faults in the timing).
 * Both sources are copied into the same device buffer. The curve only names the element size.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuzk/gpu.h"

typedef struct {
    void *d, *h;
    size_t bytes;
    int dev;
} up_ctx;

static int up_fn(void *p, cz_errinfo *ei) {
    up_ctx *c = p;
    return cz_gpu_upload(c->d, c->h, c->bytes, c->dev, ei);
}

static int up_one(const bench_opts *o, cz_curve_id curve, unsigned log_n, cz_threadpool *pool) {
    up_ctx c = {NULL, NULL, (size_t)32 << log_n, o->device};
    void *pageable = malloc(c.bytes), *pinned = NULL;
    double ms[BENCH_MAX_RUNS];
    cz_errinfo ei;
    int rc = BENCH_FAIL;
    (void)pool;
    cz_errinfo_clear(&ei);
    if (pageable == NULL) {
        fprintf(stderr, "cuzk-bench upload: 2^%u: cannot allocate %zu bytes\n", log_n, c.bytes);
        return BENCH_FAIL;
    }
    if (cz_gpu_alloc(&c.d, c.bytes, o->device, &ei) != CZ_OK ||
        cz_gpu_host_alloc(&pinned, c.bytes, &ei) != CZ_OK)
        goto out;
    memset(pageable, 0x5a, c.bytes);
    memset(pinned, 0x5a, c.bytes);
    for (int k = 0; k < 2; k++) {
        bench_json j;
        double med;
        c.h = k == 0 ? pageable : pinned;
        if (bench_time(ms, o->runs, o->warmup, -1, up_fn, &c, &ei) != CZ_OK)
            goto out;
        bench_json_result(&j, o, "upload", curve, log_n, -1, ms);
        bench_json_str(&j, "host", k == 0 ? "pageable" : "pinned");
        bench_json_int(&j, "bytes", (long long)c.bytes);
        med = bench_median(ms, (size_t)o->runs);
        bench_json_num(&j, "gb_per_s", (double)c.bytes / (med * 1e6));
        bench_json_print(&j);
    }
    rc = BENCH_OK;
out:
    if (rc != BENCH_OK)
        fprintf(stderr, "cuzk-bench upload: 2^%u: %s\n", log_n, ei.msg);
    cz_gpu_free(c.d, o->device);
    cz_gpu_host_free(pinned);
    free(pageable);
    return rc;
}

int bench_cmd_upload(bench_opts *o) {
    if (!o->gpu) {
        fprintf(stderr, "cuzk-bench upload: needs --gpu\n");
        return BENCH_USAGE;
    }
    return bench_each_size(o, 0, up_one);
}
