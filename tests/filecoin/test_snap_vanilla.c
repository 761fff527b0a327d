/*
 * SnapDeals vanilla proofs (src/filecoin/snap_vanilla.h, snap_fake.h): their bytes, the native
 * check and what it refuses.
 *
 * Oracles: the byte layout of bincode as written down from storage-proofs-update's PartitionProof
 * (sizes computed here from it), sector updates made natively in full (snap_fake.h; the circuit's
 * test holds their witnesses to the recorded system), and the checks of storage-proofs-update's
 * verify: each tampering must be refused naming what failed. The Poseidon variant's layout is
 * poseidon/vanilla.rs's PartitionProof (comm_c and the challenge proofs).
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/snap_fake.h"
#include "test.h"

typedef cz_bls12381_fr fr;

#define KIB (UINT64_C(1) << 10)

/* The bytes of a MerkleProof of a tree of shape with nlevels levels. */
static size_t merkle_bytes(const cz__tree_shape *t, unsigned nlevels) {
    const unsigned nsub = t->sub > 0, ntop = t->top > 0, nbase = nlevels - nsub - ntop;
    size_t b = 4 + 64 + 8 + (size_t)nbase * (8 + 32 * (t->base - 1) + 8);
    if (nsub)
        b += 8 + 8 + 32 * (t->sub - 1) + 8;
    if (ntop)
        b += 8 + 8 + 32 * (t->top - 1) + 8;
    return b;
}

static void test_round_trip(void) {
    static const uint64_t sizes[3] = {2 * KIB, 16 * KIB, 32 * KIB};
    const cz__tree_shape binary = {2, 0, 0};
    for (int i = 0; i < 3; i++) {
        cz__snap_fake f;
        cz__snap_vanilla v, u;
        cz__snap_public pub;
        uint8_t *b = NULL, *b2 = NULL;
        size_t len = 0, len2 = 0;
        memset(&v, 0, sizeof v);
        memset(&u, 0, sizeof u);
        if (CHECK_EQ_INT(cz__snap_fake_make(&f, sizes[i], CZ__SNAP_SHA256, 1, 3, 0, NULL), CZ_OK) &&
            CHECK_EQ_INT(cz__snap_fake_partition(&v, &pub, &f, f.s.partitions - 1, NULL), CZ_OK) &&
            CHECK_EQ_INT(cz__snap_vanilla_encode(&b, &len, &v, &f.s, NULL), CZ_OK)) {
            const size_t want = 32 + 8 + 32 * (size_t)f.s.apex_leaves + 8 +
                                f.s.challenges * (2 * merkle_bytes(&f.s.tree_r, f.s.levels_r) +
                                                  merkle_bytes(&binary, f.s.challenge_bits));
            CHECK_EQ_SIZE(len, want);
            if (CHECK_EQ_INT(cz__snap_vanilla_decode(&u, &f.s, b, len, pub.k, NULL), CZ_OK) &&
                CHECK_EQ_INT(cz__snap_vanilla_encode(&b2, &len2, &u, &f.s, NULL), CZ_OK)) {
                CHECK(len2 == len && memcmp(b, b2, len) == 0);
                CHECK_EQ_INT(cz__snap_vanilla_check(&u, &f.s, &pub, NULL), CZ_OK);
            }
        }
        free(b);
        free(b2);
        cz__snap_vanilla_free(&u);
        cz__snap_vanilla_free(&v);
        cz__snap_fake_free(&f);
    }
}

/* The check of v under pub fails with code and a message containing text. */
static void refused(const cz__snap_vanilla *v, const cz__snap_shape *s, const cz__snap_public *pub,
                    int code, const char *text) {
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_EQ_INT(cz__snap_vanilla_check(v, s, pub, &ei), code);
    if (!CHECK(strstr(ei.msg, text) != NULL))
        fprintf(stderr, "  wanted \"%s\" in \"%s\"\n", text, ei.msg);
}

