/*
 * Helpers shared by the tests of the bellperson readers: the fixtures of
 * tests/vectors/bellperson_vectors.mjs (tests/vectors/out/bellperson/: small.vk, small.params,
 * nob.params, proofs.bin and bellperson.json, written by @noble/curves), point comparison with
 * noble's decimal coordinates through GMP (independent of cuzk's field code), points made with
 * the curve API, hex, and a temporary directory.
 */
#ifndef CUZK_TESTS_BELLPERSON_UTIL_H
#define CUZK_TESTS_BELLPERSON_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/bellperson.h"
#include "cuzk/curve.h"
#include "formats_util.h"

#define BP_DIR "tests/vectors/out/bellperson/"
#define BP_DEC 200

static inline void bp_path(char *out, size_t n, const char *file) {
    snprintf(out, n, BP_DIR "%s", file);
}

static json_t *bp_json;  /* bellperson.json, loaded by bp_setup */
static const char *bp_p; /* its decimal p */
static char bp_tmp[] = "/tmp/cuzk-bellperson-XXXXXX";

static inline int bp_setup(void) {
    char path[256];
    bp_path(path, sizeof path, "bellperson.json");
    bp_json = load_json(path);
    bp_p = json_string_value(json_object_get(bp_json, "p"));
    return bp_p != NULL && mkdtemp(bp_tmp) != NULL ? 0 : 1;
}

static inline void bp_teardown(void) {
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", bp_tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", bp_tmp);
    json_decref(bp_json);
}

static inline void bp_tmp_path(char *out, size_t n, const char *file) {
    snprintf(out, n, "%s/%s", bp_tmp, file);
}

/* json[key] (a path of keys separated by '.'), or NULL. */
static inline json_t *bp_get(const char *keys) {
    char buf[128];
    json_t *j = bp_json;
    snprintf(buf, sizeof buf, "%s", keys);
    for (char *k = strtok(buf, "."); k != NULL && j != NULL; k = strtok(NULL, "."))
        j = json_object_get(j, k);
    return j;
}

/* 1 when the n Montgomery Fp elements at fp (6 limbs each) are the decimals of arr[0..n-1]. */
static inline int bp_fp_eq(const uint64_t *fp, size_t n, json_t *arr) {
    if (!json_is_array(arr) || json_array_size(arr) != n)
        return 0;
    for (size_t k = 0; k < n; k++) {
        char d[BP_DEC];
        mont_dec(d, sizeof d, fp + 6 * k, 6, bp_p, 1);
        if (!json_str_eq(json_array_get(arr, k), d))
            return 0;
    }
    return 1;
}

/* A G1 point against noble's [x, y]; G2 against [x.c0, x.c1, y.c0, y.c1] (Fp2 = c0, c1 in
 * memory, so the limbs are in that order). */
static inline int bp_g1_eq(const cz_bls12381_g1_affine *p, json_t *xy) {
    return bp_fp_eq((const uint64_t *)p, 2, xy);
}
static inline int bp_g2_eq(const cz_bls12381_g2_affine *p, json_t *xy) {
    return bp_fp_eq((const uint64_t *)p, 4, xy);
}

/* How many of the n points differ from the JSON array of coordinates (n must be its size). */
static inline size_t bp_g1_diff(const cz_bls12381_g1_affine *p, size_t n, json_t *arr) {
    size_t bad = json_array_size(arr) == n ? 0 : n + 1;
    for (size_t i = 0; i < n && bad <= n; i++)
        bad += !bp_g1_eq(&p[i], json_array_get(arr, i));
    return bad;
}
static inline size_t bp_g2_diff(const cz_bls12381_g2_affine *p, size_t n, json_t *arr) {
    size_t bad = json_array_size(arr) == n ? 0 : n + 1;
    for (size_t i = 0; i < n && bad <= n; i++)
        bad += !bp_g2_eq(&p[i], json_array_get(arr, i));
    return bad;
}

/* hex (2·n digits) into n bytes; 0 on a bad digit or length. */
static inline int bp_unhex(uint8_t *out, size_t n, const char *hex) {
    return hex != NULL && test_unhex(out, n, hex) == (int)n;
}

/* n points of the subgroup: [k0]G, [k0 + step]G, ... (Jacobian additions, one inversion). */
static inline void bp_make_g1(cz_bls12381_g1_affine *out, size_t n, uint64_t k0, uint64_t step) {
    cz_bls12381_g1_affine g;
    cz_bls12381_g1_jacobian gj, p, q, *t = malloc((n ? n : 1) * sizeof *t);
    cz_bls12381_g1_generator(&g);
    cz_bls12381_g1_from_affine(&gj, &g);
    cz_bls12381_g1_mul_limbs(&p, &gj, &k0, 1);
    cz_bls12381_g1_mul_limbs(&q, &gj, &step, 1);
    for (size_t i = 0; i < n; i++) {
        t[i] = p;
        cz_bls12381_g1_add(&p, &p, &q);
    }
    cz_bls12381_g1_batch_to_affine(out, t, n);
    free(t);
}
static inline void bp_make_g2(cz_bls12381_g2_affine *out, size_t n, uint64_t k0, uint64_t step) {
    cz_bls12381_g2_affine g;
    cz_bls12381_g2_jacobian gj, p, q, *t = malloc((n ? n : 1) * sizeof *t);
    cz_bls12381_g2_generator(&g);
    cz_bls12381_g2_from_affine(&gj, &g);
    cz_bls12381_g2_mul_limbs(&p, &gj, &k0, 1);
    cz_bls12381_g2_mul_limbs(&q, &gj, &step, 1);
    for (size_t i = 0; i < n; i++) {
        t[i] = p;
        cz_bls12381_g2_add(&p, &p, &q);
    }
    cz_bls12381_g2_batch_to_affine(out, t, n);
    free(t);
}

/* Writes n bytes to path; 1 on success. */
static inline int bp_write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    int ok = f != NULL && fwrite(data, 1, n, f) == n;
    if (f != NULL && fclose(f) != 0)
        ok = 0;
    return ok;
}

/* An allocator that counts, so a test sees what a reader allocated and gave back. */
typedef struct bp_counting {
    int allocs, frees;
    size_t live;              /* bytes allocated and not yet freed */
    int filled, filled_early; /* filled calls; of them, on a buffer still as allocated */
    size_t filled_bytes;
} bp_counting;

/* Buffers start as 0xa5 bytes, so filled can tell whether the reader wrote them first. */
static inline void *bp_count_alloc(void *arg, size_t bytes) {
    bp_counting *c = arg;
    void *p = malloc(bytes);
    c->allocs++;
    c->live += bytes;
    if (p != NULL)
        memset(p, 0xa5, bytes);
    return p;
}

static inline void bp_count_filled(void *arg, void *p, size_t bytes) {
    static const uint8_t fresh[8] = {0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5};
    bp_counting *c = arg;
    c->filled++;
    c->filled_bytes += bytes;
    c->filled_early += bytes >= 8 && memcmp(p, fresh, 8) == 0;
}

static inline void bp_count_free(void *arg, void *p, size_t bytes) {
    bp_counting *c = arg;
    c->frees++;
    c->live -= bytes;
    free(p);
}

#endif
