/*
 * The prover of bellperson keys from proving assignments (cuzk/groth16_bellperson.h): checks,
 * the per-circuit steps on the CPU, and the epilogue, which the GPU backend
 * (prove_bellperson_gpu.c) shares.
 *
 * Per circuit on the CPU: h from a, b, c by 6 NTTs over bellperson's domain (bp_h), then the
 * five MSMs. A and B take their scalars through the densities: the key holds bases only for
 * the variables a circuit's A (or B) touches, in variable order, so the MSM's scalars are the
 * values of exactly those variables, gathered in order (bp_gather). Memory per circuit: three
 * domain-sized Fr vectors for h (96 bytes per row), then the gathered scalars (at most 32 bytes
 * per variable) and the MSMs' buckets.
 */
#include "cuzk/groth16_bellperson.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/msm.h"
#include "cuzk/ntt.h"
#include "curve/ec.h"
#include "field/field.h"
#include "groth16/prove_bellperson.h"

/* Wipes memory in a way the compiler may not drop as a dead store (the blinding factors). */
static void wipe(void *p, size_t n) {
    volatile unsigned char *v = p;
    while (n--)
        *v++ = 0;
}

int cz__bp_check_one(unsigned *log_n, const cz_bellperson_params *params, const cz_assignment *as,
                     size_t i, cz_errinfo *ei) {
    size_t dom = (size_t)params->nh + 1;
    size_t na = cz_density_popcount(as->a_aux_density, as->naux);
    size_t nb = cz_density_popcount(as->b_input_density, as->ninput) +
                cz_density_popcount(as->b_aux_density, as->naux);
    if ((dom & (dom - 1)) != 0 || dom < 2)
        return cz_fail(ei, CZ_EFORMAT,
                       "bellperson prove: the key's H has %u points, not a power of two minus one",
                       params->nh);
    *log_n = (unsigned)__builtin_ctzll((unsigned long long)dom); /* <= 32: |H| is a u32 */
    if (as->ninput == 0 || as->ninput != params->vk.nic)
        return cz_fail(ei, CZ_EFORMAT,
                       "bellperson prove: circuit %zu has %zu inputs (ONE included), the key %u "
                       "(|IC|)",
                       i, as->ninput, params->vk.nic);
    if (as->naux != params->nl)
        return cz_fail(ei, CZ_EFORMAT,
                       "bellperson prove: circuit %zu has %zu aux variables, the key %u (|L|)", i,
                       as->naux, params->nl);
    if (as->ninput + na != params->na)
        return cz_fail(ei, CZ_EFORMAT,
                       "bellperson prove: circuit %zu has %zu inputs + %zu aux in A, the key %u A "
                       "points",
                       i, as->ninput, na, params->na);
    if (nb != params->nb_g1 || nb != params->nb_g2)
        return cz_fail(ei, CZ_EFORMAT,
                       "bellperson prove: circuit %zu has %zu variables in B, the key %u B_G1 and "
                       "%u B_G2 points",
                       i, nb, params->nb_g1, params->nb_g2);
    if (as->abc_size > dom)
        return cz_fail(ei, CZ_EFORMAT,
                       "bellperson prove: circuit %zu has %zu constraints, more than the key's "
                       "domain of %zu",
                       i, as->abc_size, dom);
    return CZ_OK;
}

size_t cz__bp_gather(cz_bls12381_fr *out, const cz_bls12381_fr *input, const uint64_t *in_density,
                     size_t ninput, const cz_bls12381_fr *aux, const uint64_t *aux_density,
                     size_t naux) {
    size_t k = 0;
    for (size_t i = 0; i < ninput; i++)
        if (in_density == NULL || cz_density_bit(in_density, i))
            out[k++] = input[i];
    for (size_t j = 0; j < naux; j++)
        if (cz_density_bit(aux_density, j))
            out[k++] = aux[j];
    return k;
}

