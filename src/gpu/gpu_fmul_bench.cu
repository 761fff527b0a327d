/*
 * Device field-multiplication throughput, for `cuzk-bench fmul --gpu` (not a library feature: the
 * kernels only measure). See gpu_bench.h.
 */
#include "gpu_bench.h"
#include "gpu_common.cuh"
#include "gpu_field.cuh"

/* ---- field multiplication microbenchmark (cuzk-bench fmul --gpu) ----
 * Each thread runs 4 independent chains x_k ← x_k·y (or x_k²) for iters rounds. Variant 0 is
 * fe_mul (product scanning), 1 an operand-scanning multiplication with even/odd accumulators
 * (below; its results must equal variant 0's: the benchmark compares them), 2 fe_sqr.
 * Measured on the H200 the even/odd form is 3-4 % slower: ptxas already turns each mad.lo.cc /
 * madc.hi.cc pair into one IMAD.WIDE and the addc into an IADD3.X on the ALU pipe, so both forms
 * issue the same ~2N² + N wide multiplies on the IMAD pipe, which is the bound, and the even/odd
 * form adds a few IMAD.X for its carries. */

/* ---- the even/odd operand-scanning multiplication (measured slower, kept for the benchmark) ----
 */

/* Carry-chain pieces. Every chain spans several asm statements, so all of them are volatile (keeps
 * them in order; nothing between them touches the carry flag). */
#define CZ_MADLO_CC(d, a, b, c)                                                                    \
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))
#define CZ_MADCLO_CC(d, a, b, c)                                                                   \
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))
#define CZ_MADCHI_CC(d, a, b, c)                                                                   \
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))
#define CZ_MADCHI(d, a, b, c)                                                                      \
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))
#define CZ_ADD_CC(d, a, b)  asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))
#define CZ_ADDC_CC(d, a, b) asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))
#define CZ_ADDC(d, a, b)    asm volatile("addc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b))

/* acc[0..n) += x[s], x[s+2], ... · y as lo/hi word pairs, one chain, carry out left in CC. */
template <int n>
static __device__ __forceinline__ void eo_row(uint32_t *acc, const uint32_t *x, int s, uint32_t y) {
    CZ_MADLO_CC(acc[0], x[s], y, acc[0]);
    CZ_MADCHI_CC(acc[1], x[s], y, acc[1]);
#pragma unroll
    for (int j = 2; j < n; j += 2) {
        CZ_MADCLO_CC(acc[j], x[s + j], y, acc[j]);
        CZ_MADCHI_CC(acc[j + 1], x[s + j], y, acc[j + 1]);
    }
}

/* The same with the modulus as x (words p(s), p(s+2), ...). */
template <class C>
static __device__ __forceinline__ void eo_row_p(uint32_t *acc, int s, uint32_t m) {
    CZ_MADLO_CC(acc[0], C::p(s), m, acc[0]);
    CZ_MADCHI_CC(acc[1], C::p(s), m, acc[1]);
#pragma unroll
    for (int j = 2; j < C::N; j += 2) {
        CZ_MADCLO_CC(acc[j], C::p(s + j), m, acc[j]);
        CZ_MADCHI_CC(acc[j + 1], C::p(s + j), m, acc[j + 1]);
    }
}

/* One Montgomery step on (x, y), value x + y·2^32: adds m·p with m = x[0]·n0, so that x[0]
 * becomes 0. The odd-word products go into y (its carry out cannot happen: the step's value stays
 * below 2^(32N+32)), the even-word ones into x, whose carry out lands in y[N-1]. */
template <class C> static __device__ __forceinline__ void eo_redc_step(uint32_t *x, uint32_t *y) {
    constexpr int N = C::N;
    const uint32_t m = x[0] * C::n0;
    eo_row_p<C>(y, 1, m);
    eo_row_p<C>(x, 0, m);
    CZ_ADDC(y[N - 1], y[N - 1], 0);
}

/* r = a·b·R⁻¹ mod p, fully reduced, like fe_mul.
 *
 * The state is two N-word accumulators, x (word k at 2^(32k)) and y (word k at 2^(32k+32)). Row i
 * adds a·b_i: the words a_0, a_2, ... times b_i are N consecutive lo/hi words at x's positions,
 * a_1, a_3, ... at y's, so each product is one mad.lo / madc.hi pair in a single carry chain per
 * accumulator. Then a Montgomery step clears x[0], and the division by 2^32 is a renaming: the new
 * x is y plus x[1] (one add that starts the next row's y chain, whose addends are x[2..N-1]: the
 * old x shifted by two words becomes the new y). 4N² + O(N) instructions, N² + N IMAD pairs. */
