/*
 * cz_groth16_prove: checks the inputs, draws or takes the blinding factors, and runs the curve's
 * instance of prove_impl.h (CPU) or, with opts->use_gpu, of prove_gpu_impl.h (prove_gpu.c). The
 * blinding factors live on this function's stack and are wiped before it returns.
 */
#include "cuzk/groth16.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/msm.h"
#include "cuzk/ntt.h"
#include "cuzk/rand.h"
#include "curve/ec.h"
#include "field/field.h"
#include "groth16/prove_gpu.h"

#define CURVE bn254
#include "groth16/prove_impl.h"
#undef CURVE
#define CURVE bls12381
#include "groth16/prove_impl.h"
#undef CURVE

/* Wipes memory in a way the compiler may not drop as a dead store. */
static void wipe(void *p, size_t n) {
    volatile unsigned char *v = p;
    while (n--)
        *v++ = 0;
}

int cz_groth16_public_alloc(cz_groth16_public *pub, cz_curve_id curve, uint32_t n, cz_errinfo *ei) {
    pub->curve = curve;
    pub->n = n;
    pub->values = calloc(n == 0 ? 1 : n, sizeof *pub->values);
    if (pub->values == NULL)
        return cz_fail(ei, CZ_ENOMEM, "cannot allocate %u public inputs", n);
    return CZ_OK;
}

void cz_groth16_public_free(cz_groth16_public *pub) {
    if (pub == NULL)
        return;
    free(pub->values);
    pub->values = NULL;
    pub->n = 0;
}

int cz_groth16_prove(cz_groth16_proof *proof, cz_groth16_public *pub, const cz_zkey *zk,
                     const cz_wtns *w, const cz_groth16_prove_opts *opts, cz_errinfo *ei) {
    cz_groth16_prove_opts none = {0};
    cz_groth16_timings scratch;
    int rc;
    if (opts == NULL)
        opts = &none;
    if ((opts->r == NULL) != (opts->s == NULL))
        return cz_fail(ei, CZ_EINVAL, "prove: give both blinding factors r and s, or neither");
    rc = cz_wtns_check_against_zkey(w, zk, ei);
    if (rc != CZ_OK)
        return rc;
    cz_groth16_timings *tm = opts->timings != NULL ? opts->timings : &scratch;
    memset(tm, 0, sizeof *tm);

    rc = cz_groth16_public_alloc(pub, zk->curve, zk->npublic, ei);
    if (rc != CZ_OK)
        return rc;
    memcpy(pub->values, w->values + CZ_WTNS_LIMBS, (size_t)zk->npublic * sizeof *pub->values);

    proof->curve = zk->curve;
    if (zk->curve == CZ_CURVE_BN254) {
        cz_bn254_fr r, s;
        rc = bn254_groth16_blinding(&r, opts->r, "r", ei);
        if (rc == CZ_OK)
            rc = bn254_groth16_blinding(&s, opts->s, "s", ei);
        if (rc == CZ_OK && opts->use_gpu)
            rc = cz__bn254_groth16_prove_gpu(&proof->u.bn254, zk, w, &r, &s, opts, tm, ei);
        else if (rc == CZ_OK)
            rc = bn254_groth16_prove(&proof->u.bn254, zk, w, &r, &s, opts->pool, tm, ei);
        wipe(&r, sizeof r);
        wipe(&s, sizeof s);
    } else {
        cz_bls12381_fr r, s;
        rc = bls12381_groth16_blinding(&r, opts->r, "r", ei);
        if (rc == CZ_OK)
            rc = bls12381_groth16_blinding(&s, opts->s, "s", ei);
        if (rc == CZ_OK && opts->use_gpu)
            rc = cz__bls12381_groth16_prove_gpu(&proof->u.bls12381, zk, w, &r, &s, opts, tm, ei);
        else if (rc == CZ_OK)
            rc = bls12381_groth16_prove(&proof->u.bls12381, zk, w, &r, &s, opts->pool, tm, ei);
        wipe(&r, sizeof r);
        wipe(&s, sizeof s);
    }
    if (rc != CZ_OK)
        cz_groth16_public_free(pub);
    return rc;
}
