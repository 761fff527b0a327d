/*
 * cz_groth16_setup_bellperson (cuzk/groth16_setup.h): the Groth16 parameters that bellperson's
 * generate_parameters makes for a constraint system, from a trapdoor, over BLS12-381 with the
 * standard generators. INSECURE by construction: for tests and benchmarks. docs/setup.md has the
 * formulas and the costs.
 *
 * With rows the r1cs rows, ninput = 1 + npublic and the input constraints appended (row rows + i
 * has A = input i, B = C = 0), m = 2^k >= rows + ninput and Z(τ) = τ^m − 1:
 *   H_i  = [τ^i·Z(τ)/δ]₁ for i < m − 1 (the monomial basis the prover's h coefficients use);
 *   u_j  = L_j(τ), the Lagrange basis of bellperson's domain at τ, as bellperson computes it: the
 *          inverse NTT of the powers τ^0 .. τ^(m−1);
 *   at_v = Σ coef·u_row over the A terms of variable v (plus u_(rows+i) for input i), bt_v and
 *          ct_v likewise from B and C;
 *   A    = [at_v]₁ for the variables whose A polynomial is non-zero, B_G1/B_G2 = [bt_v]₁,₂ for
 *          those whose B polynomial is non-zero, in variable order (inputs, then aux);
 *   IC_i = [(β·at + α·bt + ct)/γ]₁ for the inputs, L_j the same over δ for the aux variables.
 * The A and B sections leave out the zero polynomials, so the prover's densities must match them
 * exactly: a variable that occurs in A (or B) but whose polynomial vanishes at τ (cancelling or
 * zero coefficients, or an unlucky τ) is refused (CZ_EFORMAT naming it), as is an aux variable
 * with L = identity (bellperson's UnconstrainedVariable); an identity IC point (an unlucky τ) is
 * CZ_EINVAL.
 *
 * The fixed-base multiplications (H, A, B, IC, L: all but the verifying key's six) and the inverse
 * NTT run on the GPU when the caller names one, with the same results (the window tables are
 * built here and copied there); everything else runs on the pool.
 *
 * Memory: the output points, the fixed-base tables (at most 32 MiB each), two scalar arrays (the
 * Lagrange coefficients, m; the per-variable work array, max(m, nvars)), the NTT domain's
 * twiddles (16·m bytes, freed after the one transform), two occurrence bitmaps (nvars bits each)
 * and the coefficient table scaled by α and β. at, bt and the IC/L scalars are computed one after
 * the other in the same work array, each by a pass over the matrices; the passes are threaded by
 * variable ranges (each task scans every term and keeps those of its range, so no two tasks
 * write the same scalar or bitmap word). Every scalar array derived from the trapdoor is wiped
 * before it is freed.
 */
#include "cuzk/groth16_setup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/bellperson.h"
#include "cuzk/gpu.h"
#include "cuzk/ntt.h"
#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"
#include "curve/ec.h"
#include "field/field.h"
#include "groth16/setup_internal.h"

#define CURVE bls12381
#define GRP   g1
#include "groth16/setup_fixed_impl.h"
#undef GRP
#define GRP g2
#include "groth16/setup_fixed_impl.h"
#undef GRP
#undef CURVE

typedef cz_bls12381_fr fr;

/* The fixed-base multiplications of one setup: the window tables of the two generators, run on
 * the GPU dev (the tables copied there, cz_<curve>_gpu_<g>_fixed_mul) or, for dev < 0, on pool. */
typedef struct fixed_ctx {
    bls12381_g1_fb_table t1;
    bls12381_g2_fb_table t2;
    cz_threadpool *pool;
    int dev;
} fixed_ctx;

static int mul_g1(cz_bls12381_g1_affine *out, const fixed_ctx *f, const fr *k, size_t n,
                  cz_errinfo *ei) {
    if (f->dev >= 0)
        return cz_bls12381_gpu_g1_fixed_mul(out, f->t1.pts, f->t1.w, f->t1.nwin, k, n, f->dev, ei);
    bls12381_g1_fb_mul_many(out, &f->t1, k, n, f->pool);
    return CZ_OK;
}

static int mul_g2(cz_bls12381_g2_affine *out, const fixed_ctx *f, const fr *k, size_t n,
                  cz_errinfo *ei) {
    if (f->dev >= 0)
        return cz_bls12381_gpu_g2_fixed_mul(out, f->t2.pts, f->t2.w, f->t2.nwin, k, n, f->dev, ei);
    bls12381_g2_fb_mul_many(out, &f->t2, k, n, f->pool);
    return CZ_OK;
}

