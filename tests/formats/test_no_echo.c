/*
 * Errors about files name the file and the reason, never the file's contents: a client of the
 * daemon names a key path (and sends witness bytes), and an error message that quoted the bytes it
 * found would let it read files it cannot (a "/etc/shadow: magic is \"root\"" answer). Each reader
 * (.zkey, .wtns, .r1cs by path and from memory; proof.json, public.json, verification_key.json;
 * bellperson's .vk and .params and proof files) is given a file of secret-like text, and snarkjs
 * files whose field prime was replaced by secret bytes; the error must name the file and hold none
 * of those bytes: no 4 of them in a row, nor any 3 of them as hex (in either byte order, as a field
 * element would be printed).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/bellperson.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_json.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"
#include "formats_util.h"

static const char SECRET[] = "root:$6$Vq3Zk9Pw$XyLmNoRsTuQ:19522:0:::\nhunter2-Kx7Qz@GhJw\n";
/* At least 48 bytes for a field prime (the widest, BLS12-381's q); n8 of them are used. */
static const uint8_t SECRET_FIELD[] = "Kx7Qz!Vq3Zk9Pw#XyLmNoRsTuQ@hunterTWO&GhJwBfDcEa+YpSv";

static char dir[] = "/tmp/cuzk-no-echo-XXXXXX";
static char shadow[64];

/* The message with every occurrence of name removed (the file's own name may share letters). */
static void without_name(char *out, size_t cap, const char *msg, const char *name) {
    size_t o = 0, nl = strlen(name);
    for (const char *p = msg; *p != '\0' && o + 1 < cap;) {
        if (nl > 0 && strncmp(p, name, nl) == 0) {
            p += nl;
            continue;
        }
        out[o++] = *p++;
    }
    out[o] = '\0';
}

/* 1 when msg (less name) holds no 4 consecutive bytes of data and no 3 of them as hex. */
static int echoes_none(const char *msg, const char *name, const uint8_t *data, size_t n) {
    char m[CZ_ERRINFO_MSG_MAX];
    without_name(m, sizeof m, msg, name);
    for (size_t i = 0; i + 4 <= n; i++) {
        char w[5];
        memcpy(w, data + i, 4);
        w[4] = '\0';
        if (memchr(w, '\0', 4) == NULL && strstr(m, w) != NULL) {
            fprintf(stderr, "  message echoes \"%s\": %s\n", w, msg);
            return 0;
        }
    }
    for (size_t i = 0; i + 3 <= n; i++) {
        char fwd[7], rev[7];
        snprintf(fwd, sizeof fwd, "%02x%02x%02x", data[i], data[i + 1], data[i + 2]);
        snprintf(rev, sizeof rev, "%02x%02x%02x", data[i + 2], data[i + 1], data[i]);
        if (strstr(m, fwd) != NULL || strstr(m, rev) != NULL) {
            fprintf(stderr, "  message echoes bytes %zu.. as hex: %s\n", i, msg);
            return 0;
        }
    }
    return 1;
}

/* ei is cleared before each call: cz_fail keeps an earlier message as context. */
#define FRESH(call) (cz_errinfo_clear(&ei), (call))

static void write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL && fwrite(data, 1, n, f) == n);
    if (f != NULL)
        fclose(f);
}

/* A refused open: the expected code, the name in the message, none of data's bytes. */
static void expect_quiet(int rc, const cz_errinfo *ei, int code, const char *name,
                         const uint8_t *data, size_t n) {
    CHECK_ERR(rc, code);
    if (!CHECK(strstr(ei->msg, name) != NULL))
        fprintf(stderr, "  no \"%s\" in: %s\n", name, ei->msg);
    CHECK(echoes_none(ei->msg, name, data, n));
}

/* The three binary readers on a text file, by path and from memory. */
static void test_text_file(void) {
    const uint8_t *s = (const uint8_t *)SECRET;
    size_t n = sizeof SECRET - 1;
    cz_errinfo ei;
    cz_zkey *zk = NULL;
    cz_wtns *w = NULL;
    cz_r1cs_file *rf = NULL;
    expect_quiet(FRESH(cz_zkey_open(&zk, shadow, &ei)), &ei, CZ_EFORMAT, shadow, s, n);
    CHECK(strstr(ei.msg, "not a .zkey file") != NULL);
    expect_quiet(FRESH(cz_wtns_open(&w, shadow, &ei)), &ei, CZ_EFORMAT, shadow, s, n);
    CHECK(strstr(ei.msg, "not a .wtns file") != NULL);
    expect_quiet(FRESH(cz_r1cs_open(&rf, shadow, &ei)), &ei, CZ_EFORMAT, shadow, s, n);
    CHECK(strstr(ei.msg, "not a .r1cs file") != NULL);
    expect_quiet(FRESH(cz_zkey_open_mem(&zk, s, n, "client-key", &ei)), &ei, CZ_EFORMAT,
                 "client-key", s, n);
    expect_quiet(FRESH(cz_wtns_open_mem(&w, s, n, "client-witness", &ei)), &ei, CZ_EFORMAT,
                 "client-witness", s, n);
    expect_quiet(FRESH(cz_r1cs_open_mem(&rf, s, n, "client-r1cs", &ei)), &ei, CZ_EFORMAT,
                 "client-r1cs", s, n);
    CHECK(zk == NULL && w == NULL && rf == NULL);
    /* a text shorter than a header, and one of exactly the magic's length */
    expect_quiet(FRESH(cz_wtns_open_mem(&w, s, 4, "short", &ei)), &ei, CZ_EFORMAT, "short", s, 4);
    expect_quiet(FRESH(cz_wtns_open_mem(&w, s, 12, "header", &ei)), &ei, CZ_EFORMAT, "header", s,
                 12);
}

