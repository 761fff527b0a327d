/*
 * The Groth16 verifier for one curve (instantiated per CURVE like prove_impl.h).
 *
 * One proof:
 *
 *   e(-πA, πB) · e(α₁, β₂) · e(vk_x, γ₂) · e(πC, δ₂) = 1,   vk_x = IC₀ + Σ pub_i·IC_i,
 *
 * which is bellperson's verify_proof (e(A, B) = e(α, β)·e(vk_x, γ)·e(C, δ), moved to one side),
 * checked with one multi-pairing (one final exponentiation).
 *
 * A batch of n proofs of one key (bellperson's verify_proofs_batch, the randomized check of the
 * Zcash protocol spec, appendix B.2): with a random 128-bit z_j per proof, every equation raised
 * to z_j and all multiplied,
 *
 *   Π_j e(-z_j·A_j, B_j) · e((Σ_j z_j)·α₁, β₂) · e(Σ_j z_j·vk_x_j, γ₂) · e(Σ_j z_j·C_j, δ₂) = 1,
 *
 * with Σ_j z_j·vk_x_j = (Σ_j z_j)·IC₀ + Σ_i (Σ_j z_j·pub_j,i)·IC_i as one MSM over the key's IC.
 * n + 3 pairs, one shared Miller loop, one final exponentiation. If one of the n equations fails,
 * the product is 1 for at most one z_j in 2^128 of the others fixed (GT has prime order r > 2^128),
 * so a bad batch passes with probability at most 2^-128; which proof is bad it does not say.
 *
 * Before any pairing, each proof point must be on its curve and in the prime-order subgroup
 * (snarkjs checks only the curve; a point outside the subgroup could otherwise be used to forge),
 * and each public input must be < r.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/cz_macros.h"

#define I(name) CZ_CAT3(CURVE, _, name)
#define P(name) CZ_CAT3(CZ_CAT(cz_, CURVE), _, name)

/* Checks one proof point; name is "A", "B" or "C", at is "" or "proof 3: " for the message. */
static int I(groth16_check_g1)(const P(g1_affine) * p, const char *at, const char *name,
                               cz_errinfo *ei) {
    if (!I(g1_affine_on_curve)(p))
        return cz_fail(ei, CZ_ENOTONCURVE, "verify: %sproof point %s is not on the curve", at,
                       name);
    if (!I(g1_affine_in_subgroup)(p))
        return cz_fail(ei, CZ_ENOTINSUBGROUP, "verify: %sproof point %s is not in the subgroup", at,
                       name);
    return CZ_OK;
}

/* Checks the three points of one proof (see groth16_check_g1 for at). */
static int I(groth16_check_proof)(const P(groth16_proof) * pr, const char *at, cz_errinfo *ei) {
    int rc = I(groth16_check_g1)(&pr->a, at, "A", ei);
    if (rc == CZ_OK)
        rc = I(groth16_check_g1)(&pr->c, at, "C", ei);
    if (rc != CZ_OK)
        return rc;
    if (!I(g2_affine_on_curve)(&pr->b))
        return cz_fail(ei, CZ_ENOTONCURVE, "verify: %sproof point B is not on the curve", at);
    if (!I(g2_affine_in_subgroup)(&pr->b))
        return cz_fail(ei, CZ_ENOTINSUBGROUP, "verify: %sproof point B is not in the subgroup", at);
    return CZ_OK;
}

static int I(groth16_verify)(const P(groth16_vk) * vk, const cz_groth16_public *pub,
                             const P(groth16_proof) * pr, cz_errinfo *ei) {
    P(g1_jacobian) acc, term;
    P(pairing_pair) pairs[4];
    int rc = I(groth16_check_proof)(pr, "", ei);
    if (rc != CZ_OK)
        return rc;

    I(g1_from_affine)(&acc, &vk->ic[0]);
    for (uint32_t i = 0; i < pub->n; i++) {
        P(fr) x;
        if (I(fr_from_limbs)(&x, pub->values[i]) != CZ_OK)
            return cz_fail(ei, CZ_ERANGE, "verify: public input %u is not below r", i);
        I(g1_from_affine)(&term, &vk->ic[i + 1]);
        I(g1_mul)(&term, &term, &x);
        I(g1_add)(&acc, &acc, &term);
    }

    I(g1_affine_neg)(&pairs[0].g1, &pr->a);
    pairs[0].g2 = pr->b;
    pairs[1].g1 = vk->alpha1;
    pairs[1].g2 = vk->beta2;
    I(g1_to_affine)(&pairs[2].g1, &acc);
    pairs[2].g2 = vk->gamma2;
    pairs[3].g1 = pr->c;
    pairs[3].g2 = vk->delta2;
    if (!P(pairing_check)(pairs, 4))
        return cz_fail(ei, CZ_EVERIFY, "verify: the pairing equation does not hold");
    return CZ_OK;
}

