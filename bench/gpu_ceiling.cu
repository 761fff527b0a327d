/*
 * cuzk-bench-gpu-ceiling: the throughput ceilings that the MSM and NTT kernels are measured
 * against (docs/gpu.md, "Where the time goes"), on GPU 0. Every kernel runs independent chains
 * of one operation in enough warps to hide latency, so what it measures is the throughput of a
 * pipe, in operations per clock per SM at the nominal clock:
 *
 *   imad         mad.lo.u32                  (32-bit multiply-add, the FMA-heavy pipe)
 *   imad_wide    mad.wide.u32                (32 x 32 -> 64-bit product plus a 64-bit addend)
 *   dfma         fma.rn.f64                  (the FP64 pipe)
 *   imad_dfma    both in one thread, one of each per step (operations of either kind counted)
 *   fe_mul       the BLS12-381 Fp Montgomery multiplication of gpu_field.cuh (multiplications)
 *   fe_sqr_fast  its squaring
 *   fe_mul_f64   the same multiplication with its 8 x 8 schoolbook product on the FP64 pipe
 *                (below) and the reduction on the integer pipe
 *   fe_mul_pair  fe_mul and fe_mul_f64 in alternate chains of one thread
 *   fe_mul_kara  the multiplication with one level of Karatsuba on the product (gpu_field.cuh's
 *                fe_mul_kara: 264 wide multiply-adds instead of 300, more additions), checked
 *                equal to fe_mul first like fe_mul_f64; its kernel is bounded to 4 blocks of
 *                128 threads an SM (ptxas spilled 8 bytes at its own choice of registers)
 *   fe_inv_pow   the Fermat inversion of gpu_field.cuh (inversions; its line's mul_per_inv is
 *                fe_mul's rate over its own: what an inversion costs in multiplications)
 *   fe_inv_fast  the divstep inversion of gpu_field_inv.cuh (inversions, mul_per_inv), checked
 *                equal to fe_inv_pow first on 2^20 operands (0, 1, p - 1, p - 2 among them) and
 *                a·a⁻¹ = 1: the program exits 1 on a mismatch. Its operands are random; the
 *                divstep batches vary with them (about 26 for BLS12-381 Fp, a warp runs the most
 *                of its lanes')
 *
 * fe_mul_f64 exists to measure whether moving products to the FP64 pipe pays (it did not: the
 * instruction count rose by half and the kernels are bound by issue then; docs/gpu.md). It is
 * checked against fe_mul first on 2^21 products of reduced operands, p - 1 and 0 among them:
 * the program exits 1 on a mismatch. Its product: 48-bit limbs held exactly in doubles; for
 * each limb product a·b < 2^96 of column k, h = fma(a, b, h) on an accumulator that starts at
 * 1.5·2^100 (so it stays in [2^100, 2^101) and rounds to multiples of 2^48: the high part), the
 * rounding error fma(a, b, h_old - h_new) (the low part, |lo| <= 2^47) summed exactly in a
 * second double; the column's two sums meet in one fma that lands the exact column value in
 * [2^52, 2^53), whose mantissa bits are the integer.
 *
 * One JSON line per kernel: {"bench":"gpu-ceiling","device":...,"op":...,"chains":...,
 * "regs":...,"ms":...,"per_clk_sm":...}, the inversions' with "mul_per_inv" too.
 */
#include <stdint.h>
#include <stdio.h>

#include "gpu/gpu_field_inv.cuh"

typedef gbls12381_fp_cfg fp_cfg;
typedef fe<fp_cfg> fp;

#define PIPE_ITER  4096 /* steps of a pipe kernel */
#define PIPE_CHAIN 8    /* independent chains per thread in a pipe kernel */
#define MUL_ITER   256  /* multiplications per chain in a field kernel */
#define INV_ITER   16   /* inversions a thread in fe_inv_fast's kernel (fe_inv_pow's: 2) */
#define NINVCHECK  (1 << 20)

/* ---- pipes ---- */

