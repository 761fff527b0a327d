/*
 * cuzk-bench-gpu-accumulation: what one bucket addition of the MSM's accumulation costs on GPU 0,
 * done the two ways a bucket can be summed (BLS12-381 G1, docs/gpu.md "Where the time goes"):
 *
 *   madd          an XYZZ accumulator in registers, one mixed addition per point (madd-2008-s with
 *                 fe_sqr_fast and the out-of-line products: msm_acc_kern's arithmetic, 8M + 2S)
 *   batch_affine  K affine accumulators per thread, each round adding one point to each of
 *                 them; the K slopes share one inversion by Montgomery's trick (running products
 *                 forward, one Fermat inversion, the walk back): 5M + 1S per addition and 1/K of
 *                 an inversion, with the accumulators and the running products in device memory
 *                 (K·144 bytes per thread, laid out so that a warp's accesses are coalesced)
 *   batch_affine_fastinv  the same with the divstep inversion fe_inv_fast (gpu_field_inv.cuh,
 *                 about 26 batches of 30 divsteps for BLS12-381 Fp) instead of the Fermat one
 *   batch_affine_fastinv_stash  the same, but the forward walk gathers the whole point and
 *                 stores it in a per-thread stash (bx, by, coalesced like ax, ay), which the walk
 *                 back reads instead of gathering the point again: 3 random 32-byte sectors an
 *                 addition instead of 5 (x alone, then x and y), for 96 more coalesced bytes
 *                 written and read (another K·96 bytes per thread)
 *
 * Both add the same points, gathered from 2^24 random bases (1.6 GB, past the L2 cache, as the
 * MSM's 2^26-2^27 bases are) in the same order; the points are random field elements rather than
 * curve points: the chord formulas of both ways are the same rational functions of the
 * coordinates whatever the curve, so their results must agree, and the first 2^14 accumulators
 * of every batch-affine run are checked against madd's (converted to affine): the program exits
 * 1 on a mismatch. Left out on purpose: the sorted pairs, the bucket changes and flushes of the
 * real accumulation, so the figures bound what batch-affine could give, they do not promise it.
 *
 * K is 16, 32, 64, 128 and 256, each way for each. One JSON line per way and K:
 * {"bench":"gpu-accumulation","device":...,"op":...,"k":...,
 * "regs":...,"ms":...,"adds":...,"ns_per_madd_equiv":...,"per_clk_sm":...}; per_clk_sm is
 * additions per clock and SM at the nominal clock.
 */
#include <stdint.h>
#include <stdio.h>

#include "gpu/gpu_curve.cuh"
#include "gpu/gpu_field_inv.cuh"

typedef gbls12381_fp_cfg fp_cfg;
typedef fe<fp_cfg> fp;
typedef ec_aff<fp_cfg> aff;
typedef ec_xyzz<fp_cfg> xyzz;

#define LOG_BASES 24
#define ROUNDS    16 /* additions per accumulator */
#define NCHECK    (1u << 14)

/* The base that stream j of thread t adds in round r. */
static __device__ __forceinline__ uint32_t base_index(uint32_t t, uint32_t j, uint32_t r) {
    uint32_t x = (t * 0x9e3779b1u) ^ (j * 0x85ebca77u) ^ (r * 0xc2b2ae3du);
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    x *= 0x297a2d39u;
    x ^= x >> 15;
    return x & ((1u << LOG_BASES) - 1);
}

/* Random coordinates below p (the top word reduced below p's). */
__global__ void bases_kern(aff *bases) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (1u << LOG_BASES))
        return;
    uint32_t s = i * 2654435761u + 12345u;
    aff a;
    for (int w = 0; w < 2 * fp_cfg::N; w++) {
        s ^= s << 13, s ^= s >> 17, s ^= s << 5;
        uint32_t v = w % fp_cfg::N == fp_cfg::N - 1 ? s % fp_cfg::p(fp_cfg::N - 1) : s;
        if (w < fp_cfg::N)
            a.x.l[w] = v;
        else
            a.y.l[w - fp_cfg::N] = v;
    }
    fe_store(&bases[i].x, a.x);
    fe_store(&bases[i].y, a.y);
}

/* Stream j of thread t: the point of round 0, then ROUNDS mixed additions; out[j·T + t]. */
template <int K>
__global__ void __launch_bounds__(128, 4) madd_kern(xyzz *out, const aff *bases, uint32_t T) {
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= T)
        return;
    for (uint32_t j = 0; j < K; j++) {
        xyzz acc;
        xyzz_set_inf(acc);
        for (uint32_t r = 0; r <= ROUNDS; r++) {
            const aff *p = &bases[base_index(t, j, r)];
            fp x = fe_load(&p->x), y = fe_load(&p->y);
            xyzz_add_affine<fp_cfg, true>(acc, x, y, false);
        }
        xyzz_store(&out[(size_t)j * T + t], acc);
    }
}

