/*
 * AllocatedBit and Boolean (boolean.h): each function allocates its result first and then
 * enforces its one constraint, with the combinations written term by term in bellpepper's order
 * (the order does not change the recorded row, the merging does: a + a is 2a).
 */
#include <string.h>

#include "gadgets/boolean.h"

/* One constraint from three LCs built by the caller, then freed. */
static void enforce_free(cz__cs *cs, cz__lc *a, cz__lc *b, cz__lc *c) {
    cz__cs_enforce(cs, a, b, c);
    cz__lc_free(a);
    cz__lc_free(b);
    cz__lc_free(c);
}

static void lcs_init(cz__lc *a, cz__lc *b, cz__lc *c) {
    cz__lc_init(a);
    cz__lc_init(b);
    cz__lc_init(c);
}

cz__bit cz__bit_alloc(cz__cs *cs, int v) {
    cz__bit r;
    cz__lc a, b, c;
    r.var = cz__cs_alloc_bit(cs, v != 0);
    r.value = v != 0;
    if (!cz__cs_needs_lcs(cs)) {
        cz__cs_enforce_small(cs, 1 - r.value, r.value, 0);
        return r;
    }
    lcs_init(&a, &b, &c);
    cz__lc_add(&a, CZ__VAR_ONE, NULL);
    cz__lc_sub(&a, r.var, NULL);
    cz__lc_add(&b, r.var, NULL);
    enforce_free(cs, &a, &b, &c); /* (1 - r)·r = 0 */
    return r;
}

/* A new variable of value v (the result of a two-bit operation). */
static cz__bit bit_result(cz__cs *cs, int v) {
    cz__bit r;
    r.var = cz__cs_alloc_bit(cs, v);
    r.value = v;
    return r;
}

cz__bit cz__bit_xor(cz__cs *cs, const cz__bit *x, const cz__bit *y) {
    cz__bit r = bit_result(cs, x->value ^ y->value);
    cz__lc a, b, c;
    if (!cz__cs_needs_lcs(cs)) {
        cz__cs_enforce_small(cs, 2 * x->value, y->value, x->value + y->value - r.value);
        return r;
    }
    lcs_init(&a, &b, &c);
    cz__lc_add(&a, x->var, NULL);
    cz__lc_add(&a, x->var, NULL);
    cz__lc_add(&b, y->var, NULL);
    cz__lc_add(&c, x->var, NULL);
    cz__lc_add(&c, y->var, NULL);
    cz__lc_sub(&c, r.var, NULL);
    enforce_free(cs, &a, &b, &c); /* (x + x)·y = x + y - r */
    return r;
}

cz__bit cz__bit_and(cz__cs *cs, const cz__bit *x, const cz__bit *y) {
    cz__bit r = bit_result(cs, x->value & y->value);
    cz__lc a, b, c;
    if (!cz__cs_needs_lcs(cs)) {
        cz__cs_enforce_small(cs, x->value, y->value, r.value);
        return r;
    }
    lcs_init(&a, &b, &c);
    cz__lc_add(&a, x->var, NULL);
    cz__lc_add(&b, y->var, NULL);
    cz__lc_add(&c, r.var, NULL);
    enforce_free(cs, &a, &b, &c); /* x·y = r */
    return r;
}

cz__bit cz__bit_and_not(cz__cs *cs, const cz__bit *x, const cz__bit *y) {
    cz__bit r = bit_result(cs, x->value & !y->value);
    cz__lc a, b, c;
    if (!cz__cs_needs_lcs(cs)) {
        cz__cs_enforce_small(cs, x->value, 1 - y->value, r.value);
        return r;
    }
    lcs_init(&a, &b, &c);
    cz__lc_add(&a, x->var, NULL);
    cz__lc_add(&b, CZ__VAR_ONE, NULL);
    cz__lc_sub(&b, y->var, NULL);
    cz__lc_add(&c, r.var, NULL);
    enforce_free(cs, &a, &b, &c); /* x·(1 - y) = r */
    return r;
}

