/*
 * What the Filecoin provers share about a recorded circuit (a cz_r1cs of one partition, recorded
 * once per shape, whose witness every partition brings): whether a bellperson key is its key, and
 * a proving assignment of its size (the CLI's provers, which synthesize into arrays of their own;
 * the engine synthesizes into its pooled buffers instead).
 */
#ifndef CUZK_FILECOIN_RECORDING_H
#define CUZK_FILECOIN_RECORDING_H

#include "cuzk/assignment.h"
#include "cuzk/bellperson.h"
#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"

/* Whether key is a key of r: its public inputs and L points (one per aux variable). CZ_EFORMAT
 * naming what (the circuit, for the message) and the count that differs. */
int cz__recording_key_check(const cz_r1cs *r, const cz_bellperson_params *key, const char *what,
                            cz_errinfo *ei);

/* A proving assignment of r's size (a, b, c of nrows + ninput entries, the input and aux arrays,
 * r's densities computed on pool) and *all, the witness of r->nvars entries (input | aux) that a
 * synthesis fills with a, b, c; cz__recording_assignment_take then moves *all into the assignment
 * and frees it. CZ_ENOMEM (nothing left allocated). */
int cz__recording_assignment_alloc(cz_assignment *as, uint64_t (**all)[4], const cz_r1cs *r,
                                   cz_threadpool *pool, cz_errinfo *ei);
void cz__recording_assignment_take(cz_assignment *as, uint64_t (*all)[4]);

#endif
