/*
 * cuzk-bench timing and device checks.
 *
 * GPU calls are timed with CUDA events recorded on the legacy default stream around the call
 * (every cuzk GPU function runs there and returns when its work is done), the method of the
 * former cuzk-bench-gpu. CMake defines CZ_BENCH_CUDA for this program in a CUDA build; without it
 * there is no GPU to time and the monotonic clock serves everything. CPU calls (and the GPU
 * prover, which mixes host and device work) use the monotonic clock.
 */
#include <stdlib.h>
#include <string.h>

#ifdef CZ_BENCH_CUDA
#include <cuda_runtime_api.h>
#endif

#include "bench.h"
#include "cuzk/clock.h"
#include "cuzk/gpu.h"
#include "cuzk/threadpool.h"

int bench_device_open(bench_opts *o) {
    cz_gpu_info info;
    cz_errinfo ei;
    int count = 0;
    if (!o->gpu) {
        strcpy(o->devname, "cpu");
        return BENCH_OK;
    }
    cz_errinfo_clear(&ei);
    if (!cz_gpu_built()) {
        fprintf(stderr,
                "cuzk-bench %s: --gpu: this build has no CUDA backend (rebuild with nvcc "
                "and -DCZ_WITH_CUDA=ON)\n",
                o->cmd);
        return BENCH_USAGE;
    }
    if (cz_gpu_device_count(&count, &ei) != CZ_OK || count == 0) {
        fprintf(stderr, "cuzk-bench %s: --gpu: no CUDA device found (%s)\n", o->cmd,
                ei.msg[0] ? ei.msg : "none");
        return BENCH_USAGE;
    }
    if (o->device >= count) {
        fprintf(stderr, "cuzk-bench %s: --device %d: only %d CUDA device(s)\n", o->cmd, o->device,
                count);
        return BENCH_USAGE;
    }
    if (cz_gpu_device_info(&info, o->device, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: device %d: %s\n", o->cmd, o->device, ei.msg);
        return BENCH_USAGE;
    }
    snprintf(o->devname, sizeof o->devname, "%s", info.name);
    return BENCH_OK;
}

#ifdef CZ_BENCH_CUDA
static int time_events(double *ms, int runs, int dev, bench_fn fn, void *ctx, cz_errinfo *ei) {
    cudaEvent_t e0 = NULL, e1 = NULL;
    int rc = CZ_OK;
    if (cudaSetDevice(dev) != cudaSuccess || cudaEventCreate(&e0) != cudaSuccess ||
        cudaEventCreate(&e1) != cudaSuccess) {
        rc = cz_fail(ei, CZ_EGPU, "cannot create CUDA events on device %d", dev);
        goto out;
    }
    for (int r = 0; r < runs && rc == CZ_OK; r++) {
        float t = 0;
        cudaEventRecord(e0, 0);
        rc = fn(ctx, ei);
        cudaEventRecord(e1, 0);
        if (cudaEventSynchronize(e1) != cudaSuccess ||
            cudaEventElapsedTime(&t, e0, e1) != cudaSuccess)
            rc = rc != CZ_OK ? rc : cz_fail(ei, CZ_EGPU, "CUDA event timing failed");
        ms[r] = t;
    }
out:
    if (e0 != NULL)
        cudaEventDestroy(e0);
    if (e1 != NULL)
        cudaEventDestroy(e1);
    return rc;
}
#endif

int bench_time(double *ms, int runs, int warmup, int gpu_dev, bench_fn fn, void *ctx,
               cz_errinfo *ei) {
    int rc;
    for (int w = 0; w < warmup; w++)
        if ((rc = fn(ctx, ei)) != CZ_OK)
            return rc;
#ifdef CZ_BENCH_CUDA
    if (gpu_dev >= 0)
        return time_events(ms, runs, gpu_dev, fn, ctx, ei);
#else
    (void)gpu_dev;
#endif
    for (int r = 0; r < runs; r++) {
        uint64_t t0 = cz_clock_now_ns();
        if ((rc = fn(ctx, ei)) != CZ_OK)
            return rc;
        ms[r] = cz_clock_elapsed_s(t0) * 1e3;
    }
    return CZ_OK;
}

int bench_each_size(bench_opts *o, int with_pool, bench_size_fn run) {
    cz_threadpool *pool = NULL;
    cz_errinfo ei;
    int rc = BENCH_OK;
    cz_errinfo_clear(&ei);
    if (with_pool && cz_threadpool_create(&pool, o->threads, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: %s\n", o->cmd, ei.msg);
        return BENCH_FAIL;
    }
    o->pool_threads = with_pool ? cz_threadpool_size(pool) : 0;
    for (int c = 0; c < 2 && rc == BENCH_OK; c++)
        for (size_t s = 0; s < o->nsizes && rc == BENCH_OK; s++)
            if (o->curves & (1u << c))
                rc = run(o, (cz_curve_id)c, o->log_n[s], pool);
    cz_threadpool_destroy(pool);
    return rc;
}
