/*
 * The Montgomery product of mont_impl.h for 4 and 6 limbs with the x86-64 BMI2/ADX instructions:
 * mulx (a 64×64→128 product that leaves the flags alone) and adcx / adox (additions that carry
 * through CF only / OF only), which run the two carry chains of each CIOS row side by side instead
 * of serialising them through one carry flag as the portable code's add/adc does.
 *
 * The algorithm is the one of FN(mul): CIOS with the "no final carry" shortcut (every modulus has
 * a top limb below 2^63 - 1). A round i adds a_i·b to the accumulator t (N+1 words, t_N = 0 on
 * entry), takes m = t_0·n0 mod 2^64 and adds m·p, which clears t_0; the old t_0 register then
 * serves as the next round's zero top word, so the rounds rotate the N+1 registers instead of
 * moving words. Bounds: on entry t < 2p, so t + a_i·b + m·p < 2p + 2^65·p < 2^(64(N+1)) and no
 * chain ever carries out of t_N. After N rounds t < 2p, and one conditional subtraction (in C)
 * gives the fully reduced result.
 *
 * Per row of products: mulx j(b) → (lo, hi); adox lo into t_j (OF chain); adcx hi into t_(j+1)
 * (CF chain); a final adox of zero folds the OF chain's carry into the top word. `xor z, z`
 * zeroes the zero register and clears both flags before each chain.
 *
 * Used only where cpuid reports both BMI2 and ADX (cz__field_adx, set at load time by
 * src/field/fields.c); tests/field/test_field_gmp.c checks both paths against GMP.
 */
#ifndef CUZK_FIELD_MONT_ADX_H
#define CUZK_FIELD_MONT_ADX_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__CUDACC__)
#define CZ_FIELD_ADX 1

/* 1 when the CPU has BMI2 and ADX (mulx, adcx, adox); tests may clear it to run the portable
 * code. */
extern int cz__field_adx;

/* One row of products x·y_j (x in rdx) or m·p_j (m in rdx): lo into TL on the OF chain, hi into
 * TH on the CF chain. */
#define CZ_ADX_ROW_B(j, TL, TH)                                                                    \
    "mulxq " #j "*8(%[b]), %[lo], %[hi]\n\t"                                                       \
    "adoxq %[lo], %[" #TL "]\n\t"                                                                  \
    "adcxq %[hi], %[" #TH "]\n\t"
#define CZ_ADX_ROW_P(j, TL, TH)                                                                    \
    "mulxq %[p" #j "], %[lo], %[hi]\n\t"                                                           \
    "adoxq %[lo], %[" #TL "]\n\t"                                                                  \
    "adcxq %[hi], %[" #TH "]\n\t"
/* rdx = a_i, flags cleared. */
#define CZ_ADX_LOAD_A(i)                                                                           \
    "movq " #i "*8(%[a]), %%rdx\n\t"                                                               \
    "xorl %k[z], %k[z]\n\t"
/* rdx = m = t_0·n0 mod 2^64, flags cleared. */
#define CZ_ADX_LOAD_M(T0)                                                                          \
    "movabsq %[n0], %%rdx\n\t"                                                                     \
    "imulq %[" #T0 "], %%rdx\n\t"                                                                  \
    "xorl %k[z], %k[z]\n\t"
/* The OF chain's last carry into the top word (the CF chain cannot carry out, see above). */
#define CZ_ADX_FOLD(TN) "adoxq %[z], %[" #TN "]\n\t"

#define CZ_ADX4_ROUND(i, T0, T1, T2, T3, T4)                                                       \
    CZ_ADX_LOAD_A(i)                                                                               \
    CZ_ADX_ROW_B(0, T0, T1)                                                                        \
    CZ_ADX_ROW_B(1, T1, T2)                                                                        \
    CZ_ADX_ROW_B(2, T2, T3)                                                                        \
    CZ_ADX_ROW_B(3, T3, T4)                                                                        \
    CZ_ADX_FOLD(T4)                                                                                \
    CZ_ADX_LOAD_M(T0)                                                                              \
    CZ_ADX_ROW_P(0, T0, T1)                                                                        \
    CZ_ADX_ROW_P(1, T1, T2)                                                                        \
    CZ_ADX_ROW_P(2, T2, T3)                                                                        \
    CZ_ADX_ROW_P(3, T3, T4)                                                                        \
    CZ_ADX_FOLD(T4)

#define CZ_ADX6_ROUND(i, T0, T1, T2, T3, T4, T5, T6)                                               \
    CZ_ADX_LOAD_A(i)                                                                               \
    CZ_ADX_ROW_B(0, T0, T1)                                                                        \
    CZ_ADX_ROW_B(1, T1, T2)                                                                        \
    CZ_ADX_ROW_B(2, T2, T3)                                                                        \
    CZ_ADX_ROW_B(3, T3, T4)                                                                        \
    CZ_ADX_ROW_B(4, T4, T5)                                                                        \
    CZ_ADX_ROW_B(5, T5, T6)                                                                        \
    CZ_ADX_FOLD(T6)                                                                                \
    CZ_ADX_LOAD_M(T0)                                                                              \
    CZ_ADX_ROW_P(0, T0, T1)                                                                        \
    CZ_ADX_ROW_P(1, T1, T2)                                                                        \
    CZ_ADX_ROW_P(2, T2, T3)                                                                        \
    CZ_ADX_ROW_P(3, T3, T4)                                                                        \
    CZ_ADX_ROW_P(4, T4, T5)                                                                        \
    CZ_ADX_ROW_P(5, T5, T6)                                                                        \
    CZ_ADX_FOLD(T6)

/* The operands common to both sizes: the scratch registers and the inputs (mont_impl.h's
 * FN(mul_adx) supplies t and the field's F_P, F_N0). The asm reads a[] and b[] through their
 * addresses: optimised builds say so with array operands; unoptimised ones, which cannot spare
 * the address registers those take, with a memory clobber. */
#define CZ_ADX_SCRATCH [lo] "=&r"(lo), [hi] "=&r"(hi), [z] "=&r"(z)
#define CZ_ADX_INPUTS(N, A, B, P, N0)                                                              \
    [a] "r"(A), [b] "r"(B), [n0] "i"(N0), [p0] "m"(P[0]), [p1] "m"(P[1]), [p2] "m"(P[2]),          \
        [p3] "m"(P[3])CZ_ADX_ARRAYS(N, A, B)
#ifdef __OPTIMIZE__
#define CZ_ADX_ARRAYS(N, A, B) , "m"(*(const uint64_t(*)[N])(A)), "m"(*(const uint64_t(*)[N])(B))
#define CZ_ADX_CLOBBERS        "rdx", "cc"
#else
#define CZ_ADX_ARRAYS(N, A, B)
#define CZ_ADX_CLOBBERS "rdx", "cc", "memory"
#endif

#endif
#endif