/* A real file whose field prime (at offset off, n8 bytes) is replaced by secret bytes. */
static void with_secret_field(const char *fixture, size_t off_in_header, const char *kind) {
    char path[256], out[96];
    size_t size;
    for (int c = 0; c < 2; c++) {
        fixture_path(path, sizeof path, fixture_curves[c], fixture);
        uint8_t *b = load_file(path, &size);
        size_t p = sect_payload(b, size, kind[0] == 'z' ? 2 : 1) + off_in_header;
        uint32_t n8 = get32(b + p - 4);
        if (!CHECK(n8 < sizeof SECRET_FIELD)) {
            free(b);
            continue;
        }
        memcpy(b + p, SECRET_FIELD, n8);
        snprintf(out, sizeof out, "%s/%s-%s", dir, fixture_curves[c], fixture);
        write_file(out, b, size);
        cz_errinfo ei;
        int rc;
        cz_errinfo_clear(&ei);
        if (kind[0] == 'z') {
            cz_zkey *zk = NULL;
            rc = cz_zkey_open(&zk, out, &ei);
        } else if (kind[0] == 'w') {
            cz_wtns *w = NULL;
            rc = cz_wtns_open(&w, out, &ei);
        } else {
            cz_r1cs_file *rf = NULL;
            rc = cz_r1cs_open(&rf, out, &ei);
        }
        expect_quiet(rc, &ei, CZ_ECURVE, out, SECRET_FIELD, n8);
        free(b);
    }
}

static void test_secret_prime(void) {
    with_secret_field("mulchain.zkey", 4, "zkey"); /* q after n8q */
    with_secret_field("mulchain.wtns", 4, "wtns"); /* the prime after n8 */
    with_secret_field("mulchain.r1cs", 4, "r1cs"); /* the prime after n8 */
}

/* zkey's r: the second field of its header, after n8q, q and n8r. */
static void test_secret_zkey_r(void) {
    char path[256], out[96];
    size_t size;
    fixture_path(path, sizeof path, "bn128", "mulchain.zkey");
    uint8_t *b = load_file(path, &size);
    size_t p = sect_payload(b, size, 2);
    uint32_t n8q = get32(b + p), n8r = get32(b + p + 4 + n8q);
    memcpy(b + p + 8 + n8q, SECRET_FIELD, n8r);
    snprintf(out, sizeof out, "%s/r.zkey", dir);
    write_file(out, b, size);
    cz_errinfo ei;
    cz_zkey *zk = NULL;
    expect_quiet(FRESH(cz_zkey_open(&zk, out, &ei)), &ei, CZ_ECURVE, out, SECRET_FIELD, n8r);
    free(b);
}

/* The JSON readers: a file that is not JSON, a value that is refused, a curve name. */
static void test_json(void) {
    const uint8_t *s = (const uint8_t *)SECRET;
    size_t n = sizeof SECRET - 1;
    cz_errinfo ei;
    cz_groth16_proof proof;
    cz_groth16_public pub;
    cz_groth16_vk vk;
    expect_quiet(FRESH(cz_groth16_proof_read_json(&proof, shadow, &ei)), &ei, CZ_EFORMAT, shadow, s,
                 n);
    CHECK(strstr(ei.msg, "not valid JSON") != NULL);
    expect_quiet(FRESH(cz_groth16_vk_read_json(&vk, shadow, &ei)), &ei, CZ_EFORMAT, shadow, s, n);
    expect_quiet(FRESH(cz_groth16_public_read_json(&pub, CZ_CURVE_BN254, shadow, &ei)), &ei,
                 CZ_EFORMAT, shadow, s, n);
    /* valid JSON up to a secret token: jansson's own message would quote it */
    static const char half[] = "{\"protocol\": hunter2Kx7Qz}";
    char path[96];
    snprintf(path, sizeof path, "%s/half.json", dir);
    write_file(path, half, sizeof half - 1);
    expect_quiet(FRESH(cz_groth16_proof_read_json(&proof, path, &ei)), &ei, CZ_EFORMAT, path,
                 (const uint8_t *)"hunter2Kx7Qz", 12);
    /* a public input that is not a number below r */
    static const char pubtext[] = "[\"1\", \"hunter2Kx7QzGhJw\"]";
    snprintf(path, sizeof path, "%s/public.json", dir);
    write_file(path, pubtext, sizeof pubtext - 1);
    int rc = FRESH(cz_groth16_public_read_json(&pub, CZ_CURVE_BN254, path, &ei));
    expect_quiet(rc, &ei, rc != CZ_OK ? rc : CZ_EFORMAT, path, (const uint8_t *)"hunter2Kx7QzGhJw",
                 16);
    CHECK(rc != CZ_OK && strstr(ei.msg, "[1]") != NULL);
    /* an unknown curve name */
    static const char curve[] = "{\"protocol\": \"groth16\", \"curve\": \"hunter2Kx7Qz\"}";
    snprintf(path, sizeof path, "%s/proof.json", dir);
    write_file(path, curve, sizeof curve - 1);
    expect_quiet(FRESH(cz_groth16_proof_read_json(&proof, path, &ei)), &ei, CZ_ECURVE, path,
                 (const uint8_t *)"hunter2Kx7Qz", 12);
}

