/*
 * PoRep C1 files in bincode (src/filecoin/porep_c1_bincode.h).
 *
 * A C1 written and read back is the same C1: written again, the same bytes; as JSON
 * (porep_c1.h), the same text as the original's; and it still passes the native check. Sectors:
 * fake 2 KiB (Single Merkle proofs), 32 GiB (Sub) and 64 GiB (Top, the v1.0 graph), and a 2 KiB
 * one sealed for real (porep_seal.h).
 *
 * The oracle for the layout is a walk written here from Curio's Go decoder
 * (lib/proof/porep_vproof_bin_decode.go: DecodeCommit1OutRaw and what it calls), which takes
 * every count and tag from the bytes as the Go code does; what it finds is compared with the
 * figures of filecoin-proofs' sector shapes, written out by hand (partitions, challenges, layers,
 * tree variants, levels and arities), the walk must end exactly at the end of the file, and the
 * 2 KiB file's size is the one counted by hand from the layout.
 *
 * Every fault is refused with its code and a message naming it and its byte: every truncation
 * (stepping through the offsets), a trailing byte, a proof variant of the wrong tree shape, a
 * value not below r (r itself; r - 1 reads), a column index past the sector, a path index past its
 * arity, partition and proof counts that are not the registered proof's (also a C1 read as
 * another size's), an unknown registered proof.
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep_c1.h"
#include "filecoin/porep_c1_bincode.h"
#include "filecoin/porep_fake.h"
#include "filecoin/porep_seal.h"
#include "porep_fixture.h"
#include "test.h"

/* ---- the oracle: a walk after Curio's Go decoder ---- */

typedef struct walk {
    const uint8_t *p;
    size_t len, at;
    int ok;
} walk;

static uint64_t walk_u64(walk *w) {
    uint64_t v = 0;
    if (!w->ok || w->len - w->at < 8)
        return w->ok = 0, 0;
    for (int b = 0; b < 8; b++)
        v |= (uint64_t)w->p[w->at + (size_t)b] << (8 * b);
    w->at += 8;
    return v;
}

static uint32_t walk_u32(walk *w) {
    uint32_t v = 0;
    if (!w->ok || w->len - w->at < 4)
        return w->ok = 0, 0;
    for (int b = 0; b < 4; b++)
        v |= (uint32_t)w->p[w->at + (size_t)b] << (8 * b);
    w->at += 4;
    return v;
}

/* n elements of size bytes (HasherDomain, Commitment, Ticket: 32 raw bytes each). */
static void walk_skip(walk *w, uint64_t n, size_t size) {
    if (!w->ok || n > (w->len - w->at) / size)
        w->ok = 0;
    else
        w->at += (size_t)n * size;
}

/* What the walk saw of one MerkleProof: its tag, and per path its levels and the hashes of its
 * first level. */
typedef struct seen_merkle {
    uint32_t tag;
    uint64_t levels[3], hashes[3];
    size_t at_tag, at_first_index, at_root; /* offsets: the tag, the first path's first index, the
                                               root (the leaf follows it) */
} seen_merkle;

/* DecodeInclusionPath: u64 elements, each (DecodePathElement) u64 hashes, hashes, u64 index. */
static void walk_path(walk *w, seen_merkle *m, int which) {
    const uint64_t n = walk_u64(w);
    m->levels[which] = n;
    for (uint64_t l = 0; l < n && w->ok; l++) {
        const uint64_t h = walk_u64(w);
        if (l == 0)
            m->hashes[which] = h;
        walk_skip(w, h, 32);
        if (l == 0 && which == 0)
            m->at_first_index = w->at;
        walk_u64(w);
    }
}

/* DecodeProofData: u32 tag; 0 Single root, leaf, path; 1 Sub base, sub, root, leaf; 2 Top base,
 * sub, top, root, leaf. */
static void walk_merkle(walk *w, seen_merkle *m) {
    memset(m, 0, sizeof *m);
    m->at_tag = w->at;
    m->tag = walk_u32(w);
    if (m->tag == 0) {
        m->at_root = w->at;
        walk_skip(w, 2, 32);
        walk_path(w, m, 0);
        return;
    }
    if (m->tag > 2) {
        w->ok = 0;
        return;
    }
    for (int p = 0; p <= (int)m->tag; p++)
        walk_path(w, m, p);
    m->at_root = w->at;
    walk_skip(w, 2, 32);
}

