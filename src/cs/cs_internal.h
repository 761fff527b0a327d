/*
 * What the files of the cs layer share (cs.c, cs_record.c, cs_finish.c): the sticky error, the
 * doubling arrays, and the row recorder of RECORD.
 */
#ifndef CUZK_CS_CS_INTERNAL_H
#define CUZK_CS_CS_INTERNAL_H

#include <string.h>

#include "cs/cs.h"

/* *p holds at least need elements of elem bytes (capacity *cap, doubling); 0 on failure (the
 * system's error set, *p unchanged). */
int cz__cs_grow(cz__cs *cs, void **p, size_t *cap, size_t need, size_t elem, const char *what);
/* The same for three arrays of one capacity. */
int cz__cs_grow3(cz__cs *cs, void **p0, void **p1, void **p2, size_t *cap, size_t need, size_t elem,
                 const char *what);
/* b holds at least nbits bits, the new ones clear. */
int cz__cs_bits_grow(cz__cs *cs, cz__cs_bits *b, size_t nbits);
/* Whether v is allocated. */
int cz__cs_var_exists(const cz__cs *cs, cz__var v);

/* memcpy that allows n = 0 with NULL pointers (an array never grown). */
static inline void cz__cs_copy(void *d, const void *s, size_t n) {
    if (n != 0)
        memcpy(d, s, n);
}

/* RECORD: room for need + 1 row pointers in each matrix. */
int cz__cs_grow_rows(cz__cs *cs, size_t need);
/* RECORD: appends the row a · b = c (the terms with non-zero coefficients). */
void cz__cs_record_row(cz__cs *cs, const cz__lc *a, const cz__lc *b, const cz__lc *c);
/* RECORD: the index of coefficient k in the table, interned; UINT32_MAX on failure. */
uint32_t cz__cs_coef_index(cz__cs *cs, const cz_bls12381_fr *k);

#endif
