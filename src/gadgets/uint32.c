/*
 * UInt32 and MultiEq (uint32.h).
 */
#include <string.h>

#include "gadgets/uint32.h"

#define FR_CAPACITY 254 /* bits that always fit an Fr (Scalar::CAPACITY) */

void cz__multieq_init(cz__multieq *m, cz__cs *cs) {
    m->cs = cs;
    m->bits_used = 0;
    memset(m->acc, 0, sizeof m->acc);
    cz__lc_init(&m->lhs);
    cz__lc_init(&m->rhs);
}

/* lhs·ONE = rhs, and a fresh start (MultiEq::accumulate). */
static void multieq_flush(cz__multieq *m) {
    cz__lc one;
    if (!cz__cs_needs_lcs(m->cs)) { /* the row by its values: acc < 2^254 < r */
        uint8_t le[32];
        cz_bls12381_fr v, one_v;
        for (int i = 0; i < 32; i++)
            le[i] = (uint8_t)(m->acc[i / 8] >> (8 * (i % 8)));
        cz_bls12381_fr_from_bytes_le(&v, le);
        cz_bls12381_fr_one(&one_v);
        cz__cs_enforce_values(m->cs, &v, &one_v, &v);
        memset(m->acc, 0, sizeof m->acc);
        m->bits_used = 0;
        return;
    }
    cz__lc_init(&one);
    cz__lc_add(&one, CZ__VAR_ONE, NULL);
    cz__cs_enforce(m->cs, &m->lhs, &one, &m->rhs);
    cz__lc_free(&one);
    cz__lc_clear(&m->lhs);
    cz__lc_clear(&m->rhs);
    m->bits_used = 0;
}

void cz__multieq_enforce_equal(cz__multieq *m, unsigned nbits, const cz__lc *lhs,
                               const cz__lc *rhs) {
    cz_bls12381_fr two, coeff;
    uint64_t e;
    if (m->bits_used + nbits >= FR_CAPACITY)
        multieq_flush(m);
    if (nbits >= FR_CAPACITY) {
        cz__cs_fail(m->cs, CZ_EINVAL, "multieq: an equality of %u bits", nbits);
        return;
    }
    cz_bls12381_fr_from_u64(&two, 2);
    e = m->bits_used;
    cz_bls12381_fr_pow(&coeff, &two, &e, 1);
    cz__lc_add_lc(&m->lhs, lhs, &coeff);
    cz__lc_add_lc(&m->rhs, rhs, &coeff);
    m->bits_used += nbits;
}

void cz__multieq_enforce_value(cz__multieq *m, unsigned nbits, uint64_t value) {
    unsigned at, w, sh;
    if (m->bits_used + nbits >= FR_CAPACITY)
        multieq_flush(m);
    if (nbits >= 64) {
        cz__cs_fail(m->cs, CZ_EINVAL, "multieq: an equality of %u bits", nbits);
        return;
    }
    at = m->bits_used; /* acc += value << at, at + nbits < 254 */
    w = at / 64;
    sh = at % 64;
    m->acc[w] += value << sh;
    if (m->acc[w] < value << sh) /* carry */
        for (unsigned k = w + 1; k < 4 && ++m->acc[k] == 0; k++)
            ;
    if (sh != 0 && w + 1 < 4) {
        const uint64_t hi = value >> (64 - sh);
        m->acc[w + 1] += hi;
        if (m->acc[w + 1] < hi)
            for (unsigned k = w + 2; k < 4 && ++m->acc[k] == 0; k++)
                ;
    }
    m->bits_used += nbits;
}

void cz__multieq_finish(cz__multieq *m) {
    if (m->bits_used > 0)
        multieq_flush(m);
    cz__lc_free(&m->lhs);
    cz__lc_free(&m->rhs);
}

/* ---- word-wide WITNESS synthesis ----
 *
 * In WITNESS mode a row is only counted, so a word operation allocates its result bits at once
 * (cz__cs_alloc_bits) and counts its rows, with the same variables and values as the bit-by-bit
 * code: xor always (the bits that fold are known from the operands' kinds), ch and maj when the
 * operand bits are all allocated (no constant, no negation: then every bit takes the same path);
 * every other case takes the bit-by-bit code. */

