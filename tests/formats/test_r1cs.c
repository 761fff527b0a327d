/*
 * .r1cs reader: header, every constraint term and the wire→label map compared with snarkjs's own
 * reader (`r1cs.exportJson`; its LCs are {wire: coefficient} objects, so terms are matched by
 * wire), on circom's own files (header section after the constraints). Then malformed files:
 * every prefix, magic/version, unknown prime, wire >= nWires, coefficient >= r, huge counts,
 * duplicate header, custom-gate sections, bad label section.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs_file.h"
#include "formats_util.h"

static void expect_fail(const uint8_t *buf, size_t size, int code, const char *needle) {
    cz_errinfo ei;
    cz_r1cs_file *rf = (cz_r1cs_file *)1;
    cz_errinfo_clear(&ei);
    int rc = cz_r1cs_open_mem(&rf, buf, size, "bad.r1cs", &ei);
    CHECK(rf == NULL);
    CHECK(err_is(&ei, rc, code, "bad.r1cs"));
    CHECK(err_is(&ei, rc, code, needle));
    if (rc == CZ_OK)
        cz_r1cs_close(rf);
}

static int lc_matches(const cz_r1cs_lc *lc, json_t *obj) {
    if (!json_is_object(obj) || json_object_size(obj) != lc->nterms)
        return 0;
    for (size_t k = 0; k < lc->nterms; k++) {
        char key[16], d[128];
        snprintf(key, sizeof key, "%u", lc->terms[k].wire);
        limbs_dec(d, sizeof d, lc->terms[k].coef, 4);
        if (!json_str_eq(json_object_get(obj, key), d))
            return 0;
    }
    return 1;
}

static void check_against_json(const cz_r1cs_file *rf, const char *curve) {
    char path[256];
    fixture_path(path, sizeof path, curve, "r1cs.json");
    json_t *j = load_json(path);
    CHECK_EQ_INT(rf->curve, (strcmp(curve, "bn128") == 0 ? CZ_CURVE_BN254 : CZ_CURVE_BLS12381));
    CHECK_EQ_INT(rf->nwires, json_integer_value(json_object_get(j, "nVars")));
    CHECK_EQ_INT(rf->npub_out, json_integer_value(json_object_get(j, "nOutputs")));
    CHECK_EQ_INT(rf->npub_in, json_integer_value(json_object_get(j, "nPubInputs")));
    CHECK_EQ_INT(rf->nprv_in, json_integer_value(json_object_get(j, "nPrvInputs")));
    CHECK_EQ_INT(rf->nlabels, (uint64_t)json_integer_value(json_object_get(j, "nLabels")));
    CHECK_EQ_INT(rf->nconstraints, json_integer_value(json_object_get(j, "nConstraints")));
    json_t *cons = json_object_get(j, "constraints");
    CHECK_EQ_INT(json_array_size(cons), rf->nconstraints);
    size_t bad = 0, terms = 0;
    for (uint32_t i = 0; i < rf->nconstraints && i < json_array_size(cons); i++) {
        const cz_r1cs_constraint *c = &rf->constraints[i];
        json_t *jc = json_array_get(cons, i);
        bad += !lc_matches(&c->a, json_array_get(jc, 0));
        bad += !lc_matches(&c->b, json_array_get(jc, 1));
        bad += !lc_matches(&c->c, json_array_get(jc, 2));
        terms += c->a.nterms + c->b.nterms + c->c.nterms;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(terms, rf->nterms);
    json_t *map = json_object_get(j, "map");
    CHECK(rf->wire_labels != NULL && json_array_size(map) == rf->nwires);
    bad = 0;
    for (uint32_t i = 0; rf->wire_labels && i < rf->nwires && i < json_array_size(map); i++)
        bad += rf->wire_labels[i] != (uint64_t)json_integer_value(json_array_get(map, i));
    CHECK_EQ_INT(bad, 0);
    json_decref(j);
}

static void malformed(const uint8_t *good, size_t size) {
    uint8_t *b = malloc(size + 64);
    size_t bsize;
#define FRESH() memcpy(b, good, size)
    size_t prefix_bad = 0;
    for (size_t len = 0; len < size; len++) {
        cz_errinfo ei;
        cz_r1cs_file *rf = NULL;
        cz_errinfo_clear(&ei);
        uint8_t *p = malloc(len ? len : 1);
        memcpy(p, good, len);
        int rc = cz_r1cs_open_mem(&rf, p, len, "bad.r1cs", &ei);
        prefix_bad += !(rc == CZ_EFORMAT && rf == NULL && strstr(ei.msg, "bad.r1cs") != NULL);
        cz_r1cs_close(rf);
        free(p);
    }
    CHECK_EQ_INT(prefix_bad, 0);
    FRESH();
    b[0] = 'R';
    expect_fail(b, size, CZ_EFORMAT, "magic");
    FRESH();
    set32(b + 4, 2);
    expect_fail(b, size, CZ_EUNSUPPORTED, "version 2");
    size_t p1 = sect_payload(good, size, 1), p2 = sect_payload(good, size, 2);
    /* header: n8 | prime | nWires | nPubOut | nPubIn | nPrvIn | nLabels u64 | nConstraints */
    size_t o_nw = p1 + 36, o_nc = p1 + 36 + 16 + 8;
    FRESH();
    b[p1 + 4] ^= 8;
    expect_fail(b, size, CZ_ECURVE, "prime");
    FRESH();
    set32(b + o_nc, 0xffffffffu);
    expect_fail(b, size, CZ_EFORMAT, "constraints cannot fit");
    FRESH();
    set32(b + o_nc, get32(good + o_nc) - 1);
    expect_fail(b, size, CZ_EFORMAT, "trailing bytes");
    FRESH();
    set32(b + o_nw + 4, get32(good + o_nw)); /* nPubOut = nWires */
    expect_fail(b, size, CZ_EFORMAT, "exceed nWires");
    FRESH();
    set32(b + p2, 0x7fffffffu); /* first LC: huge term count */
    expect_fail(b, size, CZ_EFORMAT, "constraint 0, LC A");
    FRESH();
    set32(b + p2 + 4, get32(good + o_nw)); /* first term: wire = nWires */
    expect_fail(b, size, CZ_EFORMAT, "not below nWires");
    FRESH();
    memset(b + p2 + 8, 0xff, 32); /* first coefficient >= r */
    expect_fail(b, size, CZ_ENONCANON, "coefficient is not below");
    uint8_t *d = with_duplicate(good, size, 1, &bsize);
    expect_fail(d, bsize, CZ_EFORMAT, "more than once");
    free(d);
    const uint8_t gate[4] = {0};
    d = with_extra(good, size, 4, gate, sizeof gate, &bsize);
    expect_fail(d, bsize, CZ_EUNSUPPORTED, "custom gates");
    free(d);
    size_t h3 = sect_header(good, size, 3);
    FRESH();
    set64(b + h3 + 4, get64(good + h3 + 4) - 8);
    expect_fail(b, size - 8, CZ_EFORMAT, "section 3");
    /* Without section 3 (renamed to an unknown id) the file is fine, with no labels. */
    FRESH();
    set32(b + h3, 1000);
    cz_r1cs_file *rf = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_r1cs_open_mem(&rf, b, size, "nolabels.r1cs", &ei), CZ_OK);
    CHECK(rf != NULL && rf->wire_labels == NULL);
    cz_r1cs_close(rf);
#undef FRESH
    free(b);
}

static void one_curve(int ci) {
    const char *curve = fixture_curves[ci];
    char path[256];
    fixture_path(path, sizeof path, curve, "mulchain.r1cs");
    size_t size;
    uint8_t *good = load_file(path, &size);
    CHECK_EQ_INT(get32(good + 12), 2); /* circom writes the constraints first */
    cz_r1cs_file *rf = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (CHECK_ERR(cz_r1cs_open(&rf, path, &ei), CZ_OK)) {
        check_against_json(rf, curve);
        cz_r1cs_close(rf);
    } else {
        fprintf(stderr, "%s: %s\n", path, ei.msg);
    }
    malformed(good, size);
    free(good);
}

static void test_bn128(void) {
    one_curve(0);
}

static void test_bls12381(void) {
    one_curve(1);
}

static const test_case cases[] = {
    {"bn128", test_bn128},
    {"bls12381", test_bls12381},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
