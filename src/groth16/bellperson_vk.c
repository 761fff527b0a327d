/*
 * The verifying key of a bellperson key as the verifier's cz_groth16_vk (cuzk/groth16.h). The
 * Groth16 equation needs alpha_g1, beta_g2, gamma_g2, delta_g2 and IC; bellperson's beta_g1 and
 * delta_g1 serve the prover only. The copy owns its IC (cz_groth16_vk_free).
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16.h"

int cz_groth16_vk_from_bellperson(cz_groth16_vk *vk, const cz_bellperson_vk *bp, cz_errinfo *ei) {
    cz_bls12381_groth16_vk *k = &vk->u.bls12381;
    memset(vk, 0, sizeof *vk);
    vk->curve = CZ_CURVE_BLS12381;
    if (bp->nic == 0)
        return cz_fail(ei, CZ_EFORMAT, "bellperson vk: no IC points (IC[0] is the input ONE's)");
    vk->npublic = bp->nic - 1;
    k->alpha1 = bp->alpha_g1;
    k->beta2 = bp->beta_g2;
    k->gamma2 = bp->gamma_g2;
    k->delta2 = bp->delta_g2;
    if ((k->ic = malloc((size_t)bp->nic * sizeof *k->ic)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "bellperson vk: cannot allocate %u IC points", bp->nic);
    memcpy(k->ic, bp->ic, (size_t)bp->nic * sizeof *k->ic);
    return CZ_OK;
}