/* The proof from the MSM results: bellperson's combination (see the header). */
static void epilogue(cz_groth16_proof *proof, const cz_bellperson_vk *vk, const cz__bp_msms *m,
                     const cz_bls12381_fr *r, const cz_bls12381_fr *s) {
    cz_bls12381_g1_jacobian ga, gc, t;
    cz_bls12381_g2_jacobian gb, t2;
    cz_bls12381_fr rs;
    /* πA = A' + α₁ + r·δ₁ */
    bls12381_g1_from_affine(&t, &vk->delta_g1);
    bls12381_g1_mul(&ga, &t, r);
    bls12381_g1_add_mixed(&ga, &ga, &vk->alpha_g1);
    bls12381_g1_add(&ga, &ga, &m->a);
    /* πB = B2' + β₂ + s·δ₂ */
    bls12381_g2_from_affine(&t2, &vk->delta_g2);
    bls12381_g2_mul(&gb, &t2, s);
    bls12381_g2_add_mixed(&gb, &gb, &vk->beta_g2);
    bls12381_g2_add(&gb, &gb, &m->b2);
    /* πC = s·A' + r·B1' + r·s·δ₁ + s·α₁ + r·β₁ + H' + L' */
    bls12381_g1_mul(&gc, &m->a, s);
    bls12381_g1_mul(&t, &m->b1, r);
    bls12381_g1_add(&gc, &gc, &t);
    bls12381_fr_mul(&rs, r, s);
    bls12381_g1_from_affine(&t, &vk->delta_g1);
    bls12381_g1_mul(&t, &t, &rs);
    bls12381_g1_add(&gc, &gc, &t);
    bls12381_g1_from_affine(&t, &vk->alpha_g1);
    bls12381_g1_mul(&t, &t, s);
    bls12381_g1_add(&gc, &gc, &t);
    bls12381_g1_from_affine(&t, &vk->beta_g1);
    bls12381_g1_mul(&t, &t, r);
    bls12381_g1_add(&gc, &gc, &t);
    bls12381_g1_add(&gc, &gc, &m->h);
    bls12381_g1_add(&gc, &gc, &m->l);
    wipe(&rs, sizeof rs);
    proof->curve = CZ_CURVE_BLS12381;
    bls12381_g1_to_affine(&proof->u.bls12381.a, &ga);
    bls12381_g2_to_affine(&proof->u.bls12381.b, &gb);
    bls12381_g1_to_affine(&proof->u.bls12381.c, &gc);
}

/* h: the H MSM's n - 1 scalars in x (n elements; x = a, with b and c as scratch), from the
 * assignment's a, b, c padded with zeros to n (see the header). bellperson computes
 * h = coset_inverse((A_g·B_g - C_g) / Z(g)) with A_g = coset_forward(inverse(a)) and so on (Z is
 * the constant Z(g) on the coset). The coset inverse transform is linear and undoes
 * coset_forward, so this equals (coset_inverse(A_g·B_g) - inverse(c)) / Z(g): the same field
 * elements with one NTT fewer (no coset transform of c). The GPU backend does the same. */
static void bp_h(cz_bls12381_fr *x, cz_bls12381_fr *y, cz_bls12381_fr *z, const cz_assignment *as,
                 size_t n, const cz_bls12381_ntt_domain *dom, const cz_bls12381_fr *g,
                 const cz_bls12381_fr *zinv, cz_threadpool *pool) {
    size_t pad = (n - as->abc_size) * sizeof *x;
    memcpy(x, as->a, as->abc_size * sizeof *x);
    memcpy(y, as->b, as->abc_size * sizeof *y);
    memcpy(z, as->c, as->abc_size * sizeof *z);
    memset(x + as->abc_size, 0, pad);
    memset(y + as->abc_size, 0, pad);
    memset(z + as->abc_size, 0, pad);
    cz_bls12381_ntt_inverse(x, dom, pool);
    cz_bls12381_ntt_inverse(y, dom, pool);
    cz_bls12381_ntt_inverse(z, dom, pool);
    cz_bls12381_ntt_coset_forward(x, dom, g, pool);
    cz_bls12381_ntt_coset_forward(y, dom, g, pool);
    cz_bls12381_ntt_mul(x, x, y, n, pool);
    cz_bls12381_ntt_coset_inverse(x, dom, g, pool);
    cz_bls12381_ntt_sub_scale(x, x, z, zinv, n, pool);
}

