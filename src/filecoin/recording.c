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