typedef struct seen {
    uint64_t partitions, per; /* per: of every partition, or ~0 when they differ */
    seen_merkle d, r, c;      /* the first proof's comm_d_proofs, comm_r_last_proof, c_x's */
    uint64_t rows, drg, exp, labels, parents, layer_index, node; /* the first labeling proof's */
    size_t at_proof[2];  /* offsets of partition 0's first two proofs */
    size_t at_c_x_index; /* the first proof's c_x column index */
} seen;

/* DecodeColumnProof: DecodeColumn (u32 index, u64 rows, rows), then DecodeMerkleProof. */
static void walk_column(walk *w, seen *s, seen_merkle *m, int first) {
    seen_merkle ignore;
    if (first)
        s->at_c_x_index = w->at;
    walk_u32(w);
    const uint64_t rows = walk_u64(w);
    if (first)
        s->rows = rows;
    walk_skip(w, rows, 32);
    walk_merkle(w, first ? m : &ignore);
}

/* DecodeLabelingProof, DecodeEncodingProof: u64 parents, parents, u32 layer_index, u64 node. */
static void walk_label(walk *w, seen *s, int first) {
    const uint64_t n = walk_u64(w);
    walk_skip(w, n, 32);
    const uint32_t layer = walk_u32(w);
    const uint64_t node = walk_u64(w);
    if (first)
        s->parents = n, s->layer_index = layer, s->node = node;
}

/* DecodeVanillaStackedProof. */
static void walk_proof(walk *w, seen *s, int first) {
    seen_merkle ignore;
    uint64_t n;
    walk_merkle(w, first ? &s->d : &ignore);
    walk_merkle(w, first ? &s->r : &ignore);
    walk_column(w, s, &s->c, first); /* c_x */
    n = walk_u64(w);
    for (uint64_t q = 0; q < n && w->ok; q++)
        walk_column(w, s, NULL, 0);
    if (first)
        s->drg = n;
    n = walk_u64(w);
    for (uint64_t q = 0; q < n && w->ok; q++)
        walk_column(w, s, NULL, 0);
    if (first)
        s->exp = n;
    n = walk_u64(w);
    for (uint64_t l = 0; l < n && w->ok; l++)
        walk_label(w, s, first && l == 0);
    if (first)
        s->labels = n;
    walk_label(w, s, 0);
}

/* DecodeCommit1OutRaw: u64 outer, per partition u64 inner and the proofs; comm_r, comm_d,
 * replica_id, seed, ticket; then EOF. 1 when the walk ends exactly at the end. */
static int walk_c1(seen *s, const uint8_t *p, size_t len) {
    walk w = {p, len, 0, 1};
    memset(s, 0, sizeof *s);
    s->partitions = walk_u64(&w);
    for (uint64_t k = 0; k < s->partitions && w.ok; k++) {
        const uint64_t inner = walk_u64(&w);
        s->per = k == 0 || inner == s->per ? inner : ~UINT64_C(0);
        for (uint64_t i = 0; i < inner && w.ok; i++) {
            if (k == 0 && i < 2)
                s->at_proof[i] = w.at;
            walk_proof(&w, s, k == 0 && i == 0);
        }
    }
    walk_skip(&w, 5, 32);
    return w.ok && w.at == len;
}

/* A sector size's figures (filecoin-proofs constants.rs and its SectorShape trees), by hand. */
typedef struct expected {
    uint64_t partitions, per, layers;
    uint64_t levels_d; /* tree D: Single, binary */
    uint32_t tag_rc;   /* trees R and C: 0 Single, 1 Sub, 2 Top */
    uint64_t levels_rc[3], hashes_rc[3];
} expected;

static const expected expect_2k = {1, 2, 2, 6, 0, {2, 0, 0}, {7, 0, 0}};      /* U8 */
static const expected expect_32g = {10, 18, 11, 30, 1, {9, 1, 0}, {7, 7, 0}}; /* U8 U8 */
static const expected expect_64g = {10, 18, 11, 31, 2, {9, 1, 1}, {7, 7, 1}}; /* U8 U8 U2 */

