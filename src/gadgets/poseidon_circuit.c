/*
 * The Poseidon circuit of neptune v11 (its legacy circuit, circuit::poseidon_hash, which
 * rust-fil-proofs' Poseidon trees use), over the constants of poseidon.h, with neptune's
 * allocations and rows in its order.
 *
 * A lane is an element: allocated (a variable) or a linear combination with its value (the
 * output of a linear layer, which costs nothing). The rounds follow neptune's optimized schedule
 * (poseidon.c) with the S-boxes as rows:
 *   - first full round: the tag lane is a constant, (tag + C)^5 + C' computed natively; every
 *     input lane l: q = (l + pre)^2, l4 = q^2, res = l4·(l + pre) + post (3 rows);
 *   - every later S-box: the lane's combination is allocated (v, with (lc)·ONE = v), then
 *     v^2, v^4 and res = v^4·v + post (4 rows; no post in the terminal round);
 *   - the linear layers (M, the pre-sparse and the sparse matrices) combine lanes into new
 *     combinations;
 *   - the result, lane 1, is allocated with one row.
 * A system that does not need the combinations (cz__cs_needs_lcs false: a witness, or a proving
 * assignment whose densities are known) gets the same rows by their values, no combination built.
 * Rows: 3·arity + 4·(R_F - 1)·t + 4·R_P + 1 (311, 377, 505, 598 for arity 2, 4, 8, 11).
 */
#include <stdlib.h>
#include <string.h>

#include "gadgets/poseidon_circuit.h"

typedef cz_bls12381_fr fr;

#define MAXT (CZ__POSEIDON_MAX_ARITY + 1)

typedef struct {
    int allocated;
    cz__var var; /* allocated */
    cz__lc lc;   /* not allocated */
    fr value;
} elt;

static void elt_set_num(elt *e, const cz__num *n) {
    cz__lc_clear(&e->lc);
    e->allocated = 1;
    e->var = n->var;
    e->value = n->value;
}

static void elt_set_const(elt *e, const fr *v) {
    cz__lc_clear(&e->lc);
    e->allocated = 0;
    cz__lc_add(&e->lc, CZ__VAR_ONE, v);
    e->value = *v;
}

/* lc += s·e. */
static void lc_add_elt(cz__lc *lc, const elt *e, const fr *s) {
    if (e->allocated)
        cz__lc_add(lc, e->var, s);
    else
        cz__lc_add_lc(lc, &e->lc, s);
}

/* The element as a variable: itself, or a new v with (lc)·ONE = v. */
static cz__num ensure_allocated(cz__cs *cs, const elt *e) {
    cz__num n;
    cz__lc one, v;
    if (e->allocated) {
        n.var = e->var;
        n.value = e->value;
        return n;
    }
    n = cz__num_alloc(cs, &e->value);
    if (!cz__cs_needs_lcs(cs)) { /* the row by its values, no combination built */
        fr one_v;
        cz_bls12381_fr_one(&one_v);
        cz__cs_enforce_values(cs, &e->value, &one_v, &n.value);
        return n;
    }
    cz__lc_init(&one);
    cz__lc_init(&v);
    cz__lc_add(&one, CZ__VAR_ONE, NULL);
    cz__lc_add(&v, n.var, NULL);
    cz__cs_enforce(cs, &e->lc, &one, &v);
    cz__lc_free(&one);
    cz__lc_free(&v);
    return n;
}

/* A new variable r and the row (a + ka·ONE)·(b + kb·ONE) = r - kr·ONE (k NULL: no term). */
static cz__num mul_row(cz__cs *cs, const fr *value, const cz__num *a, const fr *ka,
                       const cz__num *b, const fr *kb, const fr *kr) {
    cz__num r = cz__num_alloc(cs, value);
    cz__lc la, lb, lr;
    if (!cz__cs_needs_lcs(cs)) { /* the row by its values, no combination built */
        fr va = a->value, vb = b->value, vr = *value;
        if (ka != NULL)
            cz_bls12381_fr_add(&va, &va, ka);
        if (kb != NULL)
            cz_bls12381_fr_add(&vb, &vb, kb);
        if (kr != NULL)
            cz_bls12381_fr_sub(&vr, &vr, kr);
        cz__cs_enforce_values(cs, &va, &vb, &vr);
        return r;
    }
    cz__lc_init(&la);
    cz__lc_init(&lb);
    cz__lc_init(&lr);
    cz__lc_add(&la, a->var, NULL);
    if (ka != NULL)
        cz__lc_add(&la, CZ__VAR_ONE, ka);
    cz__lc_add(&lb, b->var, NULL);
    if (kb != NULL)
        cz__lc_add(&lb, CZ__VAR_ONE, kb);
    cz__lc_add(&lr, r.var, NULL);
    if (kr != NULL)
        cz__lc_sub(&lr, CZ__VAR_ONE, kr);
    cz__cs_enforce(cs, &la, &lb, &lr);
    cz__lc_free(&la);
    cz__lc_free(&lb);
    cz__lc_free(&lr);
    return r;
}

