/*
 * PoRep C1 files (src/filecoin/porep_c1.h).
 *
 * A C1 written and read back is the same C1 (its text written again is the same text) and still
 * passes the native check: a 2 KiB sector sealed for real (porep_seal.h: Single Merkle proofs),
 * fake 32 GiB and 64 GiB sectors (Sub and Top proofs, 10 partitions of 18), bare and in Curio's
 * envelope. Members may come in any order, unknown ones are skipped, and "\/" in the base64 is
 * '/'. Every fault is refused with the code and a message that names it: every truncation, an
 * unknown or disagreeing registered proof, an envelope of another size, a value not below r, a
 * base64 fault, a partition count that is not the registered proof's, a malformed member inside a
 * proof (named by partition and proof).
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep_c1.h"
#include "filecoin/porep_fake.h"
#include "filecoin/porep_seal.h"
#include "porep_fixture.h"
#include "test.h"

static int read_text(cz__porep_c1 *c1, cz__porep_envelope *env, const char *s, size_t n,
                     cz_errinfo *ei) {
    cz_errinfo_clear(ei);
    return cz__porep_c1_read(c1, env, (const uint8_t *)s, n, ei);
}

/* c1 written, read back and written again: the same text, the same values, the check passes. */
static void roundtrip(const cz__porep_c1 *c1, int envelope) {
    uint8_t *t1 = NULL, *t2 = NULL;
    size_t n1 = 0, n2 = 0;
    cz__porep_c1 back;
    cz__porep_envelope env;
    cz__porep_shape shape;
    cz__porep_graph g;
    cz__porep_config cfg;
    cz_errinfo ei;
    uint8_t porep_id[32];
    cz_errinfo_clear(&ei);
    if (!CHECK_EQ_INT(envelope ? cz__porep_c1_write_envelope(&t1, &n1, c1, 4242, &ei)
                               : cz__porep_c1_write(&t1, &n1, c1, &ei),
                      CZ_OK))
        return;
    if (CHECK_EQ_INT(cz__porep_c1_read(&back, &env, t1, n1, &ei), CZ_OK)) {
        CHECK_EQ_INT(env.enveloped, envelope);
        if (envelope)
            CHECK_EQ_U64(env.sector_num, 4242);
        CHECK_EQ_U64(back.registered_proof, c1->registered_proof);
        CHECK_EQ_INT(back.npartitions, c1->npartitions);
        CHECK_EQ_INT(back.per, c1->per);
        CHECK(cz_bls12381_fr_eq(&back.comm_r, &c1->comm_r));
        CHECK(cz_bls12381_fr_eq(&back.comm_d, &c1->comm_d));
        CHECK(cz_bls12381_fr_eq(&back.replica_id, &c1->replica_id));
        CHECK_EQ_MEM(back.seed, c1->seed, 32);
        CHECK_EQ_MEM(back.ticket, c1->ticket, 32);
        for (size_t i = 0; i < (size_t)c1->npartitions * c1->per; i++) {
            const cz__porep_vanilla *a = &back.proofs[i], *b = &c1->proofs[i];
            CHECK_EQ_INT(a->exp[7].index, b->exp[7].index);
            CHECK_EQ_INT(a->comm_r_last_proof.path.nlevels, b->comm_r_last_proof.path.nlevels);
            CHECK(cz_bls12381_fr_eq(&a->exp[7].inclusion.path.levels[0].siblings[0],
                                    &b->exp[7].inclusion.path.levels[0].siblings[0]));
            CHECK(cz_bls12381_fr_eq(&a->labels[0].parents[36], &b->labels[0].parents[36]));
        }
        if (CHECK_EQ_INT(cz__porep_c1_write(&t2, &n2, &back, &ei), CZ_OK) && !envelope)
            CHECK(n2 == n1 && memcmp(t1, t2, n1) == 0);
        if (CHECK_EQ_INT(cz__porep_config_get(&cfg, back.registered_proof, NULL), CZ_OK) &&
            CHECK_EQ_INT(cz__porep_shape_get(&shape, cfg.sector_size, NULL), CZ_OK)) {
            cz__porep_id(porep_id, back.registered_proof);
            cz__porep_graph_init(&g, shape.nodes, porep_id, cfg.api_minor == 0);
            /* the first and the last partition (the others are read the same way) */
            for (unsigned k = 0;
                 k<back.npartitions; k += back.npartitions> 1 ? back.npartitions - 1 : 1)
                CHECK_EQ_INT(cz__porep_vanilla_check(&back, &shape, &g, k, NULL), CZ_OK);
        }
    } else {
        fprintf(stderr, "  %s\n", ei.msg);
    }
    cz__porep_c1_free(&back);
    free(t1);
    free(t2);
}

