/*
 * AllocatedNum and pack_into_inputs (num.h).
 */
#include "gadgets/num.h"

#define FR_CAPACITY 254 /* bits that always fit an Fr (Scalar::CAPACITY) */

cz__num cz__num_alloc(cz__cs *cs, const cz_bls12381_fr *v) {
    cz__num n;
    if (v != NULL)
        n.value = *v;
    else
        cz_bls12381_fr_zero(&n.value);
    n.var = cz__cs_alloc(cs, &n.value);
    return n;
}

void cz__num_enforce_equal(cz__cs *cs, const cz__num *a, const cz__num *b) {
    cz__lc la, one, lb;
    if (!cz__cs_needs_lcs(cs)) { /* the row by its values */
        cz_bls12381_fr one_v;
        cz_bls12381_fr_one(&one_v);
        cz__cs_enforce_values(cs, &a->value, &one_v, &b->value);
        return;
    }
    cz__lc_init(&la);
    cz__lc_init(&one);
    cz__lc_init(&lb);
    cz__lc_add(&la, a->var, NULL);
    cz__lc_add(&one, CZ__VAR_ONE, NULL);
    cz__lc_add(&lb, b->var, NULL);
    cz__cs_enforce(cs, &la, &one, &lb);
    cz__lc_free(&la);
    cz__lc_free(&one);
    cz__lc_free(&lb);
}

void cz__num_inputize(cz__cs *cs, const cz__num *n) {
    cz__num x;
    x.var = cz__cs_alloc_input(cs, &n->value);
    x.value = n->value;
    cz__num_enforce_equal(cs, &x, n); /* input·ONE = n */
}

void cz__num_to_bits_le(cz__cs *cs, cz__bool out[255], const cz__num *n) {
    cz__bit bits[255];
    cz__lc z1, z2, c;
    cz_bls12381_fr coeff;
    cz__fr_into_bits_le(cs, bits, &n->value);
    if (!cz__cs_needs_lcs(cs)) { /* 0·0 = Σ 2^i·b_i - n: the bits are n's */
        for (int i = 0; i < 255; i++)
            out[i] = cz__bool_is(bits[i]);
        cz__cs_enforce_small(cs, 0, 0, 0);
        return;
    }
    cz__lc_init(&z1);
    cz__lc_init(&z2);
    cz__lc_init(&c);
    cz_bls12381_fr_one(&coeff);
    for (int i = 0; i < 255; i++) {
        cz__lc_add(&c, bits[i].var, &coeff);
        cz_bls12381_fr_dbl(&coeff, &coeff);
        out[i] = cz__bool_is(bits[i]);
    }
    cz__lc_sub(&c, n->var, NULL);
    cz__cs_enforce(cs, &z1, &z2, &c);
    cz__lc_free(&z1);
    cz__lc_free(&z2);
    cz__lc_free(&c);
}

/* (Σ 2^i·b_i)·ONE = x for the n bits at bits, x a new input or aux variable of that value (into
 * *out when out is not NULL). */
