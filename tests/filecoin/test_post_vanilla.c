/*
 * PoSt vanilla proofs (src/filecoin/post_vanilla.h).
 *
 * Oracles: leaf challenges computed from rust-fil-proofs' definition (SHA-256 of randomness ‖
 * sector id ‖ challenge index, first 8 bytes little-endian, modulo the leaves) with Python's
 * hashlib, outside this code; a vanilla proof written byte by byte here from the bincode layout
 * (offsets of the research notes: sector id at 0, comm_r at 8, the counts at 40 and 48, the first
 * proof's tag at 56, root at 60, leaf at 92, path at 124), which must decode to its fields and
 * encode back to the same bytes; every truncation and each kind of corruption must be refused
 * with a message naming the place; the native check must accept a real 2 KiB sector opened at
 * its derived challenges and refuse each kind of lie, naming the sector and the challenge.
 */
#include <string.h>

#include "cuzk/field.h"
#include "filecoin/post_fake.h"
#include "filecoin/post_vanilla.h"
#include "post_fixture.h"
#include "test.h"

typedef cz_bls12381_fr fr;

static void test_challenges(void) {
    static const uint64_t c32g[10] = {707914199, 439148358,  967788220, 548708700,  1061661429,
                                      6202012,   1055504637, 389535735, 1000069704, 600088878};
    static const uint64_t c2k[10] = {23, 6, 60, 28, 53, 28, 61, 55, 8, 46};
    static const uint64_t s2_v1[10] = {41, 8, 24, 17, 15, 62, 63, 35, 15, 23};
    static const uint64_t s2_v11[10] = {0, 15, 34, 37, 58, 36, 11, 39, 61, 7};
    uint8_t r[32] = {0};
    for (uint64_t i = 0; i < 10; i++) {
        CHECK_EQ_INT(cz__post_leaf_challenge(r, 1, i, UINT64_C(1) << 30), c32g[i]);
        CHECK_EQ_INT(cz__post_leaf_challenge(r, 1, i, 64), c2k[i]);
        CHECK_EQ_INT(cz__post_leaf_challenge(r, 2, 10 + i, 64), s2_v1[i]); /* V1: position 1 */
        CHECK_EQ_INT(cz__post_leaf_challenge(r, 2, i, 64), s2_v11[i]);     /* V1_1 */
    }
}

static void put_u64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_fr(uint8_t *p, uint64_t v) { /* a small canonical value */
    memset(p, 0, 32);
    put_u64(p, v);
}

/* A 2 KiB proof of one challenge, by hand: 120 + 556 bytes. */
static size_t hand_made(uint8_t *b) {
    size_t at = 0;
    put_u64(b, 77), at = 8;
    put_fr(b + at, 1001), at += 32; /* comm_r */
    put_u64(b + at, 1), at += 8;    /* one sector proof */
    put_u64(b + at, 1), at += 8;    /* one inclusion proof */
    memset(b + at, 0, 4), at += 4;  /* Single */
    put_fr(b + at, 1002), at += 32; /* root */
    put_fr(b + at, 1003), at += 32; /* leaf */
    put_u64(b + at, 2), at += 8;    /* two levels */
    for (int l = 0; l < 2; l++) {
        put_u64(b + at, 7), at += 8;
        for (int k = 0; k < 7; k++)
            put_fr(b + at, 2000 + 10 * (uint64_t)l + (uint64_t)k), at += 32;
        put_u64(b + at, l == 0 ? 5 : 3), at += 8;
    }
    put_fr(b + at, 1004), at += 32; /* comm_c */
    put_fr(b + at, 1005), at += 32; /* comm_r_last */
    return at;
}

static int fr_is(const fr *a, uint64_t v) {
    fr b;
    cz_bls12381_fr_from_u64(&b, v);
    return cz_bls12381_fr_eq(a, &b);
}

