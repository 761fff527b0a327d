/*
 * The eight-lane G1 decoder (src/curve/g1_decode8.c, radix 2^52) against the one-by-one decoder
 * cz_bls12381_g1_from_uncompressed_unchecked (encoding_impl.h, itself checked against noble and
 * GMP in test_encoding.c / test_curve_noble.c), on every kind of encoding a .params file can hold:
 * random points of the curve, random pairs off it, the edge coordinates 0, 1, p - 1 and p (not
 * canonical), 2^381 - 1, (0, 0), the point at infinity and each flag bit. Both instantiations: the
 * portable emulation everywhere, the IFMA one where the CPU has it (reported when it does not).
 * The batch must equal the one-by-one decoder point for point, in place or not, and stop at the
 * first bad point with that decoder's error. Deterministic: a fixed xorshift seed.
 */
#include <stdio.h>
#include <string.h>

#include "cuzk/encoding.h"
#include "cuzk/err.h"
#include "curve/ec.h"
#include "curve/g1_decode8.h"
#include "bls_test_random.h"
#include "test.h"

#define G1_BYTES 96
#define NGROUPS  64

/* A random point of the curve (not of the subgroup), encoded. */
static void random_on_curve(uint8_t enc[G1_BYTES]) {
    cz_bls12381_g1_affine p;
    cz_bls12381_fp rhs, b;
    memcpy(b.l, BLS12381_B, sizeof b.l);
    do {
        random_fp(&p.x);
        bls12381_fp_sqr(&rhs, &p.x);
        bls12381_fp_mul(&rhs, &rhs, &p.x);
        bls12381_fp_add(&rhs, &rhs, &b);
    } while (bls12381_fp_sqrt(&p.y, &rhs) != CZ_OK);
    cz_bls12381_g1_to_uncompressed(enc, &p);
}

/* The big-endian 48 bytes of the 6 little-endian words l. */
static void put_be(uint8_t out[48], const uint64_t l[6]) {
    for (int w = 0; w < 6; w++)
        for (int k = 0; k < 8; k++)
            out[8 * (5 - w) + k] = (uint8_t)(l[w] >> (56 - 8 * k));
}

/* One of the edge coordinates, big-endian: 0, 1, 2, p - 1, p, p + 1, 2^381 - 1, random. */
static void edge_coord(uint8_t out[48], unsigned which) {
    uint64_t l[6] = {0};
    switch (which % 8) {
    case 1:
        l[0] = 1;
        break;
    case 2:
        l[0] = 2;
        break;
    case 3:
        memcpy(l, BLS12381_FP_P, sizeof l), l[0] -= 1;
        break;
    case 4:
        memcpy(l, BLS12381_FP_P, sizeof l);
        break;
    case 5:
        memcpy(l, BLS12381_FP_P, sizeof l), l[0] += 1;
        break;
    case 6:
        memset(l, 0xff, sizeof l);
        l[5] = (1ull << 61) - 1;
        break;
    case 7:
        for (int w = 0; w < 6; w++)
            l[w] = next64();
        l[5] &= (1ull << 61) - 1;
        break;
    default:
        break;
    }
    put_be(out, l);
}

/* An encoding of kind k: mostly points of the curve, then every kind of bad or special one. */
static void make_encoding(uint8_t enc[G1_BYTES], unsigned k) {
    switch (k % 12) {
    case 0: /* off the curve: two random coordinates (below 2^381) */
        edge_coord(enc, 7);
        edge_coord(enc + 48, 7);
        break;
    case 1: /* edge coordinates, both sides: (0, 2) is on the curve, most others are not */
        edge_coord(enc, (unsigned)next64());
        edge_coord(enc + 48, (unsigned)next64());
        break;
    case 2: /* the point at infinity */
        memset(enc, 0, G1_BYTES);
        enc[0] = 0x40;
        break;
    case 3: /* a point of the curve with one of the three flag bits set */
        random_on_curve(enc);
        enc[0] |= (uint8_t)(0x20u << (next64() % 3));
        break;
    default:
        random_on_curve(enc);
        break;
    }
}

/* The lane mask and points the one-by-one decoder gives. */
static unsigned scalar8(cz_bls12381_g1_affine out[8], const uint8_t *in) {
    unsigned ok = 0;
    for (int i = 0; i < 8; i++) {
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        int rc =
            cz_bls12381_g1_from_uncompressed_unchecked(&out[i], in + i * G1_BYTES, G1_BYTES, &ei);
        if (rc == CZ_OK && !cz_bls12381_g1_is_infinity(&out[i]))
            ok |= 1u << i;
    }
    return ok;
}

typedef unsigned (*decode8_fn)(cz_bls12381_g1_affine out[8], const uint8_t in[8 * G1_BYTES]);

/* decode8 on NGROUPS groups, one kind mix per group (group 0: all on the curve, the edge
 * coordinates (0, 2) and (0, p - 2) in group 1), against scalar8. */