/* The inverse NTT over bellperson's domain of 2^k, in place: on the GPU dev or on pool. */
static int inverse_ntt(fr *a, unsigned k, const fixed_ctx *f, cz_errinfo *ei) {
    cz_bls12381_ntt_domain *dom = NULL;
    int rc;
    if (f->dev >= 0)
        return cz_bls12381_gpu_ntt(a, k, CZ_NTT_ROOTS_BELLPERSON, CZ_GPU_NTT_INVERSE, f->dev, ei);
    if ((rc = cz_bls12381_ntt_domain_create(&dom, k, CZ_NTT_ROOTS_BELLPERSON, f->pool, ei)) !=
        CZ_OK)
        return rc;
    cz_bls12381_ntt_inverse(a, dom, f->pool);
    cz_bls12381_ntt_domain_destroy(dom);
    return CZ_OK;
}

/* Coefficient kinds: one and minus one are added or subtracted without a multiplication. */
enum { KIND_OTHER = 0, KIND_ONE = 1, KIND_MINUS_ONE = 2 };

/* One accumulation pass: x[v] += Σ coef·lag[row] over the terms of mat, for v in the task's range;
 * occ (may be NULL) gets bit v for every variable met. kind (may be NULL: multiply always) says
 * which coefficients of table are ±1. */
typedef struct scatter_ctx {
    fr *x;
    uint64_t *occ;
    const cz_r1cs_mat *mat;
    uint32_t nrows;
    const fr *table, *lag;
    const uint8_t *kind;
    uint32_t nvars, per_task; /* per_task is a multiple of 64: tasks share no bitmap word */
} scatter_ctx;

static void scatter_task(void *arg, size_t task) {
    const scatter_ctx *c = arg;
    uint32_t v0 = (uint32_t)task * c->per_task;
    uint32_t span = c->nvars - v0 < c->per_task ? c->nvars - v0 : c->per_task;
    const cz_r1cs_mat *mt = c->mat;
    for (uint32_t r = 0; r < c->nrows; r++) {
        for (uint64_t t = mt->row_ptr[r]; t < mt->row_ptr[r + 1]; t++) {
            uint32_t v = mt->var[t], ci = mt->coef[t];
            if (v - v0 >= span)
                continue;
            if (c->occ != NULL)
                c->occ[v / 64] |= (uint64_t)1 << (v % 64);
            int kind = c->kind != NULL ? c->kind[ci] : KIND_OTHER;
            if (kind == KIND_ONE) {
                bls12381_fr_add(&c->x[v], &c->x[v], &c->lag[r]);
            } else if (kind == KIND_MINUS_ONE) {
                bls12381_fr_sub(&c->x[v], &c->x[v], &c->lag[r]);
            } else {
                fr p;
                bls12381_fr_mul(&p, &c->table[ci], &c->lag[r]);
                bls12381_fr_add(&c->x[v], &c->x[v], &p);
            }
        }
    }
}

static void scatter(fr *x, uint64_t *occ, const cz_r1cs *cs, const cz_r1cs_mat *mat,
                    const fr *table, const uint8_t *kind, const fr *lag, cz_threadpool *pool) {
    size_t nt = cz_threadpool_size(pool);
    uint32_t per = (uint32_t)((((uint64_t)cs->nvars + nt - 1) / nt + 63) / 64 * 64);
    scatter_ctx c = {x, occ, mat, cs->nrows, table, lag, kind, cs->nvars, per};
    cz_threadpool_run(pool, scatter_task, &c, ((uint64_t)cs->nvars + per - 1) / per);
}

/* The names of variable v in messages: "input i" or "aux j (variable v)". */
static void var_name(char *buf, size_t len, uint32_t v, uint32_t ninput) {
    if (v < ninput)
        snprintf(buf, len, "input %u", v);
    else
        snprintf(buf, len, "aux %u (variable %u)", v - ninput, v);
}

/*
 * Checks that every variable met in the matrix (bit set in occ) has a non-zero polynomial at τ,
 * then moves the non-zero x[v] to the front in variable order; *n = how many. The variables not
 * met are zero by construction. CZ_EFORMAT naming the first variable that breaks it.
 */
