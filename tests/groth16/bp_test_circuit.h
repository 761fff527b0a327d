/*
 * A generated BLS12-381 constraint system (cuzk/r1cs.h) with a satisfying witness, for the tests
 * of the bellperson prover (CPU, GPU, the supra_seal ABI). Its densities are partial on purpose:
 *
 *   variables: 0 = ONE, 1 = out, 2 = b (public), then u_i, v_i, p_i for i < m (aux)
 *   row i < m: (u_i + c_i·v_i) · v_i = p_i     (c_i = 1 + i mod 5, or -1 for every third i)
 *   row m:     (p_0 + b) · ONE = out
 * so A touches every u, v and p_0 (a_aux density < 1), B only the v's and ONE (b_input = {ONE},
 * b_aux = the v's), and p_1 .. p_{m-1} occur only in C. With m = 2^k - 4 the bellperson domain
 * (rows + 3 input constraints) is exactly 2^k. Values: u_i, v_i, b random (mode 0) or 0/1
 * (mode 1), from a seeded SplitMix64 stream.
 */
#ifndef CUZK_TESTS_BP_TEST_CIRCUIT_H
#define CUZK_TESTS_BP_TEST_CIRCUIT_H

#include <stdint.h>
#include <string.h>

#include "cuzk/field.h"
#include "cuzk/r1cs.h"

static inline uint64_t bptc_next(uint64_t *st) { /* splitmix64 */
    uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A value of mode (see the file comment), Montgomery limbs. */
static inline void bptc_value(uint64_t out[4], int mode, uint64_t *st) {
    uint64_t v[4] = {0, 0, 0, 0};
    if (mode == 1) {
        v[0] = bptc_next(st) & 1;
    } else {
        for (int i = 0; i < 4; i++)
            v[i] = bptc_next(st);
        v[3] &= 0x0fffffffffffffffULL;
    }
    cz_r1cs_fr_from_std(out, CZ_CURVE_BLS12381, v);
}

/* Coefficient table: 0 = 1, 1..4 = 2..5, 5 = -1. */
static inline unsigned bptc_coef(uint32_t i) {
    return i % 3 == 2 ? 5 : i % 5;
}

/* Fills the structure of the circuit with m rows of the first kind into *cs. */
static inline int bptc_build(cz_r1cs *cs, uint32_t m, cz_errinfo *ei) {
    uint64_t nnz[3] = {2 * (uint64_t)m + 2, (uint64_t)m + 1, (uint64_t)m + 1};
    int rc = cz_r1cs_alloc(cs, CZ_CURVE_BLS12381, 2, 3 * m, m + 1, nnz, 6, ei);
    if (rc != CZ_OK)
        return rc;
    for (uint32_t k = 0; k < 5; k++)
        cz_r1cs_coef_set_i64(cs, k, (int64_t)k + 1);
    cz_r1cs_coef_set_i64(cs, 5, -1);
    uint64_t na = 0, nb = 0, nc = 0;
    for (uint32_t i = 0; i <= m; i++) {
        cs->a.row_ptr[i] = na;
        cs->b.row_ptr[i] = nb;
        cs->c.row_ptr[i] = nc;
        if (i < m) {
            uint32_t u = 3 + 3 * i, v = u + 1, p = u + 2;
            cs->a.var[na] = u, cs->a.coef[na++] = 0;
            cs->a.var[na] = v, cs->a.coef[na++] = bptc_coef(i);
            cs->b.var[nb] = v, cs->b.coef[nb++] = 0;
            cs->c.var[nc] = p, cs->c.coef[nc++] = 0;
        } else {
            cs->a.var[na] = 5, cs->a.coef[na++] = 0; /* p_0 */
            cs->a.var[na] = 2, cs->a.coef[na++] = 0; /* b */
            cs->b.var[nb] = 0, cs->b.coef[nb++] = 0; /* ONE */
            cs->c.var[nc] = 1, cs->c.coef[nc++] = 0; /* out */
        }
    }
    cs->a.row_ptr[m + 1] = na;
    cs->b.row_ptr[m + 1] = nb;
    cs->c.row_ptr[m + 1] = nc;
    return CZ_OK;
}

/* A satisfying witness of mode from seed into cs->w. */
static inline void bptc_witness(cz_r1cs *cs, int mode, uint64_t seed) {
    uint32_t m = cs->nrows - 1;
    uint64_t st = seed;
    cz_bls12381_fr *w = (cz_bls12381_fr *)cs->w, t;
    cz_bls12381_fr_one(&w[0]);
    for (uint32_t i = 0; i < m; i++) {
        cz_bls12381_fr *u = &w[3 + 3 * i], *v = u + 1, *p = u + 2, c;
        bptc_value(u->l, mode, &st);
        bptc_value(v->l, mode, &st);
        memcpy(c.l, cs->coefs[bptc_coef(i)], sizeof c.l);
        cz_bls12381_fr_mul(&t, &c, v);
        cz_bls12381_fr_add(&t, &t, u);
        cz_bls12381_fr_mul(p, &t, v);
    }
    bptc_value(w[2].l, mode, &st);
    cz_bls12381_fr_add(&w[1], &w[5], &w[2]); /* out = p_0 + b */
}

#endif
