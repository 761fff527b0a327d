/*
 * .wtns reader and writer: values compared with snarkjs's own reader (`wtns.exportJson`), the
 * writer's output compared byte for byte with snarkjs's file, the witness/zkey consistency check
 * (prime and count, message naming both files), and malformed witnesses (every prefix, magic,
 * version, unknown prime, value >= r, size and count mismatches, duplicate/missing sections).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/wtns.h"
#include "cuzk/zkey.h"
#include "formats_util.h"

static void expect_fail(const uint8_t *buf, size_t size, int code, const char *needle) {
    cz_errinfo ei;
    cz_wtns *w = (cz_wtns *)1;
    cz_errinfo_clear(&ei);
    int rc = cz_wtns_open_mem(&w, buf, size, "bad.wtns", &ei);
    CHECK(w == NULL);
    CHECK(err_is(&ei, rc, code, "bad.wtns"));
    CHECK(err_is(&ei, rc, code, needle));
    if (rc == CZ_OK)
        cz_wtns_close(w);
}

static void malformed(const uint8_t *good, size_t size) {
    uint8_t *b = malloc(size + 64);
    size_t bsize;
#define FRESH() memcpy(b, good, size)
    size_t prefix_bad = 0;
    for (size_t len = 0; len < size; len++) {
        cz_errinfo ei;
        cz_wtns *w = NULL;
        cz_errinfo_clear(&ei);
        uint8_t *p = malloc(len ? len : 1);
        memcpy(p, good, len);
        int rc = cz_wtns_open_mem(&w, p, len, "bad.wtns", &ei);
        prefix_bad += !(rc == CZ_EFORMAT && w == NULL && strstr(ei.msg, "bad.wtns") != NULL);
        cz_wtns_close(w);
        free(p);
    }
    CHECK_EQ_INT(prefix_bad, 0);
    FRESH();
    b[3] = 'x';
    expect_fail(b, size, CZ_EFORMAT, "magic");
    FRESH();
    set32(b + 4, 1);
    expect_fail(b, size, CZ_EUNSUPPORTED, "version 1");
    size_t p1 = sect_payload(good, size, 1), p2 = sect_payload(good, size, 2);
    FRESH();
    b[p1 + 4] ^= 4;
    expect_fail(b, size, CZ_ECURVE, "neither BN254 nor BLS12-381");
    FRESH();
    set32(b + p1, 48); /* n8 larger than the section */
    expect_fail(b, size, CZ_EFORMAT, "section 1");
    FRESH();
    set32(b + p1 + 36, 0xffffffffu); /* huge count */
    expect_fail(b, size, CZ_EFORMAT, "section 2");
    FRESH();
    set32(b + p1 + 36, get32(good + p1 + 36) + 1);
    expect_fail(b, size, CZ_EFORMAT, "expected");
    FRESH();
    memcpy(b + p2 + 32 * 3, good + p1 + 4, 32); /* witness[3] = r */
    expect_fail(b, size, CZ_ENONCANON, "witness 3");
    for (uint32_t id = 1; id <= 2; id++) {
        uint8_t *d = with_duplicate(good, size, id, &bsize);
        expect_fail(d, bsize, CZ_EFORMAT, "more than once");
        free(d);
    }
    FRESH();
    set32(b + p2 - 12, 5);
    expect_fail(b, size, CZ_EFORMAT, "section 2 is missing");
#undef FRESH
    free(b);
}

/* Writes w's values back and compares with snarkjs's bytes. */
static void writer_roundtrip(const cz_wtns *w, const uint8_t *good, size_t size) {
    char tmp[] = "/tmp/cz_test_wtns_XXXXXX";
    int fd = mkstemp(tmp);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    close(fd);
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_wtns_write(tmp, w->curve, w->values, w->nwitness, &ei), CZ_OK);
    size_t n;
    uint8_t *mine = load_file(tmp, &n);
    CHECK(n == size && memcmp(mine, good, size) == 0);
    free(mine);
    /* A value >= r is refused. */
    uint64_t *vals = malloc((size_t)w->nwitness * 32);
    memcpy(vals, w->values, (size_t)w->nwitness * 32);
    memset(vals + 4, 0xff, 32);
    cz_errinfo_clear(&ei);
    CHECK(err_is(&ei, cz_wtns_write(tmp, w->curve, vals, w->nwitness, &ei), CZ_ENONCANON, tmp));
    free(vals);
    unlink(tmp);
}

/* The fixtures of both curves, opened by the cases that need them, closed at the end. */
static cz_wtns *ws[2];
static cz_zkey *zks[2];

static void teardown(void) {
    for (int i = 0; i < 2; i++) {
        cz_wtns_close(ws[i]);
        cz_zkey_close(zks[i]);
    }
}