static int compact(fr *x, size_t *n, const uint64_t *occ, uint32_t nvars, uint32_t ninput,
                   const char *matrix, cz_errinfo *ei) {
    size_t k = 0;
    for (uint32_t v = 0; v < nvars; v++) {
        int met = (int)((occ[v / 64] >> (v % 64)) & 1u), zero = bls12381_fr_is_zero(&x[v]);
        if (met && zero) {
            char name[64];
            var_name(name, sizeof name, v, ninput);
            return cz_fail(ei, CZ_EFORMAT,
                           "setup: %s occurs in %s but its %s polynomial is zero at tau (its "
                           "coefficients cancel or are zero, or tau is a root): the key would not "
                           "match the prover's density",
                           name, matrix, matrix);
        }
        if (!zero)
            x[k++] = x[v];
    }
    *n = k;
    return CZ_OK;
}

/* A malloc'd array of n points (NULL when n = 0, as the .params reader leaves it). */
static int alloc_points(void **p, size_t n, size_t bytes, const char *what, cz_errinfo *ei) {
    *p = NULL;
    if (n == 0)
        return CZ_OK;
    *p = malloc(n * bytes);
    if (*p == NULL)
        return cz_fail(ei, CZ_ENOMEM, "setup: cannot allocate %zu %s points", n, what);
    return CZ_OK;
}

/* Per coefficient of the table: KIND_ONE, KIND_MINUS_ONE or KIND_OTHER. */
static void classify(uint8_t *kind, const cz_r1cs *cs) {
    fr one, minus_one;
    bls12381_fr_set_one(&one);
    bls12381_fr_neg(&minus_one, &one);
    for (uint32_t i = 0; i < cs->ncoefs; i++) {
        fr c;
        memcpy(c.l, cs->coefs[i], sizeof c.l);
        kind[i] = bls12381_fr_eq(&c, &one)         ? KIND_ONE
                  : bls12381_fr_eq(&c, &minus_one) ? KIND_MINUS_ONE
                                                   : KIND_OTHER;
    }
}

/* The checks on cs before any allocation; *k = log2 of the domain. */
static int check_system(unsigned *k, const cz_r1cs *cs, cz_errinfo *ei) {
    uint64_t ncons = (uint64_t)cs->nrows + 1 + cs->npublic;
    int rc;
    if (cs->curve != CZ_CURVE_BLS12381)
        return cz_fail(ei, CZ_ECURVE, "setup: bellperson parameters are over BLS12-381, not %s",
                       cz_curve_name(cs->curve));
    if ((uint64_t)cs->nvars != 1 + (uint64_t)cs->npublic + cs->naux)
        return cz_fail(ei, CZ_EINVAL, "setup: nvars = %u is not 1 + %u public + %u aux", cs->nvars,
                       cs->npublic, cs->naux);
    if ((rc = cz_r1cs_validate(cs, ei)) != CZ_OK)
        return rc;
    /* bellperson's EvaluationDomain refuses exponents from the 2-adicity (32) up. */
    *k = 0;
    while (((uint64_t)1 << *k) < ncons)
        ++*k;
    if (*k >= BLS12381_FR_TWO_ADICITY)
        return cz_fail(ei, CZ_ERANGE,
                       "setup: %u constraints + %u input constraints need a domain of 2^%u; "
                       "bellperson's largest is 2^%u",
                       cs->nrows, cs->npublic + 1, *k, BLS12381_FR_TWO_ADICITY - 1);
    return CZ_OK;
}