/* The same sums with K affine accumulators per thread (ax, ay) and the running products (pre)
 * at [j·T + t]; the inversion by fe_inv_fast when FAST, else by fe_inv_pow; with STASH the points
 * of the round go through bx, by (see the file comment). */
template <int K, bool FAST, bool STASH>
__global__ void __launch_bounds__(128, 4)
    batch_affine_kern(fp *ax, fp *ay, fp *pre, fp *bx, fp *by, const aff *bases, uint32_t T) {
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= T)
        return;
    for (uint32_t j = 0; j < K; j++) {
        const aff *p = &bases[base_index(t, j, 0)];
        fe_store(&ax[(size_t)j * T + t], fe_load(&p->x));
        fe_store(&ay[(size_t)j * T + t], fe_load(&p->y));
    }
    for (uint32_t r = 1; r <= ROUNDS; r++) {
        fp run;
        for (uint32_t j = 0; j < K; j++) {
            size_t o = (size_t)j * T + t;
            const aff *p = &bases[base_index(t, j, r)];
            fp x2 = fe_load(&p->x), x1 = fe_load(&ax[o]), dx;
            if (STASH) {
                fe_store(&bx[o], x2);
                fe_store(&by[o], fe_load(&p->y));
            }
            fe_sub(dx, x2, x1);
            if (j == 0)
                run = dx;
            else
                run = fe_mul_call(run, dx);
            fe_store(&pre[o], run);
        }
        fp inv;
        if (FAST)
            fe_inv_fast(inv, run);
        else
            fe_inv_pow(inv, run);
        for (int j = K - 1; j >= 0; j--) {
            size_t o = (size_t)j * T + t;
            const aff *p = &bases[base_index(t, (uint32_t)j, r)];
            fp x2 = STASH ? fe_load(&bx[o]) : fe_load(&p->x);
            fp y2 = STASH ? fe_load(&by[o]) : fe_load(&p->y);
            fp x1 = fe_load(&ax[o]), y1 = fe_load(&ay[o]);
            fp dx, dy, ij, lam;
            fe_sub(dx, x2, x1);
            if (j > 0) {
                ij = fe_mul_call(inv, fe_load(&pre[o - T]));
                inv = fe_mul_call(inv, dx);
            } else {
                ij = inv;
            }
            fe_sub(dy, y2, y1);
            lam = fe_mul_call(dy, ij);
            aff_step(x1, y1, x2, lam);
            fe_store(&ax[o], x1);
            fe_store(&ay[o], y1);
        }
    }
}

/* bad += the accumulators i < n whose affine form differs from the XYZZ one. */
__global__ void check_kern(unsigned *bad, const xyzz *ref, const fp *ax, const fp *ay, uint32_t n) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    xyzz q;
    xyzz_load(q, &ref[i]);
    fp izz, izzz, x, y;
    fe_inv_pow(izz, q.zz);
    fe_inv_pow(izzz, q.zzz);
    fe_mul(x, q.x, izz);
    fe_mul(y, q.y, izzz);
    if (!fe_eq(x, fe_load(&ax[i])) || !fe_eq(y, fe_load(&ay[i])))
        atomicAdd(bad, 1u);
}

/* ---- host ---- */

static int cuda_ok(cudaError_t e, const char *what) {
    if (e == cudaSuccess)
        return 1;
    fprintf(stderr, "cuzk-bench-gpu-accumulation: %s: %s\n", what, cudaGetErrorString(e));
    return 0;
}

struct ctx {
    int sms, khz;
    uint32_t T;
    char name[256];
    aff *bases;
    xyzz *ref;
    fp *ax, *ay, *pre, *bx, *by;
    unsigned *bad;
};

/* Runs kern once as a warm-up and 3 times timed; prints its line. */
template <class Kern, class... A>
static int timed(const ctx &c, const char *op, int k, Kern kern, A... args) {
    cudaEvent_t e0, e1;
    cudaFuncAttributes fa;
    float ms = 0;
    const int reps = 3, threads = 128;
    const unsigned blocks = (c.T + threads - 1) / threads;
    kern<<<blocks, threads>>>(args...);
    if (!cuda_ok(cudaDeviceSynchronize(), op))
        return 0;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    cudaEventRecord(e0);
    for (int r = 0; r < reps; r++)
        kern<<<blocks, threads>>>(args...);
    cudaEventRecord(e1);
    if (!cuda_ok(cudaEventSynchronize(e1), op))
        return 0;
    cudaEventElapsedTime(&ms, e0, e1);
    cudaFuncGetAttributes(&fa, kern);
    ms /= reps;
    double adds = (double)c.T * k * ROUNDS;
    printf(
        "{\"bench\":\"gpu-accumulation\",\"device\":\"%s\",\"op\":\"%s\",\"k\":%d,\"regs\":%d,"
        "\"local_bytes\":%zu,\"ms\":%.3f,\"adds\":%.0f,\"ns_per_add\":%.4f,\"per_clk_sm\":%.5f}\n",
        c.name, op, k, fa.numRegs, fa.localSizeBytes, ms, adds, ms * 1e6 / adds,
        adds / (ms * 1e-3) / c.sms / (c.khz * 1e3));
    fflush(stdout);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return 1;
}