/* The coset generator g and 1 / Z(g) of the bellperson domain 2^log_n. CZ_ERANGE. */
static int bp_domain_consts(cz_bls12381_fr *g, cz_bls12381_fr *zinv, unsigned log_n,
                            cz_errinfo *ei) {
    cz_bls12381_fr z;
    if (cz_bls12381_ntt_coset_gen(g, log_n, CZ_NTT_ROOTS_BELLPERSON) != CZ_OK ||
        cz_bls12381_ntt_coset_z(&z, log_n, CZ_NTT_ROOTS_BELLPERSON) != CZ_OK)
        return cz_fail(ei, CZ_ERANGE, "bellperson prove: no bellperson domain of size 2^%u", log_n);
    bls12381_fr_inv(zinv, &z);
    return CZ_OK;
}

/* The CPU compute stage: h and the four G1 MSMs into pp->m. */
static int bp_compute_cpu(cz_groth16_bp_pending *pp, cz_threadpool *pool, cz_errinfo *ei) {
    const cz_bellperson_params *params = pp->params;
    const cz_assignment *as = pp->as;
    size_t n = (size_t)1 << pp->log_n;
    cz_groth16_timings *tm = &pp->tm;
    cz_bls12381_ntt_domain *dom = NULL;
    cz_bls12381_fr *v = NULL, g, zinv;
    int rc;
    uint64_t t;

    if ((rc = bp_domain_consts(&g, &zinv, pp->log_n, ei)) != CZ_OK ||
        (rc = cz_bls12381_ntt_domain_create(&dom, pp->log_n, CZ_NTT_ROOTS_BELLPERSON, pool, ei)) !=
            CZ_OK)
        goto out;
    /* the h vectors, then the gathered A/B scalars (at most the variable count, which may
     * exceed 3n in a circuit with few constraints) */
    size_t need = 3 * n > params->na ? 3 * n : params->na;
    if ((v = malloc((need > params->nb_g1 ? need : params->nb_g1) * sizeof *v)) == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "bellperson prove: cannot allocate 3 x %zu scalars", n);
        goto out;
    }
    t = cz_clock_now_ns();
    bp_h(v, v + n, v + 2 * n, as, n, dom, &g, &zinv, pool);
    tm->ntt_ms += (double)(cz_clock_now_ns() - t) / 1e6;

#define BP_TIMED(field, what, call)                                                                \
    do {                                                                                           \
        t = cz_clock_now_ns();                                                                     \
        rc = (call);                                                                               \
        tm->field += (double)(cz_clock_now_ns() - t) / 1e6;                                        \
        if (rc != CZ_OK) {                                                                         \
            rc = cz_fail(ei, rc, "bellperson prove: the %s MSM failed", what);                     \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)
    BP_TIMED(msm_h_ms, "H", cz_bls12381_g1_msm(&pp->m.h, params->h, v, n - 1, pool));
    BP_TIMED(msm_c_ms, "L", cz_bls12381_g1_msm(&pp->m.l, params->l, as->aux, as->naux, pool));
    cz__bp_gather(v, as->input, NULL, as->ninput, as->aux, as->a_aux_density, as->naux);
    BP_TIMED(msm_a_ms, "A", cz_bls12381_g1_msm(&pp->m.a, params->a, v, params->na, pool));
    cz__bp_gather(v, as->input, as->b_input_density, as->ninput, as->aux, as->b_aux_density,
                  as->naux);
    BP_TIMED(msm_b1_ms, "B_G1",
             cz_bls12381_g1_msm(&pp->m.b1, params->b_g1, v, params->nb_g1, pool));
#undef BP_TIMED
out:
    free(v);
    cz_bls12381_ntt_domain_destroy(dom);
    return rc;
}