static void test_refused(void) {
    cz__snap_fake f;
    cz__snap_vanilla v;
    cz__snap_public pub, p2;
    memset(&v, 0, sizeof v);
    /* 16 MiB, h = 10: four partitions, a partition path, tree R 8-2-0 */
    if (CHECK_EQ_INT(cz__snap_fake_make(&f, 16 * KIB * KIB, CZ__SNAP_SHA256, 10, 5, 0, NULL),
                     CZ_OK) &&
        CHECK_EQ_INT(cz__snap_fake_partition(&v, &pub, &f, 2, NULL), CZ_OK) &&
        CHECK_EQ_INT(cz__snap_vanilla_check(&v, &f.s, &pub, NULL), CZ_OK)) {
        cz__snap_challenge_proof keep = v.ch[3];
        fr t;
        p2 = pub;
        p2.h = 9; /* another valid h: rho differs, every path still holds */
        refused(&v, &f.s, &p2, CZ_EVERIFY, "challenge 0: leaf_r_new is not");
        p2 = pub;
        p2.h = 13;
        refused(&v, &f.s, &p2, CZ_EINVAL, "h = 13");
        p2 = pub;
        p2.k = 4;
        refused(&v, &f.s, &p2, CZ_EINVAL, "partition 4 of 4");
        p2 = pub;
        p2.k = 1; /* another partition's challenges */
        refused(&v, &f.s, &p2, CZ_EVERIFY, "opens node");
        t = v.comm_c;
        v.comm_c.l[0] ^= 1;
        refused(&v, &f.s, &pub, CZ_EVERIFY, "Poseidon(comm_c, root_r_old) is not comm_r_old");
        v.comm_c = t;
        v.apex[5].l[1] ^= 1;
        refused(&v, &f.s, &pub, CZ_EVERIFY, "the apex leaves and the partition path");
        v.apex[5].l[1] ^= 1;
        v.ch[3].r_old.path.sib[2][4].l[0] ^= 1;
        refused(&v, &f.s, &pub, CZ_EVERIFY, "challenge 3: proof_r_old does not lead");
        v.ch[3] = keep;
        cz__tree_path_fix(&v.ch[3].r_old.path);
        v.ch[3].r_new.leaf.l[0] ^= 1;
        refused(&v, &f.s, &pub, CZ_EVERIFY, "challenge 3: proof_r_new does not lead");
        v.ch[3] = keep;
        cz__tree_path_fix(&v.ch[3].r_new.path);
        v.ch[3].d_new.root.l[0] ^= 1;
        refused(&v, &f.s, &pub, CZ_EVERIFY, "challenge 3: proof_d_new has another root");
        v.ch[3] = keep;
        cz__tree_path_fix(&v.ch[3].d_new.path);
        CHECK_EQ_INT(cz__snap_vanilla_check(&v, &f.s, &pub, NULL), CZ_OK);
    }
    cz__snap_vanilla_free(&v);
    cz__snap_fake_free(&f);
}

/* Decoding bytes (len of them) fails with code and text in the message. */
static void bad_bytes(const uint8_t *b, size_t len, const cz__snap_shape *s, int code,
                      const char *text) {
    cz__snap_vanilla v;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_EQ_INT(cz__snap_vanilla_decode(&v, s, b, len, 0, &ei), code);
    if (!CHECK(strstr(ei.msg, text) != NULL))
        fprintf(stderr, "  wanted \"%s\" in \"%s\"\n", text, ei.msg);
    cz__snap_vanilla_free(&v);
}