/* neptune's AllocatedNum::square: aa and a·a = aa. */
static cz__num square(cz__cs *cs, const cz__num *a) {
    fr v;
    cz_bls12381_fr_sqr(&v, &a->value);
    return mul_row(cs, &v, a, NULL, a, NULL, NULL);
}

/* x^5 (+ post): the lane allocated, then x^2, x^4, x^4·x + post. */
static void quintic_s_box(cz__cs *cs, elt *e, const fr *post) {
    cz__num l = ensure_allocated(cs, e), l2 = square(cs, &l), l4 = square(cs, &l2), l5;
    fr v;
    cz_bls12381_fr_mul(&v, &l4.value, &l.value);
    if (post != NULL)
        cz_bls12381_fr_add(&v, &v, post);
    /* mul_sum(a = l4, b = l, no pre, post): (l)·(l4) = res - post·ONE */
    l5 = mul_row(cs, &v, &l, NULL, &l4, NULL, post);
    elt_set_num(e, &l5);
}

/* (x + pre)^5 + post for an allocated lane: (l + pre)^2, its square, l4·(l + pre) + post. */
static void quintic_s_box_pre_add(cz__cs *cs, elt *e, const fr *pre, const fr *post) {
    cz__num l = ensure_allocated(cs, e), q, l4, l5;
    fr s, v;
    cz_bls12381_fr_add(&s, &l.value, pre);
    cz_bls12381_fr_sqr(&v, &s);
    q = mul_row(cs, &v, &l, pre, &l, pre, NULL); /* square_sum */
    l4 = square(cs, &q);
    cz_bls12381_fr_mul(&v, &l4.value, &s);
    cz_bls12381_fr_add(&v, &v, post);
    l5 = mul_row(cs, &v, &l, pre, &l4, NULL, post); /* mul_sum with pre and post */
    elt_set_num(e, &l5);
}

typedef struct {
    const cz__poseidon *p;
    elt e[MAXT], tmp[MAXT];
    unsigned off, round;
    int lcs; /* the linear layers build their combinations (cz__cs_needs_lcs) */
} state;

/* new[j] = Σ_i mat[i][j]·e[i] (row vector), as combinations. */
static void product_dense(state *s, const fr *mat) {
    const unsigned t = s->p->t;
    for (unsigned j = 0; j < t; j++) {
        elt *r = &s->tmp[j];
        cz__lc_clear(&r->lc);
        r->allocated = 0;
        cz_bls12381_fr_zero(&r->value);
        for (unsigned i = 0; i < t; i++) {
            fr pv;
            if (s->lcs)
                lc_add_elt(&r->lc, &s->e[i], &mat[i * t + j]);
            cz_bls12381_fr_mul(&pv, &mat[i * t + j], &s->e[i].value);
            cz_bls12381_fr_add(&r->value, &r->value, &pv);
        }
    }
}

/* new[0] = Σ w_hat[i]·e[i]; new[j] = e[j] + v_rest[j - 1]·e[0]. */
static void product_sparse(state *s, unsigned k) {
    const unsigned t = s->p->t;
    const fr *w = &s->p->sparse_w[(size_t)k * t], *v = &s->p->sparse_v[(size_t)k * (t - 1)];
    for (unsigned j = 0; j < t; j++) {
        elt *r = &s->tmp[j];
        fr pv;
        cz__lc_clear(&r->lc);
        r->allocated = 0;
        cz_bls12381_fr_zero(&r->value);
        if (j == 0) {
            for (unsigned i = 0; i < t; i++) {
                if (s->lcs)
                    lc_add_elt(&r->lc, &s->e[i], &w[i]);
                cz_bls12381_fr_mul(&pv, &w[i], &s->e[i].value);
                cz_bls12381_fr_add(&r->value, &r->value, &pv);
            }
        } else {
            if (s->lcs) {
                lc_add_elt(&r->lc, &s->e[j], NULL);
                lc_add_elt(&r->lc, &s->e[0], &v[j - 1]);
            }
            cz_bls12381_fr_mul(&pv, &v[j - 1], &s->e[0].value);
            cz_bls12381_fr_add(&r->value, &s->e[j].value, &pv);
        }
    }
}