int cz__bp_g2_host(cz_groth16_bp_pending *pp, cz_threadpool *pool) {
    const cz_bellperson_params *p = pp->params;
    const cz_assignment *as = pp->as;
    cz_bls12381_fr *v;
    uint64_t t = cz_clock_now_ns();
    int rc;
    if (as->aux == NULL && as->naux != 0)
        return CZ_EINVAL; /* a compact witness: its aux values are on the device only */
    if ((v = malloc((p->nb_g2 ? p->nb_g2 : 1) * sizeof *v)) == NULL)
        return CZ_ENOMEM;
    cz__bp_gather(v, as->input, as->b_input_density, as->ninput, as->aux, as->b_aux_density,
                  as->naux);
    rc = cz_bls12381_g2_msm(&pp->m.b2, p->b_g2, v, p->nb_g2, pool);
    pp->tm.msm_b2_ms += (double)(cz_clock_now_ns() - t) / 1e6;
    free(v);
    return rc;
}

static void *g2_main(void *arg) {
    cz_groth16_bp_pending *pp = arg;
    pp->g2_rc = cz__bp_g2_host(pp, pp->g2_pool);
    return NULL;
}

/* Waits for the G2 thread, if one runs. */
static void g2_join(cz_groth16_bp_pending *pp) {
    if (pp->g2_state == 1) {
        pthread_join(pp->g2_thread, NULL);
        pp->g2_state = 2;
    }
}