/* What the walk saw of the Merkle proof mp in b, against its tag and path figures. */
static void check_merkle(const uint8_t *b, const seen_merkle *m, const cz__merkle_proof *mp,
                         uint32_t tag, const uint64_t *levels, const uint64_t *hashes) {
    uint8_t v[32];
    uint64_t index = 0;
    CHECK_EQ_INT(m->tag, tag);
    cz_bls12381_fr_to_bytes_le(v, &mp->root);
    CHECK_EQ_MEM(b + m->at_root, v, 32);
    cz_bls12381_fr_to_bytes_le(v, &mp->leaf);
    CHECK_EQ_MEM(b + m->at_root + 32, v, 32);
    cz_bls12381_fr_to_bytes_le(v, &mp->path.levels[0].siblings[0]);
    CHECK_EQ_MEM(b + m->at_first_index - 32 * hashes[0], v, 32);
    for (int i = 0; i < 8; i++)
        index |= (uint64_t)b[m->at_first_index + (size_t)i] << (8 * i);
    CHECK_EQ_U64(index, mp->path.levels[0].index);
    for (int p = 0; p <= (int)tag; p++) {
        CHECK_EQ_U64(m->levels[p], levels[p]);
        CHECK_EQ_U64(m->hashes[p], hashes[p]);
    }
}

/* The bytes of f written from c1 as the Go decoder reads them, against the figures of e. */
static void check_layout(const uint8_t *b, size_t n, const cz__porep_c1 *c1, const expected *e) {
    const uint64_t one[3] = {1, 0, 0};
    uint64_t levels_d[3] = {e->levels_d, 0, 0};
    uint8_t v[32];
    seen s;
    if (!CHECK(walk_c1(&s, b, n)))
        return;
    CHECK_EQ_U64(s.partitions, e->partitions);
    CHECK_EQ_U64(s.per, e->per);
    check_merkle(b, &s.d, &c1->proofs[0].comm_d_proof, 0, levels_d, one);
    check_merkle(b, &s.r, &c1->proofs[0].comm_r_last_proof, e->tag_rc, e->levels_rc, e->hashes_rc);
    check_merkle(b, &s.c, &c1->proofs[0].c_x.inclusion, e->tag_rc, e->levels_rc, e->hashes_rc);
    /* c_x's index and first row, the first labeling proof's node */
    CHECK_EQ_U64((uint64_t)b[s.at_c_x_index] | (uint64_t)b[s.at_c_x_index + 1] << 8 |
                     (uint64_t)b[s.at_c_x_index + 2] << 16 | (uint64_t)b[s.at_c_x_index + 3] << 24,
                 c1->proofs[0].c_x.index);
    cz_bls12381_fr_to_bytes_le(v, &c1->proofs[0].c_x.rows[0]);
    CHECK_EQ_MEM(b + s.at_c_x_index + 12, v, 32);
    CHECK_EQ_U64(s.node, c1->proofs[0].labels[0].node);
    CHECK_EQ_U64(s.rows, e->layers);
    CHECK_EQ_U64(s.drg, 6);
    CHECK_EQ_U64(s.exp, 8);
    CHECK_EQ_U64(s.labels, e->layers);
    CHECK_EQ_U64(s.parents, 37);
    CHECK_EQ_U64(s.layer_index, 1);
    /* the first bytes: the outer and inner lengths, then the first proof's tree D root */
    CHECK_EQ_U64(s.at_proof[0], 16);
    CHECK_EQ_U64(s.d.at_tag, 16);
    cz_bls12381_fr_to_bytes_le(v, &c1->proofs[0].comm_d_proof.root);
    CHECK_EQ_MEM(b + 20, v, 32);
    /* the last 160: comm_r, comm_d, replica_id, seed, ticket */
    cz_bls12381_fr_to_bytes_le(v, &c1->comm_r);
    CHECK_EQ_MEM(b + n - 160, v, 32);
    cz_bls12381_fr_to_bytes_le(v, &c1->comm_d);
    CHECK_EQ_MEM(b + n - 128, v, 32);
    cz_bls12381_fr_to_bytes_le(v, &c1->replica_id);
    CHECK_EQ_MEM(b + n - 96, v, 32);
    CHECK_EQ_MEM(b + n - 64, c1->seed, 32);
    CHECK_EQ_MEM(b + n - 32, c1->ticket, 32);
}

/* ---- round trips ---- */

static int read_bin(cz__porep_c1 *c1, const uint8_t *b, size_t n, uint64_t id, cz_errinfo *ei) {
    cz_errinfo_clear(ei);
    return cz__porep_c1_read_bincode(c1, b, n, id, ei);
}

/* c1 to JSON; 1 when both write the same text. */
static int same_json(const cz__porep_c1 *a, const cz__porep_c1 *b) {
    uint8_t *ja = NULL, *jb = NULL;
    size_t na = 0, nb = 0;
    int same = cz__porep_c1_write(&ja, &na, a, NULL) == CZ_OK &&
               cz__porep_c1_write(&jb, &nb, b, NULL) == CZ_OK && na == nb &&
               memcmp(ja, jb, na) == 0;
    free(ja);
    free(jb);
    return same;
}

