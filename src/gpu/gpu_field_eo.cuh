/*
 * The even/odd operand-scanning Montgomery multiplication (sppark's technique, written here from
 * its description): two mad.lo/madc.hi carry chains per row, no addc per product. Alone it is
 * 3-4 % slower than fe_mul (gpu_field.cuh); the NTT's twiddle multiplication uses it (gpu_ntt.cu),
 * where the product-scanning form's IADD3.X carries compete with the butterfly's additions for
 * the ALU pipe.
 */
#ifndef CUZK_GPU_FIELD_EO_CUH
#define CUZK_GPU_FIELD_EO_CUH

#include "gpu_field.cuh"

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
    const uint32_t m = mont_m<C>(x[0]);
    eo_row_p<C>(y, 1, m);
    eo_row_p<C>(x, 0, m);
    CZ_ADDC(y[N - 1], y[N - 1], 0);
}

/* s = a·b·R⁻¹ mod p below a·b/R + p, like fe_mul_nr (no final subtraction).
 *
 * The state is two N-word accumulators, x (word k at 2^(32k)) and y (word k at 2^(32k+32)). Row i
 * adds a·b_i: the words a_0, a_2, ... times b_i are N consecutive lo/hi words at x's positions,
 * a_1, a_3, ... at y's, so each product is one mad.lo / madc.hi pair in a single carry chain per
 * accumulator. Then a Montgomery step clears x[0], and the division by 2^32 is a renaming: the new
 * x is y plus x[1] (one add that starts the next row's y chain, whose addends are x[2..N-1]: the
 * old x shifted by two words becomes the new y). 4N² + O(N) instructions, N² + N IMAD pairs. */
template <class C>
static __device__ __forceinline__ void eo_mul_nr(fe<C> &s, const fe<C> &a, const fe<C> &b) {
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
    /* value / 2^32 = (x >> 32) + y */
    CZ_ADD_CC(s.l[0], y[0], x[1]);
#pragma unroll
    for (int j = 1; j < N - 1; j++)
        CZ_ADDC_CC(s.l[j], y[j], x[j + 1]);
    CZ_ADDC(s.l[N - 1], y[N - 1], 0);
}

/* r = a·b·R⁻¹ mod p, fully reduced, like fe_mul. */
template <class C>
static __device__ __forceinline__ void eo_mul(fe<C> &r, const fe<C> &a, const fe<C> &b) {
    fe<C> s;
    eo_mul_nr(s, a, b);
    fe_reduce_once(r, s);
}

#endif
