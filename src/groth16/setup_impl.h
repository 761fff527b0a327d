/*
 * The test-key setup for one curve, written once and instantiated by setup.c after defining
 * CURVE (bn254 | bls12381). See cuzk/groth16_setup.h and docs/setup.md.
 *
 * With n = 2^k, ω = w[k], g the prover's coset generator (w[k+1]), Z(X) = Xⁿ - 1:
 *   L_i(τ)  = Z(τ)/n · ωⁱ/(τ - ωⁱ)                       n-domain Lagrange basis, rows i < nrows
 *   u_s     = Σ_rows A[row][s]·L_row(τ) (+ L_{nCons+s} for s <= nPublic), v_s from B, w_s from C
 *   H_i     = (τⁿ - gⁿ)·Z(τ) / (n·gⁿ·(gⁿ - 1)·δ) · c_i/(τ - c_i),  c_i = g·ωⁱ
 * H_i is the coset Lagrange polynomial ℓ_i(τ) times Z(τ)/(Z(c_i)·δ), so Σ_i P(c_i)·H_i =
 * [P(τ)/δ]₁ for P = h·Z of degree < 2n — exactly what the prover's H MSM needs. For g = w[k+1]
 * (gⁿ = -1) it is snarkjs's L'_{2i+1}(τ)/δ over the 2n-domain; the general form also covers
 * k = 2-adicity, where the prover's coset generator is 25.
 * The inverses 1/(τ - x) are batched: one field inversion per chunk of SU_CHUNK rows.
 */
#define I(name) CZ_CAT3(CURVE, _, name)
#define P(name) CZ_CAT3(CZ_CAT(cz_, CURVE), _, name)

typedef P(fr) I(su_fr);

#define GRP g1
#include "groth16/setup_fixed_impl.h"
#undef GRP
#define GRP g2
#include "groth16/setup_fixed_impl.h"
#undef GRP

/* out[i] = K·x_i/(τ - x_i) with x_i = c0·ωⁱ, i < count; scratch holds count elements. */
typedef struct I(su_ratio_ctx) {
    I(su_fr) * out, *scratch;
    const I(su_fr) * tau, *omega, *c0, *k;
    size_t count;
} I(su_ratio_ctx);

static void I(su_ratio_task)(void *arg, size_t task) {
    const I(su_ratio_ctx) *c = arg;
    size_t i0 = task * SU_CHUNK, cnt = c->count - i0 < SU_CHUNK ? c->count - i0 : SU_CHUNK;
    I(su_fr) x, d, acc, inv, t;
    uint64_t e = i0;
    I(fr_pow_limbs)(&x, c->omega, &e, 1);
    I(fr_mul)(&x, &x, c->c0);
    I(fr_set_one)(&acc);
    for (size_t i = i0; i < i0 + cnt; i++) {
        c->out[i] = x;
        I(fr_sub)(&d, c->tau, &x);
        I(fr_mul)(&acc, &acc, &d);
        c->scratch[i] = acc; /* Π_{j<=i} (τ - x_j) over the chunk */
        I(fr_mul)(&x, &x, c->omega);
    }
    I(fr_inv)(&inv, &acc);
    for (size_t i = i0 + cnt; i-- > i0;) {
        I(fr_sub)(&d, c->tau, &c->out[i]);
        if (i > i0)
            I(fr_mul)(&t, &inv, &c->scratch[i - 1]); /* 1/(τ - x_i) */
        else
            t = inv;
        I(fr_mul)(&inv, &inv, &d);
        I(fr_mul)(&t, &t, &c->out[i]);
        I(fr_mul)(&c->out[i], &t, c->k);
    }
}

static void I(su_ratio)(I(su_fr) * out, I(su_fr) * scratch, size_t count, const I(su_fr) * tau,
                        const I(su_fr) * omega, const I(su_fr) * c0, const I(su_fr) * k,
                        cz_threadpool *pool) {
    I(su_ratio_ctx) c = {out, scratch, tau, omega, c0, k, count};
    if (count > 0)
        cz_threadpool_run(pool, I(su_ratio_task), &c, (count + SU_CHUNK - 1) / SU_CHUNK);
}

/* Adds coef·l to acc[term.wire] for every term of lc. */
static void I(su_accumulate)(I(su_fr) * acc, const cz_r1cs_lc *lc, const I(su_fr) * l) {
    for (size_t t = 0; t < lc->nterms; t++) {
        I(su_fr) m;
        I(fr_to_mont)(&m, lc->terms[t].coef);
        I(fr_mul)(&m, &m, l);
        I(fr_add)(&acc[lc->terms[t].wire], &acc[lc->terms[t].wire], &m);
    }
}

