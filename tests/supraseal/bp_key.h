/*
 * A bellperson-format Groth16 key (cz_bellperson_params) for a small in-memory BLS12-381 system,
 * made from a known trapdoor (τ, α, β, γ, δ) the way bellperson's generator makes one, for the
 * tests of the supra_seal interface. Insecure by construction and quadratic in the size (each
 * variable's polynomials are evaluated at τ through the Lagrange basis, one inversion per row):
 * for circuits of tens of rows only.
 *
 * With n the domain (the smallest power of two >= rows + inputs, the input constraints after the
 * rows, as cz_r1cs_assignment_make orders them), ω bellperson's root of order n and
 * L_k(τ) = ω^k·(τ^n − 1) / (n·(τ − ω^k)), each variable v has a_v = Σ_k A[k][v]·L_k(τ) (plus
 * L_{rows+i}(τ) for input i), b_v and c_v likewise, and the key holds
 *   IC_i = [(β·a_i + α·b_i + c_i)/γ]₁ (inputs), L_j = [(β·a_j + α·b_j + c_j)/δ]₁ (aux),
 *   H_i = [τ^i·(τ^n − 1)/δ]₁ for i < n − 1, A = [a_v]₁ over the inputs then the aux whose A
 *   density bit is set, B_G1 = [b_v]₁ and B_G2 = [b_v]₂ over the variables whose B bits are set,
 *   and the verifying key [α]₁, [β]₁, [β]₂, [γ]₂, [δ]₁, [δ]₂.
 * The densities are those of the assignment (shape), so the key fits it by construction.
 */
#ifndef CUZK_TESTS_SUPRASEAL_BP_KEY_H
#define CUZK_TESTS_SUPRASEAL_BP_KEY_H

#include <stdlib.h>
#include <string.h>

#include "cuzk/assignment.h"
#include "cuzk/bellperson.h"
#include "cuzk/curve.h"
#include "cuzk/ntt.h"
#include "cuzk/r1cs.h"

static void bpk_g1(cz_bls12381_g1_affine *out, const cz_bls12381_fr *k) {
    cz_bls12381_g1_affine g;
    cz_bls12381_g1_jacobian gj, r;
    cz_bls12381_g1_generator(&g);
    cz_bls12381_g1_from_affine(&gj, &g);
    cz_bls12381_g1_mul(&r, &gj, k);
    cz_bls12381_g1_to_affine(out, &r);
}

static void bpk_g2(cz_bls12381_g2_affine *out, const cz_bls12381_fr *k) {
    cz_bls12381_g2_affine g;
    cz_bls12381_g2_jacobian gj, r;
    cz_bls12381_g2_generator(&g);
    cz_bls12381_g2_from_affine(&gj, &g);
    cz_bls12381_g2_mul(&r, &gj, k);
    cz_bls12381_g2_to_affine(out, &r);
}

/* acc[v] += Σ over row k of matrix m: coef·lag[k]. */
static void bpk_eval(cz_bls12381_fr *acc, const cz_r1cs *cs, const cz_r1cs_mat *m,
                     const cz_bls12381_fr *lag) {
    for (uint32_t k = 0; k < cs->nrows; k++)
        for (uint64_t t = m->row_ptr[k]; t < m->row_ptr[k + 1]; t++) {
            cz_bls12381_fr c, x;
            memcpy(&c, cs->coefs[m->coef[t]], sizeof c);
            cz_bls12381_fr_mul(&x, &c, &lag[k]);
            cz_bls12381_fr_add(&acc[m->var[t]], &acc[m->var[t]], &x);
        }
}

/* *p = the key of cs (with shape = its assignment) for the trapdoor td[5] = τ, α, β, γ, δ
 * (Montgomery). 0 on success. */
