/*
 * Bad bellperson files: noble's small.params, small.vk and proofs.bin
 * (tests/vectors/bellperson_vectors.mjs) cut short, with counts that disagree with the size,
 * trailing bytes, a point off the curve, outside the subgroup (noble's own such points), with
 * wrong flag bits, a coordinate >= p, infinity. Each must fail with its code and a message that
 * names the file, the section (vk alpha_g1 ... vk IC, H, L, A, B_G1, B_G2, or the proof's
 * partition and point) and the byte offset, computed here from the layout; nothing is allocated
 * for the points before the counts match the size, and a failed read gives back all it took.
 * With a pool, the error is still the first bad point in file order. Writers refuse infinity.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bellperson_util.h"
#include "cuzk/encoding.h"
#include "cuzk/groth16.h"
#include "cuzk/threadpool.h"

static uint8_t *params, *vkf, *proofs;
static size_t params_n, vk_n, proofs_n;
static uint32_t count[6]; /* IC, H, L, A, B_G1, B_G2 of small.params, from the JSON */

/* The offset of point i of section s (0 = IC ... 5 = B_G2) of small.params, from the layout. */
static size_t pt_off(int s, size_t i) {
    size_t off = 864;
    for (int k = 0; k < s; k++)
        off += 4 + (size_t)count[k] * (k == 5 ? 192 : 96);
    return off + 4 + i * (s == 5 ? 192 : 96);
}

static int setup(void) {
    char path[256];
    static const char *const keys[6] = {"vk.ic",   "small.h",    "small.l",
                                        "small.a", "small.b_g1", "small.b_g2"};
    if (bp_setup() != 0)
        return 1;
    bp_path(path, sizeof path, "small.params");
    params = load_file(path, &params_n);
    bp_path(path, sizeof path, "small.vk");
    vkf = load_file(path, &vk_n);
    bp_path(path, sizeof path, "proofs.bin");
    proofs = load_file(path, &proofs_n);
    for (int s = 0; s < 6; s++)
        count[s] = (uint32_t)json_array_size(bp_get(keys[s]));
    return pt_off(5, count[5]) == params_n ? 0 : 1;
}

static void teardown(void) {
    free(params);
    free(vkf);
    free(proofs);
    bp_teardown();
}

/* Reads buf as small.params (from memory, with opts) and checks code and message. The message
 * must also name the file; nothing may stay allocated. */
static int expect_params(const uint8_t *buf, size_t n, int subgroup, int code, const char *needle) {
    bp_counting c = {0};
    cz_file_alloc mem = {bp_count_alloc, bp_count_free, &c, NULL};
    cz_bellperson_read_opts opts = {subgroup, NULL, &mem};
    cz_bellperson_params p;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = cz_bellperson_params_read_mem(&p, buf, n, "bad.params", &opts, &ei);
    if (rc == CZ_OK)
        cz_bellperson_params_free(&p);
    int ok = code == CZ_OK ? rc == CZ_OK : err_is(&ei, rc, code, needle);
    ok &= code == CZ_OK || strstr(ei.msg, "bad.params: ") == ei.msg;
    ok &= c.live == 0 && c.frees == c.allocs;
    ok &= code == CZ_OK || (p.h == NULL && p.vk.ic == NULL && p.nh == 0);
    return ok;
}

/* A copy of small.params with the bytes at off replaced by len bytes of rep. */
static uint8_t *patched(size_t off, const void *rep, size_t len) {
    uint8_t *b = malloc(params_n);
    memcpy(b, params, params_n);
    memcpy(b + off, rep, len);
    return b;
}

static int expect_patch(size_t off, const void *rep, size_t len, int subgroup, int code,
                        const char *needle) {
    uint8_t *b = patched(off, rep, len);
    int ok = expect_params(b, params_n, subgroup, code, needle);
    free(b);
    return ok;
}

