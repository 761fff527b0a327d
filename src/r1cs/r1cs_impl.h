/*
 * The curve-specific half of src/r1cs/r1cs.c, written once and instantiated per curve by including
 * this file after defining CURVE (bn254 or bls12381): row evaluation and the satisfaction check
 * over the inline Fr arithmetic of field/field.h. Coefficient indices R1CS_ONE and R1CS_MINUS_ONE
 * are recognised by value (an add or a subtraction); any other coefficient costs one product.
 */
#include "field/cz_macros.h"

#define I(name) CZ_CAT3(CURVE, _, name)

typedef CZ_CAT3(cz_, CURVE, _fr) I(r1cs_fr);

/* Σ coef·w over the terms [lo, hi) of m. kind[] classifies each coefficient: 1 = +1, 2 = -1. */
static inline void I(r1cs_dot)(I(r1cs_fr) * out, const cz_r1cs *cs, const cz_r1cs_mat *m,
                               const uint8_t *kind, uint64_t lo, uint64_t hi) {
    const I(r1cs_fr) *w = (const I(r1cs_fr) *)(const void *)cs->w;
    const I(r1cs_fr) *co = (const I(r1cs_fr) *)(const void *)cs->coefs;
    I(r1cs_fr) acc, t;
    I(fr_set_zero)(&acc);
    for (uint64_t k = lo; k < hi; k++) {
        uint32_t ci = m->coef[k];
        const I(r1cs_fr) *v = &w[m->var[k]];
        if (kind[ci] == 1) {
            I(fr_add)(&acc, &acc, v);
        } else if (kind[ci] == 2) {
            I(fr_sub)(&acc, &acc, v);
        } else {
            I(fr_mul)(&t, &co[ci], v);
            I(fr_add)(&acc, &acc, &t);
        }
    }
    *out = acc;
}

static void I(r1cs_eval_task)(void *arg, size_t task) {
    struct eval_ctx *x = arg;
    const cz_r1cs *cs = x->cs;
    size_t lo = task * x->chunk, hi = lo + x->chunk;
    if (hi > x->domain)
        hi = x->domain;
    uint64_t(*outs[3])[4] = {x->a, x->b, x->c};
    const cz_r1cs_mat *mats[3] = {&cs->a, &cs->b, &cs->c};
    for (int m = 0; m < 3; m++) {
        I(r1cs_fr) *o = (I(r1cs_fr) *)(void *)outs[m];
        if (o == NULL)
            continue;
        for (size_t i = lo; i < hi; i++) {
            if (i < cs->nrows) {
                I(r1cs_dot)
                (&o[i], cs, mats[m], x->kind, mats[m]->row_ptr[i], mats[m]->row_ptr[i + 1]);
            } else if (m == 0 && x->input_rows && i - cs->nrows <= cs->npublic) {
                memcpy(&o[i], cs->w[i - cs->nrows], sizeof o[i]);
            } else {
                I(fr_set_zero)(&o[i]);
            }
        }
    }
}

static void I(r1cs_check_task)(void *arg, size_t task) {
    struct eval_ctx *x = arg;
    const cz_r1cs *cs = x->cs;
    size_t lo = task * x->chunk, hi = lo + x->chunk;
    if (hi > cs->nrows)
        hi = cs->nrows;
    for (size_t i = lo; i < hi; i++) {
        I(r1cs_fr) a, b, c, ab;
        I(r1cs_dot)(&a, cs, &cs->a, x->kind, cs->a.row_ptr[i], cs->a.row_ptr[i + 1]);
        I(r1cs_dot)(&b, cs, &cs->b, x->kind, cs->b.row_ptr[i], cs->b.row_ptr[i + 1]);
        I(r1cs_dot)(&c, cs, &cs->c, x->kind, cs->c.row_ptr[i], cs->c.row_ptr[i + 1]);
        I(fr_mul)(&ab, &a, &b);
        if (!I(fr_eq)(&ab, &c)) {
            x->bad[task] = (uint32_t)i;
            return;
        }
    }
}

#undef I
