/*
 * A CPU model of the lazy-reduction arithmetic of the GPU NTT (src/gpu/gpu_ntt.cu, ntt_twmul /
 * ntt_bfly / ntt_normalise): the same 32-bit-limb operations as the kernels (product-scanning
 * Montgomery multiplication without the final subtraction, Harvey's butterfly with values below 4r
 * for BN254 Fr, the modulo-2r butterfly with values below 2r for BLS12-381 Fr, the normalisation
 * and the fully reduced multiplication of a lazy value on the last pass), with an assertion
 * wherever the kernels drop a carry or a borrow. It checks, against the CPU field (cuzk/field.h) as
 * oracle, on random and extreme operands (0, 1, r - 1, r, 2r - 1, bound - 1): every output stays
 * below the bound, no carry or borrow is lost, and the values agree modulo r with x + y·w·R⁻¹ and
 * x - y·w·R⁻¹; normalising any lazy value gives the canonical element.
 * Needs no GPU.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/field.h"
#include "gpu/gpu_consts.h"
#include "test.h"

#define NL 8

__extension__ typedef unsigned __int128 u128;

typedef struct {
    const char *name;
    uint32_t p[NL], p2[NL], n0;
    int harvey; /* values below 4r (else below 2r) */
    void (*mul)(uint32_t *r, const uint32_t *a, const uint32_t *b); /* CPU oracle, < r in/out */
    void (*add)(uint32_t *r, const uint32_t *a, const uint32_t *b);
    void (*sub)(uint32_t *r, const uint32_t *a, const uint32_t *b);
} fld;

static int lost; /* carries or borrows the kernels would drop */

static uint64_t prng = 0x2545f4914f6cdd1dULL;
static uint32_t rnd32(void) {
    prng ^= prng << 13;
    prng ^= prng >> 7;
    prng ^= prng << 17;
    return (uint32_t)(prng >> 11);
}

/* ---- 256-bit helpers (limb arrays, little endian) ---- */

