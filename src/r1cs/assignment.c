/*
 * Proving assignments from an in-memory constraint system (cuzk/assignment.h): the sparse
 * products of cz_r1cs_eval with the input rows (bellperson's input constraints are the rows
 * cz_r1cs_eval appends with CZ_R1CS_EVAL_INPUT_ROWS: a = input_i, b = c = 0), the witness split
 * into inputs and aux, and the occurrence of each variable in A and B packed into bitmaps.
 */
#include "cuzk/assignment.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/threadpool.h"
#include "r1cs/r1cs_internal.h"

size_t cz_density_popcount(const uint64_t *d, size_t nbits) {
    size_t n = 0, full = nbits / 64;
    for (size_t i = 0; i < full; i++)
        n += (size_t)__builtin_popcountll(d[i]);
    if (nbits % 64 != 0)
        n += (size_t)__builtin_popcountll(d[full] & ((UINT64_C(1) << (nbits % 64)) - 1));
    return n;
}

/* Packs nbits occurrence bytes into LSB-first u64 words. */
static void pack_bits(uint64_t *out, const uint8_t *bytes, size_t nbits) {
    memset(out, 0, cz_density_words(nbits) * sizeof *out);
    for (size_t i = 0; i < nbits; i++)
        out[i / 64] |= (uint64_t)(bytes[i] != 0) << (i % 64);
}

void cz_assignment_free(cz_assignment *as) {
    if (as == NULL)
        return;
    /* The maker allocated every array; the view's pointers are const only for the prover. */
    free((void *)as->a);
    free((void *)as->b);
    free((void *)as->c);
    free((void *)as->input);
    free((void *)as->aux);
    free((void *)as->a_aux_density);
    free((void *)as->b_input_density);
    free((void *)as->b_aux_density);
    memset(as, 0, sizeof *as);
}

int cz_r1cs_densities(uint64_t **a_aux, uint64_t **b_input, uint64_t **b_aux, const cz_r1cs *cs,
                      cz_threadpool *pool, cz_errinfo *ei) {
    size_t ninput = (size_t)cs->npublic + 1, naux = cs->naux;
    uint8_t *in_a = malloc(cs->nvars), *in_b = malloc(cs->nvars);
    int rc = CZ_OK;
    *a_aux = malloc((cz_density_words(naux) + 1) * sizeof **a_aux);
    *b_input = malloc(cz_density_words(ninput) * sizeof **b_input);
    *b_aux = malloc((cz_density_words(naux) + 1) * sizeof **b_aux);
    if (in_a == NULL || in_b == NULL || *a_aux == NULL || *b_input == NULL || *b_aux == NULL) {
        free(*a_aux);
        free(*b_input);
        free(*b_aux);
        *a_aux = *b_input = *b_aux = NULL;
        rc = cz_fail(ei, CZ_ENOMEM, "assignment: out of memory for the densities of %u variables",
                     cs->nvars);
        goto out;
    }
    cz__r1cs_mark_occurrence(in_a, in_b, cs, pool);
    pack_bits(*a_aux, in_a + ninput, naux);
    pack_bits(*b_input, in_b, ninput);
    pack_bits(*b_aux, in_b + ninput, naux);
out:
    free(in_a);
    free(in_b);
    return rc;
}

int cz_r1cs_assignment_make(cz_assignment *out, const cz_r1cs *cs, cz_threadpool *pool,
                            cz_errinfo *ei) {
    cz_bls12381_fr *a = NULL, *b = NULL, *c = NULL, *input = NULL, *aux = NULL;
    uint64_t *a_aux = NULL, *b_in = NULL, *b_aux = NULL, one[4];
    int rc = CZ_OK;

    memset(out, 0, sizeof *out);
    if (cs->curve != CZ_CURVE_BLS12381)
        return cz_fail(ei, CZ_ECURVE, "assignment: bellperson proves over BLS12-381, not %s",
                       cz_curve_name(cs->curve));
    cz_r1cs_fr_from_u64(one, cs->curve, 1);
    if (memcmp(cs->w[0], one, sizeof one) != 0)
        return cz_fail(ei, CZ_EINVAL, "assignment: witness value 0 (ONE) is not 1");

    size_t ninput = (size_t)cs->npublic + 1, naux = cs->naux, nabc = (size_t)cs->nrows + ninput;
    a = malloc(nabc * sizeof *a);
    b = malloc(nabc * sizeof *b);
    c = malloc(nabc * sizeof *c);
    input = malloc(ninput * sizeof *input);
    aux = malloc((naux ? naux : 1) * sizeof *aux);
    if (a == NULL || b == NULL || c == NULL || input == NULL || aux == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "assignment: out of memory for %zu constraints, %u variables",
                     nabc, cs->nvars);
        goto out;
    }
    if ((rc = cz_r1cs_densities(&a_aux, &b_in, &b_aux, cs, pool, ei)) != CZ_OK ||
        (rc = cz_r1cs_eval((uint64_t(*)[4])a, (uint64_t(*)[4])b, (uint64_t(*)[4])c, cs, nabc,
                           CZ_R1CS_EVAL_INPUT_ROWS, pool, ei)) != CZ_OK)
        goto out;
    memcpy(input, cs->w, ninput * sizeof *input);
    memcpy(aux, cs->w + ninput, naux * sizeof *aux);
    *out = (cz_assignment){.a = a,
                           .b = b,
                           .c = c,
                           .abc_size = nabc,
                           .input = input,
                           .ninput = ninput,
                           .aux = aux,
                           .naux = naux,
                           .a_aux_density = a_aux,
                           .b_input_density = b_in,
                           .b_aux_density = b_aux};
    a = b = c = input = aux = NULL;
    a_aux = b_in = b_aux = NULL;
out:
    free(a);
    free(b);
    free(c);
    free(input);
    free(aux);
    free(a_aux);
    free(b_in);
    free(b_aux);
    return rc;
}
