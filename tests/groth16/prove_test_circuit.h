/*
 * Generated Groth16 test circuits for the prover tests (CPU and GPU): an in-memory constraint
 * system of nc constraints with a satisfying witness, written to a .zkey (cz_groth16_setup, with a
 * seed-derived trapdoor) and a .wtns, so no node or circom is needed.
 *
 *   wires: 0 = 1, 1 = out (public output), 2 = b (public input), then u_i, v_i, p_i per i < nc - 1
 *   constraint i < nc - 1: (u_i + c_i·v_i) · v_i = p_i     (c_i = r - 1 for every third i, else
 *                                                           1 + i mod 5: several terms per row)
 *   constraint nc - 1:     (p_0 + b) · 1 = out
 * With nc = 2^k - 3 the Groth16 domain (nc + 2 public + 1) is exactly 2^k. The witness values
 * u_i, v_i, b are random below 2^252 (mode 0), three in four of them 0 or 1 (mode 1), or all
 * 0 or 1 (mode 2) — the shapes real witnesses have (bits, flags, sparse sums).
 */
#ifndef CUZK_TESTS_PROVE_TEST_CIRCUIT_H
#define CUZK_TESTS_PROVE_TEST_CIRCUIT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/field.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/wtns.h"

static uint64_t ptc_state = 0x6a09e667f3bcc909ULL;

