/*
 * .zkey reader: every parsed value is compared with what snarkjs's own reader dumped
 * (`zKey.exportJson` in tests/vectors/formats_vectors.mjs), on both curves and both section
 * orders (bn128: contributed key, sections in order; bls12381: `groth16 setup` output, out of
 * order). Then malformed keys: every prefix, bad magic/version, duplicate and oversized sections,
 * huge counts, other protocols, unknown curves, bad entries — each must fail with the right code
 * and a message naming the file, never crash (the ASan build runs this too).
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/zkey.h"
#include "formats_util.h"

#define DEC 200

/* Compares n points (coords Fq coordinates of nl limbs each, Montgomery) with snarkjs JSON
 * triples; JSON entry i is json[json_off + i]. */
static void check_points(const void *pts, size_t n, size_t coords, size_t nl, const char *q,
                         json_t *arr, size_t json_off) {
    const uint64_t *l = pts;
    size_t bad = 0;
    CHECK(json_is_array(arr) && json_array_size(arr) == json_off + n);
    for (size_t i = 0; i < n; i++) {
        const uint64_t *p = l + i * coords * nl;
        json_t *j = json_array_get(arr, json_off + i);
        int inf = 1;
        for (size_t k = 0; k < coords * nl; k++)
            inf &= p[k] == 0;
        char d[4][DEC];
        for (size_t k = 0; k < coords; k++)
            mont_dec(d[k], DEC, p + k * nl, nl, q, 1);
        int ok;
        if (coords == 2) {
            ok = inf ? json_str_eq(json_array_get(j, 0), "0") &&
                           json_str_eq(json_array_get(j, 1), "1") &&
                           json_str_eq(json_array_get(j, 2), "0")
                     : json_str_eq(json_array_get(j, 0), d[0]) &&
                           json_str_eq(json_array_get(j, 1), d[1]) &&
                           json_str_eq(json_array_get(j, 2), "1");
        } else {
            json_t *x = json_array_get(j, 0), *y = json_array_get(j, 1), *z = json_array_get(j, 2);
            ok = inf ? json_str_eq(json_array_get(z, 0), "0") &&
                           json_str_eq(json_array_get(y, 0), "1")
                     : json_str_eq(json_array_get(x, 0), d[0]) &&
                           json_str_eq(json_array_get(x, 1), d[1]) &&
                           json_str_eq(json_array_get(y, 0), d[2]) &&
                           json_str_eq(json_array_get(y, 1), d[3]) &&
                           json_str_eq(json_array_get(z, 0), "1") &&
                           json_str_eq(json_array_get(z, 1), "0");
        }
        bad += !ok;
    }
    CHECK_EQ_INT(bad, 0);
}

