/*
 * cz_groth16_verify, cz_groth16_verify_batch and the verification-key helpers: argument checks
 * and curve dispatch around verify_impl.h; the batch's random multipliers are drawn here.
 */
#include "cuzk/groth16.h"

#include <stdint.h>
#include <stdlib.h>

#include "cuzk/msm.h"
#include "cuzk/pairing.h"
#include "cuzk/rand.h"
#include "curve/ec.h"
#include "field/field.h"
#include "groth16/verify.h"

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

int cz__groth16_verify_batch_z(const cz_groth16_vk *vk, const cz_groth16_public *pubs,
                               const cz_groth16_proof *proofs, size_t n, const uint64_t (*z)[2],
                               cz_errinfo *ei) {
    if (n == 0)
        return cz_fail(ei, CZ_EINVAL, "verify: a batch of no proofs");
    if (n > SIZE_MAX / sizeof(cz_bls12381_pairing_pair) - 3)
        return cz_fail(ei, CZ_ENOMEM, "verify: a batch of %zu proofs is too large", n);
    for (size_t j = 0; j < n; j++) {
        if (proofs[j].curve != vk->curve || pubs[j].curve != vk->curve)
            return cz_fail(ei, CZ_ECURVE,
                           "verify: key is %s but proof %zu is %s and its public inputs are %s",
                           cz_curve_name(vk->curve), j, cz_curve_name(proofs[j].curve),
                           cz_curve_name(pubs[j].curve));
        if (pubs[j].n != vk->npublic)
            return cz_fail(ei, CZ_EFORMAT, "verify: key expects %u public inputs, proof %zu has %u",
                           vk->npublic, j, pubs[j].n);
    }
    if (vk->curve == CZ_CURVE_BN254)
        return bn254_groth16_verify_batch(&vk->u.bn254, vk->npublic, pubs, proofs, n, z, ei);
    return bls12381_groth16_verify_batch(&vk->u.bls12381, vk->npublic, pubs, proofs, n, z, ei);
}

int cz_groth16_verify_batch(const cz_groth16_vk *vk, const cz_groth16_public *pubs,
                            const cz_groth16_proof *proofs, size_t n, cz_errinfo *ei) {
    uint64_t(*z)[2];
    int rc;
    if (n == 1) /* as bellperson: one proof needs no multiplier */
        return cz_groth16_verify(vk, pubs, proofs, ei);
    if (n == 0)
        return cz_fail(ei, CZ_EINVAL, "verify: a batch of no proofs");
    z = n <= SIZE_MAX / sizeof *z ? malloc(n * sizeof *z) : NULL;
    if (z == NULL)
        return cz_fail(ei, CZ_ENOMEM, "verify: cannot allocate a batch of %zu proofs", n);
    rc = cz_random_bytes(z, n * sizeof *z);
    /* A zero multiplier would leave its proof unchecked: drawn again (probability 2^-128). */
    for (size_t j = 0; rc == CZ_OK && j < n; j++)
        while (rc == CZ_OK && z[j][0] == 0 && z[j][1] == 0)
            rc = cz_random_bytes(z[j], sizeof z[j]);
    if (rc != CZ_OK)
        rc = cz_fail(ei, CZ_EIO, "verify: no randomness for the batch multipliers");
    else
        rc = cz__groth16_verify_batch_z(vk, pubs, proofs, n, (const uint64_t(*)[2])z, ei);
    free(z);
    return rc;
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
