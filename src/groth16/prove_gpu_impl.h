/*
 * The GPU compute stage of the Groth16 prover for one curve (see prove_gpu.c for the design),
 * instantiated by including this file after defining CURVE (bn254 or bls12381), after
 * prove_gpu.c's helpers.
 */
#include "field/cz_macros.h"

#define I(name) CZ_CAT3(CURVE, _, name)
#define P(name) CZ_CAT3(CZ_CAT(cz_, CURVE), _, name)
typedef P(fr) I(fr_t);

#define GPU(name) CZ_CAT3(CZ_CAT(cz_, CURVE), _gpu_, name)

/* Uploads zk's B2 to k->dev unless cz_tuning.gpu_g2_on_cpu or zk has none (gpu_key_g2_done: a
 * device without room for it gives a key without it). */
static int I(gpu_key_upload_b2)(cz_groth16_gpu_key *k, const cz_zkey *zk, cz_errinfo *ei) {
    size_t nvars = zk->nvars, pt = sizeof(P(g2_affine));
    int rc;
    if (!cz__g16_gpu_g2_wanted() || zk->u.CURVE.b2 == NULL)
        return CZ_OK;
    rc = GPU(g2_bases_upload)(&k->b2, zk->u.CURVE.b2, nvars, k->dev, ei);
    return gpu_key_g2_done(k, cz__g16_gpu_wrap(rc, ei, k->dev, "the B2 bases", nvars * pt), ei);
}

/* Uploads the four G1 base arrays of zk to k->dev, and B2 (gpu_key_upload_b2). */
static int I(gpu_key_upload)(cz_groth16_gpu_key *k, const cz_zkey *zk, cz_errinfo *ei) {
    const CZ_CAT(cz_zkey_, CURVE) *z = &zk->u.CURVE;
    size_t nvars = zk->nvars, nc = (size_t)zk->nvars - zk->npublic - 1, n = zk->domain_size;
    size_t pt = sizeof(P(g1_affine));
    int rc;
    if ((rc = cz__g16_gpu_wrap(GPU(g1_bases_upload)(&k->a, z->a, nvars, k->dev, ei), ei, k->dev,
                               "the A bases", nvars * pt)) != CZ_OK ||
        (rc = cz__g16_gpu_wrap(GPU(g1_bases_upload)(&k->b1, z->b1, nvars, k->dev, ei), ei, k->dev,
                               "the B1 bases", nvars * pt)) != CZ_OK ||
        (rc = cz__g16_gpu_wrap(GPU(g1_bases_upload)(&k->c, z->c, nc, k->dev, ei), ei, k->dev,
                               "the C bases", nc * pt)) != CZ_OK ||
        (rc = cz__g16_gpu_wrap(GPU(g1_bases_upload)(&k->h, z->h, n, k->dev, ei), ei, k->dev,
                               "the H bases", n * pt)) != CZ_OK)
        return rc;
    gpu_key_count_g1(k);
    return I(gpu_key_upload_b2)(k, zk, ei);
}

/* The four G1 base arrays of a benchmark key made on k->dev as progressions P_i = p0 + i·step
 * (p0[v], step[v] for v = A, B1, C, H): never in host memory. B2 (unless cz_tuning.gpu_g2_on_cpu)
 * uploaded from zk's host B2 when it has one; B1 then keeps only the positions B2 stores (sparse,
 * as a real key's B1 and B2 both are infinity for the variables B does not touch), also when B2
 * stays on the CPU. */