static void test_layout(void) {
    uint8_t b[1024], *enc = NULL;
    size_t n = hand_made(b), elen = 0;
    cz__post_shape shape;
    cz__post_vanilla v;
    cz_errinfo ei;
    CHECK_EQ_INT(n, 676);
    cz__post_shape_get(&shape, CZ__POST_WINDOW, 2048, NULL);
    cz_errinfo_clear(&ei);
    if (!CHECK_EQ_INT(cz__post_vanilla_decode(&v, &shape, 1, b, n, 0, &ei), CZ_OK)) {
        fprintf(stderr, "%s\n", ei.msg);
        return;
    }
    CHECK(v.sector_id == 77 && fr_is(&v.comm_r, 1001) && fr_is(&v.comm_c, 1004) &&
          fr_is(&v.comm_r_last, 1005));
    CHECK(fr_is(&v.proofs[0].root, 1002) && fr_is(&v.proofs[0].leaf, 1003));
    CHECK(v.proofs[0].nlevels == 2 && v.proofs[0].levels[0].index == 5 &&
          v.proofs[0].levels[1].index == 3 && fr_is(&v.proofs[0].levels[1].siblings[6], 2016));
    CHECK_EQ_INT(v.proofs[0].leaf_index, 5 + 8 * 3);
    if (CHECK_EQ_INT(cz__post_vanilla_encode(&enc, &elen, &v, &shape, NULL), CZ_OK))
        CHECK(elen == n && memcmp(enc, b, n) == 0);
    free(enc);
    cz__post_vanilla_free(&v);
}

/* decode must fail with code and a message containing what. */
static void expect_bad(const uint8_t *b, size_t n, int code, const char *what) {
    cz__post_shape shape;
    cz__post_vanilla v;
    cz_errinfo ei;
    cz__post_shape_get(&shape, CZ__POST_WINDOW, 2048, NULL);
    cz_errinfo_clear(&ei);
    CHECK_EQ_INT(cz__post_vanilla_decode(&v, &shape, 1, b, n, 3, &ei), code);
    if (!CHECK(strstr(ei.msg, what) != NULL && strstr(ei.msg, "vanilla proof 3") != NULL))
        fprintf(stderr, "message: %s (wanted %s)\n", ei.msg, what);
    cz__post_vanilla_free(&v);
}

static void test_bad_bytes(void) {
    uint8_t b[1024], c[1024];
    const size_t n = hand_made(b);
    int all = 1;
    for (size_t cut = 0; cut < n; cut++) { /* every truncation */
        cz__post_shape shape;
        cz__post_vanilla v;
        cz__post_shape_get(&shape, CZ__POST_WINDOW, 2048, NULL);
        all &= cz__post_vanilla_decode(&v, &shape, 1, b, cut, 0, NULL) == CZ_EFORMAT;
        cz__post_vanilla_free(&v);
    }
    CHECK(all);
    memcpy(c, b, n);
    c[56] = 1; /* a Sub proof for a base-only tree */
    expect_bad(c, n, CZ_EFORMAT, "tree kind 1");
    memcpy(c, b, n);
    put_u64(c + 48, 2); /* two inclusion proofs where one is expected */
    expect_bad(c, n, CZ_EFORMAT, "the number of inclusion proofs is 2, not 1");
    memcpy(c, b, n);
    put_u64(c + 124 + 8 + 8 + 224, 8); /* level 0 index 8 of arity 8 */
    expect_bad(c, n, CZ_EFORMAT, "level 0: index 8 of arity 8");
    memcpy(c, b, n);
    put_u64(c + 124, 3); /* three levels */
    expect_bad(c, n, CZ_EFORMAT, "the path length is 3, not 2");
    memcpy(c, b, n);
    memset(c + 92, 0xff, 32); /* the leaf is not below r */
    expect_bad(c, n, CZ_ENONCANON, "the leaf");
    memcpy(c, b, n);
    c[n] = 0; /* a byte left over */
    expect_bad(c, n + 1, CZ_EFORMAT, "1 bytes after the proof");
}

/* Two real 2 KiB sectors opened at their V1_1 challenges under randomness r. */
static void real_sector(pf_sector *x, cz__post_vanilla *v, const uint8_t r[32], uint64_t id) {
    unsigned idx[10];
    for (unsigned n = 0; n < 10; n++)
        idx[n] = (unsigned)cz__post_leaf_challenge(r, id, n, 64);
    pf_sector_make(x, (unsigned)id, idx, 10);
    CHECK(pf_vanilla(v, x, id));
}

static void expect_check(const cz__post_vanilla *v, const uint8_t r[32], uint64_t base, int code,
                         const char *what) {
    cz__post_shape shape;
    cz_errinfo ei;
    cz__post_shape_get(&shape, CZ__POST_WINDOW, 2048, NULL);
    cz_errinfo_clear(&ei);
    CHECK_EQ_INT(cz__post_vanilla_check(v, &shape, r, base, &ei), code);
    if (code != CZ_OK && !CHECK(strstr(ei.msg, what) != NULL))
        fprintf(stderr, "message: %s (wanted %s)\n", ei.msg, what);
}

