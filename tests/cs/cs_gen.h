/*
 * The cs tests' generated circuit: random rows over inputs, aux, booleans and products, satisfied
 * by construction, its values tracked by the generator itself (the oracle of the modes'
 * agreement), and the helpers the tests share.
 */
#ifndef CUZK_TESTS_CS_GEN_H
#define CUZK_TESTS_CS_GEN_H

#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"
#include "cuzk/field.h"

static inline cz_bls12381_fr fr(int64_t v) {
    cz_bls12381_fr r;
    cz_bls12381_fr_from_u64(&r, v < 0 ? (uint64_t)-v : (uint64_t)v);
    if (v < 0)
        cz_bls12381_fr_neg(&r, &r);
    return r;
}

static inline int fr_is(const cz_bls12381_fr *a, int64_t v) {
    cz_bls12381_fr b = fr(v);
    return cz_bls12381_fr_eq(a, &b);
}

static inline int bit(const uint64_t *d, size_t i) {
    return (int)((d[i / 64] >> (i % 64)) & 1u);
}

typedef struct {
    uint64_t s;
    cz__var *vars;
    cz_bls12381_fr *vals;
    size_t n;
} gen;

static inline uint64_t gen_next(gen *g) {
    g->s ^= g->s << 13;
    g->s ^= g->s >> 7;
    g->s ^= g->s << 17;
    return g->s;
}

static inline void gen_push(gen *g, cz__var v, const cz_bls12381_fr *val) {
    g->vars[g->n] = v;
    g->vals[g->n] = *val;
    g->n++;
}

/* lc = 1 to 4 random terms over the variables so far (coefficients -3..3, repeats merge), its
 * value into *val. */
static inline void gen_lc(gen *g, cz__lc *lc, cz_bls12381_fr *val) {
    unsigned nt = 1 + (unsigned)(gen_next(g) % 4);
    cz_bls12381_fr_zero(val);
    cz__lc_clear(lc);
    for (unsigned t = 0; t < nt; t++) {
        size_t i = gen_next(g) % g->n;
        int64_t k = (int64_t)(gen_next(g) % 7) - 3;
        cz_bls12381_fr kk = fr(k), p;
        cz__lc_add_i64(lc, g->vars[i], k);
        cz_bls12381_fr_mul(&p, &kk, &g->vals[i]);
        cz_bls12381_fr_add(val, val, &p);
        if (gen_next(g) % 5 == 0) /* a term that cancels */
            cz__lc_add_i64(lc, g->vars[i], 0);
    }
}

/* nrows rows: a fresh input (1 in 5), boolean (2 in 5, cz__cs_alloc_bit) or aux with a random
 * value, then A·B = t (+ x - x) with t a new aux holding the product. Uses ONE, the npre variables
 * pre of cs (values prevals) and its own; the structure depends on the seed only. */
static inline void gen_circuit_over(cz__cs *cs, uint64_t seed, unsigned nrows, const cz__var *pre,
                                    const cz_bls12381_fr *prevals, size_t npre) {
    gen g = {seed, NULL, NULL, 0};
    cz__lc a, b, c;
    cz_bls12381_fr one, va, vb, vt;
    g.vars = malloc((2 * nrows + 1 + npre) * sizeof *g.vars);
    g.vals = malloc((2 * nrows + 1 + npre) * sizeof *g.vals);
    if (g.vars == NULL || g.vals == NULL)
        abort();
    cz__lc_init(&a);
    cz__lc_init(&b);
    cz__lc_init(&c);
    cz_bls12381_fr_one(&one);
    gen_push(&g, CZ__VAR_ONE, &one);
    for (size_t i = 0; i < npre; i++)
        gen_push(&g, pre[i], &prevals[i]);
    for (unsigned r = 0; r < nrows; r++) {
        cz_bls12381_fr v = fr((int64_t)(gen_next(&g) % 1000));
        const unsigned kind = (unsigned)(gen_next(&g) % 5);
        if (kind == 0) {
            gen_push(&g, cz__cs_alloc_input(cs, &v), &v);
        } else if (kind <= 2) {
            const int bv = (int)(gen_next(&g) % 2);
            v = fr(bv);
            gen_push(&g, cz__cs_alloc_bit(cs, bv), &v);
        } else {
            gen_push(&g, cz__cs_alloc(cs, &v), &v);
        }
        gen_lc(&g, &a, &va);
        gen_lc(&g, &b, &vb);
        cz_bls12381_fr_mul(&vt, &va, &vb);
        cz__lc_clear(&c);
        cz__lc_add(&c, cz__cs_alloc(cs, &vt), NULL);
        gen_push(&g, c.t[0].var, &vt);
        if (r % 3 == 0) {
            cz__lc_add(&c, g.vars[r % g.n], NULL);
            cz__lc_sub(&c, g.vars[r % g.n], NULL);
        }
        cz__cs_enforce(cs, &a, &b, &c);
    }
    cz__lc_free(&a);
    cz__lc_free(&b);
    cz__lc_free(&c);
    free(g.vars);
    free(g.vals);
}

static inline void gen_circuit(cz__cs *cs, uint64_t seed, unsigned nrows) {
    gen_circuit_over(cs, seed, nrows, NULL, NULL, 0);
}

#endif
