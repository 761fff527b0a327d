/*
 * The GPU Groth16 prover for one curve (see prove_gpu.c for the design), instantiated by
 * including this file after defining CURVE (bn254 or bls12381), after prove_gpu.c's helpers.
 */
#include "groth16/prove_shared_impl.h"

#define GPU(name) CZ_CAT3(CZ_CAT(cz_, CURVE), _gpu_, name)

/* Uploads the four G1 base arrays of zk to k->dev. */
static int I(gpu_key_upload)(cz_groth16_gpu_key *k, const cz_zkey *zk, cz_errinfo *ei) {
    const CZ_CAT(cz_zkey_, CURVE) *z = &zk->u.CURVE;
    size_t nvars = zk->nvars, nc = (size_t)zk->nvars - zk->npublic - 1, n = zk->domain_size;
    size_t pt = sizeof(P(g1_affine));
    int rc;
    if ((rc = gpu_wrap(GPU(g1_bases_upload)(&k->a, z->a, nvars, k->dev, ei), ei, k->dev,
                       "the A bases", nvars * pt)) != CZ_OK ||
        (rc = gpu_wrap(GPU(g1_bases_upload)(&k->b1, z->b1, nvars, k->dev, ei), ei, k->dev,
                       "the B1 bases", nvars * pt)) != CZ_OK ||
        (rc = gpu_wrap(GPU(g1_bases_upload)(&k->c, z->c, nc, k->dev, ei), ei, k->dev, "the C bases",
                       nc * pt)) != CZ_OK ||
        (rc = gpu_wrap(GPU(g1_bases_upload)(&k->h, z->h, n, k->dev, ei), ei, k->dev, "the H bases",
                       n * pt)) != CZ_OK)
        return rc;
    k->bytes = (2 * nvars + nc + n) * pt;
    return CZ_OK;
}

/* The G2 MSM B2' = Σ w_s·B2_s on the CPU, on its own thread while the GPU works. */
typedef struct {
    P(g2_jacobian) ret;
    const P(g2_affine) * bases;
    const uint8_t *scalars;
    size_t n;
    cz_threadpool *pool;
    int rc;
    double ms;
} I(g2_job);

static void *I(g2_job_run)(void *arg) {
    I(g2_job) *j = arg;
    uint64_t t = cz_clock_now_ns();
    j->rc = P(g2_msm_bytes)(&j->ret, j->bases, j->scalars, j->n, j->pool);
    j->ms = (double)(cz_clock_now_ns() - t) / 1e6;
    return NULL;
}

/* Steps 2-3 of prove_gpu.c: everything on the device. d_a, d_b hold a, b on entry (evaluations
 * on the domain), d_w the canonical witness; d_c is scratch. On return the four G1 MSM results. */
