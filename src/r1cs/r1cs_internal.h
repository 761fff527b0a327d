/*
 * What the files of the r1cs layer share (cz__ names, not public).
 */
#ifndef CZ_R1CS_INTERNAL_H
#define CZ_R1CS_INTERNAL_H

#include <stdint.h>

#include "cuzk/r1cs.h"

/* in_a[v] = 1 when variable v occurs in a term of A, else 0; in_b likewise for B (cs->nvars bytes
 * each). Threaded by row chunks on pool (NULL: the calling thread), with relaxed atomic stores
 * since several rows may mark one variable. */
void cz__r1cs_mark_occurrence(uint8_t *in_a, uint8_t *in_b, const cz_r1cs *cs, cz_threadpool *pool);

#endif