static void test_roundtrip_2k(void) {
    for (uint64_t id = 0; id <= 5; id += 5) {
        cz__porep_c1 c1;
        if (!porep_fixture_seal(&c1, id))
            return;
        roundtrip(&c1, 0);
        roundtrip(&c1, 1);
        cz__porep_c1_free(&c1);
    }
}

static void test_roundtrip_large(void) {
    const uint64_t ids[] = {8, 4}; /* 32 GiB V1_1 (Sub), 64 GiB V1 (Top) */
    for (int t = 0; t < 2; t++) {
        cz__porep_fake f;
        cz__porep_fake_sector s = {{1, 2, 3}, 77, {4}, {5}};
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        if (!CHECK_EQ_INT(cz__porep_fake_make(&f, ids[t], 0, 3, &s, &ei), CZ_OK)) {
            fprintf(stderr, "  %s\n", ei.msg);
            continue;
        }
        CHECK_EQ_INT(f.c1.npartitions, 10);
        roundtrip(&f.c1, t == 0);
        cz__porep_fake_free(&f);
    }
}

/* The bare text of a sealed 2 KiB C1 (malloc'd). */
static char *text_2k(size_t *n) {
    cz__porep_c1 c1;
    uint8_t *t = NULL;
    if (!porep_fixture_seal(&c1, 5))
        return NULL;
    if (!CHECK_EQ_INT(cz__porep_c1_write(&t, n, &c1, NULL), CZ_OK))
        t = NULL;
    cz__porep_c1_free(&c1);
    char *s = t != NULL ? realloc(t, *n + 1) : NULL; /* a C string */
    if (s == NULL) {
        free(t);
        return NULL;
    }
    s[*n] = 0;
    return s;
}

/* A copy of s with the first occurrence of from replaced by to. */
static char *replace(const char *s, const char *from, const char *to) {
    const char *at = strstr(s, from);
    if (!CHECK(at != NULL))
        return NULL;
    size_t n = strlen(s) - strlen(from) + strlen(to);
    char *r = malloc(n + 1);
    if (r == NULL)
        return NULL;
    memcpy(r, s, (size_t)(at - s));
    strcpy(r + (at - s), to);
    strcat(r, at + strlen(from));
    return r;
}

static void expect_fail(const char *s, int code, const char *needle) {
    cz__porep_c1 c1;
    cz_errinfo ei;
    if (s == NULL)
        return;
    CHECK_EQ_INT(read_text(&c1, NULL, s, strlen(s), &ei), code);
    if (!CHECK(strstr(ei.msg, needle) != NULL))
        fprintf(stderr, "  message \"%s\" lacks \"%s\"\n", ei.msg, needle);
    cz__porep_c1_free(&c1);
}

static void test_order_and_unknown_members(void) {
    size_t n;
    char *t = text_2k(&n), *reg_end, *moved;
    cz__porep_c1 c1;
    cz_errinfo ei;
    if (t == NULL)
        return;
    /* {"registered_proof":"X",REST} -> {"future":[..],REST,"registered_proof":"X"} */
    reg_end = strstr(t, "\",\"vanilla_proofs\"");
    if (CHECK(reg_end != NULL) && (moved = malloc(n + 64)) != NULL) {
        size_t reg_len = (size_t)(reg_end + 1 - (t + 1)); /* "registered_proof":"X" */
        strcpy(moved, "{\"future\":[1.5e3,true,\"q\\\"\",{\"a\":null}],");
        strncat(moved, reg_end + 2, n - (size_t)(reg_end + 2 - t) - 1); /* REST without '}' */
        strcat(moved, ",");
        strncat(moved, t + 1, reg_len);
        strcat(moved, "}");
        if (CHECK_EQ_INT(read_text(&c1, NULL, moved, strlen(moved), &ei), CZ_OK))
            CHECK_EQ_U64(c1.registered_proof, 5);
        else
            fprintf(stderr, "  %s\n", ei.msg);
        cz__porep_c1_free(&c1);
        free(moved);
    }
    free(t);
}