/* The linear layer of the current round (neptune's product_mds), then the next round. */
static void product_mds(state *s) {
    const unsigned h = s->p->rf / 2;
    if (s->round == h - 1)
        product_dense(s, s->p->pre);
    else if (s->round > h - 1 && s->round < h + s->p->rp)
        product_sparse(s, s->round - h);
    else
        product_dense(s, s->p->m);
    for (unsigned j = 0; j < s->p->t; j++) {
        elt x = s->e[j];
        s->e[j] = s->tmp[j];
        s->tmp[j] = x;
    }
    s->round++;
}

static void full_round(cz__cs *cs, state *s, int first, int last) {
    const unsigned t = s->p->t;
    const fr *pre = NULL, *post = NULL;
    if (first) {
        pre = &s->p->crc[s->off];
        s->off += t;
    }
    if (first || !last) {
        post = &s->p->crc[s->off];
        s->off += t;
    }
    for (unsigned i = 0; i < t; i++) {
        if (first && i == 0) { /* the tag lane: a constant */
            fr v;
            cz_bls12381_fr_add(&v, &s->e[0].value, &pre[0]);
            cz__poseidon_sbox(&v);
            cz_bls12381_fr_add(&v, &v, &post[0]);
            elt_set_const(&s->e[0], &v);
        } else if (first) {
            quintic_s_box_pre_add(cs, &s->e[i], &pre[i], &post[i]);
        } else {
            quintic_s_box(cs, &s->e[i], post != NULL ? &post[i] : NULL);
        }
    }
    product_mds(s);
}

static void partial_round(cz__cs *cs, state *s) {
    const fr *k = &s->p->crc[s->off++];
    quintic_s_box(cs, &s->e[0], k);
    product_mds(s);
}

cz__num cz__poseidon_circuit(cz__cs *cs, const cz__poseidon *p, const fr *tag,
                             const cz__num *preimage) {
    state *s = calloc(1, sizeof *s);
    const unsigned h = p->rf / 2;
    cz__num out;
    if (s == NULL) {
        cz__cs_fail(cs, CZ_ENOMEM, "poseidon circuit: state");
        return preimage[0];
    }
    s->p = p;
    s->lcs = cz__cs_needs_lcs(cs);
    for (unsigned i = 0; i < p->t; i++) {
        cz__lc_init(&s->e[i].lc);
        cz__lc_init(&s->tmp[i].lc);
    }
    elt_set_const(&s->e[0], tag);
    for (unsigned i = 0; i < p->arity; i++)
        elt_set_num(&s->e[i + 1], &preimage[i]);
    full_round(cs, s, 1, 0);
    for (unsigned i = 1; i < h; i++)
        full_round(cs, s, 0, 0);
    for (unsigned i = 0; i < p->rp; i++)
        partial_round(cs, s);
    for (unsigned i = 0; i + 1 < h; i++)
        full_round(cs, s, 0, 0);
    full_round(cs, s, 0, 1);
    out = ensure_allocated(cs, &s->e[1]);
    for (unsigned i = 0; i < p->t; i++) {
        cz__lc_free(&s->e[i].lc);
        cz__lc_free(&s->tmp[i].lc);
    }
    free(s);
    return out;
}

cz__num cz__poseidon_merkle_circuit(cz__cs *cs, const cz__num *in, unsigned n) {
    const cz__poseidon *p;
    cz_bls12381_fr tag;
    cz_errinfo ei;
    int rc;
    cz__num r;
    memset(&r, 0, sizeof r);
    cz_errinfo_clear(&ei);
    if ((rc = cz__poseidon_get(&p, n, &ei)) != CZ_OK) {
        cz__cs_fail(cs, rc, "poseidon: %s", ei.msg);
        return r;
    }
    cz__poseidon_tag_merkle(&tag, n);
    return cz__poseidon_circuit(cs, p, &tag, in);
}