__global__ void imad_kern(uint32_t *out, uint32_t s) {
    uint32_t a[PIPE_CHAIN];
    for (int i = 0; i < PIPE_CHAIN; i++)
        a[i] = s + i + threadIdx.x;
    for (int it = 0; it < PIPE_ITER; it++)
#pragma unroll
        for (int i = 0; i < PIPE_CHAIN; i++)
            asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(a[i]) : "r"(s * 3 + 1), "r"(s));
    uint32_t r = 0;
    for (int i = 0; i < PIPE_CHAIN; i++)
        r ^= a[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

__global__ void imad_wide_kern(uint32_t *out, uint32_t s) {
    uint64_t a[PIPE_CHAIN];
    for (int i = 0; i < PIPE_CHAIN; i++)
        a[i] = s + i + threadIdx.x;
    for (int it = 0; it < PIPE_ITER; it++)
#pragma unroll
        for (int i = 0; i < PIPE_CHAIN; i++)
            asm volatile("mad.wide.u32 %0, %1, %2, %0;"
                         : "+l"(a[i])
                         : "r"((uint32_t)a[i] ^ s), "r"(s * 3 + 1));
    uint32_t r = 0;
    for (int i = 0; i < PIPE_CHAIN; i++)
        r ^= (uint32_t)a[i] ^ (uint32_t)(a[i] >> 32);
    out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

__global__ void dfma_kern(uint32_t *out, uint32_t s) {
    double a[PIPE_CHAIN], r = 0;
    for (int i = 0; i < PIPE_CHAIN; i++)
        a[i] = 1.0 + 1e-9 * (s + i + threadIdx.x);
    for (int it = 0; it < PIPE_ITER; it++)
#pragma unroll
        for (int i = 0; i < PIPE_CHAIN; i++)
            asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(a[i]) : "d"(0.999999), "d"(1e-7));
    for (int i = 0; i < PIPE_CHAIN; i++)
        r += a[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = (uint32_t)(r * 1000);
}

__global__ void imad_dfma_kern(uint32_t *out, uint32_t s) {
    uint64_t a[PIPE_CHAIN / 2];
    double d[PIPE_CHAIN / 2];
    for (int i = 0; i < PIPE_CHAIN / 2; i++) {
        a[i] = s + i + threadIdx.x;
        d[i] = 1.0 + 1e-9 * (s + i);
    }
    for (int it = 0; it < PIPE_ITER; it++)
#pragma unroll
        for (int i = 0; i < PIPE_CHAIN / 2; i++) {
            asm volatile("mad.wide.u32 %0, %1, %2, %0;"
                         : "+l"(a[i])
                         : "r"((uint32_t)a[i] ^ s), "r"(s * 3 + 1));
            asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(d[i]) : "d"(0.999999), "d"(1e-7));
        }
    uint32_t r = 0;
    for (int i = 0; i < PIPE_CHAIN / 2; i++)
        r ^= (uint32_t)a[i] ^ (uint32_t)(d[i] * 1000);
    out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

/* ---- the FP64-product multiplication (see the file comment) ---- */

/* The double of a 48-bit value hi16·2^32 + lo32: the bits of 2^52 + v, minus 2^52 (exact). */
static __device__ __forceinline__ double limb48(uint32_t hi16, uint32_t lo32) {
    return __hiloint2double(0x43300000u | hi16, lo32) - 0x1p52;
}

/* Twelve 32-bit words (three per pair of limbs) into eight 48-bit limbs. */
static __device__ __forceinline__ void to_limbs48(double d[8], const fp &a) {
#pragma unroll
    for (int m = 0; m < 4; m++) {
        uint32_t w0 = a.l[3 * m], w1 = a.l[3 * m + 1], w2 = a.l[3 * m + 2];
        d[2 * m] = limb48(w1 & 0xffffu, w0);
        d[2 * m + 1] = limb48(w2 >> 16, __funnelshift_r(w1, w2, 16));
    }
}

/* t = a·b as 24 words: per column k the high parts (from column k - 1) and low parts meet as
 * M + c_k with M = 2^52 + 2^50 (c_k in [-2^50, 3·2^50)), then a signed carry chain in radix
 * 2^48, then the 48-bit limbs are repacked into words. */
static __device__ __forceinline__ void prod_f64(uint32_t t[24], const double a[8],
                                                const double b[8]) {
    const double hbase = 0x1.8p100, m = 0x1.4p52; /* 1.5·2^100, 2^52 + 2^50 */
    double hprev = hbase;
    long long carry = 0;
    uint64_t l48[16];
#pragma unroll
    for (int k = 0; k < 16; k++) {
        /* the low sum starts at m for column 0, else at m - 1.5·2^52 (hprev·2^-48 brings it) */
        double h = hbase, lo_sum = k == 0 ? m : -0x1p50, col;
#pragma unroll
        for (int i = 0; i < 8; i++) {
            const int j = k - i;
            if (j < 0 || j > 7)
                continue;
            double hn = fma(a[i], b[j], h);
            lo_sum += fma(a[i], b[j], h - hn);
            h = hn;
        }
        col = k == 0 ? lo_sum : fma(hprev, 0x1p-48, lo_sum);
        hprev = h;
        carry += (long long)(__double_as_longlong(col) - __double_as_longlong(m));
        l48[k] = (uint64_t)carry & 0xffffffffffffull;
        carry >>= 48;
    }
#pragma unroll
    for (int q = 0; q < 8; q++) {
        uint64_t x = l48[2 * q], y = l48[2 * q + 1];
        t[3 * q] = (uint32_t)x;
        t[3 * q + 1] = (uint32_t)(x >> 32) | ((uint32_t)y << 16);
        t[3 * q + 2] = (uint32_t)(y >> 16);
    }
}

static __device__ __forceinline__ void fe_mul_f64(fp &r, const fp &a, const fp &b) {
    double da[8], db[8];
    uint32_t t[24];
    to_limbs48(da, a);
    to_limbs48(db, b);
    fp m;
    prod_f64(t, da, db);
    redc_words(m, t); /* the reduction the Karatsuba multiplication uses (gpu_field.cuh) */
    fe_reduce_once(r, m);
}

/* ---- field kernels ---- */

enum { OP_MUL, OP_SQR, OP_MUL_F64, OP_PAIR, OP_KARA };

template <int CHAINS, int OP>
__global__ void __launch_bounds__(128, OP == OP_KARA ? 4 : 0) field_kern(fp *out, const fp *in) {
    fp a[CHAINS], b = in[1];
    for (int i = 0; i < CHAINS; i++)
        a[i] = in[(threadIdx.x + i) & 63];
    for (int it = 0; it < MUL_ITER; it++)
#pragma unroll
        for (int i = 0; i < CHAINS; i++) {
            if (OP == OP_MUL || (OP == OP_PAIR && i % 2 == 0))
                fe_mul(a[i], a[i], b);
            else if (OP == OP_SQR)
                fe_sqr_fast(a[i], a[i]);
            else if (OP == OP_KARA)
                fe_mul_kara(a[i], a[i], b);

            else
                fe_mul_f64(a[i], a[i], b);
        }
    for (int i = 1; i < CHAINS; i++)
        fe_add(a[0], a[0], a[i]);
    out[blockIdx.x * blockDim.x + threadIdx.x] = a[0];
}

/* ITER steps a <- a⁻¹ + b a thread, by fe_inv_fast when FAST else fe_inv_pow, from one of the
 * random operands of the table (5 to 63). One chain: the divstep loop of one inversion gives
 * nothing to overlap with a second. */
template <bool FAST, int ITER>
__global__ void __launch_bounds__(128, 4) inv_kern(fp *out, const fp *in) {
    fp a = in[5 + (threadIdx.x * 7 + blockIdx.x) % 59], b = in[1];
#pragma unroll 1
    for (int it = 0; it < ITER; it++) {
        if (FAST)
            fe_inv_fast(a, a);
        else
            fe_inv_pow(a, a);
        fe_add(a, a, b);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}

/* bad[2] += the operands whose fe_inv_fast differs from fe_inv_pow or, but for 0, whose product
 * with it is not 1: the table itself, then a·b + c of table entries (thread t picks them by its
 * 6-bit fields) times an entry picked by the rest. */
__global__ void inv_check_kern(unsigned *bad, const fp *in, int nin) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    fp x = in[t % nin], y, z, one;
    if (t >= (unsigned)nin) {
        fe_mul(x, x, in[(t / 64) % nin]);
        fe_add(x, x, in[(t / 4096) % nin]);
        fe_mul(x, x, in[5 + (t / 262144) % (nin - 5)]);
    }
    fe_inv_fast(y, x);
    fe_inv_pow(z, x);
    bool ok = fe_eq(y, z);
    fe_mul(z, x, y);
    fe_one(one);
    ok = ok && (fe_is_zero(x) ? fe_is_zero(z) : fe_eq(z, one));
    if (!ok)
        atomicAdd(bad + 2, 1u);
}

/* bad += the products of fe_mul_f64 that differ from fe_mul's: a table pair, then 7 products
 * of products per thread. */
__global__ void check_kern(unsigned *bad, const fp *in, int nin) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    fp a = in[t % nin], b = in[(t / nin) % nin], x, y;
    for (int it = 0; it < 8; it++) {
        fe_mul(x, a, b);
        fe_mul_f64(y, a, b);
        if (!fe_eq(x, y))
            atomicAdd(bad, 1u);
        fe_mul_kara(y, a, b);
        if (!fe_eq(x, y))
            atomicAdd(bad + 1, 1u);

        a = x;
        fe_add(b, b, x);
    }
}

/* ---- host ---- */

struct ctx {
    int sms, khz;
    char name[256];
    double mul_rate; /* fe_mul's per_clk_sm once measured: the inversions' lines divide by it */
};

static int cuda_ok(cudaError_t e, const char *what) {
    if (e == cudaSuccess)
        return 1;
    fprintf(stderr, "cuzk-bench-gpu-ceiling: %s: %s\n", what, cudaGetErrorString(e));
    return 0;
}

/* Times reps launches after a warm-up; prints the line for ops operations per launch (with
 * mul_per_inv when c.mul_rate is set). Returns the operations per clock and SM, 0 on failure. */
template <class K, class... A>
static double timed(const ctx &c, const char *op, int chains, K kern, int blocks, int threads,
                    double ops, A... args) {
    cudaEvent_t e0, e1;
    cudaFuncAttributes fa;
    float ms = 0;
    const int reps = 3;
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
    const double rate = reps * ops / (ms * 1e-3) / c.sms / (c.khz * 1e3);
    printf("{\"bench\":\"gpu-ceiling\",\"device\":\"%s\",\"op\":\"%s\",\"chains\":%d,\"regs\":%d,"
           "\"local_bytes\":%zu,\"ms\":%.3f,\"per_clk_sm\":%.6f",
           c.name, op, chains, fa.numRegs, fa.localSizeBytes, ms / reps, rate);
    if (c.mul_rate > 0)
        printf(",\"mul_per_inv\":%.1f", c.mul_rate / rate);
    printf("}\n");
    fflush(stdout);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return rate;
}

/* 64 operands below p: pseudo-random words with the top word reduced below p's, and p - 1,
 * p - 2, 0, 1 and 2^352 - 1 + (p_11 - 1)·2^352 (all ones below the top word). */
static void operands(uint32_t h[64][12]) {
    static const uint32_t p[12] = CZ_GPU_BLS12381_FP_P;
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 64; i++) {
        for (int w = 0; w < 12; w++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            h[i][w] = (uint32_t)s;
        }
        h[i][11] %= p[11];
    }
    for (int w = 0; w < 12; w++) {
        h[0][w] = h[1][w] = p[w];
        h[2][w] = h[3][w] = 0;
        h[4][w] = w == 11 ? p[11] - 1 : 0xffffffffu;
    }
    h[0][0] -= 1, h[1][0] -= 2, h[3][0] = 1;
}