static void test_bad_bytes(void) {
    cz__snap_fake f;
    cz__snap_vanilla v;
    cz__snap_public pub;
    uint8_t *b = NULL;
    size_t len = 0;
    memset(&v, 0, sizeof v);
    if (CHECK_EQ_INT(cz__snap_fake_make(&f, 2 * KIB, CZ__SNAP_SHA256, 1, 9, 0, NULL), CZ_OK) &&
        CHECK_EQ_INT(cz__snap_fake_partition(&v, &pub, &f, 0, NULL), CZ_OK) &&
        CHECK_EQ_INT(cz__snap_vanilla_encode(&b, &len, &v, &f.s, NULL), CZ_OK)) {
        uint8_t *c = malloc(len + 1);
        const size_t ch0 = 32 + 8 + 32 * 8 + 8; /* where challenge 0's proof_r_old starts */
        cz__snap_shape other;
        if (CHECK(c != NULL)) {
            memcpy(c, b, len);
            bad_bytes(c, 0, &f.s, CZ_EFORMAT, "comm_c: the input ends");
            bad_bytes(c, len - 1, &f.s, CZ_EFORMAT, "challenge 9: proof_r_new");
            bad_bytes(c, 100, &f.s, CZ_EFORMAT, "apex leaf 1: value: the input ends");
            c[len] = 0;
            bad_bytes(c, len + 1, &f.s, CZ_EFORMAT, "1 bytes left over");
            c[ch0] = 1; /* Sub for a tree without sub-trees */
            bad_bytes(c, len, &f.s, CZ_EFORMAT, "challenge 0: proof_r_old: a proof of variant 1");
            c[ch0] = 0;
            memset(c + ch0 + 4, 0xff, 32); /* its root: not below r */
            bad_bytes(c, len, &f.s, CZ_ENONCANON, "challenge 0: proof_r_old: root");
            memcpy(c, b, len);
            c[32] = 7; /* 7 apex leaves */
            bad_bytes(c, len, &f.s, CZ_EFORMAT, "the number of apex leaves is 7, not 8");
            /* the 2 KiB bytes read as a 4 KiB proof: tree R 8-2-0 wants the Sub variant */
            if (CHECK_EQ_INT(cz__snap_shape_get(&other, 4 * KIB, CZ__SNAP_SHA256, NULL), CZ_OK))
                bad_bytes(b, len, &other, CZ_EFORMAT, "a proof of variant 0 (Single)");
        }
        free(c);
    }
    free(b);
    cz__snap_vanilla_free(&v);
    cz__snap_fake_free(&f);
}

/* The Poseidon variant: no apex leaves, tree D as tree R; a tampered tree D path is refused. */
static void test_poseidon(void) {
    static const uint64_t sizes[2] = {2 * KIB, 32 * KIB};
    for (int i = 0; i < 2; i++) {
        cz__snap_fake f;
        cz__snap_vanilla v, u;
        cz__snap_public pub;
        uint8_t *b = NULL;
        size_t len = 0;
        memset(&v, 0, sizeof v);
        memset(&u, 0, sizeof u);
        if (CHECK_EQ_INT(cz__snap_fake_make(&f, sizes[i], CZ__SNAP_POSEIDON, 1, 3, 0, NULL),
                         CZ_OK) &&
            CHECK_EQ_INT(cz__snap_fake_partition(&v, &pub, &f, 0, NULL), CZ_OK) &&
            CHECK_EQ_INT(cz__snap_vanilla_encode(&b, &len, &v, &f.s, NULL), CZ_OK)) {
            const size_t want =
                32 + 8 + f.s.challenges * 3 * merkle_bytes(&f.s.tree_r, f.s.levels_r);
            CHECK_EQ_INT(f.s.challenges, 10 * (i ? 2 : 1));
            CHECK_EQ_SIZE(len, want);
            if (CHECK_EQ_INT(cz__snap_vanilla_decode(&u, &f.s, b, len, 0, NULL), CZ_OK)) {
                CHECK_EQ_INT(cz__snap_vanilla_check(&u, &f.s, &pub, NULL), CZ_OK);
                u.ch[7].d_new.path.sib[1][2].l[0] ^= 1;
                refused(&u, &f.s, &pub, CZ_EVERIFY, "challenge 7: proof_d_new does not lead");
            }
            pub.k = 1;
            refused(&v, &f.s, &pub, CZ_EINVAL, "partition 1 of 1");
        }
        free(b);
        cz__snap_vanilla_free(&u);
        cz__snap_vanilla_free(&v);
        cz__snap_fake_free(&f);
    }
}