/* Appends one section-4 entry per term of lc to buf (flushing to w when full). */
static int I(su_put_coefs)(cz__zkey_writer *w, uint8_t *buf, size_t *fill, uint32_t matrix,
                           uint32_t row, const cz_r1cs_lc *lc, cz_errinfo *ei) {
    for (size_t t = 0; t < lc->nterms; t++) {
        I(su_fr) m, m2;
        uint8_t *e = buf + *fill * CZ_ZKEY_COEF_BYTES;
        uint32_t hdr[3] = {matrix, row, lc->terms[t].wire};
        I(fr_to_mont)(&m, lc->terms[t].coef); /* v·R */
        I(fr_to_mont)(&m2, m.l);              /* v·R² */
        memcpy(e, hdr, sizeof hdr);
        memcpy(e + 12, m2.l, 32);
        if (++*fill == SU_COEF_BUF) {
            int rc = cz__zkey_writer_put(w, buf, *fill * CZ_ZKEY_COEF_BYTES, ei);
            *fill = 0;
            if (rc != CZ_OK)
                return rc;
        }
    }
    return CZ_OK;
}

/* Section 4: the r1cs A and B terms row by row, then the public-input rows. */
static int I(su_write_coefs)(cz__zkey_writer *w, const cz_r1cs_file *r1cs, uint32_t npub,
                             cz_errinfo *ei) {
    const cz_r1cs_constraint *cs = r1cs->constraints;
    uint64_t ncoef = (uint64_t)npub + 1;
    size_t fill = 0;
    uint8_t *buf = NULL;
    int rc;
    for (uint32_t i = 0; i < r1cs->nconstraints; i++)
        ncoef += cs[i].a.nterms + cs[i].b.nterms;
    if (ncoef > UINT32_MAX)
        return cz_fail(ei, CZ_ERANGE, "setup: %llu A/B coefficients do not fit a zkey",
                       (unsigned long long)ncoef);
    buf = malloc(SU_COEF_BUF * CZ_ZKEY_COEF_BYTES);
    if (buf == NULL)
        return cz_fail(ei, CZ_ENOMEM, "setup: out of memory");
    rc = cz__zkey_writer_begin(w, 4, 4 + ncoef * CZ_ZKEY_COEF_BYTES, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put_u32(w, (uint32_t)ncoef, ei);
    for (uint32_t i = 0; rc == CZ_OK && i < r1cs->nconstraints; i++) {
        rc = I(su_put_coefs)(w, buf, &fill, 0, i, &cs[i].a, ei);
        if (rc == CZ_OK)
            rc = I(su_put_coefs)(w, buf, &fill, 1, i, &cs[i].b, ei);
    }
    for (uint32_t s = 0; rc == CZ_OK && s <= npub; s++) {
        cz_r1cs_term one = {s, {1, 0, 0, 0}};
        cz_r1cs_lc lc = {1, &one};
        rc = I(su_put_coefs)(w, buf, &fill, 0, r1cs->nconstraints + s, &lc, ei);
    }
    if (rc == CZ_OK && fill > 0)
        rc = cz__zkey_writer_put(w, buf, fill * CZ_ZKEY_COEF_BYTES, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_end(w, ei);
    free(buf);
    return rc;
}

/* Writes one point section from a buffer. */
static int I(su_write_points)(cz__zkey_writer *w, uint32_t id, const void *pts, size_t bytes,
                              cz_errinfo *ei) {
    int rc = cz__zkey_writer_begin(w, id, bytes, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put(w, pts, bytes, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_end(w, ei);
    return rc;
}

/* The trapdoor in Montgomery form: tau, alpha, beta, gamma, delta. */
typedef struct I(su_td) {
    I(su_fr) tau, alpha, beta, gamma, delta;
} I(su_td);

/* Reads the caller's five values (each < r; α, β, γ, δ non-zero), or draws τ, α, β, δ from the
 * CSPRNG when td is NULL, with γ = 1 (snarkjs) or, with draw_gamma, drawn too (bellperson). */
static int I(su_read_trapdoor)(I(su_td) * o, const cz_groth16_trapdoor *td, int draw_gamma,
                               cz_errinfo *ei) {
    static const char *const names[5] = {"tau", "alpha", "beta", "gamma", "delta"};
    I(su_fr) * dst[5] = {&o->tau, &o->alpha, &o->beta, &o->gamma, &o->delta};
    for (int i = 0; i < 5; i++) {
        if (td != NULL) {
            const uint8_t *in[5] = {td->tau, td->alpha, td->beta, td->gamma, td->delta};
            if (I(fr_from_bytes_le)(dst[i], in[i]) != CZ_OK)
                return cz_fail(ei, CZ_ERANGE, "setup: trapdoor %s is not below r", names[i]);
            if (i > 0 && I(fr_is_zero)(dst[i]))
                return cz_fail(ei, CZ_EINVAL, "setup: trapdoor %s is zero", names[i]);
        } else if (i == 3 && !draw_gamma) {
            I(fr_set_one)(dst[i]);
        } else {
            do {
                if (P(fr_random)(dst[i]) != CZ_OK)
                    return cz_fail(ei, CZ_EIO, "setup: no randomness for the trapdoor");
            } while (I(fr_is_zero)(dst[i]));
        }
    }
    return CZ_OK;
}

static int I(groth16_setup)(cz__zkey_writer *w, const cz_r1cs_file *r1cs, const I(su_td) * td,
                            unsigned k, cz_threadpool *pool, cz_errinfo *ei) {
    const uint32_t nvars = r1cs->nwires, ncons = r1cs->nconstraints;
    const uint32_t npub = r1cs->npub_out + r1cs->npub_in;
    const size_t n = (size_t)1 << k, nrows = (size_t)ncons + npub + 1;
    I(su_fr)
    omega, g, tn, gn, zt, kk, t, one, ninv, *l = NULL, *u = NULL, *v = NULL, *ww = NULL, *sc = NULL,
                                            *scratch = NULL;
    P(g1_affine) *p1 = NULL, *pc = NULL, hp1[3];
    P(g2_affine) *p2 = NULL, hp2[3];
    I(g1_fb_table) t1 = {0};
    I(g2_fb_table) t2 = {0};
    size_t g1b = sizeof(P(g1_affine)), g2b = sizeof(P(g2_affine)), big = nvars > n ? nvars : n;
    int rc;

    if (P(ntt_root_of_unity)(&omega, k, CZ_NTT_ROOTS_SNARKJS) != CZ_OK ||
        P(ntt_coset_gen)(&g, k, CZ_NTT_ROOTS_SNARKJS) != CZ_OK)
        return cz_fail(ei, CZ_ERANGE, "setup: no FFT domain of size 2^%u", k);
    I(fr_set_one)(&one);
    uint64_t ne = n;
    I(fr_pow_limbs)(&tn, &td->tau, &ne, 1);
    I(fr_pow_limbs)(&gn, &g, &ne, 1);
    if (I(fr_eq)(&tn, &one) || I(fr_eq)(&tn, &gn))
        return cz_fail(ei, CZ_EINVAL,
                       "setup: tau lies on the evaluation domain or its coset (tau^n = 1 or g^n)");

    l = malloc(nrows * sizeof *l);
    u = calloc(nvars, sizeof *u);
    v = calloc(nvars, sizeof *v);
    ww = calloc(nvars, sizeof *ww);
    sc = malloc(big * sizeof *sc);
    scratch = malloc(big * sizeof *scratch);
    p1 = malloc(big * g1b);
    pc = malloc(nvars * g1b);
    p2 = malloc(nvars * g2b);
    if (!l || !u || !v || !ww || !sc || !scratch || !p1 || !pc || !p2) {
        rc = cz_fail(ei, CZ_ENOMEM, "setup: cannot allocate work arrays for 2^%u rows", k);
        goto out;
    }

    /* L_i(τ) for the rows that carry coefficients: K = Z(τ)/n. */
    I(fr_from_u64)(&ninv, n);
    I(fr_inv)(&ninv, &ninv);
    I(fr_sub)(&zt, &tn, &one);
    I(fr_mul)(&kk, &zt, &ninv);
    I(su_ratio)(l, scratch, nrows, &td->tau, &omega, &one, &kk, pool);

    /* u, v, w per signal. */
    for (uint32_t i = 0; i < ncons; i++) {
        I(su_accumulate)(u, &r1cs->constraints[i].a, &l[i]);
        I(su_accumulate)(v, &r1cs->constraints[i].b, &l[i]);
        I(su_accumulate)(ww, &r1cs->constraints[i].c, &l[i]);
    }
    for (uint32_t s = 0; s <= npub; s++)
        I(fr_add)(&u[s], &u[s], &l[ncons + s]);

    rc = I(g1_fb_build)(&t1, 3 * (size_t)nvars + n, pool, ei);
    if (rc == CZ_OK)
        rc = I(g2_fb_build)(&t2, nvars, pool, ei);
    if (rc != CZ_OK)
        goto out;

    /* Header: α1, β1, δ1 in G1; β2, γ2, δ2 in G2. */
    {
        I(su_fr) h1[3] = {td->alpha, td->beta, td->delta}, h2[3] = {td->beta, td->gamma, td->delta};
        I(g1_fb_mul_many)(hp1, &t1, h1, 3, NULL);
        I(g2_fb_mul_many)(hp2, &t2, h2, 3, NULL);
        cz__zkey_header hdr = {CZ_CURVE_ID, nvars,   npub,    (uint32_t)n, &hp1[0],
                               &hp1[1],     &hp2[0], &hp2[1], &hp1[2],     &hp2[2]};
        rc = cz__zkey_write_protocol(w, ei);
        if (rc == CZ_OK)
            rc = cz__zkey_write_header(w, &hdr, ei);
        if (rc != CZ_OK)
            goto out;
    }

    /* IC (s <= nPublic) and C (s > nPublic): (β·u_s + α·v_s + w_s)/γ or /δ. */
    {
        I(su_fr) ginv, dinv;
        I(fr_inv)(&ginv, &td->gamma);
        I(fr_inv)(&dinv, &td->delta);
        for (uint32_t s = 0; s < nvars; s++) {
            I(fr_mul)(&sc[s], &td->beta, &u[s]);
            I(fr_mul)(&t, &td->alpha, &v[s]);
            I(fr_add)(&sc[s], &sc[s], &t);
            I(fr_add)(&sc[s], &sc[s], &ww[s]);
            I(fr_mul)(&sc[s], &sc[s], s <= npub ? &ginv : &dinv);
        }
    }
    /* pc keeps IC and C: C is written after A, B1 and B2 (sections in id order). */
    I(g1_fb_mul_many)(pc, &t1, sc, nvars, pool);
    rc = I(su_write_points)(w, 3, pc, (size_t)(npub + 1) * g1b, ei);
    if (rc == CZ_OK)
        rc = I(su_write_coefs)(w, r1cs, npub, ei);
    if (rc == CZ_OK) {
        I(g1_fb_mul_many)(p1, &t1, u, nvars, pool);
        rc = I(su_write_points)(w, 5, p1, (size_t)nvars * g1b, ei);
    }
    if (rc == CZ_OK) {
        I(g1_fb_mul_many)(p1, &t1, v, nvars, pool);
        rc = I(su_write_points)(w, 6, p1, (size_t)nvars * g1b, ei);
    }
    if (rc == CZ_OK) {
        I(g2_fb_mul_many)(p2, &t2, v, nvars, pool);
        rc = I(su_write_points)(w, 7, p2, (size_t)nvars * g2b, ei);
    }
    if (rc == CZ_OK)
        rc = I(su_write_points)(w, 8, pc + npub + 1, (size_t)(nvars - npub - 1) * g1b, ei);
    if (rc != CZ_OK)
        goto out;

    /* H: K = (τⁿ - gⁿ)·Z(τ) / (n·gⁿ·(gⁿ - 1)·δ), x_i = g·ωⁱ. */
    {
        I(su_fr) num, den;
        I(fr_sub)(&num, &tn, &gn);
        I(fr_mul)(&num, &num, &zt);
        I(fr_sub)(&den, &gn, &one);
        I(fr_mul)(&den, &den, &gn);
        I(fr_mul)(&den, &den, &td->delta);
        I(fr_inv)(&den, &den);
        I(fr_mul)(&kk, &num, &den);
        I(fr_mul)(&kk, &kk, &ninv);
    }
    I(su_ratio)(sc, scratch, n, &td->tau, &omega, &g, &kk, pool);
    I(g1_fb_mul_many)(p1, &t1, sc, n, pool);
    rc = I(su_write_points)(w, 9, p1, n * g1b, ei);
    if (rc == CZ_OK) {
        static const uint8_t zero_hash[64];
        rc = cz__zkey_write_mpc_empty(w, zero_hash, ei);
    }

out:
    I(g1_fb_free)(&t1);
    I(g2_fb_free)(&t2);
    free(l);
    free(u);
    free(v);
    free(ww);
    free(sc);
    free(scratch);
    free(p1);
    free(pc);
    free(p2);
    return rc;
}

#undef I
#undef P
