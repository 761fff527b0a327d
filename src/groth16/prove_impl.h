/*
 * The snarkjs Groth16 prover for one curve, written once and instantiated per curve by including
 * this file after defining CURVE (bn254 or bls12381). It uses the inline field and curve
 * arithmetic (<curve>_fr_*, <curve>_g1_*) and the public NTT and MSM entry points.
 *
 * Steps (snarkjs groth16_prove.js; docs/groth16.md):
 *   1. a[row] += coef·w[signal] over the zkey's coefficient section (matrix 0 -> a, 1 -> b); the
 *      stored coefficient is v·R², so one Montgomery product with the standard-form witness value
 *      gives v·w in Montgomery form. Then c = a∘b.
 *   2. For X in a, b, c: X = iNTT(X); X[i] *= g^i with g = w[k+1] (the odd coset); X = NTT(X).
 *   3. h = a∘b - c on the coset: the scalars of the H MSM.
 *   4. MSMs: A' = Σ w_s·A_s, B1' = Σ w_s·B1_s, B' = Σ w_s·B2_s (G2), C' = Σ_{s>npub} w_s·C_s,
 *      H' = Σ h_j·H_j.
 *   5. πA = A' + α₁ + r·δ₁, πB = B' + β₂ + s·δ₂, B1 = B1' + β₁ + s·δ₁,
 *      πC = C' + H' + s·πA + r·B1 - r·s·δ₁.
 * Memory: 3 domain-sized Fr vectors (96 bytes per row) plus the MSMs' buckets.
 */
#include <stdlib.h>
#include <string.h>

#include "field/cz_macros.h"

#define I(name) CZ_CAT3(CURVE, _, name)
#define P(name) CZ_CAT3(CZ_CAT(cz_, CURVE), _, name)

typedef P(fr) I(fr_t);

/* Reads a blinding factor: 32 canonical little-endian bytes when fixed, else a uniformly random
 * element from the CSPRNG. */
static int I(groth16_blinding)(I(fr_t) * out, const uint8_t *fixed, const char *name,
                               cz_errinfo *ei) {
    if (fixed != NULL) {
        if (I(fr_from_bytes_le)(out, fixed) != CZ_OK)
            return cz_fail(ei, CZ_ERANGE, "prove: blinding factor %s is not below r", name);
        return CZ_OK;
    }
    if (P(fr_random)(out) != CZ_OK)
        return cz_fail(ei, CZ_EIO, "prove: no randomness for blinding factor %s", name);
    return CZ_OK;
}

/* Fills a (matrix 0) and b (matrix 1) from the coefficient section, then c = a∘b. */
static void I(groth16_eval_abc)(I(fr_t) * a, I(fr_t) * b, I(fr_t) * c, const cz_zkey *zk,
                                const uint64_t (*wit)[4]) {
    size_t n = zk->domain_size;
    memset(a, 0, n * sizeof *a);
    memset(b, 0, n * sizeof *b);
    for (size_t i = 0; i < zk->ncoefs; i++) {
        cz_zkey_coef e;
        I(fr_t) coef, wraw, t;
        cz_zkey_coef_at(&e, zk, i);
        memcpy(coef.l, e.value, sizeof coef.l);
        memcpy(wraw.l, wit[e.signal], sizeof wraw.l);
        /* Montgomery product of v·R² and w gives (v·w)·R: v·w in Montgomery form. */
        I(fr_mul)(&t, &coef, &wraw);
        I(fr_t) *dst = e.matrix == 0 ? &a[e.row] : &b[e.row];
        I(fr_add)(dst, dst, &t);
    }
    for (size_t j = 0; j < n; j++)
        I(fr_mul)(&c[j], &a[j], &b[j]);
}

/* Moves one vector from evaluations on the domain to evaluations on the odd coset g·<ω>. */
static void I(groth16_to_coset)(I(fr_t) * x, const P(ntt_domain) * dom, const I(fr_t) * g,
                                cz_threadpool *pool) {
    P(ntt_inverse)(x, dom, pool);
    P(ntt_coset_forward)(x, dom, g, pool);
}