/* Everything cz_zkey_open read, against snarkjs's JSON. */
static void check_against_json(const cz_zkey *zk, const char *curve) {
    char path[256];
    fixture_path(path, sizeof path, curve, "zkey.json");
    json_t *j = load_json(path);
    const char *q = json_string_value(json_object_get(j, "q"));
    const char *r = json_string_value(json_object_get(j, "r"));
    CHECK(q != NULL && r != NULL);
    int bn = strcmp(curve, "bn128") == 0;
    size_t nl = bn ? 4 : 6;
    CHECK_EQ_INT(zk->curve, (bn ? CZ_CURVE_BN254 : CZ_CURVE_BLS12381));
    CHECK_EQ_INT(json_integer_value(json_object_get(j, "n8q")), (json_int_t)(8 * nl));
    CHECK_EQ_INT(zk->nvars, json_integer_value(json_object_get(j, "nVars")));
    CHECK_EQ_INT(zk->npublic, json_integer_value(json_object_get(j, "nPublic")));
    CHECK_EQ_INT(zk->domain_size, json_integer_value(json_object_get(j, "domainSize")));
    CHECK_EQ_INT(zk->log_domain_size, json_integer_value(json_object_get(j, "power")));

    const void *hp[6], *ic, *a, *b1, *b2, *c, *h;
    if (bn) {
        const cz_zkey_bn254 *k = &zk->u.bn254;
        hp[0] = &k->alpha1, hp[1] = &k->beta1, hp[2] = &k->beta2;
        hp[3] = &k->gamma2, hp[4] = &k->delta1, hp[5] = &k->delta2;
        ic = k->ic, a = k->a, b1 = k->b1, b2 = k->b2, c = k->c, h = k->h;
    } else {
        const cz_zkey_bls12381 *k = &zk->u.bls12381;
        hp[0] = &k->alpha1, hp[1] = &k->beta1, hp[2] = &k->beta2;
        hp[3] = &k->gamma2, hp[4] = &k->delta1, hp[5] = &k->delta2;
        ic = k->ic, a = k->a, b1 = k->b1, b2 = k->b2, c = k->c, h = k->h;
    }
    static const char *hnames[6] = {"vk_alpha_1", "vk_beta_1",  "vk_beta_2",
                                    "vk_gamma_2", "vk_delta_1", "vk_delta_2"};
    static const int hg2[6] = {0, 0, 1, 1, 0, 1};
    for (int i = 0; i < 6; i++) {
        json_t *one = json_array();
        json_array_append(one, json_object_get(j, hnames[i]));
        check_points(hp[i], 1, hg2[i] ? 4 : 2, nl, q, one, 0);
        json_decref(one);
    }
    size_t np = zk->npublic + 1;
    check_points(ic, np, 2, nl, q, json_object_get(j, "IC"), 0);
    check_points(a, zk->nvars, 2, nl, q, json_object_get(j, "A"), 0);
    check_points(b1, zk->nvars, 2, nl, q, json_object_get(j, "B1"), 0);
    check_points(b2, zk->nvars, 4, nl, q, json_object_get(j, "B2"), 0);
    check_points(c, zk->nvars - np, 2, nl, q, json_object_get(j, "C"), np);
    check_points(h, zk->domain_size, 2, nl, q, json_object_get(j, "hExps"), 0);
    CHECK_EQ_INT(((uintptr_t)a | (uintptr_t)b2 | (uintptr_t)h) % 8, 0);

    /* Coefficients: snarkjs prints v = stored·R⁻² mod r. */
    json_t *cc = json_object_get(j, "ccoefs");
    CHECK_EQ_INT(json_array_size(cc), zk->ncoefs);
    size_t bad = 0;
    for (size_t i = 0; i < zk->ncoefs && i < json_array_size(cc); i++) {
        cz_zkey_coef e;
        cz_zkey_coef_at(&e, zk, i);
        json_t *je = json_array_get(cc, i);
        char d[DEC];
        mont_dec(d, DEC, e.value, 4, r, 2);
        bad += !(e.matrix == json_integer_value(json_object_get(je, "matrix")) &&
                 e.row == json_integer_value(json_object_get(je, "constraint")) &&
                 e.signal == json_integer_value(json_object_get(je, "signal")) &&
                 json_str_eq(json_object_get(je, "value"), d));
    }
    CHECK_EQ_INT(bad, 0);
    /* The mulchain key has the point at infinity among B1/B2 (signals never in matrix B). */
    int has_inf = 0;
    for (uint32_t s = 0; s < zk->nvars; s++) {
        const uint64_t *p = (const uint64_t *)b1 + s * 2 * nl;
        int z = 1;
        for (size_t k = 0; k < 2 * nl; k++)
            z &= p[k] == 0;
        has_inf |= z;
    }
    CHECK(has_inf);
    json_decref(j);
}

/* Opens a (malformed) buffer and checks the error code and that the message names the file. */
static void expect_fail(const uint8_t *buf, size_t size, int code, const char *needle) {
    cz_errinfo ei;
    cz_zkey *zk = (cz_zkey *)1;
    cz_errinfo_clear(&ei);
    int rc = cz_zkey_open_mem(&zk, buf, size, "bad.zkey", &ei);
    CHECK(zk == NULL);
    CHECK(err_is(&ei, rc, code, "bad.zkey"));
    if (needle != NULL)
        CHECK(err_is(&ei, rc, code, needle));
    if (rc == CZ_OK)
        cz_zkey_close(zk);
}