/*
 * The batch check of the file comment over n >= 1 proofs whose curve and input counts the caller
 * has checked (pubs[j].n == npublic). z[j] is proof j's 128-bit multiplier as two little-endian
 * limbs. Cost: 3 subgroup checks and 2 128-bit G1 multiplications per proof, n·npublic Fr
 * products, one MSM of npublic + 1 points, n + 3 Miller loops sharing their squarings, one final
 * exponentiation. Memory: O(n + npublic).
 */
static int I(groth16_verify_batch)(const P(groth16_vk) * vk, uint32_t npublic,
                                   const cz_groth16_public *pubs, const cz_groth16_proof *proofs,
                                   size_t n, const uint64_t (*z)[2], cz_errinfo *ei) {
    size_t nic = (size_t)npublic + 1, m = n + 3;
    P(fr) *s = malloc(nic * sizeof *s); /* s[0] = Σ z_j, s[i] = Σ_j z_j·pub_j,i-1 */
    P(g1_jacobian) *jac = malloc(m * sizeof *jac);
    P(g1_affine) *aff = malloc(m * sizeof *aff);
    P(pairing_pair) *pairs = malloc(m * sizeof *pairs);
    P(g1_jacobian) acc_c, term;
    int rc = CZ_OK;
    if (s == NULL || jac == NULL || aff == NULL || pairs == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "verify: cannot allocate a batch of %zu proofs", n);
        goto out;
    }
    for (size_t i = 0; i < nic; i++)
        I(fr_set_zero)(&s[i]);
    I(g1_jac_set_infinity)(&acc_c);
    for (size_t j = 0; j < n; j++) {
        const P(groth16_proof) *pr = &proofs[j].u.CURVE;
        uint64_t zl[4] = {z[j][0], z[j][1], 0, 0};
        char at[40];
        P(fr) zj, x;
        P(g1_affine) na;
        snprintf(at, sizeof at, "proof %zu: ", j);
        if ((rc = I(groth16_check_proof)(pr, at, ei)) != CZ_OK)
            goto out;
        int zrc = I(fr_from_limbs)(&zj, zl);
        CZ_ASSERT(zrc == CZ_OK); /* z_j < 2^128 < r */
        I(fr_add)(&s[0], &s[0], &zj);
        for (uint32_t i = 0; i < npublic; i++) {
            if (I(fr_from_limbs)(&x, pubs[j].values[i]) != CZ_OK) {
                rc = cz_fail(ei, CZ_ERANGE, "verify: proof %zu: public input %u is not below r", j,
                             i);
                goto out;
            }
            I(fr_mul)(&x, &x, &zj);
            I(fr_add)(&s[i + 1], &s[i + 1], &x);
        }
        I(g1_affine_neg)(&na, &pr->a);
        I(g1_from_affine)(&term, &na);
        I(g1_mul_limbs)(&jac[j], &term, z[j], 2);
        I(g1_from_affine)(&term, &pr->c);
        I(g1_mul_limbs)(&term, &term, z[j], 2);
        I(g1_add)(&acc_c, &acc_c, &term);
    }
    I(g1_from_affine)(&term, &vk->alpha1);
    I(g1_mul)(&jac[n], &term, &s[0]);
    if (P(g1_msm)(&jac[n + 1], vk->ic, s, nic, NULL) != CZ_OK) {
        rc = cz_fail(ei, CZ_ENOMEM, "verify: no memory for the MSM of %zu IC points", nic);
        goto out;
    }
    jac[n + 2] = acc_c;
    I(g1_batch_to_affine)(aff, jac, m);
    for (size_t j = 0; j < n; j++) {
        pairs[j].g1 = aff[j];
        pairs[j].g2 = proofs[j].u.CURVE.b;
    }
    pairs[n].g1 = aff[n];
    pairs[n].g2 = vk->beta2;
    pairs[n + 1].g1 = aff[n + 1];
    pairs[n + 1].g2 = vk->gamma2;
    pairs[n + 2].g1 = aff[n + 2];
    pairs[n + 2].g2 = vk->delta2;
    if (!P(pairing_check)(pairs, m))
        rc = cz_fail(ei, CZ_EVERIFY, "verify: the batch of %zu proofs does not hold", n);
out:
    free(s);
    free(jac);
    free(aff);
    free(pairs);
    return rc;
}

/* Copies the verification key out of a proving key. */
static int I(groth16_vk_from_zkey)(P(groth16_vk) * vk, const cz_zkey *zk, cz_errinfo *ei) {
    const CZ_CAT(cz_zkey_, CURVE) *k = &zk->u.CURVE;
    size_t nic = (size_t)zk->npublic + 1;
    vk->alpha1 = k->alpha1;
    vk->beta2 = k->beta2;
    vk->gamma2 = k->gamma2;
    vk->delta2 = k->delta2;
    vk->ic = malloc(nic * sizeof *vk->ic);
    if (vk->ic == NULL)
        return cz_fail(ei, CZ_ENOMEM, "cannot allocate %zu IC points", nic);
    memcpy(vk->ic, k->ic, nic * sizeof *vk->ic);
    return CZ_OK;
}

#undef I
#undef P