static void test_envelope_faults(void) {
    cz__porep_c1 c1, back;
    uint8_t *env = NULL;
    size_t n = 0;
    cz_errinfo ei;
    if (!porep_fixture_seal(&c1, 5))
        return;
    if (CHECK_EQ_INT(cz__porep_c1_write_envelope(&env, &n, &c1, 9, NULL), CZ_OK)) {
        char *s = malloc(n + 1), *bad, *slash;
        memcpy(s, env, n);
        s[n] = 0;
        /* "\/" is '/' (some writers escape it) */
        slash = strchr(strstr(s, "Phase1Out"), '/');
        if (slash != NULL) {
            char *esc = malloc(n + 2);
            memcpy(esc, s, (size_t)(slash - s));
            esc[slash - s] = '\\';
            strcpy(esc + (slash - s) + 1, slash);
            if (CHECK_EQ_INT(read_text(&back, NULL, esc, n + 1, &ei), CZ_OK))
                CHECK(cz_bls12381_fr_eq(&back.comm_r, &c1.comm_r));
            cz__porep_c1_free(&back);
            free(esc);
        }
        expect_fail((bad = replace(s, "\"SectorSize\":2048", "\"SectorSize\":8388608")), CZ_EINVAL,
                    "SectorSize 8388608");
        free(bad);
        expect_fail((bad = replace(s, "\"Phase1Out\":\"ey", "\"Phase1Out\":\"e*")), CZ_EFORMAT,
                    "base64");
        free(bad);
        expect_fail((bad = replace(s, "\"SectorSize\":2048", "\"Sector\":1")), CZ_EFORMAT,
                    "SectorSize");
        free(bad);
        for (size_t cut = 1; cut < n; cut += n / 50 + 1) { /* truncated in the base64 */
            CHECK(read_text(&back, NULL, s, cut, &ei) == CZ_EFORMAT);
            cz__porep_c1_free(&back);
        }
        free(s);
    }
    free(env);
    cz__porep_c1_free(&c1);
}

static void test_faults(void) {
    size_t n;
    char *t = text_2k(&n), *bad;
    cz__porep_c1 c1;
    cz_errinfo ei;
    if (t == NULL)
        return;
    for (size_t cut = 0; cut < n; cut += 97) { /* every truncation is a format error */
        if (!CHECK_EQ_INT(read_text(&c1, NULL, t, cut, &ei), CZ_EFORMAT) ||
            !CHECK(strstr(ei.msg, "offset") != NULL))
            fprintf(stderr, "  cut %zu: %s\n", cut, ei.msg);
        cz__porep_c1_free(&c1);
    }
    expect_fail((bad = replace(t, "StackedDrg2KiBV1_1\"", "StackedDrg2KiBV9\"")), CZ_EINVAL,
                "no PoRep proof");
    free(bad);
    expect_fail((bad = replace(t, "StackedDrg2KiBV1_1\"", "StackedDrg8MiBV1_1\"")), CZ_EINVAL,
                "8388608-byte sectors");
    free(bad);
    expect_fail((bad = replace(t, "\"comm_r\":[",
                               "\"comm_r\":[255,255,255,255,255,255,255,255,"
                               "255,255,255,255,255,255,255,255,255,255,255,"
                               "255,255,255,255,255,255,255,255,255,255,255,"
                               "255,255],\"x\":[")),
                CZ_ENONCANON, "below r");
    free(bad);
    /* one partition more: [[P,P]] -> [[P,P],[P,P]] */
    {
        const char *open = strstr(t, "\"StackedDrg2KiBV1\":[");
        const char *close = strstr(t, "]},\"comm_r\"");
        if (CHECK(open != NULL && close != NULL)) {
            const char *first = open + strlen("\"StackedDrg2KiBV1\":[");
            size_t plen = (size_t)(close - first);
            char *two = malloc(n + plen + 2);
            memcpy(two, t, (size_t)(close - t));
            two[close - t] = ',';
            memcpy(two + (close - t) + 1, first, plen);
            strcpy(two + (close - t) + 1 + plen, close);
            expect_fail(two, CZ_EFORMAT, "2 partitions");
            free(two);
        }
    }
    /* a malformed member inside the second proof is named by partition and proof */
    {
        const char *second = strstr(strstr(strstr(t, "\"comm_d_proofs\"") + 1, "\"comm_d_proofs\""),
                                    "\"layer_index\":");
        if (CHECK(second != NULL)) {
            char *b2 = strdup(t);
            b2[second - t + strlen("\"layer_index\":")] = '-';
            expect_fail(b2, CZ_EFORMAT, "partition 0, proof 1");
            free(b2);
        }
    }
    expect_fail("{}", CZ_EFORMAT, "empty");
    expect_fail("[1]", CZ_EFORMAT, "offset 0");
    expect_fail("{\"registered_proof\":\"StackedDrg2KiBV1\"}", CZ_EFORMAT, "no vanilla_proofs");
    free(t);
}

static const test_case cases[] = {{"roundtrip_2k", test_roundtrip_2k},
                                  {"roundtrip_large", test_roundtrip_large},
                                  {"order_and_unknown_members", test_order_and_unknown_members},
                                  {"envelope_faults", test_envelope_faults},
                                  {"faults", test_faults}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