static void malformed(const uint8_t *good, size_t size, int bn) {
    size_t n8q = bn ? 32 : 48, g1 = 2 * n8q, g2 = 4 * n8q;
    uint8_t *b = malloc(size + 16);
    size_t bsize;
#define FRESH() memcpy(b, good, size)

    /* Every prefix (and the empty file) fails cleanly. */
    size_t prefix_bad = 0;
    for (size_t len = 0; len < size; len++) {
        cz_errinfo ei;
        cz_zkey *zk = NULL;
        cz_errinfo_clear(&ei);
        uint8_t *p = malloc(len ? len : 1); /* exact-size buffer: ASan sees any overread */
        memcpy(p, good, len);
        int rc = cz_zkey_open_mem(&zk, p, len, "bad.zkey", &ei);
        prefix_bad += !(rc == CZ_EFORMAT && zk == NULL && strstr(ei.msg, "bad.zkey") != NULL);
        if (zk)
            cz_zkey_close(zk);
        free(p);
    }
    CHECK_EQ_INT(prefix_bad, 0);

    FRESH();
    b[0] = 'Z';
    expect_fail(b, size, CZ_EFORMAT, "magic");
    FRESH();
    memcpy(b, "wtns", 4);
    expect_fail(b, size, CZ_EFORMAT, "bad.zkey: not a .zkey file (no \"zkey\" magic");
    FRESH();
    set32(b + 4, 2);
    expect_fail(b, size, CZ_EUNSUPPORTED, "version 2");
    FRESH();
    set32(b + 8, 0xffffffffu);
    expect_fail(b, size, CZ_EFORMAT, "sections");

    /* A section size past the end of the file, and the largest u64. */
    size_t h3 = sect_header(good, size, 3);
    FRESH();
    set64(b + h3 + 4, size);
    expect_fail(b, size, CZ_EFORMAT, "section 3 at offset");
    FRESH();
    set64(b + h3 + 4, UINT64_MAX);
    expect_fail(b, size, CZ_EFORMAT, "past the end of the file");

    /* Duplicate sections we read; a duplicate of section 10 (not read) and an unknown id are fine.
     */
    for (uint32_t id = 1; id <= 9; id++) {
        uint8_t *d = with_duplicate(good, size, id, &bsize);
        char needle[32];
        snprintf(needle, sizeof needle, "section %u", id);
        expect_fail(d, bsize, CZ_EFORMAT, needle);
        free(d);
    }
    {
        cz_errinfo ei;
        cz_zkey *zk = NULL;
        cz_errinfo_clear(&ei);
        uint8_t *d = with_duplicate(good, size, 10, &bsize);
        CHECK_ERR(cz_zkey_open_mem(&zk, d, bsize, "dup10.zkey", &ei), CZ_OK);
        cz_zkey_close(zk);
        free(d);
        const uint8_t junk[5] = {1, 2, 3, 4, 5};
        d = with_extra(good, size, 77, junk, sizeof junk, &bsize);
        zk = NULL;
        CHECK_ERR(cz_zkey_open_mem(&zk, d, bsize, "extra.zkey", &ei), CZ_OK);
        cz_zkey_close(zk);
        free(d);
    }
    /* A missing section (renamed to an unknown id). */
    size_t h9 = sect_header(good, size, 9);
    FRESH();
    set32(b + h9, 99);
    expect_fail(b, size, CZ_EFORMAT, "section 9 is missing");

    /* Protocols: PLONK, FFLONK, unknown. */
    size_t p1 = sect_payload(good, size, 1);
    FRESH();
    set32(b + p1, 2);
    expect_fail(b, size, CZ_EUNSUPPORTED, "PLONK");
    FRESH();
    set32(b + p1, 10);
    expect_fail(b, size, CZ_EUNSUPPORTED, "FFLONK");
    FRESH();
    set32(b + p1, 7);
    expect_fail(b, size, CZ_EUNSUPPORTED, "protocol 7");

    /* Header: unknown q, wrong r, n8q huge, counts. */
    size_t p2 = sect_payload(good, size, 2);
    size_t o_r = p2 + 4 + n8q + 4, o_nv = o_r + 32, o_np = o_nv + 4, o_dom = o_np + 4;
    FRESH();
    b[p2 + 4] ^= 2;
    expect_fail(b, size, CZ_ECURVE, "unknown curve");
    FRESH();
    b[o_r] ^= 2;
    expect_fail(b, size, CZ_ECURVE, "scalar field");
    FRESH();
    set32(b + p2, 0xfffffff0u);
    expect_fail(b, size, CZ_EFORMAT, "section 2");
    FRESH();
    set32(b + o_nv, 0xffffffffu); /* huge nVars: the A section cannot have that many points */
    expect_fail(b, size, CZ_EFORMAT, "A section");
    FRESH();
    set32(b + o_np, get32(good + o_nv)); /* nPublic == nVars */
    expect_fail(b, size, CZ_EFORMAT, "nPublic");
    FRESH();
    set32(b + o_np, 0xffffffffu); /* nPublic + 1 overflows u32 */
    expect_fail(b, size, CZ_EFORMAT, "nPublic");
    FRESH();
    set32(b + o_dom, 48);
    expect_fail(b, size, CZ_EFORMAT, "power of two");
    FRESH();
    set32(b + o_dom, 0);
    expect_fail(b, size, CZ_EFORMAT, "power of two");
    FRESH();
    set32(b + o_dom, 0x80000000u); /* beyond BN254's 2^28 roots; within BLS12-381's 2^32 */
    expect_fail(b, size, CZ_EFORMAT, bn ? "roots of unity" : "H section");
    FRESH();
    memset(b + o_dom + 4 + g1, 0xff, n8q); /* beta1.x >= q */
    expect_fail(b, size, CZ_ENONCANON, "beta1");

    /* Coefficients: count, matrix, row, signal, value. */
    size_t p4 = sect_payload(good, size, 4), e0 = p4 + 4;
    FRESH();
    set32(b + p4, 0xffffffffu);
    expect_fail(b, size, CZ_EFORMAT, "coefficients");
    FRESH();
    set32(b + p4, get32(good + p4) - 1);
    expect_fail(b, size, CZ_EFORMAT, "coefficients");
    FRESH();
    set32(b + e0, 2);
    expect_fail(b, size, CZ_EFORMAT, "matrix 2");
    FRESH();
    set32(b + e0 + 4, get32(good + o_dom));
    expect_fail(b, size, CZ_EFORMAT, "domainSize");
    FRESH();
    set32(b + e0 + 8, get32(good + o_nv));
    expect_fail(b, size, CZ_EFORMAT, "nVars");
    FRESH();
    memset(b + e0 + 12, 0xff, 32);
    expect_fail(b, size, CZ_ENONCANON, "not below r");

    /* Point sections: a coordinate >= q (q itself), a section one point short. */
    size_t p7 = sect_payload(good, size, 7);
    FRESH();
    memcpy(b + p7 + g2 + n8q, good + p2 + 4, n8q); /* B2[1].x.c1 = q */
    expect_fail(b, size, CZ_ENONCANON, "point 1: coordinate 1");
    /* Section 8 one point short: cut its last point out of the file. */
    size_t h8 = sect_header(good, size, 8), end8 = h8 + 12 + (size_t)get64(good + h8 + 4);
    memcpy(b, good, end8 - g1);
    memcpy(b + end8 - g1, good + end8, size - end8);
    set64(b + h8 + 4, get64(good + h8 + 4) - g1);
    expect_fail(b, size - g1, CZ_EFORMAT, "C section");
#undef FRESH
    free(b);
}