int main(void) {
    ctx c = {};
    cudaDeviceProp prop;
    uint32_t host[64][12], *d_words = NULL;
    fp *d_in = NULL, *d_out = NULL;
    unsigned *d_bad = NULL, bad[3] = {0, 0, 0};
    const int pipe_blocks_per_sm = 8, pipe_threads = 256, field_blocks_per_sm = 16;
    int rc = 1, ok;
    if (cudaGetDeviceCount(&ok) != cudaSuccess || ok == 0) {
        fprintf(stderr, "cuzk-bench-gpu-ceiling: no CUDA device\n");
        return 77;
    }
    if (!cuda_ok(cudaGetDeviceProperties(&prop, 0), "device properties"))
        return 1;
    snprintf(c.name, sizeof c.name, "%s", prop.name);
    cudaDeviceGetAttribute(&c.sms, cudaDevAttrMultiProcessorCount, 0);
    cudaDeviceGetAttribute(&c.khz, cudaDevAttrClockRate, 0);
    operands(host);
    const int pb = c.sms * pipe_blocks_per_sm, fb = c.sms * field_blocks_per_sm;
    if (!cuda_ok(cudaMalloc(&d_words, (size_t)pb * pipe_threads * 4), "allocate") ||
        !cuda_ok(cudaMalloc(&d_in, sizeof host), "allocate") ||
        !cuda_ok(cudaMalloc(&d_out, (size_t)fb * 128 * sizeof(fp)), "allocate") ||
        !cuda_ok(cudaMalloc(&d_bad, sizeof bad), "allocate") ||
        !cuda_ok(cudaMemcpy(d_in, host, sizeof host, cudaMemcpyHostToDevice), "upload") ||
        !cuda_ok(cudaMemset(d_bad, 0, sizeof bad), "clear"))
        goto out;
    check_kern<<<1024, 256>>>(d_bad, d_in, 64);
    inv_check_kern<<<NINVCHECK / 256, 256>>>(d_bad, d_in, 64);
    if (!cuda_ok(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost), "check"))
        goto out;
    for (int v = 0; v < 2; v++)
        if (bad[v] != 0) {
            static const char *const names[2] = {"fe_mul_f64", "fe_mul_kara"};
            fprintf(stderr, "cuzk-bench-gpu-ceiling: %s differs from fe_mul in %u of %d\n",
                    names[v], bad[v], 1024 * 256 * 8);
            goto out;
        }
    if (bad[2] != 0) {
        fprintf(stderr, "cuzk-bench-gpu-ceiling: fe_inv_fast differs from fe_inv_pow in %u of %d\n",
                bad[2], NINVCHECK);
        goto out;
    }
    {
        const double pipe_ops = (double)pb * pipe_threads * PIPE_ITER * PIPE_CHAIN;
        const double mul_ops = (double)fb * 128 * MUL_ITER, inv_ops = (double)fb * 128;
        double mul_rate = 0;
        ok = timed(c, "imad", PIPE_CHAIN, imad_kern, pb, pipe_threads, pipe_ops, d_words, 7u) &&
             timed(c, "imad_wide", PIPE_CHAIN, imad_wide_kern, pb, pipe_threads, pipe_ops, d_words,
                   7u) &&
             timed(c, "dfma", PIPE_CHAIN, dfma_kern, pb, pipe_threads, pipe_ops, d_words, 7u) &&
             timed(c, "imad_dfma", PIPE_CHAIN, imad_dfma_kern, pb, pipe_threads, pipe_ops, d_words,
                   7u) &&
             (mul_rate = timed(c, "fe_mul", 1, field_kern<1, OP_MUL>, fb, 128, mul_ops, d_out,
                               (const fp *)d_in)) > 0 &&
             timed(c, "fe_mul", 2, field_kern<2, OP_MUL>, fb, 128, 2 * mul_ops, d_out,
                   (const fp *)d_in) &&
             timed(c, "fe_sqr_fast", 1, field_kern<1, OP_SQR>, fb, 128, mul_ops, d_out,
                   (const fp *)d_in) &&
             timed(c, "fe_mul_f64", 1, field_kern<1, OP_MUL_F64>, fb, 128, mul_ops, d_out,
                   (const fp *)d_in) &&
             timed(c, "fe_mul_f64", 2, field_kern<2, OP_MUL_F64>, fb, 128, 2 * mul_ops, d_out,
                   (const fp *)d_in) &&
             timed(c, "fe_mul_pair", 2, field_kern<2, OP_PAIR>, fb, 128, 2 * mul_ops, d_out,
                   (const fp *)d_in) &&
             timed(c, "fe_mul_kara", 1, field_kern<1, OP_KARA>, fb, 128, mul_ops, d_out,
                   (const fp *)d_in) &&
             timed(c, "fe_mul_kara", 2, field_kern<2, OP_KARA>, fb, 128, 2 * mul_ops, d_out,
                   (const fp *)d_in);
        c.mul_rate = mul_rate;
        ok = ok &&
             timed(c, "fe_inv_pow", 1, inv_kern<false, 2>, fb, 128, 2 * inv_ops, d_out,
                   (const fp *)d_in) &&
             timed(c, "fe_inv_fast", 1, inv_kern<true, INV_ITER>, fb, 128, INV_ITER * inv_ops,
                   d_out, (const fp *)d_in);
        rc = ok ? 0 : 1;
    }
out:
    cudaFree(d_words);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_bad);
    return rc;
}
