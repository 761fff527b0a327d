/*
 * For the tests of recordings made two ways (one system against a prefix and copies, extended
 * systems, ...): whether two cz_r1cs are the same system.
 */
#ifndef CUZK_TESTS_SAME_R1CS_H
#define CUZK_TESTS_SAME_R1CS_H

#include <string.h>

#include "cuzk/r1cs.h"

/* The same counts, rows, terms (coefficients compared by value, not by their index in the
 * table) and booleans. */
static inline int same_r1cs(const cz_r1cs *x, const cz_r1cs *y) {
    const cz_r1cs_mat *mx[3] = {&x->a, &x->b, &x->c}, *my[3] = {&y->a, &y->b, &y->c};
    int same = x->nrows == y->nrows && x->npublic == y->npublic && x->naux == y->naux &&
               (x->booleans == NULL) == (y->booleans == NULL);
    if (same && x->booleans != NULL)
        same = memcmp(x->booleans, y->booleans,
                      cz_r1cs_bool_words(x->nvars) * sizeof *x->booleans) == 0;
    for (int k = 0; same && k < 3; k++) {
        same &= mx[k]->nnz == my[k]->nnz && memcmp(mx[k]->row_ptr, my[k]->row_ptr,
                                                   (x->nrows + 1) * sizeof *mx[k]->row_ptr) == 0;
        for (uint64_t t = 0; same && t < mx[k]->nnz; t++)
            same &= mx[k]->var[t] == my[k]->var[t] &&
                    memcmp(x->coefs[mx[k]->coef[t]], y->coefs[my[k]->coef[t]], 32) == 0;
    }
    return same;
}

#endif