int cz_groth16_setup_bellperson(cz_bellperson_params *out, const cz_r1cs *cs,
                                const cz_groth16_trapdoor *td, cz_threadpool *pool, int dev,
                                cz_errinfo *ei) {
    fr t[5]; /* τ, α, β, γ, δ */
    fr one, tm, zt, coeff, ginv, dinv, *lag = NULL, *x = NULL, *scaled = NULL;
    uint64_t *occ_a = NULL, *occ_b = NULL;
    uint8_t *kind = NULL;
    fixed_ctx f = {{0}, {0}, pool, dev < 0 ? -1 : dev};
    unsigned k = 0;
    size_t m = 0, nvars = cs->nvars, ninput = (size_t)cs->npublic + 1, na = 0, nb = 0, big = 0,
           words;
    int rc;

    memset(out, 0, sizeof *out);
    memset(t, 0, sizeof t);
    if ((rc = check_system(&k, cs, ei)) != CZ_OK)
        goto out;
    if (dev >= 0) { /* a missing GPU fails here, not after the tables */
        cz_gpu_info info;
        if ((rc = cz_gpu_device_info(&info, dev, ei)) != CZ_OK)
            goto out;
    }
    m = (size_t)1 << k;
    big = m > nvars ? m : nvars;
    words = (nvars + 63) / 64;
    if ((rc = cz__setup_trapdoor_bls12381(t, td, td == NULL, ei)) != CZ_OK)
        goto out;
    bls12381_fr_set_one(&one);
    uint64_t e = m;
    bls12381_fr_pow_limbs(&tm, &t[0], &e, 1);
    bls12381_fr_sub(&zt, &tm, &one);
    if (bls12381_fr_is_zero(&zt)) {
        rc = cz_fail(ei, CZ_EINVAL, "setup: tau lies on the evaluation domain (tau^%zu = 1)", m);
        goto out;
    }

    lag = malloc(m * sizeof *lag);
    x = malloc(big * sizeof *x);
    occ_a = calloc(words, sizeof *occ_a);
    occ_b = calloc(words, sizeof *occ_b);
    kind = malloc(cs->ncoefs ? cs->ncoefs : 1);
    scaled = malloc(2 * (cs->ncoefs ? cs->ncoefs : 1) * sizeof *scaled);
    out->vk.ic = malloc(ninput * sizeof *out->vk.ic);
    if (!lag || !x || !occ_a || !occ_b || !kind || !scaled || !out->vk.ic) {
        rc = cz_fail(ei, CZ_ENOMEM, "setup: cannot allocate work arrays for 2^%u rows", k);
        goto out;
    }
    out->vk.nic = (uint32_t)ninput;
    out->nh = (uint32_t)(m - 1);
    out->nl = cs->naux;
    if ((rc = alloc_points((void **)&out->h, m - 1, sizeof *out->h, "H", ei)) != CZ_OK ||
        (rc = alloc_points((void **)&out->l, cs->naux, sizeof *out->l, "L", ei)) != CZ_OK)
        goto out;

    /* Tables for the H, IC/L, A and B_G1 points (G1) and the B_G2 points. */
    if ((rc = bls12381_g1_fb_build(&f.t1, m + 3 * nvars, pool, ei)) != CZ_OK ||
        (rc = bls12381_g2_fb_build(&f.t2, nvars, pool, ei)) != CZ_OK)
        goto out;

    /* The verifying key's six points. */
    {
        fr s1[3] = {t[1], t[2], t[4]}, s2[3] = {t[2], t[3], t[4]};
        cz_bls12381_g1_affine p1[3];
        cz_bls12381_g2_affine p2[3];
        bls12381_g1_fb_mul_many(p1, &f.t1, s1, 3, NULL);
        bls12381_g2_fb_mul_many(p2, &f.t2, s2, 3, NULL);
        out->vk.alpha_g1 = p1[0];
        out->vk.beta_g1 = p1[1];
        out->vk.delta_g1 = p1[2];
        out->vk.beta_g2 = p2[0];
        out->vk.gamma_g2 = p2[1];
        out->vk.delta_g2 = p2[2];
        cz__setup_wipe(s1, sizeof s1);
        cz__setup_wipe(s2, sizeof s2);
    }

    /* Powers of τ, then H_i = τ^i·Z(τ)/δ. */
    cz_bls12381_ntt_mul_powers(lag, NULL, &one, &t[0], m, pool);
    bls12381_fr_inv(&dinv, &t[4]);
    bls12381_fr_inv(&ginv, &t[3]);
    bls12381_fr_mul(&coeff, &zt, &dinv);
    cz_bls12381_ntt_scale(x, lag, &coeff, m - 1, pool);
    if ((rc = mul_g1(out->h, &f, x, m - 1, ei)) != CZ_OK)
        goto out;

    /* Lagrange coefficients: the inverse NTT of the powers (bellperson's ifft). */
    if ((rc = inverse_ntt(lag, k, &f, ei)) != CZ_OK)
        goto out;

    /* A: at_v, the input constraints' u_(rows+i) included (every input occurs in A). */
    classify(kind, cs);
    const fr *table = (const fr *)(const void *)cs->coefs;
    memset(x, 0, nvars * sizeof *x);
    scatter(x, occ_a, cs, &cs->a, table, kind, lag, pool);
    for (size_t i = 0; i < ninput; i++) {
        bls12381_fr_add(&x[i], &x[i], &lag[cs->nrows + i]);
        occ_a[i / 64] |= (uint64_t)1 << (i % 64);
    }
    if ((rc = compact(x, &na, occ_a, cs->nvars, (uint32_t)ninput, "A", ei)) != CZ_OK ||
        (rc = alloc_points((void **)&out->a, na, sizeof *out->a, "A", ei)) != CZ_OK)
        goto out;
    out->na = (uint32_t)na;
    if ((rc = mul_g1(out->a, &f, x, na, ei)) != CZ_OK)
        goto out;

    /* B: bt_v, in G1 and G2. */
    memset(x, 0, nvars * sizeof *x);
    scatter(x, occ_b, cs, &cs->b, table, kind, lag, pool);
    if ((rc = compact(x, &nb, occ_b, cs->nvars, (uint32_t)ninput, "B", ei)) != CZ_OK ||
        (rc = alloc_points((void **)&out->b_g1, nb, sizeof *out->b_g1, "B_G1", ei)) != CZ_OK ||
        (rc = alloc_points((void **)&out->b_g2, nb, sizeof *out->b_g2, "B_G2", ei)) != CZ_OK)
        goto out;
    out->nb_g1 = out->nb_g2 = (uint32_t)nb;
    if ((rc = mul_g1(out->b_g1, &f, x, nb, ei)) != CZ_OK ||
        (rc = mul_g2(out->b_g2, &f, x, nb, ei)) != CZ_OK)
        goto out;

    /* IC and L: β·at + α·bt + ct, with the table scaled once by β (A terms) and α (B terms). */
    for (uint32_t i = 0; i < cs->ncoefs; i++) {
        memcpy(scaled[i].l, cs->coefs[i], sizeof scaled[i].l);
        bls12381_fr_mul(&scaled[cs->ncoefs + i], &scaled[i], &t[1]);
        bls12381_fr_mul(&scaled[i], &scaled[i], &t[2]);
    }
    memset(x, 0, nvars * sizeof *x);
    scatter(x, NULL, cs, &cs->a, scaled, NULL, lag, pool);
    scatter(x, NULL, cs, &cs->b, scaled + cs->ncoefs, NULL, lag, pool);
    scatter(x, NULL, cs, &cs->c, table, kind, lag, pool);
    for (size_t v = 0; v < nvars; v++) {
        if (v < ninput) {
            fr p;
            bls12381_fr_mul(&p, &lag[cs->nrows + v], &t[2]);
            bls12381_fr_add(&x[v], &x[v], &p);
        }
        bls12381_fr_mul(&x[v], &x[v], v < ninput ? &ginv : &dinv);
        if (bls12381_fr_is_zero(&x[v])) {
            char name[64];
            var_name(name, sizeof name, (uint32_t)v, (uint32_t)ninput);
            rc = cz_fail(ei, v < ninput ? CZ_EINVAL : CZ_EFORMAT,
                         v < ninput ? "setup: the IC point of %s is the identity (an unlucky tau)"
                                    : "setup: %s is unconstrained (its L point is the identity)",
                         name);
            goto out;
        }
    }
    if ((rc = mul_g1(out->vk.ic, &f, x, ninput, ei)) == CZ_OK)
        rc = mul_g1(out->l, &f, x + ninput, cs->naux, ei);

out:
    bls12381_g1_fb_free(&f.t1);
    bls12381_g2_fb_free(&f.t2);
    cz__setup_wipe(t, sizeof t);
    cz__setup_wipe(&coeff, sizeof coeff);
    cz__setup_wipe(&ginv, sizeof ginv);
    cz__setup_wipe(&dinv, sizeof dinv);
    cz__setup_wipe(&tm, sizeof tm);
    cz__setup_wipe(&zt, sizeof zt);
    if (lag != NULL)
        cz__setup_wipe(lag, m * sizeof *lag);
    if (x != NULL)
        cz__setup_wipe(x, big * sizeof *x);
    if (scaled != NULL)
        cz__setup_wipe(scaled, 2 * (cs->ncoefs ? cs->ncoefs : 1) * sizeof *scaled);
    free(lag);
    free(x);
    free(scaled);
    free(kind);
    free(occ_a);
    free(occ_b);
    if (rc != CZ_OK) {
        cz_bellperson_params_free(out);
        memset(out, 0, sizeof *out);
    }
    return rc;
}