template <class C>
static __device__ __forceinline__ void eo_mul(fe<C> &r, const fe<C> &a, const fe<C> &b) {
    constexpr int N = C::N;
    uint32_t x[N], y[N];
    const uint32_t b0 = b.l[0];
#pragma unroll
    for (int j = 0; j < N; j += 2) {
        x[j] = a.l[j] * b0;
        x[j + 1] = __umulhi(a.l[j], b0);
        y[j] = a.l[j + 1] * b0;
        y[j + 1] = __umulhi(a.l[j + 1], b0);
    }
    eo_redc_step<C>(x, y);
#pragma unroll
    for (int i = 1; i < N; i++) {
        const uint32_t bi = b.l[i];
        uint32_t nx[N], ny[N];
        /* new x = y + x[1]; new y = x >> 64 + a_odd·b_i; the carry of x[1] + y[0] enters ny[0] */
        CZ_ADD_CC(nx[0], y[0], x[1]);
#pragma unroll
        for (int j = 0; j < N - 2; j += 2) {
            CZ_MADCLO_CC(ny[j], a.l[j + 1], bi, x[j + 2]);
            CZ_MADCHI_CC(ny[j + 1], a.l[j + 1], bi, x[j + 3]);
        }
        CZ_MADCLO_CC(ny[N - 2], a.l[N - 1], bi, 0u);
        CZ_MADCHI(ny[N - 1], a.l[N - 1], bi, 0u);
#pragma unroll
        for (int j = 1; j < N; j++)
            nx[j] = y[j];
        eo_row<N>(nx, a.l, 0, bi);
        CZ_ADDC(ny[N - 1], ny[N - 1], 0);
        eo_redc_step<C>(nx, ny);
#pragma unroll
        for (int j = 0; j < N; j++) {
            x[j] = nx[j];
            y[j] = ny[j];
        }
    }
    /* value / 2^32 = (x >> 32) + y, below 2p */
    fe<C> s;
    CZ_ADD_CC(s.l[0], y[0], x[1]);
#pragma unroll
    for (int j = 1; j < N - 1; j++)
        CZ_ADDC_CC(s.l[j], y[j], x[j + 1]);
    CZ_ADDC(s.l[N - 1], y[N - 1], 0);
    fe_reduce_once(r, s);
}

template <class C, int V> __global__ void fmul_bench_kern(fe<C> *io, size_t count, unsigned iters) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    fe<C> x[4], y = fe_load(&io[5 * i + 4]);
#pragma unroll
    for (int k = 0; k < 4; k++)
        x[k] = fe_load(&io[5 * i + k]);
    for (unsigned it = 0; it < iters; it++) {
#pragma unroll
        for (int k = 0; k < 4; k++) {
            if (V == 0)
                fe_mul(x[k], x[k], y);
            else if (V == 1)
                eo_mul(x[k], x[k], y);
            else
                fe_sqr(x[k], x[k]);
        }
    }
#pragma unroll
    for (int k = 0; k < 4; k++)
        fe_store(&io[5 * i + k], x[k]);
}

template <class C>
static int fmul_bench(fe<C> *io, size_t count, int variant, unsigned iters, cz_errinfo *ei) {
    int rc = CZ_OK;
    const unsigned blocks = cz__gpu_blocks(count, 256);
    if (variant == 0)
        fmul_bench_kern<C, 0><<<blocks, 256>>>(io, count, iters);
    else if (variant == 1)
        fmul_bench_kern<C, 1><<<blocks, 256>>>(io, count, iters);
    else
        fmul_bench_kern<C, 2><<<blocks, 256>>>(io, count, iters);
    CZ_CUDA_LAUNCHED();
    CZ_CUDA_TRY(cudaDeviceSynchronize());
out:
    return rc;
}

/* Internal (declared by bench/cuzk_bench_gpu.c): field 0 BN254 Fr, 1 BLS12-381 Fr, 2 BN254 Fp,
 * 3 BLS12-381 Fp; d_io holds 5·count elements (x0..x3, y per thread), 4·count·iters operations. */
extern "C" int cz__gpu_fmul_bench(int field, int variant, void *d_io, size_t count, unsigned iters,
                                  int dev, cz_errinfo *ei) {
    int rc;
    if ((rc = cz__gpu_select(dev, ei)) != CZ_OK)
        return rc;
    switch (field) {
    case 0:
        return fmul_bench((fe<gbn254_fr_cfg> *)d_io, count, variant, iters, ei);
    case 1:
        return fmul_bench((fe<gbls12381_fr_cfg> *)d_io, count, variant, iters, ei);
    case 2:
        return fmul_bench((fe<gbn254_fp_cfg> *)d_io, count, variant, iters, ei);
    default:
        return fmul_bench((fe<gbls12381_fp_cfg> *)d_io, count, variant, iters, ei);
    }
}