cz__bit cz__bit_nor(cz__cs *cs, const cz__bit *x, const cz__bit *y) {
    cz__bit r = bit_result(cs, !x->value & !y->value);
    cz__lc a, b, c;
    if (!cz__cs_needs_lcs(cs)) {
        cz__cs_enforce_small(cs, 1 - x->value, 1 - y->value, r.value);
        return r;
    }
    lcs_init(&a, &b, &c);
    cz__lc_add(&a, CZ__VAR_ONE, NULL);
    cz__lc_sub(&a, x->var, NULL);
    cz__lc_add(&b, CZ__VAR_ONE, NULL);
    cz__lc_sub(&b, y->var, NULL);
    cz__lc_add(&c, r.var, NULL);
    enforce_free(cs, &a, &b, &c); /* (1 - x)·(1 - y) = r */
    return r;
}

cz__bool cz__bool_const(int v) {
    cz__bool b;
    memset(&b, 0, sizeof b);
    b.kind = CZ__BOOL_CONST;
    b.constant = v != 0;
    return b;
}

cz__bool cz__bool_is(cz__bit bit) {
    cz__bool b;
    memset(&b, 0, sizeof b);
    b.kind = CZ__BOOL_IS;
    b.bit = bit;
    return b;
}

cz__bool cz__bool_not(const cz__bool *b) {
    cz__bool r = *b;
    if (b->kind == CZ__BOOL_CONST)
        r.constant = !b->constant;
    else
        r.kind = b->kind == CZ__BOOL_IS ? CZ__BOOL_NOT : CZ__BOOL_IS;
    return r;
}

int cz__bool_value(const cz__bool *b) {
    switch (b->kind) {
    case CZ__BOOL_CONST:
        return b->constant;
    case CZ__BOOL_IS:
        return b->bit.value;
    default:
        return !b->bit.value;
    }
}

void cz__bool_lc_add(cz__lc *lc, const cz__bool *b, const cz_bls12381_fr *coeff) {
    switch (b->kind) {
    case CZ__BOOL_CONST:
        if (b->constant)
            cz__lc_add(lc, CZ__VAR_ONE, coeff);
        break;
    case CZ__BOOL_IS:
        cz__lc_add(lc, b->bit.var, coeff);
        break;
    default:
        cz__lc_add(lc, CZ__VAR_ONE, coeff);
        cz__lc_sub(lc, b->bit.var, coeff);
        break;
    }
}

cz__bool cz__bool_xor(cz__cs *cs, const cz__bool *a, const cz__bool *b) {
    if (a->kind == CZ__BOOL_CONST || b->kind == CZ__BOOL_CONST) {
        const cz__bool *k = a->kind == CZ__BOOL_CONST ? a : b, *x = k == a ? b : a;
        return k->constant ? cz__bool_not(x) : *x;
    }
    if (a->kind != b->kind) { /* a ^ not b = not (a ^ b) */
        cz__bit r = cz__bit_xor(cs, a->kind == CZ__BOOL_IS ? &a->bit : &b->bit,
                                a->kind == CZ__BOOL_IS ? &b->bit : &a->bit);
        cz__bool rb = cz__bool_is(r);
        return cz__bool_not(&rb);
    }
    return cz__bool_is(cz__bit_xor(cs, &a->bit, &b->bit)); /* not a ^ not b = a ^ b */
}

cz__bool cz__bool_and(cz__cs *cs, const cz__bool *a, const cz__bool *b) {
    if (a->kind == CZ__BOOL_CONST || b->kind == CZ__BOOL_CONST) {
        const cz__bool *k = a->kind == CZ__BOOL_CONST ? a : b, *x = k == a ? b : a;
        return k->constant ? *x : cz__bool_const(0);
    }
    if (a->kind == CZ__BOOL_IS && b->kind == CZ__BOOL_NOT)
        return cz__bool_is(cz__bit_and_not(cs, &a->bit, &b->bit));
    if (a->kind == CZ__BOOL_NOT && b->kind == CZ__BOOL_IS)
        return cz__bool_is(cz__bit_and_not(cs, &b->bit, &a->bit));
    if (a->kind == CZ__BOOL_NOT)
        return cz__bool_is(cz__bit_nor(cs, &a->bit, &b->bit));
    return cz__bool_is(cz__bit_and(cs, &a->bit, &b->bit));
}