static void test_native_check(void) {
    static pf_sector x;
    cz__post_vanilla v;
    uint8_t r[32];
    fr one;
    for (int i = 0; i < 32; i++)
        r[i] = (uint8_t)(i * 7 + 1);
    r[31] &= 0x3f;
    cz_bls12381_fr_one(&one);
    real_sector(&x, &v, r, 4242);
    expect_check(&v, r, 0, CZ_OK, NULL);
    /* the V1 indexes of position 1 (base 10) are other leaves */
    expect_check(&v, r, 10, CZ_EVERIFY, "sector 4242: challenge 0: the path opens leaf");
    cz_bls12381_fr_add(&v.proofs[3].sib[1][2], &v.proofs[3].sib[1][2], &one);
    expect_check(&v, r, 0, CZ_EVERIFY, "sector 4242: challenge 3: the path does not lead");
    cz_bls12381_fr_sub(&v.proofs[3].sib[1][2], &v.proofs[3].sib[1][2], &one);
    cz_bls12381_fr_add(&v.proofs[7].root, &v.proofs[7].root, &one);
    expect_check(&v, r, 0, CZ_EVERIFY, "sector 4242: challenge 7: its root is not comm_r_last");
    cz_bls12381_fr_sub(&v.proofs[7].root, &v.proofs[7].root, &one);
    cz_bls12381_fr_add(&v.comm_c, &v.comm_c, &one);
    expect_check(&v, r, 0, CZ_EVERIFY, "sector 4242: comm_r is not Poseidon(comm_c, comm_r_last)");
    cz__post_vanilla_free(&v);
}

/* Fake sectors of every PoSt shape pass the native check, and their bytes have the sizes the
 * layout gives (120 + N · inclusion proof: 556, 2484, 2540 bytes for 2 KiB, 32 GiB, 64 GiB). */
static void test_fake(void) {
    static const struct {
        cz__post_kind kind;
        uint64_t size;
        size_t bytes;
    } v[] = {{CZ__POST_WINDOW, 2048, 5680},
             {CZ__POST_WINNING, 2048, 36816},
             {CZ__POST_WINDOW, UINT64_C(1) << 35, 24960},
             {CZ__POST_WINNING, UINT64_C(1) << 35, 164064},
             {CZ__POST_WINDOW, UINT64_C(1) << 36, 25520}};
    uint8_t r[32];
    for (int i = 0; i < 32; i++)
        r[i] = (uint8_t)(5 * i + 3);
    r[31] &= 0x3f;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        cz__post_shape shape;
        cz__post_vanilla f, back;
        const unsigned n = v[i].kind == CZ__POST_WINNING ? 66 : 10;
        uint8_t *bytes = NULL;
        size_t len = 0;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        cz__post_shape_get(&shape, v[i].kind, v[i].size, NULL);
        if (!CHECK_EQ_INT(cz__post_fake_sector(&f, &shape, 900 + i, r, 20, n, 77, &ei), CZ_OK))
            continue;
        if (!CHECK_EQ_INT(cz__post_vanilla_check(&f, &shape, r, 20, &ei), CZ_OK))
            fprintf(stderr, "fake %zu: %s\n", i, ei.msg);
        if (CHECK_EQ_INT(cz__post_vanilla_encode(&bytes, &len, &f, &shape, NULL), CZ_OK)) {
            CHECK_EQ_INT(len, v[i].bytes);
            if (CHECK_EQ_INT(cz__post_vanilla_decode(&back, &shape, n, bytes, len, 0, &ei), CZ_OK))
                CHECK_EQ_INT(cz__post_vanilla_check(&back, &shape, r, 20, NULL), CZ_OK);
            cz__post_vanilla_free(&back);
        }
        /* other challenges (another index base): refused */
        CHECK_EQ_INT(cz__post_vanilla_check(&f, &shape, r, 0, NULL), CZ_EVERIFY);
        free(bytes);
        cz__post_vanilla_free(&f);
    }
}

static const test_case cases[] = {{"fake", test_fake},
                                  {"challenges", test_challenges},
                                  {"layout", test_layout},
                                  {"bad_bytes", test_bad_bytes},
                                  {"native_check", test_native_check}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