/* Unaligned buffer: same points as the aligned open (copied, not mapped). */
static void unaligned(const uint8_t *good, size_t size, const cz_zkey *ref, int bn) {
    uint8_t *raw = malloc(size + 8);
    memcpy(raw + 3, good, size);
    cz_zkey *zk = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_zkey_open_mem(&zk, raw + 3, size, "unaligned.zkey", &ei), CZ_OK);
    if (zk != NULL) {
        size_t g1 = bn ? 64 : 96;
        const void *a = bn ? (const void *)zk->u.bn254.a : (const void *)zk->u.bls12381.a;
        const void *ra = bn ? (const void *)ref->u.bn254.a : (const void *)ref->u.bls12381.a;
        const void *h = bn ? (const void *)zk->u.bn254.h : (const void *)zk->u.bls12381.h;
        const void *rh = bn ? (const void *)ref->u.bn254.h : (const void *)ref->u.bls12381.h;
        CHECK_EQ_INT(((uintptr_t)a | (uintptr_t)h) % 8, 0);
        CHECK_EQ_MEM(a, ra, zk->nvars * g1);
        CHECK_EQ_MEM(h, rh, zk->domain_size * g1);
        CHECK_EQ_MEM(&zk->u, &ref->u, offsetof(cz_zkey_bn254, ic));
        cz_zkey_close(zk);
    }
    free(raw);
}

