/*
 * Montgomery arithmetic over a prime field with N 64-bit limbs, written once and instantiated
 * per field by including this file after defining:
 *
 *   F_PREFIX   internal function prefix, e.g. bls12381_fp  (functions are F_PREFIX##_mul, ...)
 *   F_T        the element type, a struct with `uint64_t l[F_N]` (e.g. cz_bls12381_fp)
 *   F_N        number of limbs (4 or 6)
 *   F_P, F_ONE, F_R2, F_N0, F_P_MINUS_2, F_P_MINUS_1_HALF, F_BITS   (from field_consts.h)
 *   F_P_PLUS_1_QUARTER  only for p = 3 mod 4: enables F_PREFIX##_sqrt
 *
 * Elements are kept in Montgomery form a·R mod p, R = 2^(64·N), fully reduced (< p), limbs least
 * significant first. Every function is `static inline`, so hot loops in MSM and NTT inline the
 * arithmetic; src/field/fields.c exports cz_<field>_* wrappers for the public API.
 *
 * Multiplication is CIOS Montgomery with the "no final carry" shortcut: all four moduli have a top
 * limb below 2^63 - 1, so the running sum never needs an (N+1)-th word and the result is < 2p
 * before one conditional subtraction. Cost: 2N² + N 64×64→128 multiplications; measured on the
 * 2-core AMD EPYC dev machine (gcc 12 -O3, no -march): ~41 ns for 6 limbs, ~21 ns for 4 limbs.
 * Squaring is the same product: a dedicated SOS squaring (N(N+1)/2 + N² + N products) measured no
 * faster with gcc's mul/adc code, whose cost is dominated by the rax/rdx moves of `mul`.
 *
 * Addition, subtraction, negation and the final subtraction are branch-free (masks). inv is a
 * variable-time binary extended Euclid; inv_fermat is the constant-time alternative. pow, sqrt
 * and legendre are variable time in the exponent only; conversions are variable time.
 */
#include <stdint.h>
#include <string.h>

#include "cuzk/err.h"
#include "field/cz_macros.h"
#include "field/mont_adx.h"

#define FN(name) CZ_CAT3(F_PREFIX, _, name)