static inline uint64_t ptc_next(void) { /* splitmix64 */
    uint64_t z = (ptc_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A witness value for mode (see the file comment), canonical limbs. */
static inline void ptc_value(uint64_t v[4], int mode) {
    memset(v, 0, 4 * sizeof *v);
    if (mode == 2 || (mode == 1 && (ptc_next() & 3) != 0)) {
        v[0] = ptc_next() & 1;
        return;
    }
    for (int i = 0; i < 4; i++)
        v[i] = ptc_next();
    v[3] &= 0x0fffffffffffffffULL;
}

/* o = x·y + z over Fr of curve, canonical limbs (z may be NULL). */
static inline void ptc_mul_add(cz_curve_id curve, uint64_t o[4], const uint64_t x[4],
                               const uint64_t y[4], const uint64_t z[4]) {
    if (curve == CZ_CURVE_BN254) {
        cz_bn254_fr a, b, c;
        cz_bn254_fr_from_bytes_le(&a, (const uint8_t *)x);
        cz_bn254_fr_from_bytes_le(&b, (const uint8_t *)y);
        cz_bn254_fr_mul(&a, &a, &b);
        if (z != NULL) {
            cz_bn254_fr_from_bytes_le(&c, (const uint8_t *)z);
            cz_bn254_fr_add(&a, &a, &c);
        }
        cz_bn254_fr_to_bytes_le((uint8_t *)o, &a);
    } else {
        cz_bls12381_fr a, b, c;
        cz_bls12381_fr_from_bytes_le(&a, (const uint8_t *)x);
        cz_bls12381_fr_from_bytes_le(&b, (const uint8_t *)y);
        cz_bls12381_fr_mul(&a, &a, &b);
        if (z != NULL) {
            cz_bls12381_fr_from_bytes_le(&c, (const uint8_t *)z);
            cz_bls12381_fr_add(&a, &a, &c);
        }
        cz_bls12381_fr_to_bytes_le((uint8_t *)o, &a);
    }
}

/* r - 1 of curve, canonical limbs. */
static inline void ptc_minus_one(cz_curve_id curve, uint64_t o[4]) {
    if (curve == CZ_CURVE_BN254) {
        cz_bn254_fr a;
        cz_bn254_fr_one(&a);
        cz_bn254_fr_neg(&a, &a);
        cz_bn254_fr_to_bytes_le((uint8_t *)o, &a);
    } else {
        cz_bls12381_fr a;
        cz_bls12381_fr_one(&a);
        cz_bls12381_fr_neg(&a, &a);
        cz_bls12381_fr_to_bytes_le((uint8_t *)o, &a);
    }
}

/*
 * Writes the circuit of 2^k - 3 constraints (k >= 3) as zkey_path and its witness as wtns_path.
 * td NULL: a trapdoor derived from (k, mode, curve), γ = 1. zkey_path NULL writes only a new
 * witness (each call draws new values), valid for every key of the same curve and k.
 * Returns CZ_OK or the error of setup / the witness writer (ei filled).
 */
static inline int ptc_make_td(const char *zkey_path, const char *wtns_path, cz_curve_id curve,
                              unsigned k, int mode, const cz_groth16_trapdoor *td,
                              cz_threadpool *pool, cz_errinfo *ei) {
    uint32_t nc = (1u << k) - 3, nw = 3 + 3 * (nc - 1);
    cz_r1cs_term *terms = calloc((size_t)5 * nc, sizeof *terms);
    cz_r1cs_constraint *cons = calloc(nc, sizeof *cons);
    uint64_t(*w)[4] = calloc(nw, sizeof *w);
    uint64_t one[4] = {1, 0, 0, 0}, coef[4];
    cz_r1cs_file r1cs;
    cz_groth16_trapdoor seeded;
    size_t nt = 0;
    int rc = CZ_OK;
    if (terms == NULL || cons == NULL || w == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "test circuit 2^%u", k);
        goto out;
    }
    memcpy(w[0], one, sizeof one);
    ptc_value(w[2], mode);
    for (uint32_t i = 0; i + 1 < nc; i++) {
        uint32_t u = 3 + 3 * i, v = u + 1, p = u + 2;
        uint64_t sum[4];
        ptc_value(w[u], mode);
        ptc_value(w[v], mode);
        if (i % 3 == 0)
            ptc_minus_one(curve, coef);
        else
            memcpy(coef, (uint64_t[4]){1 + i % 5, 0, 0, 0}, sizeof coef);
        ptc_mul_add(curve, sum, coef, w[v], w[u]); /* u + c·v */
        ptc_mul_add(curve, w[p], sum, w[v], NULL); /* (u + c·v)·v */
        cons[i].a.terms = &terms[nt];
        cons[i].a.nterms = 2;
        terms[nt].wire = u;
        memcpy(terms[nt++].coef, one, sizeof one);
        terms[nt].wire = v;
        memcpy(terms[nt++].coef, coef, sizeof coef);
        cons[i].b.terms = &terms[nt];
        cons[i].b.nterms = 1;
        terms[nt].wire = v;
        memcpy(terms[nt++].coef, one, sizeof one);
        cons[i].c.terms = &terms[nt];
        cons[i].c.nterms = 1;
        terms[nt].wire = p;
        memcpy(terms[nt++].coef, one, sizeof one);
    }
    /* (p_0 + b) · 1 = out */
    ptc_mul_add(curve, w[1], one, w[2], nc > 1 ? w[3 + 2] : NULL);
    cons[nc - 1].a.terms = &terms[nt];
    cons[nc - 1].a.nterms = 2;
    terms[nt].wire = 5;
    memcpy(terms[nt++].coef, one, sizeof one);
    terms[nt].wire = 2;
    memcpy(terms[nt++].coef, one, sizeof one);
    cons[nc - 1].b.terms = &terms[nt];
    cons[nc - 1].b.nterms = 1;
    terms[nt].wire = 0;
    memcpy(terms[nt++].coef, one, sizeof one);
    cons[nc - 1].c.terms = &terms[nt];
    cons[nc - 1].c.nterms = 1;
    terms[nt].wire = 1;
    memcpy(terms[nt++].coef, one, sizeof one);

    memset(&r1cs, 0, sizeof r1cs);
    r1cs.curve = curve;
    r1cs.nwires = nw;
    r1cs.npub_out = 1;
    r1cs.npub_in = 1;
    r1cs.nprv_in = 1;
    r1cs.nlabels = nw;
    r1cs.nconstraints = nc;
    r1cs.constraints = cons;
    r1cs.nterms = nt;
    if (td == NULL) {
        uint8_t seed[8] = {(uint8_t)k, (uint8_t)mode, (uint8_t)curve, 'p', 't', 'c', 0, 0};
        cz_groth16_trapdoor_from_seed(&seeded, seed, sizeof seed);
        td = &seeded;
    }
    if (zkey_path != NULL)
        rc = cz_groth16_setup(zkey_path, &r1cs, td, pool, ei);
    if (rc == CZ_OK)
        rc = cz_wtns_write(wtns_path, curve, &w[0][0], nw, ei);
out:
    free(terms);
    free(cons);
    free(w);
    return rc;
}

static inline int ptc_make(const char *zkey_path, const char *wtns_path, cz_curve_id curve,
                           unsigned k, int mode, cz_threadpool *pool, cz_errinfo *ei) {
    return ptc_make_td(zkey_path, wtns_path, curve, k, mode, NULL, pool, ei);
}

#endif