/* First signal whose A point is not infinity. */
static size_t first_finite_a(const uint8_t *good, size_t size, size_t g1) {
    size_t p5 = sect_payload(good, size, 5);
    for (size_t s = 0;; s++) {
        for (size_t k = 0; k < g1; k++)
            if (good[p5 + s * g1 + k] != 0)
                return s;
    }
}

static cz_zkey *open_buf(const uint8_t *buf, size_t size, const char *name) {
    cz_zkey *zk = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_zkey_open_mem(&zk, buf, size, name, &ei), CZ_OK);
    return zk;
}

/* cz_zkey_validate_points: real keys pass (with subgroup checks); a point moved off the curve
 * and (BLS12-381 G1) an on-curve point outside the subgroup are found and located. */
static void validation(const uint8_t *good, size_t size, const cz_zkey *ref, int bn) {
    size_t n8q = bn ? 32 : 48, g1 = 2 * n8q;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_zkey_validate_points(ref, 1, &ei), CZ_OK);
    uint8_t *b = malloc(size);
    size_t s = first_finite_a(good, size, g1);
    size_t off = sect_payload(good, size, 5) + s * g1;
    char needle[64];
    snprintf(needle, sizeof needle, "section 5 at offset %zu: A point %zu", off, s);
    memcpy(b, good, size);
    b[off + n8q] ^= 1; /* y changes in its lowest bit: stays < q, leaves the curve */
    cz_zkey *zk = open_buf(b, size, "offcurve.zkey");
    if (zk != NULL) {
        cz_errinfo_clear(&ei);
        int rc = cz_zkey_validate_points(zk, 0, &ei);
        CHECK(err_is(&ei, rc, CZ_ENOTONCURVE, "offcurve.zkey"));
        CHECK(err_is(&ei, rc, CZ_ENOTONCURVE, needle));
        cz_zkey_close(zk);
    }
    /* delta2 off the curve: the header point offsets are right too. */
    size_t p2 = sect_payload(good, size, 2);
    size_t d2 = p2 + 4 + n8q + 4 + 32 + 12 + 3 * g1 + 2 * 2 * g1;
    memcpy(b, good, size);
    b[d2 + 2 * n8q] ^= 1;
    zk = open_buf(b, size, "offcurve2.zkey");
    if (zk != NULL) {
        cz_errinfo_clear(&ei);
        snprintf(needle, sizeof needle, "section 2 at offset %zu: delta2 point 0", d2);
        CHECK(err_is(&ei, cz_zkey_validate_points(zk, 0, &ei), CZ_ENOTONCURVE, needle));
        cz_zkey_close(zk);
    }
    if (!bn) {
        /* The first x = 1, 2, ... with x³ + 4 a square gives a point of E(Fp) that is not in the
         * order-r subgroup (the cofactor is large: the chance it is, is ~2^-126). */
        cz_bls12381_fp x, y, t, four;
        cz_bls12381_fp_from_u64(&four, 4);
        for (uint64_t v = 1;; v++) {
            cz_bls12381_fp_from_u64(&x, v);
            cz_bls12381_fp_sqr(&t, &x);
            cz_bls12381_fp_mul(&t, &t, &x);
            cz_bls12381_fp_add(&t, &t, &four);
            if (cz_bls12381_fp_sqrt(&y, &t) == CZ_OK)
                break;
        }
        memcpy(b, good, size);
        memcpy(b + off, x.l, n8q); /* LEM = the limbs, little-endian */
        memcpy(b + off + n8q, y.l, n8q);
        zk = open_buf(b, size, "cofactor.zkey");
        if (zk != NULL) {
            cz_errinfo_clear(&ei);
            CHECK_ERR(cz_zkey_validate_points(zk, 0, &ei), CZ_OK);
            snprintf(needle, sizeof needle, "A point %zu is not in the prime-order subgroup", s);
            CHECK(err_is(&ei, cz_zkey_validate_points(zk, 1, &ei), CZ_ENOTINSUBGROUP, needle));
            cz_zkey_close(zk);
        }
    }
    free(b);
}

