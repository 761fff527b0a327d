/*
 * cz_r1cs_from_file (cuzk/r1cs_file.h): a circom constraint system, and optionally its witness,
 * as the in-memory cz_r1cs that the provers and the bellperson-format setup take.
 *
 * Wires keep their numbers: wire 0 is variable 0 (ONE), circom's public wires 1 .. nPubOut +
 * nPubIn are the public inputs, and the remaining wires are the aux variables in the same order.
 * Coefficients are deduplicated with an open-addressing hash table over their standard-form
 * limbs, so the cz_r1cs coefficient table holds each distinct value once (circom circuits use a
 * few thousand distinct values for millions of terms); the table is sized by the distinct values
 * found in a first pass over the terms, the second pass fills the CSR arrays. Memory beyond the
 * result: the distinct values and a hash table of twice their count (about 40 bytes per distinct
 * value).
 */
#include "cuzk/r1cs_file.h"

#include <stdlib.h>
#include <string.h>

/* The distinct coefficients and the hash table that finds them: slot = index + 1, 0 = empty. */
typedef struct coef_set {
    uint64_t (*vals)[4];
    size_t nvals, cap_vals;
    uint32_t *slots;
    size_t nslots; /* a power of two, at least twice nvals */
} coef_set;

static size_t coef_hash(const uint64_t v[4]) {
    uint64_t h = v[0] ^ (v[1] * 0x9e3779b97f4a7c15ULL) ^ (v[2] * 0xc2b2ae3d27d4eb4fULL) ^
                 (v[3] * 0x165667b19e3779f9ULL);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return (size_t)(h ^ (h >> 32));
}

/* The slot that holds v, or the empty slot where it belongs. */
static size_t coef_slot(const coef_set *s, const uint64_t v[4]) {
    size_t mask = s->nslots - 1, i = coef_hash(v) & mask;
    while (s->slots[i] != 0 && memcmp(s->vals[s->slots[i] - 1], v, 32) != 0)
        i = (i + 1) & mask;
    return i;
}

/* Doubles the hash table; the values keep their indices. */
static int coef_grow(coef_set *s) {
    size_t n = s->nslots ? 2 * s->nslots : 1024;
    uint32_t *old = s->slots;
    size_t nold = s->nslots;
    s->slots = calloc(n, sizeof *s->slots);
    if (s->slots == NULL) {
        s->slots = old;
        return CZ_ENOMEM;
    }
    s->nslots = n;
    for (size_t i = 0; i < nold; i++)
        if (old[i] != 0)
            s->slots[coef_slot(s, s->vals[old[i] - 1])] = old[i];
    free(old);
    return CZ_OK;
}

/* Adds v to the set unless it is there. CZ_ENOMEM, CZ_ERANGE past 2^32 - 1 values. */
static int coef_add(coef_set *s, const uint64_t v[4]) {
    if (2 * (s->nvals + 1) > s->nslots && coef_grow(s) != CZ_OK)
        return CZ_ENOMEM;
    size_t i = coef_slot(s, v);
    if (s->slots[i] != 0)
        return CZ_OK;
    if (s->nvals == UINT32_MAX - 1)
        return CZ_ERANGE;
    if (s->nvals == s->cap_vals) {
        size_t cap = s->cap_vals ? 2 * s->cap_vals : 256;
        void *p = realloc(s->vals, cap * sizeof *s->vals);
        if (p == NULL)
            return CZ_ENOMEM;
        s->vals = p;
        s->cap_vals = cap;
    }
    memcpy(s->vals[s->nvals], v, 32);
    s->slots[i] = (uint32_t)++s->nvals;
    return CZ_OK;
}

/* Fills one matrix's CSR arrays from the matching LC of every constraint. */
static void fill_matrix(cz_r1cs_mat *mt, const cz_r1cs_file *f, int which, const coef_set *s) {
    uint64_t t = 0;
    for (uint32_t i = 0; i < f->nconstraints; i++) {
        const cz_r1cs_constraint *c = &f->constraints[i];
        const cz_r1cs_lc *lc = which == 0 ? &c->a : which == 1 ? &c->b : &c->c;
        for (size_t k = 0; k < lc->nterms; k++, t++) {
            mt->var[t] = lc->terms[k].wire;
            mt->coef[t] = s->slots[coef_slot(s, lc->terms[k].coef)] - 1;
        }
        mt->row_ptr[i + 1] = t;
    }
}