cz__bool cz__bool_or(cz__cs *cs, const cz__bool *a, const cz__bool *b) {
    cz__bool na = cz__bool_not(a), nb = cz__bool_not(b), r = cz__bool_and(cs, &na, &nb);
    return cz__bool_not(&r);
}

static int is_const(const cz__bool *b, int v) {
    return b->kind == CZ__BOOL_CONST && b->constant == v;
}

/* A new bit of value v, as a Boolean. */
static cz__bool bool_result(cz__cs *cs, int v) {
    return cz__bool_is(bit_result(cs, v));
}

/* not (x and y) */
static cz__bool nand(cz__cs *cs, const cz__bool *x, const cz__bool *y) {
    cz__bool r = cz__bool_and(cs, x, y);
    return cz__bool_not(&r);
}

cz__bool cz__bool_sha256_ch(cz__cs *cs, const cz__bool *a, const cz__bool *b, const cz__bool *c) {
    const int va = cz__bool_value(a), vb = cz__bool_value(b), vc = cz__bool_value(c);
    const int v = (va & vb) ^ ((!va) & vc);
    cz__bool na = cz__bool_not(a), nb = cz__bool_not(b), nc = cz__bool_not(c), r;
    cz__lc la, lb, lc;
    cz_bls12381_fr minus_one;
    if (a->kind == CZ__BOOL_CONST && b->kind == CZ__BOOL_CONST && c->kind == CZ__BOOL_CONST)
        return cz__bool_const(v);
    if (is_const(a, 0))
        return *c;
    if (is_const(b, 0))
        return cz__bool_and(cs, &na, c);
    if (is_const(c, 0))
        return cz__bool_and(cs, a, b);
    if (is_const(c, 1))
        return nand(cs, a, &nb);
    if (is_const(b, 1))
        return nand(cs, &na, &nc);
    /* a true, or no constant: (b - c)·a = ch - c */
    r = bool_result(cs, v);
    if (!cz__cs_needs_lcs(cs)) {
        cz__cs_enforce_small(cs, vb - vc, va, v - vc);
        return r;
    }
    cz_bls12381_fr_one(&minus_one);
    cz_bls12381_fr_neg(&minus_one, &minus_one);
    lcs_init(&la, &lb, &lc);
    cz__bool_lc_add(&la, b, NULL);
    cz__bool_lc_add(&la, c, &minus_one);
    cz__bool_lc_add(&lb, a, NULL);
    cz__lc_add(&lc, r.bit.var, NULL);
    cz__bool_lc_add(&lc, c, &minus_one);
    enforce_free(cs, &la, &lb, &lc);
    return r;
}

cz__bool cz__bool_sha256_maj(cz__cs *cs, const cz__bool *a, const cz__bool *b, const cz__bool *c) {
    const int va = cz__bool_value(a), vb = cz__bool_value(b), vc = cz__bool_value(c);
    const int v = (va & vb) ^ (va & vc) ^ (vb & vc);
    cz__bool na = cz__bool_not(a), nb = cz__bool_not(b), nc = cz__bool_not(c), r, bc;
    cz__lc la, lb, lc;
    cz_bls12381_fr minus_one;
    if (a->kind == CZ__BOOL_CONST && b->kind == CZ__BOOL_CONST && c->kind == CZ__BOOL_CONST)
        return cz__bool_const(v);
    if (is_const(a, 0))
        return cz__bool_and(cs, b, c);
    if (is_const(b, 0))
        return cz__bool_and(cs, a, c);
    if (is_const(c, 0))
        return cz__bool_and(cs, a, b);
    if (is_const(c, 1))
        return nand(cs, &na, &nb);
    if (is_const(b, 1))
        return nand(cs, &na, &nc);
    if (is_const(a, 1))
        return nand(cs, &nb, &nc);
    /* maj first, then bc = b and c, then (2bc - b - c)·a = bc - maj */
    r = bool_result(cs, v);
    bc = cz__bool_and(cs, b, c);
    if (!cz__cs_needs_lcs(cs)) {
        const int vbc = cz__bool_value(&bc);
        cz__cs_enforce_small(cs, 2 * vbc - vb - vc, va, vbc - v);
        return r;
    }
    cz_bls12381_fr_one(&minus_one);
    cz_bls12381_fr_neg(&minus_one, &minus_one);
    lcs_init(&la, &lb, &lc);
    cz__bool_lc_add(&la, &bc, NULL);
    cz__bool_lc_add(&la, &bc, NULL);
    cz__bool_lc_add(&la, b, &minus_one);
    cz__bool_lc_add(&la, c, &minus_one);
    cz__bool_lc_add(&lb, a, NULL);
    cz__bool_lc_add(&lc, &bc, NULL);
    cz__lc_sub(&lc, r.bit.var, NULL);
    enforce_free(cs, &la, &lb, &lc);
    return r;
}