static void file_errors(const uint8_t *good, size_t size) {
    cz_errinfo ei;
    cz_zkey *zk = NULL;
    cz_errinfo_clear(&ei);
    CHECK(err_is(&ei, cz_zkey_open(&zk, "tests/vectors/out/formats/no-such.zkey", &ei), CZ_EIO,
                 "no-such.zkey"));
    cz_errinfo_clear(&ei);
    CHECK(err_is(&ei, cz_zkey_open(&zk, "tests/vectors/out/formats", &ei), CZ_EIO,
                 "not a regular file"));
    /* A truncated file through the mmap path. */
    char tmp[] = "/tmp/cz_test_zkey_XXXXXX";
    int fd = mkstemp(tmp);
    CHECK(fd >= 0);
    if (fd >= 0) {
        CHECK_EQ_INT(write(fd, good, size / 2), (ssize_t)(size / 2));
        close(fd);
        cz_errinfo_clear(&ei);
        CHECK(err_is(&ei, cz_zkey_open(&zk, tmp, &ei), CZ_EFORMAT, tmp));
        CHECK(zk == NULL);
        fd = open(tmp, O_WRONLY | O_TRUNC);
        close(fd);
        cz_errinfo_clear(&ei);
        CHECK(err_is(&ei, cz_zkey_open(&zk, tmp, &ei), CZ_EFORMAT, "too short"));
        unlink(tmp);
    }
}

/* Curve names as snarkjs writes and accepts them. */
static void curve_names(void) {
    cz_curve_id id = CZ_CURVE_BLS12381;
    CHECK_EQ_STR(cz_curve_name(CZ_CURVE_BN254), "bn128");
    CHECK_EQ_STR(cz_curve_name(CZ_CURVE_BLS12381), "bls12381");
    CHECK(cz_curve_from_name(&id, "bn128") == CZ_OK && id == CZ_CURVE_BN254);
    CHECK(cz_curve_from_name(&id, "BLS12-381") == CZ_OK && id == CZ_CURVE_BLS12381);
    CHECK(cz_curve_from_name(&id, "alt_bn128") == CZ_OK && id == CZ_CURVE_BN254);
    CHECK_ERR(cz_curve_from_name(&id, "bls12377"), CZ_ECURVE);
    CHECK_ERR(cz_curve_from_name(&id, ""), CZ_ECURVE);
    CHECK_ERR(cz_curve_from_name(&id, "bn128bn128bn128bn128"), CZ_ECURVE);
}

static void one_curve(int ci) {
    const char *curve = fixture_curves[ci];
    int bn = ci == 0;
    char path[256];
    fixture_path(path, sizeof path, curve, "mulchain.zkey");
    cz_zkey *zk = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = cz_zkey_open(&zk, path, &ei);
    if (!CHECK_ERR(rc, CZ_OK)) {
        fprintf(stderr, "%s: %s\n", path, ei.msg);
        return;
    }
    CHECK_EQ_STR(cz_zkey_name(zk), path);
    check_against_json(zk, curve);
    size_t size;
    uint8_t *good = load_file(path, &size);
    malformed(good, size, bn);
    unaligned(good, size, zk, bn);
    validation(good, size, zk, bn);
    if (bn)
        file_errors(good, size);
    free(good);
    cz_zkey_close(zk);
}

static void test_bn128(void) {
    one_curve(0);
}

static void test_bls12381(void) {
    one_curve(1);
}

static const test_case cases[] = {
    {"curve_names", curve_names},
    {"bn128", test_bn128},
    {"bls12381", test_bls12381},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