/* Whether the word-wide path applies: a WITNESS system and words of allocated bits only. */
static int wide(const cz__cs *cs, const cz__u32 *const *w, int n) {
    if (cs->mode != CZ__CS_WITNESS)
        return 0;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < 32; i++)
            if (w[k]->bits[i].kind != CZ__BOOL_IS)
                return 0;
    return 1;
}

/* The word of value v whose bit i is the variable first + stride·i. */
static cz__u32 fresh_word(cz__var first, unsigned stride, uint32_t v) {
    cz__u32 r;
    for (unsigned i = 0; i < 32; i++) {
        r.bits[i].kind = CZ__BOOL_IS;
        r.bits[i].bit.var = first + stride * i;
        r.bits[i].bit.value = (int)((v >> i) & 1u);
        r.bits[i].constant = 0;
    }
    r.value = v;
    return r;
}

/* x's bits at the even positions and y's at the odd ones of 64. */
static uint64_t interleave(uint32_t x, uint32_t y) {
    uint64_t r = 0;
    for (unsigned i = 0; i < 32; i++)
        r |= (uint64_t)((x >> i) & 1u) << (2 * i) | (uint64_t)((y >> i) & 1u) << (2 * i + 1);
    return r;
}

cz__u32 cz__u32_const(uint32_t v) {
    cz__u32 w;
    memset(&w, 0, sizeof w);
    for (int i = 0; i < 32; i++) {
        w.bits[i].kind = CZ__BOOL_CONST;
        w.bits[i].constant = (int)((v >> i) & 1u);
    }
    w.value = v;
    return w;
}

cz__u32 cz__u32_from_bits_be(const cz__bool bits[32]) {
    cz__u32 w;
    w.value = 0;
    for (int i = 0; i < 32; i++) {
        w.bits[i] = bits[31 - i];
        w.value |= (uint32_t)cz__bool_value(&bits[31 - i]) << i;
    }
    return w;
}

void cz__u32_into_bits_be(cz__bool out[32], const cz__u32 *w) {
    for (int i = 0; i < 32; i++)
        out[i] = w->bits[31 - i];
}

cz__u32 cz__u32_rotr(const cz__u32 *w, unsigned by) {
    cz__u32 r;
    by %= 32;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = w->bits[(i + by) % 32];
    r.value = by ? (w->value >> by) | (w->value << (32 - by)) : w->value;
    return r;
}

cz__u32 cz__u32_shr(const cz__u32 *w, unsigned by) {
    cz__u32 r;
    by %= 32;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = i + by < 32 ? w->bits[i + by] : cz__bool_const(0);
    r.value = w->value >> by;
    return r;
}

cz__u32 cz__u32_xor(cz__cs *cs, const cz__u32 *a, const cz__u32 *b) {
    cz__u32 r;
    if (cs->mode == CZ__CS_WITNESS) {
        /* a constant operand bit folds (no variable); any other pair is a new bit (of the
         * underlying bits' xor, negated when one operand is) and its row, in bit order */
        const uint32_t first = (uint32_t)cs->naux;
        uint64_t acc = 0;
        unsigned k = 0;
        for (int i = 0; i < 32; i++) {
            const cz__bool *x = &a->bits[i], *y = &b->bits[i];
            if (x->kind == CZ__BOOL_CONST || y->kind == CZ__BOOL_CONST) {
                r.bits[i] = cz__bool_xor(cs, x, y);
                continue;
            }
            const int v = x->bit.value ^ y->bit.value;
            acc |= (uint64_t)v << k;
            r.bits[i].kind = x->kind == y->kind ? CZ__BOOL_IS : CZ__BOOL_NOT;
            r.bits[i].bit.var = cz__var_aux(first + k);
            r.bits[i].bit.value = v;
            r.bits[i].constant = 0;
            k++;
        }
        cz__cs_alloc_bits(cs, acc, k);
        cz__cs_count_rows(cs, k);
        r.value = a->value ^ b->value;
        return r;
    }
    for (int i = 0; i < 32; i++)
        r.bits[i] = cz__bool_xor(cs, &a->bits[i], &b->bits[i]);
    r.value = a->value ^ b->value;
    return r;
}