/* bad = the first NCHECK batch-affine sums that differ from madd's (op's run). */
static int check(const ctx &c, const char *op, int k) {
    unsigned bad = 0;
    if (!cuda_ok(cudaMemset(c.bad, 0, sizeof bad), "clear"))
        return 0;
    check_kern<<<NCHECK / 128, 128>>>(c.bad, c.ref, c.ax, c.ay, NCHECK);
    if (!cuda_ok(cudaMemcpy(&bad, c.bad, sizeof bad, cudaMemcpyDeviceToHost), "check"))
        return 0;
    if (bad != 0) {
        fprintf(stderr,
                "cuzk-bench-gpu-accumulation: %s, K = %d: %u of %u sums differ from madd's\n", op,
                k, bad, NCHECK);
        return 0;
    }
    return 1;
}

/* madd then the batch-affine ways with K accumulators a thread, each checked against madd (the
 * timed runs repeat the sums from the start, so the last run's sums are compared). */
template <int K> static int compare(ctx &c) {
    const aff *bases = c.bases;
    return timed(c, "madd", K, madd_kern<K>, c.ref, bases, c.T) &&
           timed(c, "batch_affine", K, batch_affine_kern<K, false, false>, c.ax, c.ay, c.pre, c.bx,
                 c.by, bases, c.T) &&
           check(c, "batch_affine", K) &&
           timed(c, "batch_affine_fastinv", K, batch_affine_kern<K, true, false>, c.ax, c.ay, c.pre,
                 c.bx, c.by, bases, c.T) &&
           check(c, "batch_affine_fastinv", K) &&
           timed(c, "batch_affine_fastinv_stash", K, batch_affine_kern<K, true, true>, c.ax, c.ay,
                 c.pre, c.bx, c.by, bases, c.T) &&
           check(c, "batch_affine_fastinv_stash", K);
}

int main(void) {
    ctx c = {};
    cudaDeviceProp prop;
    int n = 0, rc = 1;
    const int kmax = 256;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "cuzk-bench-gpu-accumulation: no CUDA device\n");
        return 77;
    }
    if (!cuda_ok(cudaGetDeviceProperties(&prop, 0), "device properties"))
        return 1;
    snprintf(c.name, sizeof c.name, "%s", prop.name);
    cudaDeviceGetAttribute(&c.sms, cudaDevAttrMultiProcessorCount, 0);
    cudaDeviceGetAttribute(&c.khz, cudaDevAttrClockRate, 0);
    c.T = (uint32_t)c.sms * 4 * 128; /* one wave of the 4 blocks of 128 an SM keeps */
    size_t per = (size_t)kmax * c.T;
    if (!cuda_ok(cudaMalloc(&c.bases, sizeof(aff) << LOG_BASES), "allocate") ||
        !cuda_ok(cudaMalloc(&c.ref, per * sizeof(xyzz)), "allocate") ||
        !cuda_ok(cudaMalloc(&c.ax, per * sizeof(fp)), "allocate") ||
        !cuda_ok(cudaMalloc(&c.ay, per * sizeof(fp)), "allocate") ||
        !cuda_ok(cudaMalloc(&c.pre, per * sizeof(fp)), "allocate") ||
        !cuda_ok(cudaMalloc(&c.bx, per * sizeof(fp)), "allocate") ||
        !cuda_ok(cudaMalloc(&c.by, per * sizeof(fp)), "allocate") ||
        !cuda_ok(cudaMalloc(&c.bad, sizeof(unsigned)), "allocate"))
        goto out;
    bases_kern<<<(1u << LOG_BASES) / 256, 256>>>(c.bases);
    if (!cuda_ok(cudaDeviceSynchronize(), "bases"))
        goto out;
    if (compare<16>(c) && compare<32>(c) && compare<64>(c) && compare<128>(c) && compare<256>(c))
        rc = 0;
out:
    cudaFree(c.bases);
    cudaFree(c.ref);
    cudaFree(c.ax);
    cudaFree(c.ay);
    cudaFree(c.pre);
    cudaFree(c.bx);
    cudaFree(c.by);
    cudaFree(c.bad);
    return rc;
}