static int I(gpu_key_progression)(cz_groth16_gpu_key *k, const cz_zkey *zk, const void *p0,
                                  const void *step, cz_errinfo *ei) {
    const P(g1_affine) *q = p0, *d = step;
    size_t nvars = zk->nvars, nc = (size_t)zk->nvars - zk->npublic - 1, n = zk->domain_size;
    size_t pt = sizeof(P(g1_affine));
    int rc;
    if ((rc = cz__g16_gpu_wrap(GPU(g1_bases_progression)(&k->a, &q[0], &d[0], nvars, k->dev, ei),
                               ei, k->dev, "the A bases", nvars * pt)) != CZ_OK ||
        (rc = cz__g16_gpu_wrap(GPU(g1_bases_progression)(&k->b1, &q[1], &d[1], nvars, k->dev, ei),
                               ei, k->dev, "the B1 bases", nvars * pt)) != CZ_OK ||
        (rc = cz__g16_gpu_wrap(GPU(g1_bases_progression)(&k->c, &q[2], &d[2], nc, k->dev, ei), ei,
                               k->dev, "the C bases", nc * pt)) != CZ_OK ||
        (rc = cz__g16_gpu_wrap(GPU(g1_bases_progression)(&k->h, &q[3], &d[3], n, k->dev, ei), ei,
                               k->dev, "the H bases", n * pt)) != CZ_OK ||
        (rc = I(gpu_key_upload_b2)(k, zk, ei)) != CZ_OK)
        return rc;
    if (k->b2 != NULL) {
        rc = cz_gpu_bases_restrict(k->b1, k->b2, ei);
    } else if (zk->u.CURVE.b2 != NULL) {
        /* B2 stays on the CPU (cz_tuning.gpu_g2_on_cpu): a moment's upload of it still shapes B1,
         * so the proof is the same either way */
        cz_gpu_bases *b2 = NULL;
        if ((rc = GPU(g2_bases_upload)(&b2, zk->u.CURVE.b2, nvars, k->dev, ei)) == CZ_OK)
            rc = cz_gpu_bases_restrict(k->b1, b2, ei);
        cz_gpu_bases_free(b2);
    }
    if ((rc = cz__g16_gpu_wrap(rc, ei, k->dev, "the B1 bases (sparse as B2)", nvars * pt)) != CZ_OK)
        return rc;
    gpu_key_count_g1(k);
    return CZ_OK;
}

/* Steps 2-3 of prove_gpu.c: everything on the device. d_a, d_b hold a, b on entry (evaluations
 * on the domain), d_w holds the canonical witness or receives it through the upload *wcopy in
 * flight (waited for, and set to NULL, before its first use); d_c is scratch. On return the four G1
 * MSM results, and the G2 one in *msm_b2 unless msm_b2 is NULL (the key's B2 bases). */
