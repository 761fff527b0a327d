/*
 * Helpers shared by the tests of the snarkjs readers: fixture paths, whole-file loading, a tiny
 * independent walk over the iden3 container (to build malformed files), GMP decimal conversion
 * of little-endian limbs, and checks on error messages.
 *
 * The fixtures come from tests/vectors/formats_vectors.mjs (run it before ctest):
 *   tests/vectors/out/formats/<bn128|bls12381>/mulchain.{r1cs,wtns,zkey} and {r1cs,wtns,zkey}.json
 */
#ifndef CUZK_TESTS_FORMATS_UTIL_H
#define CUZK_TESTS_FORMATS_UTIL_H

#include <gmp.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "test.h"

#define FIXTURE_DIR "tests/vectors/out/formats/"

static const char *const fixture_curves[2] = {"bn128", "bls12381"};

static inline void fixture_path(char *out, size_t len, const char *curve, const char *file) {
    snprintf(out, len, FIXTURE_DIR "%s/%s", curve, file);
}

/* Loads a whole file; exits the test (failure, not skip) when it is missing. */
static inline uint8_t *load_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr,
                "missing fixture %s: run node tests/vectors/formats_vectors.mjs "
                "tests/vectors/out first\n",
                path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static inline json_t *load_json(const char *path) {
    json_error_t jerr;
    json_t *j = json_load_file(path, 0, &jerr);
    if (j == NULL) {
        fprintf(stderr, "cannot load %s: %s (line %d)\n", path, jerr.text, jerr.line);
        exit(1);
    }
    return j;
}

static inline uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t get64(const uint8_t *p) {
    return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}
static inline void set32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline void set64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Offset of the 12-byte header of the first section with this id in a well-formed file, or 0. */
static inline size_t sect_header(const uint8_t *buf, size_t size, uint32_t id) {
    size_t pos = 12;
    uint32_t n = get32(buf + 8);
    for (uint32_t i = 0; i < n && pos + 12 <= size; i++) {
        if (get32(buf + pos) == id)
            return pos;
        pos += 12 + (size_t)get64(buf + pos + 4);
    }
    return 0;
}

/* Offset of the payload of section id (must exist). */
static inline size_t sect_payload(const uint8_t *buf, size_t size, uint32_t id) {
    size_t h = sect_header(buf, size, id);
    if (h == 0) {
        fprintf(stderr, "fixture has no section %u\n", id);
        exit(1);
    }
    return h + 12;
}

/* A copy of buf with section id appended once more at the end (a duplicated section). */
static inline uint8_t *with_duplicate(const uint8_t *buf, size_t size, uint32_t id,
                                      size_t *out_size) {
    size_t h = sect_header(buf, size, id);
    size_t len = 12 + (size_t)get64(buf + h + 4);
    uint8_t *out = malloc(size + len);
    memcpy(out, buf, size);
    memcpy(out + size, buf + h, len);
    set32(out + 8, get32(buf + 8) + 1);
    *out_size = size + len;
    return out;
}

/* A copy of buf with an extra section (id, payload) at the end. */
static inline uint8_t *with_extra(const uint8_t *buf, size_t size, uint32_t id,
                                  const uint8_t *payload, size_t plen, size_t *out_size) {
    uint8_t *out = malloc(size + 12 + plen + 1);
    memcpy(out, buf, size);
    set32(out + size, id);
    set64(out + size + 4, plen);
    if (plen)
        memcpy(out + size + 12, payload, plen);
    set32(out + 8, get32(buf + 8) + 1);
    *out_size = size + 12 + plen;
    return out;
}

/* Decimal string of nlimbs little-endian 64-bit limbs (GMP, independent of cuzk's field code). */
static inline void limbs_dec(char *out, size_t outlen, const uint64_t *limbs, size_t nlimbs) {
    mpz_t z;
    mpz_init(z);
    mpz_import(z, nlimbs, -1, sizeof(uint64_t), 0, 0, limbs);
    if (mpz_sizeinbase(z, 10) + 2 <= outlen)
        mpz_get_str(out, 10, z);
    else
        snprintf(out, outlen, "?");
    mpz_clear(z);
}

/* Decimal of (limbs · R^-k) mod m, R = 2^(64·nlimbs): Montgomery values to plain (GMP). */
static inline void mont_dec(char *out, size_t outlen, const uint64_t *limbs, size_t nlimbs,
                            const char *mod_dec, int k) {
    mpz_t z, m, r;
    mpz_inits(z, m, r, NULL);
    mpz_import(z, nlimbs, -1, sizeof(uint64_t), 0, 0, limbs);
    mpz_set_str(m, mod_dec, 10);
    mpz_set_ui(r, 1);
    mpz_mul_2exp(r, r, 64 * nlimbs);
    mpz_invert(r, r, m);
    for (int i = 0; i < k; i++) {
        mpz_mul(z, z, r);
        mpz_mod(z, z, m);
    }
    if (mpz_sizeinbase(z, 10) + 2 <= outlen)
        mpz_get_str(out, 10, z);
    else
        snprintf(out, outlen, "?");
    mpz_clears(z, m, r, NULL);
}

static inline int json_str_eq(const json_t *j, const char *s) {
    return json_is_string(j) && strcmp(json_string_value(j), s) == 0;
}

/* 1 when ei carries code and its message mentions needle. Prints the message either way when
 * CZ_TEST_VERBOSE is set, and on mismatch. */
static inline int err_is(const cz_errinfo *ei, int rc, int code, const char *needle) {
    int ok = rc == code && ei->code == code && strstr(ei->msg, needle) != NULL;
    if (!ok || getenv("CZ_TEST_VERBOSE"))
        fprintf(stderr, "  [%s] rc=%s want %s: %s\n", ok ? "ok" : "MISMATCH", cz_err_name(rc),
                cz_err_name(code), ei->msg);
    return ok;
}

#endif
