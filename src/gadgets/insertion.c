/*
 * pick, select and insert (insertion.h).
 */
#include <stdlib.h>

#include "gadgets/insertion.h"

cz__num cz__pick(cz__cs *cs, const cz__bool *cond, const cz__num *a, const cz__num *b) {
    cz__num c = cz__num_alloc(cs, cz__bool_value(cond) ? &a->value : &b->value);
    cz__lc la, lb, lc;
    if (!cz__cs_needs_lcs(cs)) { /* the row by its values: cond, a and b may be another system's */
        cz_bls12381_fr va, vb, vc;
        cz_bls12381_fr_sub(&va, &b->value, &a->value);
        cz_bls12381_fr_from_u64(&vb, (uint64_t)cz__bool_value(cond));
        cz_bls12381_fr_sub(&vc, &b->value, &c.value);
        cz__cs_enforce_values(cs, &va, &vb, &vc);
        return c;
    }
    cz__lc_init(&la);
    cz__lc_init(&lb);
    cz__lc_init(&lc);
    cz__lc_add(&la, b->var, NULL);
    cz__lc_sub(&la, a->var, NULL);
    cz__bool_lc_add(&lb, cond, NULL);
    cz__lc_add(&lc, b->var, NULL);
    cz__lc_sub(&lc, c.var, NULL);
    cz__cs_enforce(cs, &la, &lb, &lc); /* (b - a)·cond = b - c */
    cz__lc_free(&la);
    cz__lc_free(&lb);
    cz__lc_free(&lc);
    return c;
}

cz__num cz__select(cz__cs *cs, const cz__num *from, const cz__bool *bits, unsigned nbits) {
    const size_t n = (size_t)1 << nbits;
    cz__num *state = malloc(n * sizeof *state), r;
    if (state == NULL) {
        cz__cs_fail(cs, CZ_ENOMEM, "select: %zu elements", n);
        return from[0];
    }
    for (size_t i = 0; i < n; i++)
        state[i] = from[i];
    for (size_t half = n / 2, k = 0; half >= 1; half /= 2, k++) {
        const cz__bool *bit = &bits[nbits - 1 - k];
        for (size_t j = 0; j < half; j++)
            state[j] = cz__pick(cs, bit, &state[half + j], &state[j]);
    }
    r = state[0];
    free(state);
    return r;
}

static void insert_2(cz__cs *cs, cz__num *out, const cz__num *a, const cz__bool *bits,
                     const cz__num *e) {
    out[0] = cz__pick(cs, &bits[0], &e[0], a);
    out[1] = cz__pick(cs, &bits[0], a, &e[0]);
}

static void insert_4(cz__cs *cs, cz__num *out, const cz__num *a, const cz__bool *bits,
                     const cz__num *e) {
    const cz__bool *b0 = &bits[0], *b1 = &bits[1];
    const cz__num *b = &e[0], *c = &e[1], *d = &e[2];
    cz__num t;
    t = cz__pick(cs, b0, b, a); /* p0_x0 */
    out[0] = cz__pick(cs, b1, b, &t);
    t = cz__pick(cs, b0, a, b); /* p1_x0 */
    out[1] = cz__pick(cs, b1, c, &t);
    t = cz__pick(cs, b0, d, a); /* p2_x1 */
    out[2] = cz__pick(cs, b1, &t, c);
    t = cz__pick(cs, b0, a, d); /* p3_x1 */
    out[3] = cz__pick(cs, b1, &t, d);
}

static void insert_8(cz__cs *cs, cz__num *out, const cz__num *a, const cz__bool *bits,
                     const cz__num *e) {
    const cz__bool *b0 = &bits[0], *b1 = &bits[1], *b2 = &bits[2];
    const cz__num *b = &e[0], *c = &e[1], *d = &e[2], *ee = &e[3], *f = &e[4], *g = &e[5],
                  *h = &e[6];
    cz__bool nor01, and01;
    cz__num t, u;
    if (b0->kind != CZ__BOOL_IS || b1->kind != CZ__BOOL_IS) {
        cz__cs_fail(cs, CZ_EINVAL, "insert_8: the bits must be allocated and not negated");
        for (int i = 0; i < 8; i++)
            out[i] = *a;
        return;
    }
    nor01 = cz__bool_is(cz__bit_nor(cs, &b0->bit, &b1->bit));
    and01 = cz__bool_is(cz__bit_and(cs, &b0->bit, &b1->bit));
    t = cz__pick(cs, &nor01, a, b); /* p0_xx0 */
    out[0] = cz__pick(cs, b2, b, &t);
    t = cz__pick(cs, b0, a, b); /* p1_x00 */
    u = cz__pick(cs, b1, c, &t);
    out[1] = cz__pick(cs, b2, c, &u);
    t = cz__pick(cs, b0, d, a); /* p2_x10 */
    u = cz__pick(cs, b1, &t, c);
    out[2] = cz__pick(cs, b2, d, &u);
    t = cz__pick(cs, &and01, a, d); /* p3_xx0 */
    out[3] = cz__pick(cs, b2, ee, &t);
    t = cz__pick(cs, &nor01, a, f); /* p4_xx1 */
    out[4] = cz__pick(cs, b2, &t, ee);
    t = cz__pick(cs, b0, a, f); /* p5_x01 */
    u = cz__pick(cs, b1, g, &t);
    out[5] = cz__pick(cs, b2, &u, f);
    t = cz__pick(cs, b0, h, a); /* p6_x11 */
    u = cz__pick(cs, b1, &t, g);
    out[6] = cz__pick(cs, b2, &u, g);
    t = cz__pick(cs, &and01, a, h); /* p7_xx1 */
    out[7] = cz__pick(cs, b2, &t, h);
}

void cz__insert(cz__cs *cs, cz__num *out, const cz__num *element, const cz__bool *bits,
                unsigned nbits, const cz__num *elements) {
    const size_t size = (size_t)1 << nbits;
    cz__num *choices;
    if (nbits == 1) {
        insert_2(cs, out, element, bits, elements);
        return;
    }
    if (nbits == 2) {
        insert_4(cs, out, element, bits, elements);
        return;
    }
    if (nbits == 3) {
        insert_8(cs, out, element, bits, elements);
        return;
    }
    if ((choices = malloc(size * sizeof *choices)) == NULL) {
        cz__cs_fail(cs, CZ_ENOMEM, "insert: %zu elements", size);
        return;
    }
    /* position pos of the result for insertion index i: elements[pos] before i, element at i,
     * elements[pos - 1] after */
    for (size_t pos = 0; pos < size; pos++) {
        for (size_t i = 0; i < size; i++)
            choices[i] = pos < i ? elements[pos] : pos == i ? *element : elements[pos - 1];
        out[pos] = cz__select(cs, choices, bits, nbits);
    }
    free(choices);
}
