/*
 * The device inversion fe_inv_fast (src/gpu/gpu_field_inv.cuh) run on the CPU: its code is
 * __host__ __device__ integer C++, compiled here by nvcc for the host, so the arithmetic the
 * kernels run is checked without a GPU. Oracle: GMP's mpz_invert. For each of the four fields
 * (BLS12-381 Fp and Fr, BN254 Fp and Fr) the result must be the Montgomery form of the inverse,
 * (x⁻¹ mod p)·R² mod p for the limbs x (0 for 0), on random elements and on the edges: 0, 1, 2,
 * small values, p - 1 and p minus small values, powers of two and their neighbours, R mod p
 * (Montgomery one), R² mod p, p/2, and random values with long runs of zero or one bits. Also
 * the derived constants: p in radix 2^30, p⁻¹ mod 2^30, R² mod p. Prints the mean and most
 * batches of 30 divsteps that the random elements needed (what an inversion costs). Needs no
 * GPU.
 */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gpu/gpu_field_inv.cuh"
#include "test.h"

#define MAXN 12

static void to_mpz(mpz_t z, const uint32_t *w, int n) {
    mpz_import(z, (size_t)n, -1, 4, 0, 0, w);
}

static void from_mpz(uint32_t *w, int n, const mpz_t z) {
    size_t cnt = 0;
    memset(w, 0, (size_t)n * 4);
    mpz_export(w, &cnt, -1, 4, 0, 0, z);
}

/* The integer of L limbs of 30 bits (the top one signed). */
static void from30(mpz_t z, const int32_t *x, int L) {
    mpz_set_si(z, x[L - 1]);
    for (int i = L - 2; i >= 0; i--) {
        mpz_mul_2exp(z, z, 30);
        mpz_add_ui(z, z, (unsigned long)(uint32_t)x[i]);
    }
}

struct field_run {
    int checked, batches_sum, batches_max, nrandom;
};

/* One check of fe_inv_fast against GMP for x (below 2^(32N), reduced mod p by the caller). */
template <class C>
static void check_one(const mpz_t xz, const mpz_t p, const mpz_t r2, field_run &fr, bool random) {
    constexpr int N = C::N;
    fe<C> a, r;
    uint32_t want[MAXN];
    mpz_t t;
    mpz_init(t);
    from_mpz(a.l, N, xz);
    if (mpz_sgn(xz) == 0) {
        mpz_set_ui(t, 0);
    } else {
        CHECK(mpz_invert(t, xz, p) != 0);
        mpz_mul(t, t, r2);
        mpz_mod(t, t, p);
    }
    from_mpz(want, N, t);
    const int b = fe_inv_fast_with(r, a, fe_inv_params_for<C>());
    if (!CHECK(memcmp(r.l, want, N * 4) == 0))
        gmp_fprintf(stderr, "  x = %#Zx\n", xz);
    fr.checked++;
    if (random) {
        fr.batches_sum += b;
        fr.batches_max = b > fr.batches_max ? b : fr.batches_max;
        fr.nrandom++;
    }
    mpz_clear(t);
}

/* A random value below p with a run of 64 to 191 zero (or one) bits at a random place. */
static void runs_of(mpz_t x, const mpz_t p, gmp_randstate_t rs, int bits, bool ones) {
    const int len = 64 + (int)gmp_urandomm_ui(rs, 128), at = (int)gmp_urandomm_ui(rs, bits);
    mpz_urandomm(x, rs, p);
    for (int i = at; i < at + len && i < bits; i++) {
        if (ones)
            mpz_setbit(x, i);
        else
            mpz_clrbit(x, i);
    }
    mpz_mod(x, x, p);
}