/* Checks that w is a witness of f: same field, one value per wire, value 0 equal to 1. */
static int check_witness(const cz_r1cs_file *f, const cz_wtns *w, cz_errinfo *ei) {
    static const uint64_t one[4] = {1, 0, 0, 0};
    if (w->curve != f->curve)
        return cz_fail(ei, CZ_ECURVE, "r1cs: the witness is over %s but the circuit over %s",
                       cz_curve_name(w->curve), cz_curve_name(f->curve));
    if (w->nwitness != f->nwires)
        return cz_fail(ei, CZ_EFORMAT, "r1cs: the witness has %u values but the circuit %u wires",
                       w->nwitness, f->nwires);
    if (memcmp(w->values, one, sizeof one) != 0)
        return cz_fail(ei, CZ_EFORMAT, "r1cs: witness value 0 (the constant ONE) is not 1");
    return CZ_OK;
}

int cz_r1cs_from_file(cz_r1cs *cs, const cz_r1cs_file *f, const cz_wtns *w, cz_errinfo *ei) {
    uint32_t npublic = f->npub_out + f->npub_in;
    uint64_t nnz[3] = {0, 0, 0};
    coef_set s = {0};
    int rc = CZ_OK;

    memset(cs, 0, sizeof *cs);
    if ((uint64_t)npublic + 1 > f->nwires) {
        rc = cz_fail(ei, CZ_EFORMAT, "r1cs: %u public wires but only %u wires", npublic, f->nwires);
        goto out;
    }
    if (w != NULL && (rc = check_witness(f, w, ei)) != CZ_OK)
        goto out;
    for (uint32_t i = 0; i < f->nconstraints && rc == CZ_OK; i++) {
        const cz_r1cs_lc *lcs[3] = {&f->constraints[i].a, &f->constraints[i].b,
                                    &f->constraints[i].c};
        for (int m = 0; m < 3 && rc == CZ_OK; m++) {
            nnz[m] += lcs[m]->nterms;
            for (size_t k = 0; k < lcs[m]->nterms && rc == CZ_OK; k++)
                rc = coef_add(&s, lcs[m]->terms[k].coef);
        }
    }
    if (rc == CZ_ERANGE) {
        rc = cz_fail(ei, rc, "r1cs: more than 2^32 - 2 distinct coefficients");
        goto out;
    }
    if (rc != CZ_OK) {
        rc = cz_fail(ei, rc, "r1cs: out of memory for the coefficient table");
        goto out;
    }
    rc = cz_r1cs_alloc(cs, f->curve, npublic, f->nwires - 1 - npublic, f->nconstraints, nnz,
                       (uint32_t)s.nvals, ei);
    if (rc != CZ_OK)
        goto out;
    for (size_t i = 0; i < s.nvals && rc == CZ_OK; i++)
        if (cz_r1cs_coef_set(cs, (uint32_t)i, s.vals[i]) != CZ_OK)
            rc = cz_fail(ei, CZ_ENONCANON, "r1cs: a coefficient is not below r");
    for (uint32_t v = 1; w != NULL && v < f->nwires && rc == CZ_OK; v++)
        if (cz_r1cs_fr_from_std(cs->w[v], f->curve, w->values + (size_t)v * CZ_WTNS_LIMBS) != CZ_OK)
            rc = cz_fail(ei, CZ_ENONCANON, "r1cs: witness value %u is not below r", v);
    if (rc != CZ_OK)
        goto out;
    fill_matrix(&cs->a, f, 0, &s);
    fill_matrix(&cs->b, f, 1, &s);
    fill_matrix(&cs->c, f, 2, &s);

out:
    free(s.vals);
    free(s.slots);
    if (rc != CZ_OK)
        cz_r1cs_free(cs);
    return rc;
}