/* r = a - b over N limbs, returns the borrow (0 or 1). */
static inline uint64_t FN(limbs_sub)(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t borrow = 0;
#pragma GCC unroll 8
    for (int i = 0; i < F_N; i++) {
        cz_u128 d = (cz_u128)a[i] - b[i] - borrow;
        r[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    return borrow;
}

/* r = a + b over N limbs, returns the carry. */
static inline uint64_t FN(limbs_add)(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t carry = 0;
#pragma GCC unroll 8
    for (int i = 0; i < F_N; i++) {
        cz_u128 s = (cz_u128)a[i] + b[i] + carry;
        r[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
    return carry;
}

/* r = (a >= p) ? a - p : a, for a < 2p. Branch-free. */
static inline void FN(reduce_once)(uint64_t *r, const uint64_t *a) {
    uint64_t t[F_N];
    uint64_t borrow = FN(limbs_sub)(t, a, F_P);
    uint64_t keep_a = (uint64_t)0 - borrow; /* all ones when a < p */
#pragma GCC unroll 8
    for (int i = 0; i < F_N; i++)
        r[i] = (a[i] & keep_a) | (t[i] & ~keep_a);
}

/* Compares canonical limbs with p: 1 when a < p. */
static inline int FN(limbs_lt_p)(const uint64_t *a) {
    uint64_t t[F_N];
    return (int)FN(limbs_sub)(t, a, F_P);
}

/* The bits a canonical value can use in its top limb (for rejection sampling). */
static inline uint64_t FN(top_limb_mask)(void) {
    return ~(uint64_t)0 >> __builtin_clzll(F_P[F_N - 1]);
}

static inline void FN(set_zero)(F_T *r) {
    memset(r->l, 0, sizeof r->l);
}

static inline void FN(set_one)(F_T *r) {
    memcpy(r->l, F_ONE, sizeof r->l);
}

static inline int FN(is_zero)(const F_T *a) {
    uint64_t acc = 0;
    for (int i = 0; i < F_N; i++)
        acc |= a->l[i];
    return acc == 0;
}

static inline int FN(is_one)(const F_T *a) {
    return memcmp(a->l, F_ONE, sizeof a->l) == 0;
}

static inline int FN(eq)(const F_T *a, const F_T *b) {
    uint64_t acc = 0;
    for (int i = 0; i < F_N; i++)
        acc |= a->l[i] ^ b->l[i];
    return acc == 0;
}

#ifndef CZ_MONT_CARRY_HELPERS
#define CZ_MONT_CARRY_HELPERS
/* -DCZ_PORTABLE_CARRY builds (and tests) the portable carry code on x86-64 too. */
#if defined(__x86_64__) && !defined(CZ_PORTABLE_CARRY)
#define CZ_X86_CARRY 1
#endif
/* The short kernels are always inlined: a call costs as much as the work. */
#define CZ_TOWER_INLINE static inline __attribute__((always_inline))
#if defined(CZ_X86_CARRY)
#include <x86intrin.h>
#endif

/* *r = a + b + c, returns the carry (c is 0 or 1). */
static inline unsigned char cz_adc64(unsigned char c, uint64_t a, uint64_t b, uint64_t *r) {
#if defined(CZ_X86_CARRY)
    unsigned long long t;
    c = _addcarry_u64(c, a, b, &t);
    *r = t;
    return c;
#else
    cz_u128 s = (cz_u128)a + b + c;
    *r = (uint64_t)s;
    return (unsigned char)(s >> 64);
#endif
}

/* *r = a - b - c, returns the borrow (c is 0 or 1). */
static inline unsigned char cz_sbb64(unsigned char c, uint64_t a, uint64_t b, uint64_t *r) {
#if defined(CZ_X86_CARRY)
    unsigned long long t;
    c = _subborrow_u64(c, a, b, &t);
    *r = t;
    return c;
#else
    cz_u128 d = (cz_u128)a - b - c;
    *r = (uint64_t)d;
    return (unsigned char)((d >> 64) & 1);
#endif
}
#endif

/* r = t - p when that does not borrow, else t; for t < 2p (N limbs). */
CZ_TOWER_INLINE void FN(csub_p)(uint64_t *r, const uint64_t *t) {
    uint64_t s[F_N];
    unsigned char b = 0;
#pragma GCC unroll 8
    for (int i = 0; i < F_N; i++)
        b = cz_sbb64(b, t[i], F_P[i], &s[i]);
    uint64_t keep = (uint64_t)0 - b; /* all ones when t < p */
#pragma GCC unroll 8
    for (int i = 0; i < F_N; i++)
        r[i] = (t[i] & keep) | (s[i] & ~keep);
}

/* r = a + b mod p: add with carry, then subtract p unless that borrows. */
CZ_TOWER_INLINE void FN(add)(F_T *r, const F_T *a, const F_T *b) {
    uint64_t t[F_N];
    unsigned char c = 0;
#pragma GCC unroll 8
    for (int i = 0; i < F_N; i++)
        c = cz_adc64(c, a->l[i], b->l[i], &t[i]);
    FN(csub_p)(r->l, t);
}

/* r = 2a mod p. */
CZ_TOWER_INLINE void FN(dbl)(F_T *r, const F_T *a) {
    FN(add)(r, a, a);
}

/* r = a - b mod p: subtract, then add p back under the borrow mask. */
CZ_TOWER_INLINE void FN(sub)(F_T *r, const F_T *a, const F_T *b) {
    uint64_t t[F_N];
    unsigned char c = 0;
#pragma GCC unroll 8
    for (int i = 0; i < F_N; i++)
        c = cz_sbb64(c, a->l[i], b->l[i], &t[i]);
    uint64_t mask = (uint64_t)0 - c;
    c = 0;
#pragma GCC unroll 8
    for (int i = 0; i < F_N; i++)
        c = cz_adc64(c, t[i], F_P[i] & mask, &r->l[i]);
}

/* r = -a mod p = p - a, and 0 for a = 0 (masked, branch-free). */
CZ_TOWER_INLINE void FN(neg)(F_T *r, const F_T *a) {
    uint64_t acc = 0, t[F_N];
    unsigned char c = 0;
#pragma GCC unroll 8
    for (int i = 0; i < F_N; i++) {
        acc |= a->l[i];
        c = cz_sbb64(c, F_P[i], a->l[i], &t[i]);
    }
    uint64_t nz = (uint64_t)0 - (uint64_t)(acc != 0);
#pragma GCC unroll 8
    for (int i = 0; i < F_N; i++)
        r->l[i] = t[i] & nz;
}

/* r = a / 2 mod p. */
static inline void FN(half)(F_T *r, const F_T *a) {
    uint64_t t[F_N], pm[F_N];
    uint64_t mask = (uint64_t)0 - (a->l[0] & 1);
    for (int i = 0; i < F_N; i++)
        pm[i] = F_P[i] & mask;
    uint64_t carry = FN(limbs_add)(t, a->l, pm);
    for (int i = 0; i < F_N - 1; i++)
        r->l[i] = (t[i] >> 1) | (t[i + 1] << 63);
    r->l[F_N - 1] = (t[F_N - 1] >> 1) | (carry << 63);
}

/* lo + hi·2^64 = a·b + c + d (cannot overflow). The carries are written as `x += c; h += x < c`,
 * which gcc turns into add/adc pairs; the obvious (u128)a·b + c + d costs extra zeroed registers.
 */
static inline uint64_t FN(mac)(uint64_t *hi, uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
    cz_u128 p = (cz_u128)a * b;
    uint64_t lo = (uint64_t)p, h = (uint64_t)(p >> 64);
    lo += c;
    h += lo < c;
    lo += d;
    h += lo < d;
    *hi = h;
    return lo;
}

#if defined(CZ_FIELD_ADX) && (F_N == 4 || F_N == 6)
/* The same product with mulx/adcx/adox (field/mont_adx.h), for CPUs with BMI2 and ADX. The
 * unrolled rounds make one asm template longer than the 4095 characters ISO C asks compilers to
 * support in a string (-Woverlength-strings, part of -Wpedantic); gcc and clang take it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverlength-strings"
static inline void FN(mul_adx)(F_T *r, const F_T *a, const F_T *b) {
    uint64_t o[F_N], lo, hi, z;
#if F_N == 4
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0;
    __asm__(CZ_ADX4_ROUND(0, t0, t1, t2, t3, t4) CZ_ADX4_ROUND(1, t1, t2, t3, t4, t0)
                CZ_ADX4_ROUND(2, t2, t3, t4, t0, t1) CZ_ADX4_ROUND(3, t3, t4, t0, t1, t2)
            : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4),
              CZ_ADX_SCRATCH
            : CZ_ADX_INPUTS(4, a->l, b->l, F_P, F_N0)
            : CZ_ADX_CLOBBERS);
    o[0] = t4, o[1] = t0, o[2] = t1, o[3] = t2;
#else
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0, t6 = 0;
    __asm__(CZ_ADX6_ROUND(0, t0, t1, t2, t3, t4, t5, t6)
                CZ_ADX6_ROUND(1, t1, t2, t3, t4, t5, t6, t0)
                    CZ_ADX6_ROUND(2, t2, t3, t4, t5, t6, t0, t1)
                        CZ_ADX6_ROUND(3, t3, t4, t5, t6, t0, t1, t2)
                            CZ_ADX6_ROUND(4, t4, t5, t6, t0, t1, t2, t3)
                                CZ_ADX6_ROUND(5, t5, t6, t0, t1, t2, t3, t4)
            : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4),
              [t5] "+r"(t5), [t6] "+r"(t6), CZ_ADX_SCRATCH
            : CZ_ADX_INPUTS(6, a->l, b->l, F_P, F_N0), [p4] "m"(F_P[4]), [p5] "m"(F_P[5])
            : CZ_ADX_CLOBBERS);
    o[0] = t6, o[1] = t0, o[2] = t1, o[3] = t2, o[4] = t3, o[5] = t4;
#endif
    FN(csub_p)(r->l, o);
}
#pragma GCC diagnostic pop
#define FN_HAVE_MUL_ADX 1
#endif

/* Montgomery product r = a·b·R⁻¹ mod p (CIOS, no final carry; see the file comment). Both loops
 * are fully unrolled; per (i, j) one product of a and b (carry chain A) and one of m and p (carry
 * chain C) interleave, which gives the CPU two independent chains. r may alias a or b. Where the
 * CPU has BMI2 and ADX, mul_adx computes the same product. */
static inline void FN(mul)(F_T *r, const F_T *a, const F_T *b) {
#ifdef FN_HAVE_MUL_ADX
    if (cz__field_adx) {
        FN(mul_adx)(r, a, b);
        return;
    }
#endif
    uint64_t t[F_N] = {0};
#pragma GCC unroll 8
    for (int i = 0; i < F_N; i++) {
        uint64_t A, C;
        uint64_t lo = FN(mac)(&A, a->l[0], b->l[i], t[0], 0);
        uint64_t m = lo * F_N0;
        (void)FN(mac)(&C, m, F_P[0], lo, 0); /* low word is zero by the choice of m */
#pragma GCC unroll 8
        for (int j = 1; j < F_N; j++) {
            lo = FN(mac)(&A, a->l[j], b->l[i], t[j], A);
            t[j - 1] = FN(mac)(&C, m, F_P[j], lo, C);
        }
        t[F_N - 1] = C + A;
    }
    FN(reduce_once)(r->l, t);
}

static inline void FN(sqr)(F_T *r, const F_T *a) {
    FN(mul)(r, a, a);
}

/* r = a^e for an exponent of ne limbs (least significant first). Variable time in e only. */
static inline void FN(pow_limbs)(F_T *r, const F_T *a, const uint64_t *e, size_t ne) {
    F_T acc, base = *a;
    FN(set_one)(&acc);
    for (size_t i = ne; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            FN(sqr)(&acc, &acc);
            if ((e[i] >> bit) & 1)
                FN(mul)(&acc, &acc, &base);
        }
    }
    *r = acc;
}

/* r = a⁻¹ by Fermat (a^(p-2)); constant time; the inverse of zero is zero. About 1.5·bits mul. */
static inline void FN(inv_fermat)(F_T *r, const F_T *a) {
    FN(pow_limbs)(r, a, F_P_MINUS_2, F_N);
}

/* a >>= k for canonical limbs, 0 < k < 64. */
static inline void FN(limbs_shr)(uint64_t *a, int k) {
#pragma GCC unroll 8
    for (int i = 0; i < F_N - 1; i++)
        a[i] = (a[i] >> k) | (a[i + 1] << (64 - k));
    a[F_N - 1] >>= k;
}

/* 1 when the canonical limbs equal 1. */
static inline int FN(limbs_is_one)(const uint64_t *a) {
    uint64_t acc = a[0] ^ 1;
    for (int i = 1; i < F_N; i++)
        acc |= a[i];
    return acc == 0;
}

/*
 * r = a⁻¹; the inverse of zero is zero. Binary extended Euclid on the Montgomery representative
 * x = aR (invariants u ≡ x·x1, v ≡ x·x2 mod p, with u, v odd after the halving steps), giving
 * x⁻¹ = a⁻¹R⁻¹ as a plain residue; two Montgomery products with R² turn it into a⁻¹R. About
 * 2·bits halving/subtraction steps of a few limb operations each, several times cheaper than
 * Fermat. Variable time (in a): use inv_fermat where a is secret.
 */
static inline void FN(inv)(F_T *r, const F_T *a) {
    if (FN(is_zero)(a)) {
        FN(set_zero)(r);
        return;
    }
    uint64_t u[F_N], v[F_N];
    F_T x1, x2;
    memcpy(u, a->l, sizeof u);
    memcpy(v, F_P, sizeof v);
    memset(x1.l, 0, sizeof x1.l);
    x1.l[0] = 1;
    FN(set_zero)(&x2);
    for (;;) {
        while ((u[0] & 1) == 0) {
            int k = u[0] == 0 ? 63 : __builtin_ctzll(u[0]);
            FN(limbs_shr)(u, k);
            for (int i = 0; i < k; i++)
                FN(half)(&x1, &x1);
        }
        if (FN(limbs_is_one)(u))
            break;
        while ((v[0] & 1) == 0) {
            int k = v[0] == 0 ? 63 : __builtin_ctzll(v[0]);
            FN(limbs_shr)(v, k);
            for (int i = 0; i < k; i++)
                FN(half)(&x2, &x2);
        }
        if (FN(limbs_is_one)(v)) {
            x1 = x2;
            break;
        }
        uint64_t d[F_N];
        if (FN(limbs_sub)(d, u, v) == 0) { /* u >= v */
            memcpy(u, d, sizeof u);
            FN(sub)(&x1, &x1, &x2);
        } else {
            FN(limbs_sub)(v, v, u);
            FN(sub)(&x2, &x2, &x1);
        }
    }
    /* x1 = (aR)⁻¹ = a⁻¹R⁻¹ as a plain residue; mont(mont(x1, R²), R²) = a⁻¹R. */
    F_T r2;
    memcpy(r2.l, F_R2, sizeof r2.l);
    FN(mul)(&x1, &x1, &r2);
    FN(mul)(r, &x1, &r2);
}

/* Legendre symbol: 1 for a non-zero square, -1 for a non-square, 0 for zero. */
static inline int FN(legendre)(const F_T *a) {
    F_T t;
    FN(pow_limbs)(&t, a, F_P_MINUS_1_HALF, F_N);
    if (FN(is_zero)(&t))
        return 0;
    return FN(is_one)(&t) ? 1 : -1;
}

#ifdef F_P_PLUS_1_QUARTER
/* r = a square root of a (p = 3 mod 4: a^((p+1)/4)); returns 0, or CZ_ENOSQRT. */
static inline int FN(sqrt)(F_T *r, const F_T *a) {
    F_T s, chk;
    FN(pow_limbs)(&s, a, F_P_PLUS_1_QUARTER, F_N);
    FN(sqr)(&chk, &s);
    if (!FN(eq)(&chk, a))
        return CZ_ENOSQRT;
    *r = s;
    return CZ_OK;
}
#endif

/*
 * Kernels for the extension towers and the pairing (field/tower.h, fp2_impl.h's fp2f set).
 * mul_fast computes exactly what mul computes, with a product-scanning carry chain (3-word column
 * accumulator: mov, mul, add, adc, adc per 64×64 product) that also accepts an unreduced first
 * factor below 2p; its time barely differs from mul (~44 ns for 6 limbs on the dev machine, bound
 * by the 72 `mul` instructions). The others serve lazy reduction: mul_wide is the plain 2N-limb
 * product, redc the Montgomery reduction of a 2N-limb value < p·2^(64N), wide_sub / wide_sub_mod
 * combine products before their one reduction (an Fp2 product: 3 products and 2 reductions, 180
 * limb products for 6 limbs instead of 216). They are tested against mul in
 * tests/field/test_tower.c. (add, sub, dbl and neg above use the same add/adc and sub/sbb
 * chains: with gcc 12 -O3 and 6 limbs, add takes 72 instructions instead of 191 for the plain
 * 128-bit-sum code, sub 53 instead of 165.)
 */
/* r = a + b over N limbs without reduction (for a, b < p the sum is < 2p < 2^(64N)). */
CZ_TOWER_INLINE void FN(add_nr)(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    unsigned char c = 0;
#pragma GCC unroll 8
    for (int i = 0; i < F_N; i++)
        c = cz_adc64(c, a[i], b[i], &r[i]);
}

/* (t0, t1, t2) += x·y: the 3-word column accumulator of the product-scanning (Comba) loops. */
CZ_TOWER_INLINE void FN(acc_mul)(uint64_t *t0, uint64_t *t1, uint64_t *t2, uint64_t x, uint64_t y) {
    cz_u128 p = (cz_u128)x * y;
    unsigned char c = cz_adc64(0, *t0, (uint64_t)p, t0);
    c = cz_adc64(c, *t1, (uint64_t)(p >> 64), t1);
    (void)cz_adc64(c, *t2, 0, t2);
}

/* r = x·y over 2N limbs (product scanning, no reduction); r must not overlap x or y. */
static inline void FN(mul_wide)(uint64_t *restrict r, const uint64_t *restrict x,
                                const uint64_t *restrict y) {
    uint64_t t0 = 0, t1 = 0, t2 = 0;
#pragma GCC unroll 16
    for (int k = 0; k < 2 * F_N - 1; k++) {
#pragma GCC unroll 8
        for (int i = (k < F_N ? 0 : k - F_N + 1); i <= (k < F_N ? k : F_N - 1); i++)
            FN(acc_mul)(&t0, &t1, &t2, x[i], y[k - i]);
        r[k] = t0;
        t0 = t1;
        t1 = t2;
        t2 = 0;
    }
    r[2 * F_N - 1] = t0;
}

/* r = a + b over 2N limbs; the sum must stay below 2^(128N). */
static inline void FN(wide_add)(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    unsigned char c = 0;
#pragma GCC unroll 16
    for (int i = 0; i < 2 * F_N; i++)
        c = cz_adc64(c, a[i], b[i], &r[i]);
}

/* r = a - b over 2N limbs for a >= b. */
static inline void FN(wide_sub)(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    unsigned char c = 0;
#pragma GCC unroll 16
    for (int i = 0; i < 2 * F_N; i++)
        c = cz_sbb64(c, a[i], b[i], &r[i]);
}

/* r = a - b over 2N limbs, plus p·2^(64N) when a < b: for a, b < p·2^(64N) the result is
 * a - b mod p·2^(64N), again below p·2^(64N). */
static inline void FN(wide_sub_mod)(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    unsigned char c = 0;
#pragma GCC unroll 16
    for (int i = 0; i < 2 * F_N; i++)
        c = cz_sbb64(c, a[i], b[i], &r[i]);
    uint64_t mask = (uint64_t)0 - c;
    c = 0;
#pragma GCC unroll 8
    for (int i = 0; i < F_N; i++)
        c = cz_adc64(c, r[F_N + i], F_P[i] & mask, &r[F_N + i]);
}

/* Montgomery reduction r = t·2^(-64N) mod p, fully reduced, for t < p·2^(64N) (2N limbs):
 * (t + m·p)/2^(64N) < 2p, then one conditional subtraction. Product scanning: column k adds
 * the m_i·p_(k-i) and t_k; m_k is chosen to clear column k < N. */
static inline void FN(redc)(F_T *r, const uint64_t *t) {
    uint64_t m[F_N], o[F_N], t0 = 0, t1 = 0, t2 = 0;
#pragma GCC unroll 16
    for (int k = 0; k < 2 * F_N - 1; k++) {
#pragma GCC unroll 8
        for (int i = (k < F_N ? 0 : k - F_N + 1); i < (k < F_N ? k : F_N); i++)
            FN(acc_mul)(&t0, &t1, &t2, m[i], F_P[k - i]);
        unsigned char c = cz_adc64(0, t0, t[k], &t0);
        c = cz_adc64(c, t1, 0, &t1);
        (void)cz_adc64(c, t2, 0, &t2);
        if (k < F_N) {
            m[k] = t0 * F_N0;
            FN(acc_mul)(&t0, &t1, &t2, m[k], F_P[0]); /* clears t0 */
        } else {
            o[k - F_N] = t0;
        }
        t0 = t1;
        t1 = t2;
        t2 = 0;
    }
    t0 += t[2 * F_N - 1]; /* the sum is < 2p < 2^(64N): no carry out */
    o[F_N - 1] = t0;
    FN(csub_p)(r->l, o);
}

/* Same as mul: a Montgomery product in product-scanning form (the column sums of a·b and
 * m·p interleaved, m_k chosen to clear column k). The first factor may also be an unreduced sum
 * a < 2p (b < p): then (a·b + m·p)/2^(64N) < 2p²/2^(64N) + p < 2p still, as 2p < 2^(64N), and
 * the result is the same fully reduced a·b·R⁻¹. */
static inline void FN(mul_fast)(F_T *r, const F_T *a, const F_T *b) {
    const uint64_t *x = a->l, *y = b->l;
    uint64_t m[F_N], o[F_N], t0 = 0, t1 = 0, t2 = 0;
#pragma GCC unroll 16
    for (int k = 0; k < 2 * F_N - 1; k++) {
#pragma GCC unroll 8
        for (int i = (k < F_N ? 0 : k - F_N + 1); i <= (k < F_N ? k : F_N - 1); i++)
            FN(acc_mul)(&t0, &t1, &t2, x[i], y[k - i]);
#pragma GCC unroll 8
        for (int i = (k < F_N ? 0 : k - F_N + 1); i < (k < F_N ? k : F_N); i++)
            FN(acc_mul)(&t0, &t1, &t2, m[i], F_P[k - i]);
        if (k < F_N) {
            m[k] = t0 * F_N0;
            FN(acc_mul)(&t0, &t1, &t2, m[k], F_P[0]); /* clears t0 */
        } else {
            o[k - F_N] = t0;
        }
        t0 = t1;
        t1 = t2;
        t2 = 0;
    }
    o[F_N - 1] = t0;
    FN(csub_p)(r->l, o);
}

/* Montgomery form from canonical limbs (< p): r = a·R. */
static inline void FN(to_mont)(F_T *r, const uint64_t *a) {
    F_T t, r2;
    memcpy(t.l, a, sizeof t.l);
    memcpy(r2.l, F_R2, sizeof r2.l);
    FN(mul)(r, &t, &r2);
}

/* Canonical limbs from Montgomery form: out = a·R⁻¹. */
static inline void FN(from_mont)(uint64_t *out, const F_T *a) {
    F_T one_plain, t;
    memset(one_plain.l, 0, sizeof one_plain.l);
    one_plain.l[0] = 1;
    FN(mul)(&t, a, &one_plain);
    memcpy(out, t.l, sizeof t.l);
}

static inline void FN(from_u64)(F_T *r, uint64_t v) {
    uint64_t a[F_N] = {0};
    a[0] = v;
    FN(to_mont)(r, a);
}

/* Reads canonical limbs; CZ_ENONCANON when a >= p. */
static inline int FN(from_limbs)(F_T *r, const uint64_t *a) {
    if (!FN(limbs_lt_p)(a))
        return CZ_ENONCANON;
    FN(to_mont)(r, a);
    return CZ_OK;
}

#define F_BYTES (F_N * 8)

/* Little-endian canonical bytes, F_N*8 of them. */
static inline int FN(from_bytes_le)(F_T *r, const uint8_t *in) {
    uint64_t a[F_N];
    for (int i = 0; i < F_N; i++) {
        uint64_t v = 0;
        for (int b = 7; b >= 0; b--)
            v = (v << 8) | in[8 * i + b];
        a[i] = v;
    }
    return FN(from_limbs)(r, a);
}

static inline void FN(to_bytes_le)(uint8_t *out, const F_T *x) {
    uint64_t a[F_N];
    FN(from_mont)(a, x);
    for (int i = 0; i < F_N; i++)
        for (int b = 0; b < 8; b++)
            out[8 * i + b] = (uint8_t)(a[i] >> (8 * b));
}

/* Big-endian canonical bytes of length len (>= the field's byte length minus leading zeros):
 * len may be F_N*8 or the modulus' own byte length (48 for a 381-bit p stored in 48 bytes).
 * Bytes beyond the limbs must be zero. */
static inline int FN(from_bytes_be)(F_T *r, const uint8_t *in, size_t len) {
    uint64_t a[F_N] = {0};
    if (len >= F_BYTES) {
        /* Whole big-endian words, which gcc loads with one byte swap each: the byte loop below
         * took a sixth of the time of decoding an uncompressed point (docs/params.md). */
        for (size_t k = 0; k < len - F_BYTES; k++)
            if (in[k] != 0)
                return CZ_ENONCANON;
        const uint8_t *w = in + len - F_BYTES;
#pragma GCC unroll 8
        for (int i = 0; i < F_N; i++) {
            uint64_t v = 0;
#pragma GCC unroll 8
            for (int b = 0; b < 8; b++)
                v = v << 8 | w[8 * (F_N - 1 - i) + b];
            a[i] = v;
        }
        return FN(from_limbs)(r, a);
    }
    for (size_t k = 0; k < len; k++) {
        size_t pos = len - 1 - k; /* byte k counted from the least significant end */
        if (k >= F_BYTES) {
            if (in[pos] != 0)
                return CZ_ENONCANON;
            continue;
        }
        a[k / 8] |= (uint64_t)in[pos] << (8 * (k % 8));
    }
    return FN(from_limbs)(r, a);
}

static inline void FN(to_bytes_be)(uint8_t *out, size_t len, const F_T *x) {
    uint64_t a[F_N];
    FN(from_mont)(a, x);
    for (size_t k = 0; k < len; k++) {
        size_t pos = len - 1 - k;
        out[pos] = k < F_BYTES ? (uint8_t)(a[k / 8] >> (8 * (k % 8))) : 0;
    }
}

/* Decimal string (digits only, at least one; leading zeros allowed) to an element.
 * CZ_EFORMAT for a non-digit or empty string, CZ_ERANGE for a value >= p. */
static inline int FN(from_dec)(F_T *r, const char *s) {
    uint64_t a[F_N] = {0};
    if (*s == '\0')
        return CZ_EFORMAT;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return CZ_EFORMAT;
        uint64_t carry = (uint64_t)(*s - '0');
        for (int i = 0; i < F_N; i++) {
            cz_u128 v = (cz_u128)a[i] * 10 + carry;
            a[i] = (uint64_t)v;
            carry = (uint64_t)(v >> 64);
        }
        if (carry != 0)
            return CZ_ERANGE;
    }
    if (!FN(limbs_lt_p)(a))
        return CZ_ERANGE;
    FN(to_mont)(r, a);
    return CZ_OK;
}

/* Decimal string of the canonical value; out needs F_N*20 + 1 bytes. Returns the length. */
static inline size_t FN(to_dec)(char *out, const F_T *x) {
    uint64_t a[F_N];
    char tmp[F_N * 20 + 1];
    size_t n = 0;
    FN(from_mont)(a, x);
    for (;;) {
        /* a, rem = divmod(a, 10^19); emit 19 digits (fewer for the last chunk). */
        const uint64_t chunk = 10000000000000000000ULL;
        uint64_t rem = 0;
        int nonzero = 0;
        for (int i = F_N - 1; i >= 0; i--) {
            cz_u128 cur = ((cz_u128)rem << 64) | a[i];
            a[i] = (uint64_t)(cur / chunk);
            rem = (uint64_t)(cur % chunk);
            nonzero |= a[i] != 0;
        }
        for (int d = 0; d < 19; d++) {
            if (!nonzero && rem == 0 && d > 0)
                break;
            tmp[n++] = (char)('0' + rem % 10);
            rem /= 10;
        }
        if (!nonzero)
            break;
    }
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = '\0';
    return n;
}

/* Little-endian Montgomery bytes (snarkjs "LEM": the limbs as stored); CZ_ENONCANON if >= p. */
static inline int FN(from_mont_bytes_le)(F_T *r, const uint8_t *in) {
    uint64_t a[F_N];
    for (int i = 0; i < F_N; i++) {
        uint64_t v = 0;
        for (int b = 7; b >= 0; b--)
            v = (v << 8) | in[8 * i + b];
        a[i] = v;
    }
    if (!FN(limbs_lt_p)(a))
        return CZ_ENONCANON;
    memcpy(r->l, a, sizeof a);
    return CZ_OK;
}

static inline void FN(to_mont_bytes_le)(uint8_t *out, const F_T *x) {
    for (int i = 0; i < F_N; i++)
        for (int b = 0; b < 8; b++)
            out[8 * i + b] = (uint8_t)(x->l[i] >> (8 * b));
}

#undef F_BYTES
#undef FN