static cz__var pack_chunk(cz__cs *cs, const cz__bool *bits, size_t n, int input,
                          cz_bls12381_fr *out) {
    cz__lc num, one, x_lc;
    cz_bls12381_fr coeff, value, t;
    cz__var x;
    if (!cz__cs_needs_lcs(cs)) { /* the row by its values: Σ 2^i·b_i < 2^254 < r */
        uint8_t le[32] = {0};
        for (size_t i = 0; i < n; i++)
            le[i / 8] |= (uint8_t)(cz__bool_value(&bits[i]) << (i % 8));
        cz_bls12381_fr_from_bytes_le(&value, le);
        x = input ? cz__cs_alloc_input(cs, &value) : cz__cs_alloc(cs, &value);
        cz_bls12381_fr_one(&t);
        cz__cs_enforce_values(cs, &value, &t, &value);
        if (out != NULL)
            *out = value;
        return x;
    }
    cz__lc_init(&num);
    cz__lc_init(&one);
    cz__lc_init(&x_lc);
    cz_bls12381_fr_one(&coeff);
    cz_bls12381_fr_zero(&value);
    for (size_t i = 0; i < n; i++) {
        cz__bool_lc_add(&num, &bits[i], &coeff);
        if (cz__bool_value(&bits[i])) {
            t = coeff;
            cz_bls12381_fr_add(&value, &value, &t);
        }
        cz_bls12381_fr_dbl(&coeff, &coeff);
    }
    x = input ? cz__cs_alloc_input(cs, &value) : cz__cs_alloc(cs, &value);
    cz__lc_add(&one, CZ__VAR_ONE, NULL);
    cz__lc_add(&x_lc, x, NULL);
    cz__cs_enforce(cs, &num, &one, &x_lc);
    cz__lc_free(&num);
    cz__lc_free(&one);
    cz__lc_free(&x_lc);
    if (out != NULL)
        *out = value;
    return x;
}

cz__num cz__pack_bits(cz__cs *cs, const cz__bool *bits, size_t nbits) {
    cz__num r;
    r.var = pack_chunk(cs, bits, nbits < FR_CAPACITY ? nbits : FR_CAPACITY, 0, &r.value);
    return r;
}

void cz__pack_into_inputs(cz__cs *cs, const cz__bool *bits, size_t nbits) {
    for (size_t at = 0; at < nbits; at += FR_CAPACITY)
        pack_chunk(cs, &bits[at], nbits - at < FR_CAPACITY ? nbits - at : FR_CAPACITY, 1, NULL);
}

void cz__num_into_bits(cz__cs *cs, cz__bit *out, const cz__num *n, unsigned nbits) {
    uint8_t le[32];
    cz__lc sum, one, c;
    cz_bls12381_fr coeff;
    cz_bls12381_fr_to_bytes_le(le, &n->value);
    for (unsigned i = 0; i < nbits; i++)
        out[i] = cz__bit_alloc(cs, (le[i / 8] >> (i % 8)) & 1);
    if (!cz__cs_needs_lcs(cs)) { /* the row by its values: the bits are n's */
        cz_bls12381_fr one_v;
        cz_bls12381_fr_one(&one_v);
        cz__cs_enforce_values(cs, &n->value, &one_v, &n->value);
        return;
    }
    cz__lc_init(&sum);
    cz__lc_init(&one);
    cz__lc_init(&c);
    cz_bls12381_fr_one(&coeff);
    for (unsigned i = 0; i < nbits; i++) {
        cz__lc_add(&sum, out[i].var, &coeff);
        cz_bls12381_fr_dbl(&coeff, &coeff);
    }
    cz__lc_add(&one, CZ__VAR_ONE, NULL);
    cz__lc_add(&c, n->var, NULL);
    cz__cs_enforce(cs, &sum, &one, &c);
    cz__lc_free(&sum);
    cz__lc_free(&one);
    cz__lc_free(&c);
}

cz__num cz__num_mul(cz__cs *cs, const cz__num *a, const cz__num *b) {
    cz__num r;
    cz__lc la, lb, lc;
    cz_bls12381_fr_mul(&r.value, &a->value, &b->value);
    r.var = cz__cs_alloc(cs, &r.value);
    if (!cz__cs_needs_lcs(cs)) {
        cz__cs_enforce_values(cs, &a->value, &b->value, &r.value);
        return r;
    }
    cz__lc_init(&la);
    cz__lc_init(&lb);
    cz__lc_init(&lc);
    cz__lc_add(&la, a->var, NULL);
    cz__lc_add(&lb, b->var, NULL);
    cz__lc_add(&lc, r.var, NULL);
    cz__cs_enforce(cs, &la, &lb, &lc);
    cz__lc_free(&la);
    cz__lc_free(&lb);
    cz__lc_free(&lc);
    return r;
}