/* Every partition of f checked natively; partition last's bytes of the layout's size. */
static void check_all(const cz__snap_fake *f, size_t d_bytes) {
    for (uint32_t k = 0; k < f->s.partitions; k++) {
        cz__snap_vanilla v;
        cz__snap_public pub;
        uint8_t *b = NULL;
        size_t len = 0;
        memset(&v, 0, sizeof v);
        if (CHECK_EQ_INT(cz__snap_fake_partition(&v, &pub, f, k, NULL), CZ_OK) &&
            !CHECK_EQ_INT(cz__snap_vanilla_check(&v, &f->s, &pub, NULL), CZ_OK))
            fprintf(stderr, "  partition %u\n", k);
        if (k + 1 == f->s.partitions &&
            CHECK_EQ_INT(cz__snap_vanilla_encode(&b, &len, &v, &f->s, NULL), CZ_OK))
            CHECK_EQ_SIZE(len, 32 + (f->s.apex_leaves ? 8 + 32 * (size_t)f->s.apex_leaves : 0) + 8 +
                                   f->s.challenges *
                                       (2 * merkle_bytes(&f->s.tree_r, f->s.levels_r) + d_bytes));
        free(b);
        cz__snap_vanilla_free(&v);
    }
}

/* Updates whose leaves repeat within each chunk of one rho (snap_fake.h): 32 GiB in both variants
 * and 16 MiB, few distinct leaves; every partition must pass the native check (which hashes every
 * path from its leaf), and the leaves must repeat as documented. */
static void test_repeating(void) {
    const cz__tree_shape binary = {2, 0, 0};
    cz__snap_fake f;
    if (CHECK_EQ_INT(cz__snap_fake_make(&f, 32 * KIB * KIB * KIB, CZ__SNAP_SHA256, 10, 2,
                                        UINT64_C(1) << 14, NULL),
                     CZ_OK)) {
        const uint64_t chunk = UINT64_C(1) << 20; /* 2^30 nodes, h = 10 */
        CHECK_EQ_INT(f.d.period, 16);
        CHECK(cz_bls12381_fr_eq(cz__snap_tree_node(&f.d, 0, 5), cz__snap_tree_node(&f.d, 0, 21)));
        CHECK(!cz_bls12381_fr_eq(cz__snap_tree_node(&f.d, 0, 5), cz__snap_tree_node(&f.d, 0, 6)));
        CHECK(!cz_bls12381_fr_eq(cz__snap_tree_node(&f.d, 0, 5),
                                 cz__snap_tree_node(&f.d, 0, chunk + 5)));
        check_all(&f, merkle_bytes(&binary, 30));
    }
    cz__snap_fake_free(&f);
    if (CHECK_EQ_INT(cz__snap_fake_make(&f, 32 * KIB * KIB * KIB, CZ__SNAP_POSEIDON, 10, 2,
                                        UINT64_C(1) << 14, NULL),
                     CZ_OK))
        check_all(&f, merkle_bytes(&f.s.tree_r, f.s.levels_r));
    cz__snap_fake_free(&f);
    if (CHECK_EQ_INT(
            cz__snap_fake_make(&f, 16 * KIB * KIB, CZ__SNAP_SHA256, 10, 3, UINT64_C(1) << 12, NULL),
            CZ_OK))
        check_all(&f, merkle_bytes(&binary, 19));
    cz__snap_fake_free(&f);
}

static void test_fake_limits(void) {
    cz__snap_fake f;
    CHECK_EQ_INT(cz__snap_fake_make(&f, 32 * KIB * KIB * KIB, CZ__SNAP_SHA256, 10, 1,
                                    UINT64_C(1) << 9, NULL),
                 CZ_EINVAL); /* fewer distinct leaves than values of rho */
    cz__snap_fake_free(&f);
    CHECK_EQ_INT(cz__snap_fake_make(&f, 16 * KIB * KIB, CZ__SNAP_SHA256, 10, 1, 3 << 10, NULL),
                 CZ_EINVAL);
    cz__snap_fake_free(&f);
    CHECK_EQ_INT(cz__snap_fake_make(&f, 2 * KIB, CZ__SNAP_SHA256, 10, 1, 0, NULL), CZ_EINVAL);
    cz__snap_fake_free(&f);
    CHECK_EQ_INT(cz__snap_fake_make(&f, 3 * KIB, CZ__SNAP_SHA256, 1, 1, 0, NULL), CZ_EINVAL);
    cz__snap_fake_free(&f);
}

static const test_case cases[] = {
    {"round_trip", test_round_trip}, {"refused", test_refused},
    {"bad_bytes", test_bad_bytes},   {"poseidon", test_poseidon},
    {"repeating", test_repeating},   {"fake_limits", test_fake_limits},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