int cz_groth16_bp_begin(cz_groth16_bp_pending **out, const cz_bellperson_params *params,
                        const cz_assignment *as, const cz_bls12381_fr *r, const cz_bls12381_fr *s,
                        cz_errinfo *ei) {
    cz_groth16_bp_pending *pp;
    unsigned log_n = 0;
    int rc;
    *out = NULL;
    if ((r == NULL) != (s == NULL))
        return cz_fail(ei, CZ_EINVAL, "bellperson prove: give both r and s, or neither");
    if ((rc = cz__bp_check_one(&log_n, params, as, 0, ei)) != CZ_OK)
        return rc;
    if ((pp = calloc(1, sizeof *pp)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "bellperson prove: cannot allocate a pending proof");
    pp->params = params;
    pp->as = as;
    pp->log_n = log_n;
    if (r != NULL) {
        pp->r = *r;
        pp->s = *s;
    } else if (cz_bls12381_fr_random(&pp->r) != CZ_OK || cz_bls12381_fr_random(&pp->s) != CZ_OK) {
        cz_groth16_bp_pending_free(pp);
        return cz_fail(ei, CZ_EIO, "bellperson prove: no randomness for the blinding factors");
    }
    *out = pp;
    return CZ_OK;
}

int cz_groth16_bp_g2_start(cz_groth16_bp_pending *pp, cz_threadpool *pool, cz_errinfo *ei) {
    if (pp->g2_state != 0)
        return cz_fail(ei, CZ_EINVAL, "bellperson prove: the G2 MSM was already started");
    if (pp->as->aux == NULL && pp->as->naux != 0)
        return cz_fail(ei, CZ_EINVAL,
                       "bellperson prove: the G2 MSM on the CPU needs the aux values, which a "
                       "compact witness has on the device only");
    pp->g2_pool = pool;
    if (pthread_create(&pp->g2_thread, NULL, g2_main, pp) != 0) {
        pp->g2_rc = cz__bp_g2_host(pp, pool); /* no thread to spare: inline */
        pp->g2_state = 2;
        return CZ_OK;
    }
    pp->g2_state = 1;
    return CZ_OK;
}

int cz_groth16_bp_upload(cz_groth16_bp_pending *pp, cz_groth16_gpu_ws *ws, cz_errinfo *ei) {
    if (pp->ws != NULL || pp->computed)
        return cz_fail(ei, CZ_EINVAL, "bellperson prove: already uploaded or computed");
    if (pp->as->a == NULL)
        return cz_fail(ei, CZ_EINVAL,
                       "bellperson prove: an assignment without a, b, c needs "
                       "upload_eval");
    return cz__bp_upload_gpu(pp, ws, NULL, NULL, ei);
}

int cz_groth16_bp_upload_eval(cz_groth16_bp_pending *pp, cz_groth16_gpu_ws *ws,
                              const cz_gpu_r1cs *m, cz_errinfo *ei) {
    if (pp->ws != NULL || pp->computed)
        return cz_fail(ei, CZ_EINVAL, "bellperson prove: already uploaded or computed");
    if (m == NULL)
        return cz_fail(ei, CZ_EINVAL, "bellperson prove: upload_eval without matrices");
    return cz__bp_upload_gpu(pp, ws, m, NULL, ei);
}

int cz_groth16_bp_upload_compact(cz_groth16_bp_pending *pp, cz_groth16_gpu_ws *ws,
                                 const cz_gpu_r1cs *m, const uint64_t *bits,
                                 const cz_bls12381_fr *vals, cz_errinfo *ei) {
    const cz__bp_compact cw = {bits, vals};
    if (pp->ws != NULL || pp->computed)
        return cz_fail(ei, CZ_EINVAL, "bellperson prove: already uploaded or computed");
    if (m == NULL || bits == NULL || vals == NULL)
        return cz_fail(ei, CZ_EINVAL, "bellperson prove: upload_compact without %s",
                       m == NULL      ? "matrices"
                       : bits == NULL ? "bits"
                                      : "values");
    if (pp->as->input != vals)
        return cz_fail(ei, CZ_EINVAL,
                       "bellperson prove: a compact witness's inputs are the first of its values "
                       "(the assignment's input)");
    return cz__bp_upload_gpu(pp, ws, m, &cw, ei);
}

int cz_groth16_bp_compute(cz_groth16_bp_pending *pp, const cz_groth16_bp_gpu_key *key,
                          cz_threadpool *pool, cz_errinfo *ei) {
    int rc;
    if (pp->computed)
        return cz_fail(ei, CZ_EINVAL, "bellperson prove: already computed");
    if (pp->as->a == NULL && (key == NULL || pp->ws == NULL))
        return cz_fail(ei, CZ_EINVAL,
                       "bellperson prove: an assignment without a, b, c is "
                       "computed on the GPU after upload_eval");
    if (pp->as->aux == NULL && pp->as->naux != 0 && pp->g2_state == 0 &&
        !cz_groth16_bp_gpu_key_has_g2(key))
        return cz_fail(ei, CZ_EINVAL,
                       "bellperson prove: a compact witness needs B_G2 on the device (the key "
                       "has none: the G2 MSM would run on the CPU)");
    rc = key != NULL ? cz__bp_compute_gpu(pp, key, ei) : bp_compute_cpu(pp, pool, ei);
    if (rc == CZ_OK)
        pp->computed = 1;
    return rc;
}

int cz_groth16_bp_finish(cz_groth16_proof *proof, cz_groth16_bp_pending *pp, cz_errinfo *ei) {
    if (!pp->computed)
        return cz_fail(ei, CZ_EINVAL, "bellperson prove: finish before compute");
    g2_join(pp);
    if (pp->g2_state == 0) {
        pp->g2_rc = cz__bp_g2_host(pp, pp->g2_pool);
        pp->g2_state = 2;
    }
    if (pp->g2_rc != CZ_OK)
        return cz_fail(ei, pp->g2_rc, "bellperson prove: the B_G2 MSM failed");
    epilogue(proof, &pp->params->vk, &pp->m, &pp->r, &pp->s);
    return CZ_OK;
}

const cz_groth16_timings *cz_groth16_bp_pending_timings(const cz_groth16_bp_pending *pp) {
    return &pp->tm;
}

void cz_groth16_bp_pending_free(cz_groth16_bp_pending *pp) {
    if (pp == NULL)
        return;
    g2_join(pp);
    wipe(pp, sizeof *pp);
    free(pp);
}

/* Adds the stage times of one circuit to the batch's. */
static void timings_add(cz_groth16_timings *sum, const cz_groth16_timings *t) {
    sum->ntt_ms += t->ntt_ms;
    sum->msm_a_ms += t->msm_a_ms;
    sum->msm_b1_ms += t->msm_b1_ms;
    sum->msm_b2_ms += t->msm_b2_ms;
    sum->msm_c_ms += t->msm_c_ms;
    sum->msm_h_ms += t->msm_h_ms;
    sum->upload_ms += t->upload_ms;
    sum->gpu_ms += t->gpu_ms;
}

int cz_groth16_bp_prove(cz_groth16_proof *proofs, const cz_bellperson_params *params,
                        const cz_assignment *asg, size_t n, const cz_groth16_bp_opts *opts,
                        cz_errinfo *ei) {
    static const cz_groth16_bp_opts defaults;
    const cz_groth16_bp_opts *o = opts != NULL ? opts : &defaults;
    cz_groth16_bp_gpu_key *own = NULL;
    const cz_groth16_bp_gpu_key *key = o->gpu_key;
    cz_groth16_gpu_ws *ws = NULL;
    cz_groth16_timings tm = {0};
    uint64_t t0 = cz_clock_now_ns();
    unsigned log_n = 0;
    int rc = CZ_OK;

    if (n == 0)
        return cz_fail(ei, CZ_EINVAL, "bellperson prove: no circuits");
    if ((o->r_s == NULL) != (o->s_s == NULL))
        return cz_fail(ei, CZ_EINVAL, "bellperson prove: give both r_s and s_s, or neither");
    for (size_t i = 0; i < n; i++) /* every circuit, before any work */
        if ((rc = cz__bp_check_one(&log_n, params, &asg[i], i, ei)) != CZ_OK)
            return rc;
    if (o->use_gpu) {
        if (key == NULL) {
            rc = cz_groth16_bp_gpu_key_create(&own, params, &asg[0], o->gpu_device, ei);
            key = own;
        }
        if (rc == CZ_OK && cz__bp_gpu_key_params(key) != params)
            rc = cz_fail(ei, CZ_EINVAL, "bellperson prove: the GPU key was made for another key");
        for (size_t i = 0; rc == CZ_OK && i < n; i++) /* every circuit, before any work */
            if (!cz_groth16_bp_gpu_key_fits(key, &asg[i]))
                rc = cz_fail(ei, CZ_EFORMAT,
                             "bellperson prove: circuit %zu has other densities than the GPU key "
                             "was made for (another circuit?)",
                             i);
        if (rc == CZ_OK)
            rc = cz_groth16_gpu_ws_create(&ws, o->gpu_device, ei);
        if (rc != CZ_OK)
            goto out;
    }
    for (size_t i = 0; i < n && rc == CZ_OK; i++) {
        cz_groth16_bp_pending *pp = NULL;
        rc = cz_groth16_bp_begin(&pp, params, &asg[i], o->r_s != NULL ? &o->r_s[i] : NULL,
                                 o->s_s != NULL ? &o->s_s[i] : NULL, ei);
        if (rc == CZ_OK && key != NULL && !cz_groth16_bp_gpu_key_has_g2(key))
            rc = cz_groth16_bp_g2_start(pp, o->pool, ei); /* beside the GPU work */
        if (rc == CZ_OK && key != NULL)
            rc = cz_groth16_bp_upload(pp, ws, ei);
        if (rc == CZ_OK)
            rc = cz_groth16_bp_compute(pp, key, o->pool, ei);
        if (rc == CZ_OK) {
            pp->g2_pool = o->pool;
            rc = cz_groth16_bp_finish(&proofs[i], pp, ei);
        }
        if (pp != NULL)
            timings_add(&tm, &pp->tm);
        cz_groth16_bp_pending_free(pp);
    }
out:
    cz_groth16_gpu_ws_free(ws);
    cz_groth16_bp_gpu_key_free(own);
    tm.total_ms = (double)(cz_clock_now_ns() - t0) / 1e6;
    if (o->timings != NULL)
        *o->timings = tm;
    return rc;
}

int cz_groth16_bp_public(cz_groth16_public *pub, const cz_assignment *asg, cz_errinfo *ei) {
    int rc = cz_groth16_public_alloc(pub, CZ_CURVE_BLS12381, (uint32_t)(asg->ninput - 1), ei);
    if (rc != CZ_OK)
        return rc;
    for (size_t i = 1; i < asg->ninput; i++)
        bls12381_fr_from_mont(pub->values[i - 1], &asg->input[i]);
    return CZ_OK;
}