void cz__bool_enforce_equal(cz__cs *cs, const cz__bool *a, const cz__bool *b) {
    cz__lc z1, z2, c;
    if (a->kind == CZ__BOOL_CONST && b->kind == CZ__BOOL_CONST) {
        if (a->constant != b->constant)
            cz__cs_fail(cs, CZ_EVERIFY, "enforce_equal of the constants %d and %d", a->constant,
                        b->constant);
        return;
    }
    if (!cz__cs_needs_lcs(cs)) {
        const cz__bool *k = a->kind == CZ__BOOL_CONST ? a : b, *x = k == a ? b : a;
        const int vx = cz__bool_value(x);
        cz__cs_enforce_small(cs, 0, 0,
                             k->kind != CZ__BOOL_CONST ? cz__bool_value(a) - cz__bool_value(b)
                             : k->constant             ? 1 - vx
                                                       : vx);
        return;
    }
    lcs_init(&z1, &z2, &c);
    if (a->kind == CZ__BOOL_CONST || b->kind == CZ__BOOL_CONST) {
        const cz__bool *k = a->kind == CZ__BOOL_CONST ? a : b, *x = k == a ? b : a;
        if (k->constant) { /* 0·0 = 1 - x */
            cz__lc x_lc;
            cz__lc_init(&x_lc);
            cz__bool_lc_add(&x_lc, x, NULL);
            cz__lc_add(&c, CZ__VAR_ONE, NULL);
            cz__lc_sub_lc(&c, &x_lc, NULL);
            cz__lc_free(&x_lc);
        } else { /* 0·0 = x */
            cz__bool_lc_add(&c, x, NULL);
        }
    } else { /* 0·0 = a - b */
        cz__lc b_lc;
        cz__lc_init(&b_lc);
        cz__bool_lc_add(&c, a, NULL);
        cz__bool_lc_add(&b_lc, b, NULL);
        cz__lc_sub_lc(&c, &b_lc, NULL);
        cz__lc_free(&b_lc);
    }
    enforce_free(cs, &z1, &z2, &c);
}

size_t cz__bool_reverse_bytes(cz__bool *out, const cz__bool *in, size_t n) {
    const size_t padded = (n + 7) / 8 * 8;
    for (size_t i = 0; i < padded; i++) {
        const size_t from = i / 8 * 8 + 7 - i % 8;
        out[i] = from < n ? in[from] : cz__bool_const(0);
    }
    return padded;
}

void cz__u64_into_bits_le(cz__cs *cs, cz__bool out[64], uint64_t v) {
    for (int i = 0; i < 64; i++)
        out[i] = cz__bool_is(cz__bit_alloc(cs, (int)((v >> i) & 1u)));
}

void cz__fr_into_bits_le(cz__cs *cs, cz__bit out[255], const cz_bls12381_fr *v) {
    uint8_t le[32];
    memset(le, 0, sizeof le);
    if (v != NULL)
        cz_bls12381_fr_to_bytes_le(le, v);
    for (int i = 0; i < 255; i++)
        out[i] = cz__bit_alloc(cs, (le[i / 8] >> (i % 8)) & 1);
}