static void one_curve(int ci) {
    const char *curve = fixture_curves[ci];
    char path[256], jpath[256], zpath[256];
    fixture_path(path, sizeof path, curve, "mulchain.wtns");
    fixture_path(jpath, sizeof jpath, curve, "wtns.json");
    fixture_path(zpath, sizeof zpath, curve, "mulchain.zkey");
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = cz_wtns_open(&ws[ci], path, &ei);
    if (!CHECK_ERR(rc, CZ_OK)) {
        fprintf(stderr, "%s: %s\n", path, ei.msg);
        return;
    }
    cz_wtns *w = ws[ci];
    CHECK_EQ_INT(w->curve, (ci == 0 ? CZ_CURVE_BN254 : CZ_CURVE_BLS12381));
    CHECK_EQ_STR(cz_wtns_name(w), path);
    json_t *j = load_json(jpath);
    CHECK_EQ_INT(json_array_size(j), w->nwitness);
    size_t bad = 0;
    for (uint32_t i = 0; i < w->nwitness && i < json_array_size(j); i++) {
        char d[128];
        limbs_dec(d, sizeof d, w->values + (size_t)i * CZ_WTNS_LIMBS, CZ_WTNS_LIMBS);
        bad += !json_str_eq(json_array_get(j, i), d);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(w->values[0] == 1 && w->values[1] == 0);
    json_decref(j);
    size_t size;
    uint8_t *good = load_file(path, &size);
    malformed(good, size);
    writer_roundtrip(w, good, size);
    /* Unaligned buffer: values copied, still equal. */
    uint8_t *raw = malloc(size + 8);
    memcpy(raw + 1, good, size);
    cz_wtns *u = NULL;
    CHECK_ERR(cz_wtns_open_mem(&u, raw + 1, size, "u.wtns", &ei), CZ_OK);
    if (u != NULL) {
        CHECK_EQ_INT((uintptr_t)u->values % 8, 0);
        CHECK_EQ_MEM(u->values, w->values, (size_t)w->nwitness * 32);
    }
    cz_wtns_close(u);
    free(raw);
    free(good);
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_zkey_open(&zks[ci], zpath, &ei), CZ_OK);
    if (zks[ci] != NULL)
        CHECK_ERR(cz_wtns_check_against_zkey(w, zks[ci], &ei), CZ_OK);
}

static void test_bn128(void) {
    one_curve(0);
}

static void test_bls12381(void) {
    one_curve(1);
}

/* Checks against the other curve's key and a key with another count of values. */
static void test_mismatch(void) {
    for (int ci = 0; ci < 2; ci++) {
        char path[256];
        cz_errinfo ei;
        if (ws[ci] == NULL) {
            fixture_path(path, sizeof path, fixture_curves[ci], "mulchain.wtns");
            CHECK_ERR(cz_wtns_open(&ws[ci], path, &ei), CZ_OK);
        }
        if (zks[ci] == NULL) {
            fixture_path(path, sizeof path, fixture_curves[ci], "mulchain.zkey");
            CHECK_ERR(cz_zkey_open(&zks[ci], path, &ei), CZ_OK);
        }
    }
    if (ws[0] && ws[1] && zks[0] && zks[1]) {
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        int rc = cz_wtns_check_against_zkey(ws[0], zks[1], &ei);
        CHECK(err_is(&ei, rc, CZ_ECURVE, "bn128/mulchain.wtns"));
        CHECK(err_is(&ei, rc, CZ_ECURVE, "bls12381/mulchain.zkey"));
        /* Count mismatch: the bn128 witness minus its last value. */
        char tmp[] = "/tmp/cz_test_wtns_XXXXXX";
        int fd = mkstemp(tmp);
        CHECK(fd >= 0);
        close(fd);
        cz_wtns *shortw = NULL;
        cz_errinfo_clear(&ei);
        CHECK_ERR(cz_wtns_write(tmp, CZ_CURVE_BN254, ws[0]->values, ws[0]->nwitness - 1, &ei),
                  CZ_OK);
        CHECK_ERR(cz_wtns_open(&shortw, tmp, &ei), CZ_OK);
        if (shortw != NULL) {
            cz_errinfo_clear(&ei);
            rc = cz_wtns_check_against_zkey(shortw, zks[0], &ei);
            CHECK(err_is(&ei, rc, CZ_EFORMAT, tmp));
            CHECK(err_is(&ei, rc, CZ_EFORMAT, "bn128/mulchain.zkey"));
            CHECK(err_is(&ei, rc, CZ_EFORMAT, "nVars"));
        }
        cz_wtns_close(shortw);
        unlink(tmp);
    }
}

static const test_case cases[] = {
    {"bn128", test_bn128},
    {"bls12381", test_bls12381},
    {"mismatch", test_mismatch},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), NULL, teardown);
}