/* c1 written, its layout checked, read back, written again: the same bytes, the same JSON, the
 * native check passes on the first and the last partition. */
static void roundtrip(const cz__porep_c1 *c1, const expected *e) {
    uint8_t *b1 = NULL, *b2 = NULL, porep_id[32];
    size_t n1 = 0, n2 = 0;
    cz__porep_c1 back;
    cz__porep_config cfg;
    cz__porep_shape shape;
    cz__porep_graph g;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (!CHECK_EQ_INT(cz__porep_c1_write_bincode(&b1, &n1, c1, &ei), CZ_OK))
        return;
    check_layout(b1, n1, c1, e);
    if (CHECK_EQ_INT(read_bin(&back, b1, n1, c1->registered_proof, &ei), CZ_OK)) {
        CHECK_EQ_U64(back.registered_proof, c1->registered_proof);
        CHECK_EQ_INT(back.npartitions, c1->npartitions);
        CHECK_EQ_INT(back.per, c1->per);
        if (CHECK_EQ_INT(cz__porep_c1_write_bincode(&b2, &n2, &back, &ei), CZ_OK))
            CHECK(n2 == n1 && memcmp(b1, b2, n1) == 0);
        CHECK(same_json(&back, c1));
        if (CHECK_EQ_INT(cz__porep_config_get(&cfg, back.registered_proof, NULL), CZ_OK) &&
            CHECK_EQ_INT(cz__porep_shape_get(&shape, cfg.sector_size, NULL), CZ_OK)) {
            cz__porep_id(porep_id, back.registered_proof);
            cz__porep_graph_init(&g, shape.nodes, porep_id, cfg.api_minor == 0);
            CHECK_EQ_INT(cz__porep_vanilla_check(&back, &shape, &g, 0, NULL), CZ_OK);
            CHECK_EQ_INT(cz__porep_vanilla_check(&back, &shape, &g, back.npartitions - 1, NULL),
                         CZ_OK);
        }
    } else {
        fprintf(stderr, "  %s\n", ei.msg);
    }
    cz__porep_c1_free(&back);
    free(b1);
    free(b2);
}

static void test_roundtrip_sealed_2k(void) {
    cz__porep_c1 c1;
    if (!porep_fixture_seal(&c1, 5))
        return;
    roundtrip(&c1, &expect_2k);
    cz__porep_c1_free(&c1);
}

static void test_roundtrip_fake(void) {
    static const struct {
        uint64_t id;
        const expected *e;
        int identity;
    } sizes[] = {{5, &expect_2k, 0}, {8, &expect_32g, 1}, {4, &expect_64g, 0}};
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        cz__porep_fake f;
        cz__porep_fake_sector s = {{1, 2, 3}, 77, {4}, {5}};
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        if (!CHECK_EQ_INT(
                cz__porep_fake_make(&f, sizes[t].id, 0, 3 + t, sizes[t].identity ? &s : NULL, &ei),
                CZ_OK)) {
            fprintf(stderr, "  %s\n", ei.msg);
            continue;
        }
        roundtrip(&f.c1, sizes[t].e);
        cz__porep_fake_free(&f);
    }
}

/* ---- faults ---- */

/* The bincode of a sealed 2 KiB C1 (malloc'd), and where the oracle found its parts. */
static uint8_t *bytes_2k(size_t *n, seen *s) {
    cz__porep_c1 c1;
    uint8_t *b = NULL;
    if (!porep_fixture_seal(&c1, 5))
        return NULL;
    if (!CHECK_EQ_INT(cz__porep_c1_write_bincode(&b, n, &c1, NULL), CZ_OK))
        b = NULL;
    cz__porep_c1_free(&c1);
    if (b != NULL && !CHECK(walk_c1(s, b, *n))) {
        free(b);
        b = NULL;
    }
    return b;
}

/* b read as registered proof id fails with code, the message holding needle (and at, when not
 * NULL), and leaves the C1 empty. */
static void expect_fail(const uint8_t *b, size_t n, uint64_t id, int code, const char *needle,
                        const char *at) {
    cz__porep_c1 c1;
    cz_errinfo ei;
    CHECK_EQ_INT(read_bin(&c1, b, n, id, &ei), code);
    if (!CHECK(strstr(ei.msg, needle) != NULL) || (at != NULL && !CHECK(strstr(ei.msg, at))))
        fprintf(stderr, "  message \"%s\" lacks \"%s\" or \"%s\"\n", ei.msg, needle,
                at != NULL ? at : "");
    CHECK(c1.proofs == NULL && c1.npartitions == 0 && c1.per == 0);
    cz__porep_c1_free(&c1);
}