static int cmp(const uint32_t *a, const uint32_t *b) {
    for (int i = NL - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* r = a + b, returns the carry out */
static uint32_t add_n(uint32_t *r, const uint32_t *a, const uint32_t *b) {
    uint64_t c = 0;
    for (int i = 0; i < NL; i++) {
        c += (uint64_t)a[i] + b[i];
        r[i] = (uint32_t)c;
        c >>= 32;
    }
    return (uint32_t)c;
}

/* r = a - b, returns the borrow out */
static uint32_t sub_n(uint32_t *r, const uint32_t *a, const uint32_t *b) {
    uint64_t bw = 0;
    for (int i = 0; i < NL; i++) {
        uint64_t d = (uint64_t)a[i] - b[i] - bw;
        r[i] = (uint32_t)d;
        bw = (d >> 63) & 1;
    }
    return (uint32_t)bw;
}

/* a mod r for a < 4r (oracle side) */
static void canon(uint32_t *r, const uint32_t *a, const fld *f) {
    memcpy(r, a, sizeof(uint32_t) * NL);
    while (cmp(r, f->p) >= 0)
        sub_n(r, r, f->p);
}

/* ---- the kernels' operations ---- */

/* fe_reduce_once: s - p if s >= p */
static void reduce_once(uint32_t *r, const uint32_t *s, const uint32_t *mod) {
    uint32_t t[NL];
    if (!sub_n(t, s, mod))
        memcpy(r, t, sizeof t);
    else
        memcpy(r, s, sizeof t);
}

/* fe_mul_nr: product scanning, column accumulator, no final subtraction; the kernel keeps only
 * the low 256 bits of the result, so anything above is a lost carry. */
static void mul_nr(uint32_t *s, const uint32_t *a, const uint32_t *b, const fld *f) {
    uint32_t m[NL];
    u128 acc = 0;
    for (int k = 0; k < NL; k++) {
        for (int i = 0; i < k; i++) {
            acc += (u128)((uint64_t)a[i] * b[k - i]);
            acc += (u128)((uint64_t)m[i] * f->p[k - i]);
        }
        acc += (uint64_t)a[k] * b[0];
        m[k] = (uint32_t)acc * f->n0;
        acc += (uint64_t)m[k] * f->p[0];
        if ((uint32_t)acc != 0) /* m·p clears the column: Montgomery's premise */
            lost++;
        acc >>= 32;
    }
    for (int k = NL; k < 2 * NL - 1; k++) {
        for (int i = k - NL + 1; i < NL; i++) {
            acc += (u128)((uint64_t)a[i] * b[k - i]);
            acc += (u128)((uint64_t)m[i] * f->p[k - i]);
        }
        s[k - NL] = (uint32_t)acc;
        acc >>= 32;
    }
    s[NL - 1] = (uint32_t)acc;
    if ((acc >> 32) != 0)
        lost++;
}

/* ntt_bfly: (p, m) from x and t = y·w (t < 2r). */
static void bfly(uint32_t *p, uint32_t *m, const uint32_t *x0, const uint32_t *t, const fld *f) {
    uint32_t x[NL], s[NL];
    memcpy(x, x0, sizeof x);
    if (f->harvey) {
        reduce_once(x, x, f->p2);        /* lz_reduce2 */
        lost += add_n(p, x, t) != 0;     /* lz_add */
        lost += add_n(s, x, f->p2) != 0; /* lz_sub_h: x + 2r ... */
        lost += sub_n(m, s, t) != 0;     /* ... - t */
    } else {
        uint32_t c = add_n(s, x, t), d[NL]; /* lz_add2 */
        uint32_t bw = sub_n(d, s, f->p2);
        lost += c > bw; /* the kernel's subc c - borrow would be +1 */
        memcpy(p, (c - bw) != 0 ? s : d, sizeof d);
        if (sub_n(m, x, t)) /* lz_sub2 */
            add_n(m, m, f->p2);
    }
}

/* w·2^256 mod p (long division), for w < p < 2^255: the Montgomery form of the canonical w. */
static void to_mont_slow(uint32_t *rem, const uint32_t *w, const uint32_t *p) {
    uint32_t r[NL], t[NL];
    memcpy(r, w, sizeof r);
    for (int bit = 255; bit >= 0; bit--) {
        add_n(r, r, r); /* r < p < 2^255: no carry */
        if (!sub_n(t, r, p))
            memcpy(r, t, sizeof r);
    }
    memcpy(rem, r, sizeof r);
}

/* ---- checks ---- */

static void random_below(uint32_t *r, const uint32_t *bound) {
    do {
        for (int i = 0; i < NL; i++)
            r[i] = rnd32();
        r[NL - 1] &= 0xffffffffu >> __builtin_clz(bound[NL - 1]);
    } while (cmp(r, bound) >= 0);
}

/* v - 1 */
static void dec(uint32_t *r, const uint32_t *v) {
    uint32_t one[NL] = {1};
    sub_n(r, v, one);
}

static void check_field(const fld *f) {
    uint32_t bound[NL], ext[6][NL], wext[5][NL];
    int bad = 0, lost0 = lost;
    if (f->harvey)
        add_n(bound, f->p2, f->p2);
    else
        memcpy(bound, f->p2, sizeof bound);
    /* extremes of the lazy range and of twiddles */
    memset(ext, 0, sizeof ext);
    ext[1][0] = 1;
    dec(ext[2], f->p);
    memcpy(ext[3], f->p, sizeof ext[3]);
    dec(ext[4], f->p2);
    dec(ext[5], bound);
    /* twiddle extremes as Montgomery values: 0, 1, r - 1 and those whose canonical values are
     * 1 (R mod r) and r - 1 */
    memset(wext, 0, sizeof wext);
    wext[1][0] = 1;
    dec(wext[2], f->p);
    {
        uint32_t one[NL] = {1};
        to_mont_slow(wext[3], one, f->p);
        to_mont_slow(wext[4], ext[2], f->p);
    }
    for (int it = 0; it < 40000; it++) {
        uint32_t x[NL], y[NL], w[NL], t[NL], p[NL], m[NL];
        uint32_t xc[NL], yc[NL], tc[NL], e[NL], pc[NL], mc[NL];
        if (it < 6 * 6 * 5) {
            memcpy(x, ext[it % 6], sizeof x);
            memcpy(y, ext[(it / 6) % 6], sizeof y);
            memcpy(w, wext[it / 36], sizeof w);
        } else {
            random_below(x, bound);
            random_below(y, bound);
            random_below(w, f->p);
        }
        mul_nr(t, w, y, f); /* the kernels pass the twiddle first */
        bad += cmp(t, f->p2) >= 0;
        bfly(p, m, x, t, f);
        bad += cmp(p, bound) >= 0 || cmp(m, bound) >= 0;
        canon(xc, x, f);
        canon(yc, y, f);
        f->mul(e, yc, w);
        canon(tc, t, f);
        bad += cmp(tc, e) != 0;
        f->add(e, xc, tc);
        canon(pc, p, f);
        bad += cmp(pc, e) != 0;
        f->sub(e, xc, tc);
        canon(mc, m, f);
        bad += cmp(mc, e) != 0;
        /* last pass: normalisation (ntt_normalise) and fe_mul of a lazy value by c < r */
        {
            uint32_t n[NL], s[NL], r[NL];
            memcpy(n, x, sizeof n);
            if (f->harvey)
                reduce_once(n, n, f->p2);
            reduce_once(n, n, f->p);
            bad += cmp(n, xc) != 0;
            mul_nr(s, x, w, f);
            reduce_once(r, s, f->p);
            f->mul(e, xc, w);
            bad += cmp(r, e) != 0;
        }
    }
    printf("%s: %d wrong, %d lost carries\n", f->name, bad, lost - lost0);
    CHECK(bad == 0);
    CHECK(lost == lost0);
}

#define ORACLE(C)                                                                                  \
    static void C##_mul(uint32_t *r, const uint32_t *a, const uint32_t *b) {                       \
        cz_##C##_fr x, y, z;                                                                       \
        memcpy(&x, a, 32);                                                                         \
        memcpy(&y, b, 32);                                                                         \
        cz_##C##_fr_mul(&z, &x, &y);                                                               \
        memcpy(r, &z, 32);                                                                         \
    }                                                                                              \
    static void C##_add(uint32_t *r, const uint32_t *a, const uint32_t *b) {                       \
        cz_##C##_fr x, y, z;                                                                       \
        memcpy(&x, a, 32);                                                                         \
        memcpy(&y, b, 32);                                                                         \
        cz_##C##_fr_add(&z, &x, &y);                                                               \
        memcpy(r, &z, 32);                                                                         \
    }                                                                                              \
    static void C##_sub(uint32_t *r, const uint32_t *a, const uint32_t *b) {                       \
        cz_##C##_fr x, y, z;                                                                       \
        memcpy(&x, a, 32);                                                                         \
        memcpy(&y, b, 32);                                                                         \
        cz_##C##_fr_sub(&z, &x, &y);                                                               \
        memcpy(r, &z, 32);                                                                         \
    }
