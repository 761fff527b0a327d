/*
 * The Groth16 verifier for one curve (instantiated per CURVE like prove_impl.h):
 *
 *   e(-πA, πB) · e(α₁, β₂) · e(vk_x, γ₂) · e(πC, δ₂) = 1,   vk_x = IC₀ + Σ pub_i·IC_i,
 *
 * checked with one multi-pairing (one final exponentiation). Before the pairing, each proof point
 * must be on its curve and in the prime-order subgroup (snarkjs checks only the curve; a point
 * outside the subgroup could otherwise be used to forge), and each public input must be < r.
 */
#include <string.h>

#include "field/cz_macros.h"

#define I(name) CZ_CAT3(CURVE, _, name)
#define P(name) CZ_CAT3(CZ_CAT(cz_, CURVE), _, name)

/* Checks one proof point; name is "A", "B" or "C" for the message. */
static int I(groth16_check_g1)(const P(g1_affine) * p, const char *name, cz_errinfo *ei) {
    if (!I(g1_affine_on_curve)(p))
        return cz_fail(ei, CZ_ENOTONCURVE, "verify: proof point %s is not on the curve", name);
    if (!I(g1_affine_in_subgroup)(p))
        return cz_fail(ei, CZ_ENOTINSUBGROUP, "verify: proof point %s is not in the subgroup",
                       name);
    return CZ_OK;
}

static int I(groth16_verify)(const P(groth16_vk) * vk, const cz_groth16_public *pub,
                             const P(groth16_proof) * pr, cz_errinfo *ei) {
    P(g1_jacobian) acc, term;
    P(pairing_pair) pairs[4];
    int rc = I(groth16_check_g1)(&pr->a, "A", ei);
    if (rc == CZ_OK)
        rc = I(groth16_check_g1)(&pr->c, "C", ei);
    if (rc != CZ_OK)
        return rc;
    if (!I(g2_affine_on_curve)(&pr->b))
        return cz_fail(ei, CZ_ENOTONCURVE, "verify: proof point B is not on the curve");
    if (!I(g2_affine_in_subgroup)(&pr->b))
        return cz_fail(ei, CZ_ENOTINSUBGROUP, "verify: proof point B is not in the subgroup");

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