static void be32(uint8_t p[4], uint32_t v) {
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void test_truncated(void) {
    size_t bad = 0, allocs = 0;
    for (size_t n = 0; n < params_n; n++) {
        bp_counting c = {0};
        cz_file_alloc mem = {bp_count_alloc, bp_count_free, &c, NULL};
        cz_bellperson_read_opts opts = {0, NULL, &mem};
        cz_bellperson_params p;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        int rc = cz_bellperson_params_read_mem(&p, params, n, "cut.params", &opts, &ei);
        bad += rc != CZ_EFORMAT || strncmp(ei.msg, "cut.params: ", 12) != 0;
        allocs += c.allocs; /* the walk refuses before any array is allocated */
    }
    CHECK_EQ_SIZE(bad, 0);
    CHECK_EQ_SIZE(allocs, 0);
    for (size_t n = 0; n < vk_n; n++) {
        cz_bellperson_vk vk;
        memset(&vk, 0xa5, sizeof vk); /* a failed read leaves it zeroed, nothing to free */
        bad += cz_bellperson_vk_read_mem(&vk, vkf, n, "cut.vk", NULL, NULL) != CZ_EFORMAT;
        bad += vk.ic != NULL || vk.nic != 0;
    }
    CHECK_EQ_SIZE(bad, 0);
    char want[320];
    CHECK(expect_params(params, 100, 0, CZ_EFORMAT,
                        "bad.params: vk at offset 0: the file has 100 bytes, fewer than the 868"));
    size_t h = pt_off(1, 0) - 4;
    snprintf(want, sizeof want, "H count at offset %zu: the file ends at byte %zu", h, h + 2);
    CHECK(expect_params(params, h + 2, 0, CZ_EFORMAT, want));
    snprintf(want, sizeof want,
             "H at offset %zu: its %u points (%u bytes) run past the end of the file (40 bytes "
             "left)",
             h, count[1], 96 * count[1]);
    CHECK(expect_params(params, h + 44, 0, CZ_EFORMAT, want));
    snprintf(want, sizeof want, "vk IC at offset 864: its %u points (%u bytes) run past", count[0],
             96 * count[0]);
    CHECK(expect_params(params, 900, 0, CZ_EFORMAT, want));

    /* Through a file, the same, naming the path. */
    char path[256];
    cz_bellperson_params p;
    cz_errinfo ei;
    bp_tmp_path(path, sizeof path, "cut.params");
    CHECK(bp_write_file(path, params, params_n - 1));
    cz_errinfo_clear(&ei);
    snprintf(want, sizeof want, "%s: B_G2 at offset %zu: its %u points", path, pt_off(5, 0) - 4,
             count[5]);
    CHECK(err_is(&ei, cz_bellperson_params_read(&p, path, NULL, &ei), CZ_EFORMAT, want));
    /* A .params that holds only a vk: it says so. */
    CHECK(expect_params(vkf, vk_n, 0, CZ_EFORMAT, "the file ends after the verifying key"));
}

static void test_counts(void) {
    uint8_t c[4];
    char want[320];
    size_t h = pt_off(1, 0) - 4, bg2 = pt_off(5, 0) - 4;
    be32(c, 0xffffffffu);
    CHECK(expect_patch(h, c, 4, 0, CZ_EFORMAT,
                       "H at offset 1156: its 4294967295 points (412316860320 bytes) run past the "
                       "end of the file"));
    CHECK(h == 1156);
    be32(c, count[5] + 1);
    snprintf(want, sizeof want,
             "B_G2 at offset %zu: its %u points (%u bytes) run past the end of the file (%u bytes "
             "left)",
             bg2, count[5] + 1, 192 * (count[5] + 1), 192 * count[5]);
    CHECK(expect_patch(bg2, c, 4, 0, CZ_EFORMAT, want));
    be32(c, count[5] - 1);
    snprintf(want, sizeof want, "192 trailing bytes at offset %zu, after B_G2", params_n - 192);
    CHECK(expect_patch(bg2, c, 4, 0, CZ_EFORMAT, want));
    /* One more L point: then A's count is read from L's last point, and is nonsense. */
    be32(c, count[2] + 1);
    snprintf(want, sizeof want, "bad.params: A at offset %zu: its ", pt_off(3, 0) - 4 + 96);
    CHECK(expect_patch(pt_off(2, 0) - 4, c, 4, 0, CZ_EFORMAT, want));
    /* IC count 0 (a key has IC[0]). */
    be32(c, 0);
    uint8_t *v = malloc(vk_n);
    memcpy(v, vkf, vk_n);
    memcpy(v + 864, c, 4);
    cz_bellperson_vk vk;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK(err_is(&ei, cz_bellperson_vk_read_mem(&vk, v, 868, "zero.vk", NULL, &ei), CZ_EFORMAT,
                 "zero.vk: vk IC at offset 864: no points"));
    free(v);
}

static void test_trailing(void) {
    uint8_t *b = malloc(params_n + 1);
    char want[96];
    memcpy(b, params, params_n);
    b[params_n] = 0;
    snprintf(want, sizeof want, "1 trailing bytes at offset %zu, after B_G2", params_n);
    CHECK(expect_params(b, params_n + 1, 0, CZ_EFORMAT, want));
    free(b);
    uint8_t *v = malloc(vk_n + 5);
    memcpy(v, vkf, vk_n);
    memset(v + vk_n, 0, 5);
    cz_bellperson_vk vk;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    snprintf(want, sizeof want, "x.vk: 5 trailing bytes at offset %zu", vk_n);
    CHECK(err_is(&ei, cz_bellperson_vk_read_mem(&vk, v, vk_n + 5, "x.vk", NULL, &ei), CZ_EFORMAT,
                 want));
    free(v);
}

static void test_points(void) {
    char want[320];
    uint8_t ns1[96], ns2[192], inf1[96] = {0x40}, inf2[192] = {0x40};
    CHECK(bp_unhex(ns1, 96, json_string_value(bp_get("nosub_g1"))));
    CHECK(bp_unhex(ns2, 192, json_string_value(bp_get("nosub_g2"))));

    /* Off the curve: the last byte of y of L point 2. */
    uint8_t y = params[pt_off(2, 2) + 95] ^ 1;
    snprintf(want, sizeof want,
             "bad.params: L point 2 at offset %zu: bls12381 g1 uncompressed: "
             "point is not on the curve",
             pt_off(2, 2));
    CHECK(expect_patch(pt_off(2, 2) + 95, &y, 1, 0, CZ_ENOTONCURVE, want));

    /* Outside the subgroup: accepted in A by default, refused with the check; always refused in
     * the verifying key. */
    CHECK(expect_patch(pt_off(3, 1), ns1, 96, 0, CZ_OK, NULL));
    snprintf(want, sizeof want,
             "A point 1 at offset %zu: bls12381 g1 uncompressed: point is not "
             "in the prime-order subgroup",
             pt_off(3, 1));
    CHECK(expect_patch(pt_off(3, 1), ns1, 96, 1, CZ_ENOTINSUBGROUP, want));
    snprintf(want, sizeof want, "B_G2 point 0 at offset %zu: bls12381 g2", pt_off(5, 0));
    CHECK(expect_patch(pt_off(5, 0), ns2, 192, 1, CZ_ENOTINSUBGROUP, want));
    snprintf(want, sizeof want, "vk IC point 2 at offset %zu", pt_off(0, 2));
    CHECK(expect_patch(pt_off(0, 2), ns1, 96, 0, CZ_ENOTINSUBGROUP, want));
    CHECK(
        expect_patch(672, ns2, 192, 0, CZ_ENOTINSUBGROUP, "bad.params: vk delta_g2 at offset 672"));
    CHECK(expect_patch(96, ns1, 96, 0, CZ_ENOTINSUBGROUP, "bad.params: vk beta_g1 at offset 96"));

    /* Flag bits: compression set in an uncompressed point, the sign set, infinity with bytes. */
    uint8_t f = params[pt_off(1, 0)] | 0x80;
    snprintf(want, sizeof want,
             "H point 0 at offset %zu: bls12381 g1 uncompressed: compression "
             "flag set",
             pt_off(1, 0));
    CHECK(expect_patch(pt_off(1, 0), &f, 1, 0, CZ_EFLAGS, want));
    f = params[pt_off(4, 3)] | 0x20;
    snprintf(want, sizeof want, "B_G1 point 3 at offset %zu", pt_off(4, 3));
    CHECK(expect_patch(pt_off(4, 3), &f, 1, 0, CZ_EFLAGS, want));
    f = params[96] | 0x40;
    CHECK(expect_patch(96, &f, 1, 0, CZ_EFLAGS,
                       "bad.params: vk beta_g1 at offset 96: bls12381 g1 "
                       "uncompressed: infinity flag with non-zero bytes"));
    /* The first point stands in for a magic number: until it decodes, the file is "not a key",
     * and nothing about its bytes is said (tests/formats/test_no_echo.c). */
    f = params[0] | 0x40;
    CHECK(expect_patch(0, &f, 1, 0, CZ_EFORMAT,
                       "bad.params: not a bellperson key (.vk or .params): its first 96 bytes are "
                       "not a point of the curve (alpha_g1)"));
    CHECK(expect_patch(0, inf1, 96, 0, CZ_EFORMAT, "bad.params: not a bellperson key"));

    /* A coordinate >= p: x = 2^381 - 1. */
    uint8_t big[48];
    memset(big, 0xff, sizeof big);
    big[0] = 0x1f;
    snprintf(want, sizeof want,
             "H point 6 at offset %zu: bls12381 g1 uncompressed: coordinate is "
             "not below p",
             pt_off(1, 6));
    CHECK(expect_patch(pt_off(1, 6), big, 48, 0, CZ_ENONCANON, want));
    snprintf(want, sizeof want, "B_G2 point 2 at offset %zu", pt_off(5, 2));
    CHECK(expect_patch(pt_off(5, 2) + 96, big, 48, 0, CZ_ENONCANON, want)); /* y.c1 */

    /* Infinity, which bellperson's keys never hold. */
    snprintf(want, sizeof want,
             "L point 1 at offset %zu: the point at infinity (an unconstrained "
             "variable)",
             pt_off(2, 1));
    CHECK(expect_patch(pt_off(2, 1), inf1, 96, 0, CZ_EFORMAT, want));
    snprintf(want, sizeof want, "B_G2 point 1 at offset %zu: the point at infinity", pt_off(5, 1));
    CHECK(expect_patch(pt_off(5, 1), inf2, 192, 0, CZ_EFORMAT, want));
    CHECK(expect_patch(384, inf2, 192, 0, CZ_EFORMAT,
                       "bad.params: vk gamma_g2 at offset 384: the point at infinity"));
    snprintf(want, sizeof want, "vk IC point 0 at offset %zu: the point at infinity", pt_off(0, 0));
    CHECK(expect_patch(pt_off(0, 0), inf1, 96, 0, CZ_EFORMAT, want));

    /* The same bad IC in a .vk file, read by path. */
    char path[256];
    uint8_t *v = malloc(vk_n);
    memcpy(v, vkf, vk_n);
    memcpy(v + 868, ns1, 96);
    bp_tmp_path(path, sizeof path, "nosub.vk");
    CHECK(bp_write_file(path, v, vk_n));
    cz_bellperson_vk vk;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    snprintf(want, sizeof want, "%s: vk IC point 0 at offset 868: bls12381 g1", path);
    CHECK(err_is(&ei, cz_bellperson_vk_read(&vk, path, NULL, &ei), CZ_ENOTINSUBGROUP, want));
    CHECK(vk.ic == NULL && vk.nic == 0);
    free(v);
}

/* Sections of several chunks, read on a pool: the error is the first bad point in file order,
 * whichever chunk a thread finishes first. */
static void test_file_order(void) {
    enum { NH = 20000, NB = 5000 };
    cz_bellperson_params p;
    memset(&p, 0, sizeof p);
    bp_make_g1(&p.vk.alpha_g1, 1, 2, 1);
    bp_make_g1(&p.vk.beta_g1, 1, 3, 1);
    bp_make_g2(&p.vk.beta_g2, 1, 3, 1);
    bp_make_g2(&p.vk.gamma_g2, 1, 4, 1);
    bp_make_g1(&p.vk.delta_g1, 1, 5, 1);
    bp_make_g2(&p.vk.delta_g2, 1, 5, 1);
    p.vk.nic = 1;
    p.vk.ic = malloc(sizeof *p.vk.ic);
    bp_make_g1(p.vk.ic, 1, 6, 1);
    p.nh = NH, p.nb_g2 = NB;
    p.h = malloc(NH * sizeof *p.h);
    p.b_g2 = malloc(NB * sizeof *p.b_g2);
    bp_make_g1(p.h, NH, 7, 9);
    bp_make_g2(p.b_g2, NB, 8, 9);
    char path[256];
    bp_tmp_path(path, sizeof path, "order.params");
    CHECK_ERR(cz_bellperson_params_write(path, &p, NULL, NULL), CZ_OK);
    cz_bellperson_params_free(&p);
    size_t n;
    uint8_t *b = load_file(path, &n);
    size_t h0 = 868 + 96 + 4, g0 = h0 + 96 * NH + 4 * 4;
    b[h0 + 96 * 17000 + 95] ^= 1;  /* chunk 2 of H */
    b[g0 + 192 * 4500 + 191] ^= 1; /* chunk 1 of B_G2 */
    b[h0 + 96 * 9000 + 95] ^= 1;   /* chunk 1 of H: the first */
    CHECK(bp_write_file(path, b, n));
    cz_threadpool *pool = NULL;
    CHECK_ERR(cz_threadpool_create(&pool, 4, NULL), CZ_OK);
    char want[320];
    snprintf(want, sizeof want, "%s: H point 9000 at offset %zu: bls12381 g1", path,
             h0 + 96 * 9000);
    for (int run = 0; run < 4; run++) {
        bp_counting c = {0};
        cz_file_alloc mem = {bp_count_alloc, bp_count_free, &c, NULL};
        cz_bellperson_read_opts opts = {0, run == 0 ? NULL : pool, &mem};
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        CHECK(err_is(&ei, cz_bellperson_params_read(&p, path, &opts, &ei), CZ_ENOTONCURVE, want));
        CHECK(c.allocs == 2 && c.frees == 2 && c.live == 0);
    }
    /* Mended, it reads. */
    b[h0 + 96 * 17000 + 95] ^= 1;
    b[g0 + 192 * 4500 + 191] ^= 1;
    b[h0 + 96 * 9000 + 95] ^= 1;
    CHECK(bp_write_file(path, b, n));
    cz_bellperson_read_opts opts = {0, pool, NULL};
    CHECK_ERR(cz_bellperson_params_read(&p, path, &opts, NULL), CZ_OK);
    cz_bellperson_params_free(&p);
    cz_threadpool_destroy(pool);
    free(b);
}

static void test_paths(void) {
    cz_bellperson_params p;
    cz_bellperson_info info;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK(err_is(&ei, cz_bellperson_params_read(&p, "/nonexistent/k.params", NULL, &ei), CZ_EIO,
                 "/nonexistent/k.params: cannot open"));
    cz_errinfo_clear(&ei);
    CHECK(err_is(&ei, cz_bellperson_info_read(&info, bp_tmp, CZ_BELLPERSON_ANY, &ei), CZ_EIO,
                 "not a regular file (a directory)"));
}

static void test_writers(void) {
    char path[256];
    cz_bellperson_params p;
    cz_errinfo ei;
    CHECK_ERR(cz_bellperson_params_read_mem(&p, params, params_n, "small.params", NULL, NULL),
              CZ_OK);
    bp_tmp_path(path, sizeof path, "inf.params");
    memset(&p.l[1], 0, sizeof p.l[1]); /* infinity */
    cz_errinfo_clear(&ei);
    CHECK(err_is(&ei, cz_bellperson_params_write(path, &p, NULL, &ei), CZ_EINVAL,
                 "inf.params: L point 1 is the point at infinity"));
    CHECK(access(path, F_OK) != 0); /* nothing was written */
    memset(&p.vk.delta_g2, 0, sizeof p.vk.delta_g2);
    cz_errinfo_clear(&ei);
    CHECK(err_is(&ei, cz_bellperson_vk_write(path, &p.vk, &ei), CZ_EINVAL,
                 "inf.params: vk: delta_g2 is the point at infinity"));
    uint32_t nic = p.vk.nic;
    p.vk.nic = 0;
    CHECK_ERR(cz_bellperson_vk_write(path, &p.vk, NULL), CZ_EINVAL);
    p.vk.nic = nic;
    cz_bellperson_params_free(&p);
}

/* The proof file: whole proofs only, and every point checked. */
static int expect_proofs(const uint8_t *b, size_t n, int code, const char *needle) {
    cz_groth16_proof *pr = (cz_groth16_proof *)1;
    size_t np = 7;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = cz_groth16_proofs_decode(&pr, &np, CZ_CURVE_BLS12381, b, n, "p.bin", &ei);
    int ok = err_is(&ei, rc, code, needle) && strncmp(ei.msg, "p.bin: ", 7) == 0;
    return ok && pr == NULL && np == 0;
}

static int expect_proof_patch(size_t off, const void *rep, size_t len, int code,
                              const char *needle) {
    uint8_t *b = malloc(proofs_n);
    memcpy(b, proofs, proofs_n);
    memcpy(b + off, rep, len);
    int ok = expect_proofs(b, proofs_n, code, needle);
    free(b);
    return ok;
}

static void test_bad_proofs(void) {
    uint8_t *b = malloc(proofs_n + 1);
    memcpy(b, proofs, proofs_n);
    b[proofs_n] = 0;
    CHECK(expect_proofs(b, 0, CZ_EFORMAT, "0 bytes are not a whole number of 192-byte"));
    CHECK(expect_proofs(b, 191, CZ_EFORMAT, "191 bytes are not a whole number of 192-byte"));
    CHECK(expect_proofs(b, 193, CZ_EFORMAT, "(1, and 1 bytes over)"));
    CHECK(expect_proofs(b, proofs_n + 1, CZ_EFORMAT, "(2, and 1 bytes over)"));
    free(b);

    uint8_t f = proofs[192] & 0x7f;
    CHECK(expect_proof_patch(192, &f, 1, CZ_EFLAGS,
                             "p.bin: partition 1: A at offset 192: bls12381 g1 compressed: "
                             "compression flag not set"));
    uint8_t inf2[96] = {0xc0};
    CHECK(expect_proof_patch(48, inf2, 96, CZ_EFORMAT,
                             "p.bin: partition 0: B at offset 48: the point at infinity"));
    inf2[0] = 0xe0; /* infinity with the sign bit */
    CHECK(expect_proof_patch(48, inf2, 96, CZ_EFLAGS, "B at offset 48: bls12381 g2 compressed"));
    uint8_t big[48];
    memset(big, 0xff, sizeof big);
    big[0] = 0x9f; /* compressed, x = 2^381 - 1 */
    CHECK(expect_proof_patch(192 + 144, big, 48, CZ_ENONCANON,
                             "partition 1: C at offset 336: bls12381 g1 compressed: x is not "
                             "below p"));

    /* noble's x without a point, and noble's points outside the subgroup, compressed. */
    uint8_t x1[48], x2[96], u1[96], u2[192], c1[48], c2[96];
    CHECK(bp_unhex(x1, 48, json_string_value(bp_get("nocurve_x_g1"))));
    CHECK(bp_unhex(x2, 96, json_string_value(bp_get("nocurve_x_g2"))));
    x1[0] |= 0x80, x2[0] |= 0x80;
    CHECK(expect_proof_patch(192, x1, 48, CZ_ENOTONCURVE,
                             "partition 1: A at offset 192: bls12381 g1 compressed: no point "
                             "with this x"));
    /* The first point stands in for a magic number (tests/formats/test_no_echo.c). */
    CHECK(
        expect_proof_patch(0, x1, 48, CZ_EFORMAT,
                           "p.bin: not a file of bls12381 proofs: its first bytes are not a point "
                           "of the curve (A)"));
    CHECK(expect_proof_patch(192 + 48, x2, 96, CZ_ENOTONCURVE,
                             "partition 1: B at offset 240: bls12381 g2"));
    cz_bls12381_g1_affine p1;
    cz_bls12381_g2_affine p2;
    CHECK(bp_unhex(u1, 96, json_string_value(bp_get("nosub_g1"))));
    CHECK(bp_unhex(u2, 192, json_string_value(bp_get("nosub_g2"))));
    CHECK_ERR(cz_bls12381_g1_from_uncompressed_unchecked(&p1, u1, 96, NULL), CZ_OK);
    CHECK_ERR(cz_bls12381_g2_from_uncompressed_unchecked(&p2, u2, 192, NULL), CZ_OK);
    cz_bls12381_g1_to_compressed(c1, &p1);
    cz_bls12381_g2_to_compressed(c2, &p2);
    CHECK(expect_proof_patch(144, c1, 48, CZ_ENOTINSUBGROUP,
                             "partition 0: C at offset 144: bls12381 g1 compressed: point is "
                             "not in the prime-order subgroup"));
    CHECK(expect_proof_patch(192 + 48, c2, 96, CZ_ENOTINSUBGROUP, "partition 1: B at offset 240"));

    /* One proof alone, and the curve's size. */
    cz_groth16_proof one;
    CHECK_ERR(cz_groth16_proof_decode(&one, CZ_CURVE_BLS12381, proofs, 192, NULL), CZ_OK);
    CHECK_ERR(cz_groth16_proof_decode(&one, CZ_CURVE_BLS12381, proofs, 191, NULL), CZ_EFORMAT);
    uint8_t again[192];
    CHECK_EQ_SIZE(cz_groth16_proof_encode(again, &one), 192);
    CHECK_EQ_MEM(again, proofs, 192);
}

static const test_case cases[] = {
    {"truncated", test_truncated}, {"counts", test_counts},         {"trailing", test_trailing},
    {"points", test_points},       {"file_order", test_file_order}, {"paths", test_paths},
    {"writers", test_writers},     {"bad_proofs", test_bad_proofs},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