cz__u32 cz__u32_sha256_ch(cz__cs *cs, const cz__u32 *a, const cz__u32 *b, const cz__u32 *c) {
    const cz__u32 *ops[3] = {a, b, c};
    cz__u32 r;
    if (wide(cs, ops, 3)) { /* a new bit and its row per bit */
        const uint32_t v = (a->value & b->value) ^ (~a->value & c->value);
        r = fresh_word(cz__cs_alloc_bits(cs, v, 32), 1, v);
        cz__cs_count_rows(cs, 32);
        return r;
    }
    for (int i = 0; i < 32; i++)
        r.bits[i] = cz__bool_sha256_ch(cs, &a->bits[i], &b->bits[i], &c->bits[i]);
    r.value = (a->value & b->value) ^ (~a->value & c->value);
    return r;
}

cz__u32 cz__u32_sha256_maj(cz__cs *cs, const cz__u32 *a, const cz__u32 *b, const cz__u32 *c) {
    const cz__u32 *ops[3] = {a, b, c};
    cz__u32 r;
    if (wide(cs, ops, 3)) { /* per bit maj, then bc = b and c, and two rows */
        const uint32_t v = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
        const uint64_t both = interleave(v, b->value & c->value);
        r = fresh_word(cz__cs_alloc_bits(cs, both, 64), 2, v);
        cz__cs_count_rows(cs, 64);
        return r;
    }
    for (int i = 0; i < 32; i++)
        r.bits[i] = cz__bool_sha256_maj(cs, &a->bits[i], &b->bits[i], &c->bits[i]);
    r.value = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
    return r;
}

cz__u32 cz__u32_addmany(cz__cs *cs, cz__multieq *m, const cz__u32 *ops, size_t n) {
    cz__u32 r = cz__u32_const(0);
    cz__lc lc, res;
    cz_bls12381_fr coeff;
    uint64_t sum = 0;
    unsigned nbits;
    int all_const = 1;
    if (n < 2 || n > 10) {
        cz__cs_fail(cs, CZ_EINVAL, "uint32: addmany of %zu operands (2 to 10)", n);
        return r;
    }
    nbits = 64 - (unsigned)__builtin_clzll((uint64_t)n * UINT32_MAX); /* the result's width */
    if (!cz__cs_needs_lcs(cs)) { /* the result bits and the equality by their values */
        for (size_t k = 0; k < n; k++) {
            sum += ops[k].value;
            for (int i = 0; i < 32; i++)
                all_const &= ops[k].bits[i].kind == CZ__BOOL_CONST;
        }
        if (all_const)
            return cz__u32_const((uint32_t)sum);
        if (cs->mode == CZ__CS_WITNESS) { /* the result bits at once, a row each */
            r = fresh_word(cz__cs_alloc_bits(cs, sum, nbits), 1, (uint32_t)sum);
            cz__cs_count_rows(cs, nbits);
            cz__multieq_enforce_value(m, nbits, sum);
            return r;
        }
        for (unsigned i = 0; i < nbits; i++) {
            cz__bit b = cz__bit_alloc(cs, (int)((sum >> i) & 1u));
            if (i < 32)
                r.bits[i] = cz__bool_is(b);
        }
        cz__multieq_enforce_value(m, nbits, sum);
        r.value = (uint32_t)sum;
        return r;
    }
    cz__lc_init(&lc);
    cz__lc_init(&res);
    for (size_t k = 0; k < n; k++) {
        sum += ops[k].value;
        for (int i = 0; i < 32; i++) {
            cz_bls12381_fr_from_u64(&coeff, UINT64_C(1) << i);
            cz__bool_lc_add(&lc, &ops[k].bits[i], &coeff);
            all_const &= ops[k].bits[i].kind == CZ__BOOL_CONST;
        }
    }
    if (all_const) {
        cz__lc_free(&lc);
        return cz__u32_const((uint32_t)sum);
    }
    for (unsigned i = 0; i < nbits; i++) {
        cz__bit b = cz__bit_alloc(cs, (int)((sum >> i) & 1u));
        cz_bls12381_fr_from_u64(&coeff, UINT64_C(1) << i);
        cz__lc_add(&res, b.var, &coeff);
        if (i < 32)
            r.bits[i] = cz__bool_is(b);
    }
    cz__multieq_enforce_equal(m, nbits, &lc, &res);
    cz__lc_free(&lc);
    cz__lc_free(&res);
    r.value = (uint32_t)sum;
    return r;
}