/* A copy of b with the 4 or 8 little-endian bytes at `at` set to v (width 4 or 8), or the 32
 * bytes at `at` set to v32 (width 32). */
static uint8_t *patched(const uint8_t *b, size_t n, size_t at, int width, uint64_t v,
                        const uint8_t *v32) {
    uint8_t *c = malloc(n);
    if (!CHECK(c != NULL))
        return NULL;
    memcpy(c, b, n);
    if (width == 32)
        memcpy(c + at, v32, 32);
    else
        for (int i = 0; i < width; i++)
            c[at + (size_t)i] = (uint8_t)(v >> (8 * i));
    return c;
}

/* "at byte N". */
static const char *at_byte(char *buf, size_t cap, size_t at) {
    snprintf(buf, cap, "at byte %zu", at);
    return buf;
}

static void test_sizes_and_truncations(void) {
    seen s;
    size_t n = 0;
    uint8_t *b = bytes_2k(&n, &s);
    cz__porep_c1 c1;
    cz_errinfo ei;
    if (b == NULL)
        return;
    /* counted from the layout: tree D 4+64+8+6·48 = 364, tree R/C 4+64+8+2·240 = 556, a column
     * 4+8+64+556 = 632, a label 8+37·32+12 = 1204; a proof 364+556+15·632+16+8+3·1204 = 14036 */
    CHECK_EQ_SIZE(n, 16 + 2 * 14036 + 160);
    for (size_t cut = 0; cut < n; cut += cut < 512 ? 1 : 13) {
        if (!CHECK_EQ_INT(read_bin(&c1, b, cut, 5, &ei), CZ_EFORMAT) ||
            !CHECK(strstr(ei.msg, "the file ends") != NULL))
            fprintf(stderr, "  cut %zu: %s\n", cut, ei.msg);
        CHECK(c1.proofs == NULL);
        cz__porep_c1_free(&c1);
    }
    {
        uint8_t *more = malloc(n + 1);
        char buf[48];
        if (CHECK(more != NULL)) {
            memcpy(more, b, n);
            more[n] = 0;
            expect_fail(more, n + 1, 5, CZ_EFORMAT, "1 bytes after the C1",
                        at_byte(buf, sizeof buf, n));
            free(more);
        }
    }
    free(b);
}

static void test_truncations_32g(void) {
    cz__porep_fake f;
    uint8_t *b = NULL;
    size_t n = 0;
    cz__porep_c1 c1;
    cz_errinfo ei;
    if (!CHECK_EQ_INT(cz__porep_fake_make(&f, 8, 0, 11, NULL, NULL), CZ_OK))
        return;
    if (CHECK_EQ_INT(cz__porep_c1_write_bincode(&b, &n, &f.c1, NULL), CZ_OK)) {
        for (size_t cut = 0; cut < n; cut += n / 37 + 1) {
            CHECK_EQ_INT(read_bin(&c1, b, cut, 8, &ei), CZ_EFORMAT);
            cz__porep_c1_free(&c1);
        }
        CHECK_EQ_INT(read_bin(&c1, b, n - 1, 8, &ei), CZ_EFORMAT);
        cz__porep_c1_free(&c1);
        /* a Sub proof where the tree has them, a Top one refused; a Single tree D */
        seen s;
        if (CHECK(walk_c1(&s, b, n))) {
            uint8_t *bad;
            char buf[48];
            bad = patched(b, n, s.c.at_tag, 4, 2, NULL);
            expect_fail(bad, n, 8, CZ_EFORMAT,
                        "proof 0: c_x: inclusion_proof: a proof of variant 2",
                        at_byte(buf, sizeof buf, s.c.at_tag));
            free(bad);
            bad = patched(b, n, s.d.at_tag, 4, 1, NULL);
            expect_fail(bad, n, 8, CZ_EFORMAT, "comm_d_proofs: a proof of variant 1 (Sub)",
                        at_byte(buf, sizeof buf, s.d.at_tag));
            free(bad);
        }
    }
    free(b);
    cz__porep_fake_free(&f);
}

