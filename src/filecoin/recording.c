/*
 * Recorded circuits and their keys and assignments (recording.h).
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/recording.h"

int cz__recording_key_check(const cz_r1cs *r, const cz_bellperson_params *key, const char *what,
                            cz_errinfo *ei) {
    if (key->vk.nic != (uint64_t)r->npublic + 1)
        return cz_fail(ei, CZ_EFORMAT, "%s: the key has %u public inputs, the circuit %u", what,
                       key->vk.nic - 1, r->npublic);
    if (key->nl != r->naux)
        return cz_fail(ei, CZ_EFORMAT, "%s: the key has %u L points, the circuit %u aux", what,
                       key->nl, r->naux);
    return CZ_OK;
}

int cz__recording_assignment_alloc(cz_assignment *as, uint64_t (**all)[4], const cz_r1cs *r,
                                   cz_threadpool *pool, cz_errinfo *ei) {
    const size_t n = (size_t)r->nrows + r->npublic + 1;
    int rc;
    memset(as, 0, sizeof *as);
    as->abc_size = n;
    as->ninput = (size_t)r->npublic + 1;
    as->naux = r->naux;
    as->a = malloc(n * sizeof *as->a);
    as->b = malloc(n * sizeof *as->b);
    as->c = malloc(n * sizeof *as->c);
    as->input = malloc(as->ninput * sizeof *as->input);
    as->aux = malloc((as->naux ? as->naux : 1) * sizeof *as->aux);
    *all = malloc((size_t)r->nvars * sizeof **all);
    if (as->a == NULL || as->b == NULL || as->c == NULL || as->input == NULL || as->aux == NULL ||
        *all == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "the assignment of %zu rows", n);
    } else {
        rc = cz_r1cs_densities((uint64_t **)&as->a_aux_density, (uint64_t **)&as->b_input_density,
                               (uint64_t **)&as->b_aux_density, r, pool, ei);
    }
    if (rc != CZ_OK) {
        free(*all);
        *all = NULL;
        cz_assignment_free(as);
    }
    return rc;
}

void cz__recording_assignment_take(cz_assignment *as, uint64_t (*all)[4]) {
    memcpy((void *)as->input, all, as->ninput * sizeof *all);
    memcpy((void *)as->aux, all + as->ninput, as->naux * sizeof *all);
    free(all);
}

int cz__recording_assignment(cz_assignment *as, const cz__recording_parts *parts, unsigned k,
                             const cz_r1cs *r, cz_threadpool *pool, cz_errinfo *ei) {
    uint64_t(*all)[4];
    int rc = cz__recording_assignment_alloc(as, &all, r, pool, ei);
    if (rc != CZ_OK)
        return rc;
    if ((rc = parts->synth(all, (uint64_t(*)[4])as->a, (uint64_t(*)[4])as->b, (uint64_t(*)[4])as->c,
                           parts->ld, k, r, pool, ei)) != CZ_OK) {
        free(all);
        cz_assignment_free(as);
        return rc;
    }
    cz__recording_assignment_take(as, all);
    return CZ_OK;
}

static int prove_partitions(cz_groth16_proof *proofs, const cz_bellperson_params *key,
                            const cz_r1cs *r, const cz__recording_parts *parts, cz_threadpool *pool,
                            const cz_groth16_bp_opts *opts, cz_errinfo *ei) {
    for (unsigned k = 0; k < parts->nparts; k++) {
        cz_assignment as;
        int rc = cz__recording_assignment(&as, parts, k, r, pool, ei);
        if (rc != CZ_OK)
            return rc;
        rc = cz_groth16_bp_prove(&proofs[k], key, &as, 1, opts, ei);
        cz_assignment_free(&as);
        if (rc != CZ_OK)
            return rc;
    }
    return CZ_OK;
}

int cz__recording_prove(cz_groth16_proof *proofs, unsigned *nproofs,
                        const cz_bellperson_params *key, const cz_r1cs *r,
                        const cz__recording_parts *parts, cz_threadpool *pool,
                        const cz_groth16_bp_opts *opts, cz_errinfo *ei) {
    cz_groth16_vk vk;
    int rc;
    *nproofs = 0;
    if ((rc = cz__recording_key_check(r, key, parts->what, ei)) != CZ_OK ||
        (rc = prove_partitions(proofs, key, r, parts, pool, opts, ei)) != CZ_OK)
        return rc;
    *nproofs = parts->nparts;
    memset(&vk, 0, sizeof vk);
    if ((rc = cz_groth16_vk_from_bellperson(&vk, &key->vk, ei)) == CZ_OK)
        rc = cz__recording_verify(&vk, proofs, *nproofs, parts, ei);
    cz_groth16_vk_free(&vk);
    return rc;
}

int cz__recording_verify(const cz_groth16_vk *vk, const cz_groth16_proof *proofs, unsigned nproofs,
                         const cz__recording_parts *parts, cz_errinfo *ei) {
    int rc = CZ_OK;
    if (nproofs != parts->nparts)
        return cz_fail(ei, CZ_EINVAL, "%s: %u proofs for %u partitions", parts->what, nproofs,
                       parts->nparts);
    for (unsigned k = 0; rc == CZ_OK && k < nproofs; k++) {
        cz_groth16_public pub;
        memset(&pub, 0, sizeof pub);
        if ((rc = parts->public_of(&pub, parts->ld, k, ei)) == CZ_OK &&
            (rc = cz_groth16_verify(vk, &pub, &proofs[k], ei)) != CZ_OK)
            rc = cz_fail(ei, rc, "%s: partition %u: the proof does not verify", parts->what, k);
        cz_groth16_public_free(&pub);
    }
    return rc;
}