static int I(gpu_region)(P(g1_jacobian) * msm_a, P(g1_jacobian) * msm_b1, P(g1_jacobian) * msm_c,
                         P(g1_jacobian) * msm_h, P(g2_jacobian) * msm_b2, void *d_a, void *d_b,
                         void *d_c, void *d_w, cz_gpu_copy **wcopy, const cz_groth16_gpu_key *key,
                         const cz_zkey *zk, cz_groth16_timings *tm, cz_errinfo *ei) {
    size_t n = zk->domain_size, nvars = zk->nvars, npub = zk->npublic;
    unsigned log_n = zk->log_domain_size;
    int dev = key->dev, rc;
    void *const vec[3] = {d_a, d_b, d_c};
    const cz_ntt_roots roots = CZ_NTT_ROOTS_SNARKJS; /* a zkey's H is over snarkjs's odd coset */
    uint64_t t = cz_clock_now_ns();

    /* c = a∘b, then all three to the coset, then h = a·b - c (into d_a). */
    if ((rc = cz__g16_gpu_wrap(GPU(fr_mul_dev)(d_c, d_a, d_b, n, dev, ei), ei, dev, "c = a∘b",
                               0)) != CZ_OK)
        return rc;
    for (int v = 0; v < 3; v++) {
        if ((rc = cz__g16_gpu_wrap(GPU(ntt_dev)(vec[v], log_n, roots, CZ_GPU_NTT_INVERSE, dev, ei),
                                   ei, dev, "inverse NTT", 0)) != CZ_OK ||
            (rc = cz__g16_gpu_wrap(
                 GPU(ntt_dev)(vec[v], log_n, roots, CZ_GPU_NTT_COSET_FORWARD, dev, ei), ei, dev,
                 "coset NTT", 0)) != CZ_OK)
            return rc;
    }
    if ((rc = cz__g16_gpu_wrap(GPU(fr_mul_sub_dev)(d_a, d_a, d_b, d_c, n, dev, ei), ei, dev,
                               "h = a·b - c", 0)) != CZ_OK)
        return rc;
    rc = cz_gpu_copy_wait(*wcopy, ei);
    *wcopy = NULL;
    if ((rc = cz__g16_gpu_wrap(rc, ei, dev, "upload witness", 0)) != CZ_OK)
        return rc;
    if ((rc = cz__g16_gpu_wrap(GPU(fr_to_mont_dev)(d_w, nvars, dev, ei), ei, dev,
                               "witness to Montgomery", 0)) != CZ_OK)
        return rc;
    tm->ntt_ms = (double)(cz_clock_now_ns() - t) / 1e6;

#define GPU_MSM(field, name, call)                                                                 \
    do {                                                                                           \
        t = cz_clock_now_ns();                                                                     \
        rc = cz__g16_gpu_wrap((call), ei, dev, name, 0);                                           \
        tm->field = (double)(cz_clock_now_ns() - t) / 1e6;                                         \
        if (rc != CZ_OK)                                                                           \
            return rc;                                                                             \
    } while (0)
    GPU_MSM(msm_h_ms, "the H MSM", GPU(g1_msm_dev)(msm_h, key->h, d_a, n, ei));
    GPU_MSM(msm_a_ms, "the A MSM", GPU(g1_msm_dev)(msm_a, key->a, d_w, nvars, ei));
    GPU_MSM(msm_b1_ms, "the B1 MSM", GPU(g1_msm_dev)(msm_b1, key->b1, d_w, nvars, ei));
    GPU_MSM(msm_c_ms, "the C MSM",
            GPU(g1_msm_dev)(msm_c, key->c, (const uint8_t *)d_w + sizeof(I(fr_t)) * (npub + 1),
                            nvars - npub - 1, ei));
    if (msm_b2 != NULL)
        GPU_MSM(msm_b2_ms, "the B2 MSM", GPU(g2_msm_dev)(msm_b2, key->b2, d_w, nvars, ei));
#undef GPU_MSM
    return CZ_OK;
}

/* Copies a, b and the witness of pp into ws (grown to fit) and gives a and b back, also when a
 * copy fails; when ws cannot grow (CZ_ENOMEM) nothing is copied and a and b stay. The three copies
 * are cudaMemcpyAsync on streams of their own (direct DMA from pinned buffers); a and b are
 * waited for here; the witness copy is too, unless wcopy is given: then it is left in flight in
 * *wcopy (the region waits for it before its first use, so it overlaps the NTTs). */
static int I(gpu_upload)(cz_groth16_pending *pp, cz_groth16_gpu_ws *ws, cz_gpu_copy **wcopy,
                         cz_errinfo *ei) {
    CZ_CAT3(cz__, CURVE, _pending) *cp = &pp->u.CURVE;
    const cz_zkey *zk = pp->zk;
    size_t n = zk->domain_size, vbytes = n * sizeof(I(fr_t));
    size_t wbytes = (size_t)zk->nvars * sizeof(I(fr_t));
    int dev = ws->dev, rc;
    uint8_t *base;
    cz_gpu_copy *ca = NULL, *cb = NULL, *cw = NULL;
    uint64_t t = cz_clock_now_ns();

    if ((rc = cz_groth16_gpu_ws_reserve(ws, 3 * vbytes + wbytes, ei)) != CZ_OK)
        return rc; /* a and b stay: the caller may still compute with a workspace of its own */
    base = ws->buf;
    if ((rc = cz__g16_gpu_wrap(cz_gpu_upload_start(&ca, base, cp->a, vbytes, dev, ei), ei, dev,
                               "upload a", 0)) != CZ_OK ||
        (rc = cz__g16_gpu_wrap(cz_gpu_upload_start(&cb, base + vbytes, cp->b, vbytes, dev, ei), ei,
                               dev, "upload b", 0)) != CZ_OK ||
        (rc =
             cz__g16_gpu_wrap(cz_gpu_upload_start(&cw, base + 3 * vbytes, pp->wit, wbytes, dev, ei),
                              ei, dev, "upload witness", 0)) != CZ_OK)
        goto out;
    rc = cz_gpu_copy_wait(ca, ei);
    ca = NULL;
    if ((rc = cz__g16_gpu_wrap(rc, ei, dev, "upload a", 0)) != CZ_OK)
        goto out;
    rc = cz_gpu_copy_wait(cb, ei);
    cb = NULL;
    if ((rc = cz__g16_gpu_wrap(rc, ei, dev, "upload b", 0)) != CZ_OK)
        goto out;
    if (wcopy != NULL) {
        *wcopy = cw;
        cw = NULL;
    } else {
        rc = cz_gpu_copy_wait(cw, ei);
        cw = NULL;
        rc = cz__g16_gpu_wrap(rc, ei, dev, "upload witness", 0);
    }
out:
    /* Copies still in flight (a failure on the way) end before their buffers are given back. */
    (void)cz_gpu_copy_wait(ca, NULL);
    (void)cz_gpu_copy_wait(cb, NULL);
    (void)cz_gpu_copy_wait(cw, NULL);
    cz__groth16_drop(pp, cp->a);
    cz__groth16_drop(pp, cp->b);
    cp->a = cp->b = NULL;
    pp->tm.upload_ms += (double)(cz_clock_now_ns() - t) / 1e6;
    return rc;
}