static void test_faults(void) {
    /* r and r - 1, little-endian */
    static const uint8_t r_le[32] = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
                                     0xfe, 0x5b, 0xfe, 0xff, 0x02, 0xa4, 0xbd, 0x53,
                                     0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8, 0x39, 0x33,
                                     0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
    uint8_t r_minus_1[32];
    seen s;
    size_t n = 0;
    uint8_t *b = bytes_2k(&n, &s), *bad;
    cz__porep_c1 c1;
    cz_errinfo ei;
    char buf[48];
    if (b == NULL)
        return;
    memcpy(r_minus_1, r_le, 32);
    r_minus_1[0] = 0;
    /* the sibling 0 of the second proof's comm_r_last_proof path level 0 */
    const size_t sib = s.at_proof[1] + (s.r.at_tag - s.at_proof[0]) + 4 + 64 + 8 + 8;
    bad = patched(b, n, sib, 32, 0, r_le);
    expect_fail(bad, n, 5, CZ_ENONCANON,
                "partition 0, proof 1: comm_r_last_proof: path level 0: sibling 0: a value not "
                "below r",
                at_byte(buf, sizeof buf, sib));
    free(bad);
    bad = patched(b, n, sib, 32, 0, r_minus_1);
    if (CHECK(bad != NULL))
        CHECK_EQ_INT(read_bin(&c1, bad, n, 5, &ei), CZ_OK);
    cz__porep_c1_free(&c1);
    free(bad);
    bad = patched(b, n, n - 160, 32, 0, r_le);
    expect_fail(bad, n, 5, CZ_ENONCANON, "comm_r: a value not below r",
                at_byte(buf, sizeof buf, n - 160));
    free(bad);
    /* the tree shape: tree R of 2 KiB is Single */
    bad = patched(b, n, s.r.at_tag, 4, 1, NULL);
    expect_fail(bad, n, 5, CZ_EFORMAT,
                "partition 0, proof 0: comm_r_last_proof: a proof of variant 1 (Sub); this tree's "
                "proofs are Single",
                at_byte(buf, sizeof buf, s.r.at_tag));
    free(bad);
    bad = patched(b, n, s.r.at_tag, 4, 7, NULL);
    expect_fail(bad, n, 5, CZ_EFORMAT, "variant 7 (unknown)", NULL);
    free(bad);
    /* indices: a column past the sector's 64 nodes, a binary level's index 2 */
    bad = patched(b, n, s.at_c_x_index, 4, 64, NULL);
    expect_fail(bad, n, 5, CZ_EFORMAT, "c_x: column: index 64 of a sector of 64 nodes",
                at_byte(buf, sizeof buf, s.at_c_x_index));
    free(bad);
    bad = patched(b, n, s.d.at_first_index, 8, 2, NULL);
    expect_fail(bad, n, 5, CZ_EFORMAT, "comm_d_proofs: path level 0: index 2 of a level of arity 2",
                at_byte(buf, sizeof buf, s.d.at_first_index));
    free(bad);
    /* counts: partitions, proofs, levels, parents */
    bad = patched(b, n, 0, 8, 2, NULL);
    expect_fail(bad, n, 5, CZ_EFORMAT, "vanilla_proofs: 2 partitions; StackedDrg2KiBV1_1 has 1",
                "at byte 0");
    free(bad);
    bad = patched(b, n, 8, 8, 3, NULL);
    expect_fail(bad, n, 5, CZ_EFORMAT,
                "partition 0: vanilla_proofs: 3 proofs in the partition; StackedDrg2KiBV1_1 has 2",
                "at byte 8");
    free(bad);
    bad = patched(b, n, s.r.at_tag + 4 + 64, 8, 3, NULL);
    expect_fail(bad, n, 5, CZ_EFORMAT, "comm_r_last_proof: path: the number of levels is 3, not 2",
                NULL);
    free(bad);
    /* another registered proof: of another size, unknown; of the same size (no version in the
     * bytes) it reads */
    expect_fail(b, n, 8, CZ_EFORMAT, "1 partitions; StackedDrg32GiBV1_1 has 10", "at byte 0");
    expect_fail(b, n, 99, CZ_EINVAL, "porep c1 bincode", NULL);
    CHECK_EQ_INT(read_bin(&c1, b, n, 0, &ei), CZ_OK);
    cz__porep_c1_free(&c1);
    free(b);
}

static const test_case cases[] = {{"roundtrip_sealed_2k", test_roundtrip_sealed_2k},
                                  {"roundtrip_fake", test_roundtrip_fake},
                                  {"sizes_and_truncations", test_sizes_and_truncations},
                                  {"truncations_32g", test_truncations_32g},
                                  {"faults", test_faults}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