ORACLE(bn254)
ORACLE(bls12381)

static void setup(fld *f) {
    for (int i = 0; i < NL; i++)
        f->p2[i] = (f->p[i] << 1) | (i ? f->p[i - 1] >> 31 : 0);
}

static fld bn, bls;

static int setup_fields(void) {
    fld bn0 = {"BN254 Fr (values < 4r)",
               CZ_GPU_BN254_FR_P,
               {0},
               CZ_GPU_BN254_FR_N0,
               1,
               bn254_mul,
               bn254_add,
               bn254_sub};
    fld bls0 = {"BLS12-381 Fr (values < 2r)",
                CZ_GPU_BLS12381_FR_P,
                {0},
                CZ_GPU_BLS12381_FR_N0,
                0,
                bls12381_mul,
                bls12381_add,
                bls12381_sub};
    bn = bn0;
    bls = bls0;
    setup(&bn);
    setup(&bls);
    return 0;
}

static void test_bounds(void) {
    CHECK((bn.p[NL - 1] >> 30) == 0);  /* 4r < 2^256 */
    CHECK((bls.p[NL - 1] >> 31) == 0); /* 2r < 2^256 */
}
static void test_bn254(void) {
    check_field(&bn);
}
static void test_bls12381(void) {
    check_field(&bls);
}

static const test_case cases[] = {
    {"bounds", test_bounds}, {"bn254", test_bn254}, {"bls12381", test_bls12381}};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup_fields, NULL);
}
