/*
 * cz_groth16_verify and the verification-key helpers: curve dispatch around verify_impl.h.
 */
#include "cuzk/groth16.h"

#include <stdlib.h>

#include "cuzk/pairing.h"
#include "curve/ec.h"
#include "field/field.h"

#define CURVE bn254
#include "groth16/verify_impl.h"
#undef CURVE
#define CURVE bls12381
#include "groth16/verify_impl.h"
#undef CURVE

int cz_groth16_verify(const cz_groth16_vk *vk, const cz_groth16_public *pub,
                      const cz_groth16_proof *proof, cz_errinfo *ei) {
    if (vk->curve != proof->curve || vk->curve != pub->curve)
        return cz_fail(ei, CZ_ECURVE, "verify: key is %s but proof is %s and public inputs are %s",
                       cz_curve_name(vk->curve), cz_curve_name(proof->curve),
                       cz_curve_name(pub->curve));
    if (pub->n != vk->npublic)
        return cz_fail(ei, CZ_EFORMAT, "verify: key expects %u public inputs, got %u", vk->npublic,
                       pub->n);
    if (vk->curve == CZ_CURVE_BN254)
        return bn254_groth16_verify(&vk->u.bn254, pub, &proof->u.bn254, ei);
    return bls12381_groth16_verify(&vk->u.bls12381, pub, &proof->u.bls12381, ei);
}

int cz_groth16_vk_from_zkey(cz_groth16_vk *vk, const cz_zkey *zk, cz_errinfo *ei) {
    vk->curve = zk->curve;
    vk->npublic = zk->npublic;
    if (zk->curve == CZ_CURVE_BN254)
        return bn254_groth16_vk_from_zkey(&vk->u.bn254, zk, ei);
    return bls12381_groth16_vk_from_zkey(&vk->u.bls12381, zk, ei);
}

void cz_groth16_vk_free(cz_groth16_vk *vk) {
    if (vk == NULL)
        return;
    if (vk->curve == CZ_CURVE_BN254) {
        free(vk->u.bn254.ic);
        vk->u.bn254.ic = NULL;
    } else {
        free(vk->u.bls12381.ic);
        vk->u.bls12381.ic = NULL;
    }
}