static int bpk_make(cz_bellperson_params *p, const cz_r1cs *cs, const cz_assignment *shape,
                    const cz_bls12381_fr td[5]) {
    const cz_bls12381_fr *tau = &td[0], *alpha = &td[1], *beta = &td[2], *gamma = &td[3],
                         *delta = &td[4];
    size_t nin = shape->ninput, naux = shape->naux, nv = nin + naux, rows = cs->nrows + nin;
    unsigned log_n = 0;
    cz_bls12381_ntt_domain *dom = NULL;
    cz_bls12381_fr w, wk, one, n_fr, zt, ginv, dinv, x, y, *lag, *a, *b, *c;
    int rc = -1;

    while (((size_t)1 << log_n) < rows)
        log_n++;
    size_t n = (size_t)1 << log_n;
    memset(p, 0, sizeof *p);
    lag = calloc(n, sizeof *lag);
    a = calloc(nv, sizeof *a);
    b = calloc(nv, sizeof *b);
    c = calloc(nv, sizeof *c);
    if (lag == NULL || a == NULL || b == NULL || c == NULL ||
        cz_bls12381_ntt_domain_create(&dom, log_n, CZ_NTT_ROOTS_BELLPERSON, NULL, NULL) != CZ_OK)
        goto out;
    cz_bls12381_ntt_domain_root(&w, dom);
    cz_bls12381_fr_one(&one);
    cz_bls12381_fr_from_u64(&n_fr, n);
    uint64_t e = n;
    cz_bls12381_fr_pow(&zt, tau, &e, 1);
    cz_bls12381_fr_sub(&zt, &zt, &one); /* Z(τ) = τ^n − 1 */
    wk = one;
    for (size_t k = 0; k < n; k++) {
        cz_bls12381_fr_sub(&x, tau, &wk);
        cz_bls12381_fr_mul(&x, &x, &n_fr);
        cz_bls12381_fr_inv(&x, &x);
        cz_bls12381_fr_mul(&x, &x, &wk);
        cz_bls12381_fr_mul(&lag[k], &x, &zt);
        cz_bls12381_fr_mul(&wk, &wk, &w);
    }
    bpk_eval(a, cs, &cs->a, lag);
    bpk_eval(b, cs, &cs->b, lag);
    bpk_eval(c, cs, &cs->c, lag);
    for (size_t i = 0; i < nin; i++)
        cz_bls12381_fr_add(&a[i], &a[i], &lag[cs->nrows + i]);

    bpk_g1(&p->vk.alpha_g1, alpha);
    bpk_g1(&p->vk.beta_g1, beta);
    bpk_g2(&p->vk.beta_g2, beta);
    bpk_g2(&p->vk.gamma_g2, gamma);
    bpk_g1(&p->vk.delta_g1, delta);
    bpk_g2(&p->vk.delta_g2, delta);
    cz_bls12381_fr_inv(&ginv, gamma);
    cz_bls12381_fr_inv(&dinv, delta);
    p->vk.nic = (uint32_t)nin;
    p->nh = (uint32_t)(n - 1);
    p->nl = (uint32_t)naux;
    p->na = (uint32_t)(nin + cz_density_popcount(shape->a_aux_density, naux));
    p->nb_g1 = p->nb_g2 = (uint32_t)(cz_density_popcount(shape->b_input_density, nin) +
                                     cz_density_popcount(shape->b_aux_density, naux));
    p->vk.ic = calloc(nin, sizeof *p->vk.ic);
    p->h = calloc(n - 1, sizeof *p->h);
    p->l = calloc(naux ? naux : 1, sizeof *p->l);
    p->a = calloc(p->na, sizeof *p->a);
    p->b_g1 = calloc(p->nb_g1 ? p->nb_g1 : 1, sizeof *p->b_g1);
    p->b_g2 = calloc(p->nb_g2 ? p->nb_g2 : 1, sizeof *p->b_g2);
    if (p->vk.ic == NULL || p->h == NULL || p->l == NULL || p->a == NULL || p->b_g1 == NULL ||
        p->b_g2 == NULL)
        goto out;
    for (size_t v = 0; v < nv; v++) {
        /* (β·a_v + α·b_v + c_v) / (γ for inputs, δ for aux) */
        cz_bls12381_fr_mul(&x, beta, &a[v]);
        cz_bls12381_fr_mul(&y, alpha, &b[v]);
        cz_bls12381_fr_add(&x, &x, &y);
        cz_bls12381_fr_add(&x, &x, &c[v]);
        cz_bls12381_fr_mul(&x, &x, v < nin ? &ginv : &dinv);
        bpk_g1(v < nin ? &p->vk.ic[v] : &p->l[v - nin], &x);
    }
    cz_bls12381_fr_mul(&x, &zt, &dinv);
    for (size_t i = 0; i + 1 < n; i++) {
        bpk_g1(&p->h[i], &x);
        cz_bls12381_fr_mul(&x, &x, tau);
    }
    size_t ka = 0, kb = 0;
    for (size_t v = 0; v < nv; v++) {
        int in_a = v < nin || cz_density_bit(shape->a_aux_density, v - nin);
        int in_b = v < nin ? cz_density_bit(shape->b_input_density, v)
                           : cz_density_bit(shape->b_aux_density, v - nin);
        if (in_a)
            bpk_g1(&p->a[ka++], &a[v]);
        if (in_b) {
            bpk_g1(&p->b_g1[kb], &b[v]);
            bpk_g2(&p->b_g2[kb++], &b[v]);
        }
    }
    rc = 0;
out:
    if (rc != 0)
        cz_bellperson_params_free(p);
    cz_bls12381_ntt_domain_destroy(dom);
    free(lag);
    free(a);
    free(b);
    free(c);
    return rc;
}

#endif