template <class C>
static void test_field(const char *name, const uint32_t *pw, int nrandom, unsigned seed) {
    constexpr int N = C::N, L = fe_inv_params<N>::L;
    const fe_inv_params<N> &P = fe_inv_params_for<C>();
    field_run fr = {0, 0, 0, 0};
    mpz_t p, r, r2, x, t;
    gmp_randstate_t rs;
    mpz_inits(p, r, r2, x, t, NULL);
    gmp_randinit_mt(rs);
    gmp_randseed_ui(rs, seed);
    to_mpz(p, pw, N);
    const int bits = (int)mpz_sizeinbase(p, 2);
    mpz_setbit(r, 32 * N);
    mpz_mul(r2, r, r);
    mpz_mod(r2, r2, p);

    /* the derived constants */
    from30(t, P.p, L);
    CHECK(mpz_cmp(t, p) == 0);
    from30(t, P.r2, L);
    CHECK(mpz_cmp(t, r2) == 0);
    CHECK(((P.p_inv30 * pw[0]) & CZ_INV_MASK) == 1);
    for (int i = 0; i < L - 1; i++)
        CHECK(P.p[i] >= 0 && P.p[i] <= CZ_INV_MASK && P.r2[i] >= 0 && P.r2[i] <= CZ_INV_MASK);

    /* small values and p minus small values */
    for (unsigned long k = 0; k <= 64; k++) {
        mpz_set_ui(x, k);
        check_one<C>(x, p, r2, fr, false);
        if (k > 0) {
            mpz_sub_ui(x, p, k);
            check_one<C>(x, p, r2, fr, false);
        }
    }
    /* powers of two, their neighbours, p minus them */
    for (int k = 0; k < bits; k++) {
        mpz_set_ui(x, 0);
        mpz_setbit(x, k);
        mpz_mod(x, x, p);
        check_one<C>(x, p, r2, fr, false);
        mpz_sub_ui(t, x, 1);
        mpz_mod(t, t, p);
        check_one<C>(t, p, r2, fr, false);
        mpz_add_ui(t, x, 1);
        mpz_mod(t, t, p);
        check_one<C>(t, p, r2, fr, false);
        mpz_sub(t, p, x);
        mpz_mod(t, t, p);
        check_one<C>(t, p, r2, fr, false);
    }
    /* Montgomery one, R², p/2, (p + 1)/2 */
    mpz_mod(x, r, p);
    check_one<C>(x, p, r2, fr, false);
    check_one<C>(r2, p, r2, fr, false);
    mpz_fdiv_q_2exp(x, p, 1);
    check_one<C>(x, p, r2, fr, false);
    mpz_add_ui(x, x, 1);
    check_one<C>(x, p, r2, fr, false);
    /* long runs of zero and one bits */
    for (int i = 0; i < 2000; i++) {
        runs_of(x, p, rs, bits, i % 2 == 1);
        check_one<C>(x, p, r2, fr, false);
    }
    /* random elements */
    for (int i = 0; i < nrandom; i++) {
        mpz_urandomm(x, rs, p);
        check_one<C>(x, p, r2, fr, true);
    }
    /* r may alias a */
    {
        fe<C> a, b;
        mpz_urandomm(x, rs, p);
        from_mpz(a.l, N, x);
        fe_inv_fast(b, a);
        fe_inv_fast(a, a);
        CHECK(memcmp(a.l, b.l, N * 4) == 0);
    }
    printf("%s: %d inversions, batches of 30 divsteps for %d random elements: mean %.2f, "
           "most %d\n",
           name, fr.checked, fr.nrandom, (double)fr.batches_sum / fr.nrandom, fr.batches_max);
    mpz_clears(p, r, r2, x, t, NULL);
    gmp_randclear(rs);
}

static void test_bls12381_fp(void) {
    static const uint32_t p[12] = CZ_GPU_BLS12381_FP_P;
    test_field<gbls12381_fp_cfg>("bls12381 fp", p, 200000, 1);
}

static void test_bls12381_fr(void) {
    static const uint32_t p[8] = CZ_GPU_BLS12381_FR_P;
    test_field<gbls12381_fr_cfg>("bls12381 fr", p, 50000, 2);
}

static void test_bn254_fp(void) {
    static const uint32_t p[8] = CZ_GPU_BN254_FP_P;
    test_field<gbn254_fp_cfg>("bn254 fp", p, 50000, 3);
}

static void test_bn254_fr(void) {
    static const uint32_t p[8] = CZ_GPU_BN254_FR_P;
    test_field<gbn254_fr_cfg>("bn254 fr", p, 50000, 4);
}

static const test_case cases[] = {{"bls12381_fp", test_bls12381_fp},
                                  {"bls12381_fr", test_bls12381_fr},
                                  {"bn254_fp", test_bn254_fp},
                                  {"bn254_fr", test_bn254_fr}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