static void check_decode8(decode8_fn decode8) {
    unsigned seen_ok = 0, seen_bad = 0;
    for (unsigned g = 0; g < NGROUPS; g++) {
        uint8_t in[8 * G1_BYTES];
        for (unsigned i = 0; i < 8; i++)
            make_encoding(in + i * G1_BYTES, g == 0 ? 4 : (unsigned)next64());
        if (g == 1) {
            uint64_t two[6] = {2}, pm2[6];
            memcpy(pm2, BLS12381_FP_P, sizeof pm2);
            pm2[0] -= 2;
            edge_coord(in, 0);
            put_be(in + 48, two);
            edge_coord(in + G1_BYTES, 0);
            put_be(in + G1_BYTES + 48, pm2);
        }
        cz_bls12381_g1_affine want[8], got[8];
        unsigned want_ok = scalar8(want, in);
        unsigned got_ok = decode8(got, in);
        CHECK_EQ_U64(got_ok, want_ok);
        for (int i = 0; i < 8; i++)
            if (want_ok >> i & got_ok >> i & 1u)
                CHECK_EQ_MEM(&got[i], &want[i], sizeof got[i]);
        seen_ok |= want_ok;
        seen_bad |= ~want_ok & 0xffu;
    }
    CHECK_EQ_U64(seen_ok, 0xffu); /* every lane decoded points and refused others */
    CHECK_EQ_U64(seen_bad, 0xffu);
}

static void decode8_portable(void) {
    check_decode8(cz__g1_decode8_portable);
}

static void decode8_ifma(void) {
#ifdef CZ_CURVE_IFMA
    if (cz__curve_ifma) {
        check_decode8(cz__g1_decode8_ifma);
        return;
    }
#endif
    fprintf(stderr, "decode8_ifma: this CPU has no AVX-512 IFMA; only the portable lanes ran\n");
}

#define NBATCH 43 /* five groups of eight and a tail of three */

/* The batch (in place when in_place, else into a separate array) against the one-by-one decoder:
 * all points good (infinity included), then a bad point at index bad_at (off the curve, not
 * canonical or with a flag bit) after an infinity at bad_at / 2. */
static void check_batch(int in_place) {
    static const unsigned bad_kinds[3] = {0, 1, 3};
    const size_t bad_ats[] = {0, 5, 7, 8, 20, 39, 40, 42};
    for (size_t t = 0; t <= sizeof bad_ats / sizeof bad_ats[0]; t++) {
        size_t bad_at = t < sizeof bad_ats / sizeof bad_ats[0] ? bad_ats[t] : SIZE_MAX;
        static uint8_t in[NBATCH * G1_BYTES];
        static cz_bls12381_g1_affine want[NBATCH], sep[NBATCH];
        for (size_t i = 0; i < NBATCH; i++)
            random_on_curve(in + i * G1_BYTES);
        make_encoding(in + 11 * G1_BYTES, 2); /* an infinity in the second group */
        int want_rc = CZ_OK;
        cz_errinfo want_ei;
        cz_errinfo_clear(&want_ei);
        if (bad_at != SIZE_MAX) {
            make_encoding(in + bad_at / 2 * G1_BYTES, 2);
            do
                make_encoding(in + bad_at * G1_BYTES, bad_kinds[t % 3]);
            while (cz_bls12381_g1_from_uncompressed_unchecked(&want[0], in + bad_at * G1_BYTES,
                                                              G1_BYTES, &want_ei) == CZ_OK);
        }
        size_t want_bad = NBATCH;
        for (size_t i = 0; i < NBATCH; i++) {
            cz_errinfo_clear(&want_ei);
            want_rc = cz_bls12381_g1_from_uncompressed_unchecked(&want[i], in + i * G1_BYTES,
                                                                 G1_BYTES, &want_ei);
            if (want_rc != CZ_OK) {
                want_bad = i;
                break;
            }
        }
        cz_bls12381_g1_affine *out = in_place ? (cz_bls12381_g1_affine *)(void *)in : sep;
        size_t bad = SIZE_MAX;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        int rc = cz_bls12381_g1_from_uncompressed_unchecked_batch(out, in, NBATCH, &bad, &ei);
        CHECK_ERR(rc, want_rc);
        CHECK_EQ_SIZE(bad, want_bad);
        CHECK_EQ_SIZE(want_bad, bad_at == SIZE_MAX ? NBATCH : bad_at);
        if (rc != CZ_OK)
            CHECK_EQ_STR(ei.msg, want_ei.msg);
        for (size_t i = 0; i < want_bad && i < bad; i++)
            CHECK_EQ_MEM(&out[i], &want[i], sizeof out[i]);
    }
}

/* Both paths of the batch: with IFMA where the CPU has it, and one by one. */
static void batch(void) {
#ifdef CZ_CURVE_IFMA
    int had = cz__curve_ifma;
    for (int on = 0; on <= had; on++) {
        cz__curve_ifma = on;
        check_batch(0);
        check_batch(1);
    }
    cz__curve_ifma = had;
#else
    check_batch(0);
    check_batch(1);
#endif
}

static const test_case cases[] = {
    {"decode8_portable", decode8_portable},
    {"decode8_ifma", decode8_ifma},
    {"batch", batch},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
