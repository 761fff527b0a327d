/*
 * Reads tests/vectors/out/curve_vectors.txt (written by tests/vectors/curve_vectors.mjs with
 * @noble/curves) and hands each record, split on spaces, to a callback. A missing file is a
 * failed check, not a skip: run the vector script before ctest.
 */
#ifndef CUZK_TESTS_CURVE_VECTORS_H
#define CUZK_TESTS_CURVE_VECTORS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

#define CURVE_VECTORS_PATH "tests/vectors/out/curve_vectors.txt"
#define CURVE_VECTORS_MAXF 8

typedef void (*curve_vector_fn)(char **f, int nf);

/* Returns the number of records read (0 when the file is missing, which fails a check). */
static inline size_t curve_vectors_each(curve_vector_fn fn) {
    static char line[16384];
    size_t n = 0;
    FILE *fp = fopen(CURVE_VECTORS_PATH, "r");
    if (!CHECK(fp != NULL)) {
        fprintf(stderr, "missing %s: run node tests/vectors/curve_vectors.mjs tests/vectors/out\n",
                CURVE_VECTORS_PATH);
        return 0;
    }
    while (fgets(line, sizeof line, fp)) {
        char *f[CURVE_VECTORS_MAXF], *save = NULL;
        int nf = 0;
        for (char *t = strtok_r(line, " \n", &save); t && nf < CURVE_VECTORS_MAXF;
             t = strtok_r(NULL, " \n", &save))
            f[nf++] = t;
        if (nf > 0) {
            fn(f, nf);
            n++;
        }
    }
    fclose(fp);
    return n;
}

/* SplitMix64: the deterministic stream behind every "random" scalar of the C tests. */
static inline uint64_t curve_rand64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#endif