/* The bellperson readers (.vk, .params, their walk, proof files), which have no magic number to
 * refuse a file by: a short text gives its size only; a long one (a whole number of proofs and of
 * 96-byte points, so that every reader gets past its size checks) is "not a key" or "not a file of
 * proofs", with nothing read from it named, no count, no offset a count leads to. */
/* 1 when msg holds no 4 bytes of data read as a big-endian count (bellperson's), in decimal. */
static int echoes_no_count(const char *msg, const uint8_t *data, size_t n) {
    for (size_t i = 0; i + 4 <= n; i++) {
        char d[16];
        uint32_t v = (uint32_t)data[i] << 24 | (uint32_t)data[i + 1] << 16 |
                     (uint32_t)data[i + 2] << 8 | data[i + 3];
        snprintf(d, sizeof d, "%u", v);
        if (v >= 10000 && strstr(msg, d) != NULL) {
            fprintf(stderr, "  message echoes bytes %zu.. as the count %s: %s\n", i, d, msg);
            return 0;
        }
    }
    return 1;
}

static void test_bellperson(void) {
    const uint8_t *s = (const uint8_t *)SECRET;
    size_t n = sizeof SECRET - 1, big_n = 21 * 192;
    uint8_t *big = malloc(big_n);
    for (size_t i = 0; i < big_n; i++)
        big[i] = s[i % n];
    char path[96];
    snprintf(path, sizeof path, "%s/shadow-long", dir);
    write_file(path, big, big_n);
    cz_errinfo ei;
    cz_bellperson_vk vk;
    cz_bellperson_params p;
    cz_bellperson_info info;
    cz_groth16_proof *pr = NULL;
    size_t np = 0;
    expect_quiet(FRESH(cz_bellperson_vk_read(&vk, shadow, NULL, &ei)), &ei, CZ_EFORMAT, shadow, s,
                 n);
    expect_quiet(FRESH(cz_bellperson_params_read(&p, shadow, NULL, &ei)), &ei, CZ_EFORMAT, shadow,
                 s, n);
    expect_quiet(FRESH(cz_bellperson_vk_read(&vk, path, NULL, &ei)), &ei, CZ_EFORMAT, path, big,
                 big_n);
    CHECK(strstr(ei.msg, "not a bellperson key") != NULL);
    expect_quiet(FRESH(cz_bellperson_params_read(&p, path, NULL, &ei)), &ei, CZ_EFORMAT, path, big,
                 big_n);
    CHECK(strstr(ei.msg, "not a bellperson key") != NULL);
    CHECK(echoes_no_count(ei.msg, big, big_n));
    expect_quiet(FRESH(cz_bellperson_info_read(&info, path, CZ_BELLPERSON_ANY, &ei)), &ei,
                 CZ_EFORMAT, path, big, big_n);
    CHECK(echoes_no_count(ei.msg, big, big_n));
    expect_quiet(FRESH(cz_bellperson_params_read_mem(&p, big, big_n, "client-params", NULL, &ei)),
                 &ei, CZ_EFORMAT, "client-params", big, big_n);
    expect_quiet(FRESH(cz_groth16_proofs_read(&pr, &np, CZ_CURVE_BLS12381, path, &ei)), &ei,
                 CZ_EFORMAT, path, big, big_n);
    CHECK(strstr(ei.msg, "not a file of bls12381 proofs") != NULL);
    expect_quiet(FRESH(cz_groth16_proofs_decode(&pr, &np, CZ_CURVE_BN254, big, 15 * 256,
                                                "client-proof", &ei)),
                 &ei, CZ_EFORMAT, "client-proof", big, 15 * 256);
    CHECK(pr == NULL && np == 0);
    free(big);
}

static int setup(void) {
    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(shadow, sizeof shadow, "%s/shadow", dir);
    write_file(shadow, SECRET, sizeof SECRET - 1);
    return 0;
}

static void teardown(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_EQ_INT(system(cmd), 0);
}

static const test_case cases[] = {
    {"text_file", test_text_file},         {"secret_prime", test_secret_prime},
    {"secret_zkey_r", test_secret_zkey_r}, {"json", test_json},
    {"bellperson", test_bellperson},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