int CZ_CAT3(cz__, CURVE, _groth16_upload_gpu)(cz_groth16_pending *pp, cz_groth16_gpu_ws *ws,
                                              cz_errinfo *ei) {
    int rc = I(gpu_upload)(pp, ws, NULL, ei);
    if (rc == CZ_OK)
        pp->ws = ws;
    return rc;
}

/* The GPU compute stage (pending.h): the device region on pp->ws's buffers when
 * cz_groth16_upload filled them (kernels only), else on a workspace of this call's own, filled
 * here with the witness copy overlapping the NTTs, and freed after. With the key's B2 bases and
 * the G2 MSM not started, the region runs it too and the G2 part is done (finish only combines). */
int CZ_CAT3(cz__, CURVE, _groth16_compute_gpu)(cz_groth16_pending *pp,
                                               const cz_groth16_gpu_key *key, cz_errinfo *ei) {
    CZ_CAT3(cz__, CURVE, _pending) *cp = &pp->u.CURVE;
    const cz_zkey *zk = pp->zk;
    size_t vbytes = (size_t)zk->domain_size * sizeof(I(fr_t));
    cz_groth16_gpu_ws *ws = pp->ws, *own = NULL;
    cz_gpu_copy *cw = NULL;
    uint8_t *base;
    int rc, g2 = key->b2 != NULL && pp->g2_state == 0;
    uint64_t tg = cz_clock_now_ns();

    if (ws == NULL) {
        if ((rc = cz_groth16_gpu_ws_create(&own, key->dev, ei)) != CZ_OK) {
            cz__groth16_drop(pp, cp->a);
            cz__groth16_drop(pp, cp->b);
            cp->a = cp->b = NULL;
            return rc;
        }
        ws = own;
        if ((rc = I(gpu_upload)(pp, ws, &cw, ei)) != CZ_OK) {
            cz__groth16_drop(pp, cp->a);
            cz__groth16_drop(pp, cp->b);
            cp->a = cp->b = NULL;
            goto out;
        }
    }
    base = ws->buf;
    rc = I(gpu_region)(&cp->msm_a, &cp->msm_b1, &cp->msm_c, &cp->msm_h, g2 ? &cp->msm_b2 : NULL,
                       base, base + vbytes, base + 2 * vbytes, base + 3 * vbytes, &cw, key, zk,
                       &pp->tm, ei);
    if (rc == CZ_OK && g2) {
        pp->g2_rc = CZ_OK;
        pp->g2_state = 2;
    }
out:
    (void)cz_gpu_copy_wait(cw, NULL); /* a failure before the region waited for it */
    pp->tm.gpu_ms = (double)(cz_clock_now_ns() - tg) / 1e6;
    cz_groth16_gpu_ws_free(own);
    return rc;
}

#undef GPU
#undef I
#undef P
