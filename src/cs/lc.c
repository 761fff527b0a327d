/*
 * Linear combinations with bellpepper's merging (cs.h): a sorted array of (coefficient,
 * variable), one entry per variable; an insertion finds its place by the last written position
 * (consecutive variables) or a binary search, then adds into the entry or inserts one.
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"

void cz__lc_init(cz__lc *lc) {
    memset(lc, 0, sizeof *lc);
}

void cz__lc_free(cz__lc *lc) {
    if (lc == NULL)
        return;
    free(lc->t);
    memset(lc, 0, sizeof *lc);
}

void cz__lc_clear(cz__lc *lc) {
    lc->n = 0;
    lc->last = 0;
    lc->failed = 0;
}

/* Room for one more term; 0 (and lc marked failed) when there is none. */
static int lc_reserve(cz__lc *lc) {
    uint32_t cap;
    cz__lc_term *t;
    if (lc->n < lc->cap)
        return 1;
    cap = lc->cap ? 2 * lc->cap : 4;
    if (cap < lc->cap || (t = realloc(lc->t, (size_t)cap * sizeof *t)) == NULL) {
        lc->failed = 1;
        return 0;
    }
    lc->t = t;
    lc->cap = cap;
    return 1;
}

/* The position of v in lc (found: *hit = 1) or where it would go. */
static uint32_t lc_find(const cz__lc *lc, cz__var v, int *hit) {
    uint32_t lo = 0, hi = lc->n;
    if (lc->n > 0 && lc->last < lc->n) {
        uint32_t p = lc->last;
        if (lc->t[p].var == v) {
            *hit = 1;
            return p;
        }
        /* the next variable after the last write: no search */
        if (lc->t[p].var < v && (p + 1 == lc->n || lc->t[p + 1].var >= v)) {
            *hit = p + 1 < lc->n && lc->t[p + 1].var == v;
            return p + 1;
        }
    }
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (lc->t[mid].var < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    *hit = lo < lc->n && lc->t[lo].var == v;
    return lo;
}

void cz__lc_add(cz__lc *lc, cz__var v, const cz_bls12381_fr *coeff) {
    cz_bls12381_fr one;
    int hit = 0;
    uint32_t p;
    if (coeff == NULL) {
        cz_bls12381_fr_one(&one);
        coeff = &one;
    }
    p = lc_find(lc, v, &hit);
    if (hit) {
        cz_bls12381_fr_add(&lc->t[p].coeff, &lc->t[p].coeff, coeff);
    } else {
        if (!lc_reserve(lc))
            return;
        memmove(&lc->t[p + 1], &lc->t[p], (size_t)(lc->n - p) * sizeof *lc->t);
        lc->t[p].coeff = *coeff;
        lc->t[p].var = v;
        lc->n++;
    }
    lc->last = p;
}

void cz__lc_sub(cz__lc *lc, cz__var v, const cz_bls12381_fr *coeff) {
    cz_bls12381_fr neg;
    if (coeff == NULL)
        cz_bls12381_fr_one(&neg);
    else
        neg = *coeff;
    cz_bls12381_fr_neg(&neg, &neg);
    cz__lc_add(lc, v, &neg);
}

void cz__lc_add_i64(cz__lc *lc, cz__var v, int64_t c) {
    cz_bls12381_fr k;
    uint64_t mag = c < 0 ? (uint64_t)0 - (uint64_t)c : (uint64_t)c;
    cz_bls12381_fr_from_u64(&k, mag);
    if (c < 0)
        cz_bls12381_fr_neg(&k, &k);
    cz__lc_add(lc, v, &k);
}

/* lc += sign·scale·other. */
static void lc_add_scaled(cz__lc *lc, const cz__lc *other, const cz_bls12381_fr *scale, int neg) {
    if (other->failed)
        lc->failed = 1;
    for (uint32_t i = 0; i < other->n; i++) {
        cz_bls12381_fr k = other->t[i].coeff;
        if (scale != NULL)
            cz_bls12381_fr_mul(&k, &k, scale);
        if (neg)
            cz_bls12381_fr_neg(&k, &k);
        cz__lc_add(lc, other->t[i].var, &k);
    }
}

void cz__lc_add_lc(cz__lc *lc, const cz__lc *other, const cz_bls12381_fr *scale) {
    lc_add_scaled(lc, other, scale, 0);
}

void cz__lc_sub_lc(cz__lc *lc, const cz__lc *other, const cz_bls12381_fr *scale) {
    lc_add_scaled(lc, other, scale, 1);
}

void cz__lc_copy(cz__lc *lc, const cz__lc *other) {
    cz__lc_clear(lc);
    lc_add_scaled(lc, other, NULL, 0);
}