static int I(groth16_prove)(P(groth16_proof) * proof, const cz_zkey *zk, const cz_wtns *w,
                            const I(fr_t) * r, const I(fr_t) * s, cz_threadpool *pool,
                            cz_groth16_timings *tm, cz_errinfo *ei) {
    const CZ_CAT(cz_zkey_, CURVE) *k = &zk->u.CURVE;
    const uint64_t(*wit)[4] = (const uint64_t(*)[4])w->values;
    const uint8_t *wit_bytes = (const uint8_t *)w->values;
    size_t n = zk->domain_size, nvars = zk->nvars, npub = zk->npublic;
    I(fr_t) *a = NULL, *b = NULL, *c = NULL, g;
    P(ntt_domain) *dom = NULL;
    P(g1_jacobian) msm_a, msm_b1, msm_c, msm_h, t1, pa, b1, pc;
    P(g2_jacobian) msm_b2, t2, pb;
    int rc = CZ_OK;
    uint64_t t0 = cz_clock_now_ns(), t;

    a = malloc(n * sizeof *a);
    b = malloc(n * sizeof *b);
    c = malloc(n * sizeof *c);
    if (a == NULL || b == NULL || c == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "prove: cannot allocate 3 x %zu scalars", n);
        goto out;
    }
    rc = P(ntt_domain_create)(&dom, zk->log_domain_size, pool, ei);
    if (rc != CZ_OK)
        goto out;
    rc = P(ntt_coset_gen)(&g, zk->log_domain_size);
    if (rc != CZ_OK) {
        rc = cz_fail(ei, rc, "prove: no coset generator for domain 2^%u", zk->log_domain_size);
        goto out;
    }

    t = cz_clock_now_ns();
    I(groth16_eval_abc)(a, b, c, zk, wit);
    tm->witness_ms = (double)(cz_clock_now_ns() - t) / 1e6;

    t = cz_clock_now_ns();
    I(groth16_to_coset)(a, dom, &g, pool);
    I(groth16_to_coset)(b, dom, &g, pool);
    I(groth16_to_coset)(c, dom, &g, pool);
    P(ntt_mul_sub)(a, a, b, c, n, pool); /* a now holds the H MSM's scalars */
    tm->ntt_ms = (double)(cz_clock_now_ns() - t) / 1e6;
    free(b);
    free(c);
    b = c = NULL;

#define CZ_TIMED_MSM(field, call)                                                                  \
    do {                                                                                           \
        t = cz_clock_now_ns();                                                                     \
        rc = (call);                                                                               \
        tm->field = (double)(cz_clock_now_ns() - t) / 1e6;                                         \
        if (rc != CZ_OK) {                                                                         \
            rc = cz_fail(ei, rc, "prove: %s failed", #field);                                      \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)
    CZ_TIMED_MSM(msm_a_ms, P(g1_msm_bytes)(&msm_a, k->a, wit_bytes, nvars, pool));
    CZ_TIMED_MSM(msm_b1_ms, P(g1_msm_bytes)(&msm_b1, k->b1, wit_bytes, nvars, pool));
    CZ_TIMED_MSM(msm_b2_ms, P(g2_msm_bytes)(&msm_b2, k->b2, wit_bytes, nvars, pool));
    CZ_TIMED_MSM(msm_c_ms, P(g1_msm_bytes)(&msm_c, k->c, wit_bytes + 32 * (npub + 1),
                                           nvars - npub - 1, pool));
    CZ_TIMED_MSM(msm_h_ms, P(g1_msm)(&msm_h, k->h, a, n, pool));
#undef CZ_TIMED_MSM

    /* πA = A' + α₁ + r·δ₁ */
    I(g1_add_mixed)(&pa, &msm_a, &k->alpha1);
    I(g1_from_affine)(&t1, &k->delta1);
    I(g1_mul)(&t1, &t1, r);
    I(g1_add)(&pa, &pa, &t1);
    /* πB = B' + β₂ + s·δ₂ */
    I(g2_add_mixed)(&pb, &msm_b2, &k->beta2);
    I(g2_from_affine)(&t2, &k->delta2);
    I(g2_mul)(&t2, &t2, s);
    I(g2_add)(&pb, &pb, &t2);
    /* B1 = B1' + β₁ + s·δ₁ */
    I(g1_add_mixed)(&b1, &msm_b1, &k->beta1);
    I(g1_from_affine)(&t1, &k->delta1);
    I(g1_mul)(&t1, &t1, s);
    I(g1_add)(&b1, &b1, &t1);
    /* πC = C' + H' + s·πA + r·B1 - r·s·δ₁ */
    I(g1_add)(&pc, &msm_c, &msm_h);
    I(g1_mul)(&t1, &pa, s);
    I(g1_add)(&pc, &pc, &t1);
    I(g1_mul)(&t1, &b1, r);
    I(g1_add)(&pc, &pc, &t1);
    {
        I(fr_t) rs;
        I(fr_mul)(&rs, r, s);
        I(g1_from_affine)(&t1, &k->delta1);
        I(g1_mul)(&t1, &t1, &rs);
        I(g1_jac_neg)(&t1, &t1);
        I(g1_add)(&pc, &pc, &t1);
        memset(&rs, 0, sizeof rs);
    }
    I(g1_to_affine)(&proof->a, &pa);
    I(g2_to_affine)(&proof->b, &pb);
    I(g1_to_affine)(&proof->c, &pc);
    tm->total_ms = (double)(cz_clock_now_ns() - t0) / 1e6;

out:
    P(ntt_domain_destroy)(dom);
    free(a);
    free(b);
    free(c);
    return rc;
}

#undef I
#undef P