static int I(gpu_region)(P(g1_jacobian) * msm_a, P(g1_jacobian) * msm_b1, P(g1_jacobian) * msm_c,
                         P(g1_jacobian) * msm_h, void *d_a, void *d_b, void *d_c, void *d_w,
                         const cz_groth16_gpu_key *key, const cz_zkey *zk, cz_groth16_timings *tm,
                         cz_errinfo *ei) {
    size_t n = zk->domain_size, nvars = zk->nvars, npub = zk->npublic;
    unsigned log_n = zk->log_domain_size;
    int dev = key->dev, rc;
    void *const vec[3] = {d_a, d_b, d_c};
    uint64_t t = cz_clock_now_ns();

    /* c = a∘b, then all three to the coset, then h = a·b - c (into d_a). */
    if ((rc = gpu_wrap(GPU(fr_mul_dev)(d_c, d_a, d_b, n, dev, ei), ei, dev, "c = a∘b", 0)) != CZ_OK)
        return rc;
    for (int v = 0; v < 3; v++) {
        if ((rc = gpu_wrap(GPU(ntt_dev)(vec[v], log_n, CZ_GPU_NTT_INVERSE, dev, ei), ei, dev,
                           "inverse NTT", 0)) != CZ_OK ||
            (rc = gpu_wrap(GPU(ntt_dev)(vec[v], log_n, CZ_GPU_NTT_COSET_FORWARD, dev, ei), ei, dev,
                           "coset NTT", 0)) != CZ_OK)
            return rc;
    }
    if ((rc = gpu_wrap(GPU(fr_mul_sub_dev)(d_a, d_a, d_b, d_c, n, dev, ei), ei, dev, "h = a·b - c",
                       0)) != CZ_OK)
        return rc;
    if ((rc = gpu_wrap(GPU(fr_to_mont_dev)(d_w, nvars, dev, ei), ei, dev, "witness to Montgomery",
                       0)) != CZ_OK)
        return rc;
    tm->ntt_ms = (double)(cz_clock_now_ns() - t) / 1e6;

#define GPU_MSM(field, name, call)                                                                 \
    do {                                                                                           \
        t = cz_clock_now_ns();                                                                     \
        rc = gpu_wrap((call), ei, dev, name, 0);                                                   \
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
#undef GPU_MSM
    return CZ_OK;
}

int CZ_CAT3(cz__, CURVE, _groth16_prove_gpu)(P(groth16_proof) * proof, const cz_zkey *zk,
                                             const cz_wtns *w, const I(fr_t) * r, const I(fr_t) * s,
                                             const cz_groth16_prove_opts *opts,
                                             cz_groth16_timings *tm, cz_errinfo *ei) {
    const CZ_CAT(cz_zkey_, CURVE) *k = &zk->u.CURVE;
    const uint64_t(*wit)[4] = (const uint64_t(*)[4])w->values;
    size_t n = zk->domain_size, nvars = zk->nvars, vbytes = n * sizeof(I(fr_t));
    size_t wbytes = nvars * sizeof(I(fr_t));
    int dev = opts->gpu_device, rc, g2_started = 0;
    const cz_groth16_gpu_key *key = opts->gpu_key;
    cz_groth16_gpu_key *own = NULL;
    I(fr_t) *a = NULL, *b = NULL;
    void *d_a = NULL, *d_b = NULL, *d_c = NULL, *d_w = NULL;
    I(g2_job)
    g2 = {.bases = k->b2,
          .scalars = (const uint8_t *)w->values,
          .n = nvars,
          .pool = opts->pool,
          .rc = CZ_OK};
    pthread_t g2_thread;
    P(g1_jacobian) msm_a, msm_b1, msm_c, msm_h;
    uint64_t t0 = cz_clock_now_ns(), t, tg;

    if (key != NULL && key->zk != zk) {
        return cz_fail(ei, CZ_EINVAL,
                       "prove: the GPU key was made for another zkey ('%s', not this '%s')",
                       cz_zkey_name(key->zk), cz_zkey_name(zk));
    }
    if (key != NULL && key->dev != dev)
        return cz_fail(ei, CZ_EINVAL, "prove: the GPU key lives on device %d, not device %d",
                       key->dev, dev);
    if ((rc = gpu_check_device(dev, "prove", ei)) != CZ_OK)
        return rc;

    /* Device memory first: a full device fails before any CPU work. */
    tg = cz_clock_now_ns();
    if (key == NULL) {
        if ((rc = cz_groth16_gpu_key_create(&own, zk, dev, ei)) != CZ_OK)
            goto out;
        key = own;
    }
    if ((rc = gpu_alloc(&d_a, vbytes, dev, "vector a", ei)) != CZ_OK ||
        (rc = gpu_alloc(&d_b, vbytes, dev, "vector b", ei)) != CZ_OK ||
        (rc = gpu_alloc(&d_c, vbytes, dev, "vector c", ei)) != CZ_OK ||
        (rc = gpu_alloc(&d_w, wbytes, dev, "the witness", ei)) != CZ_OK)
        goto out;
    tm->upload_ms = (double)(cz_clock_now_ns() - tg) / 1e6;

    /* Step 1: a = A·w, b = B·w on the CPU. */
    a = malloc(vbytes);
    b = malloc(vbytes);
    if (a == NULL || b == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "prove: cannot allocate 2 x %zu scalars", n);
        goto out;
    }
    t = cz_clock_now_ns();
    if ((rc = I(groth16_eval_abc)(a, b, NULL, zk, wit, opts->pool, ei)) != CZ_OK)
        goto out;
    tm->witness_ms = (double)(cz_clock_now_ns() - t) / 1e6;

    /* Step 2: B2' on a CPU thread (inline if no thread can be started). */
    g2_started = pthread_create(&g2_thread, NULL, I(g2_job_run), &g2) == 0;

    /* Step 3: the device region. */
    tg = cz_clock_now_ns();
    if ((rc = gpu_wrap(cz_gpu_upload(d_a, a, vbytes, dev, ei), ei, dev, "upload a", 0)) != CZ_OK ||
        (rc = gpu_wrap(cz_gpu_upload(d_b, b, vbytes, dev, ei), ei, dev, "upload b", 0)) != CZ_OK ||
        (rc = gpu_wrap(cz_gpu_upload(d_w, w->values, wbytes, dev, ei), ei, dev, "upload witness",
                       0)) != CZ_OK)
        goto out;
    tm->upload_ms += (double)(cz_clock_now_ns() - tg) / 1e6;
    free(a);
    free(b);
    a = b = NULL;
    rc = I(gpu_region)(&msm_a, &msm_b1, &msm_c, &msm_h, d_a, d_b, d_c, d_w, key, zk, tm, ei);
    tm->gpu_ms = (double)(cz_clock_now_ns() - tg) / 1e6;
    if (rc != CZ_OK)
        goto out;

    /* Step 4: join B2'. */
    if (g2_started) {
        pthread_join(g2_thread, NULL);
        g2_started = 0;
    } else {
        I(g2_job_run)(&g2);
    }
    tm->msm_b2_ms = g2.ms;
    if (g2.rc != CZ_OK) {
        rc = cz_fail(ei, g2.rc, "prove: the G2 MSM (B2) failed");
        goto out;
    }

    /* Step 5: the blinding combination. */
    I(groth16_finish)(proof, k, &msm_a, &msm_b1, &g2.ret, &msm_c, &msm_h, r, s);
    tm->total_ms = (double)(cz_clock_now_ns() - t0) / 1e6;

out:
    if (g2_started)
        pthread_join(g2_thread, NULL);
    cz_gpu_free(d_a, dev);
    cz_gpu_free(d_b, dev);
    cz_gpu_free(d_c, dev);
    cz_gpu_free(d_w, dev);
    cz_groth16_gpu_key_free(own);
    free(a);
    free(b);
    return rc;
}

#undef GPU
#undef I
#undef P
