/*
 * What the Filecoin provers share about a recorded circuit (a cz_r1cs of one partition, recorded
 * once per shape, whose witness every partition brings): whether a bellperson key is its key, a
 * proving assignment of its size, and the proving and verifying of a request's partitions one
 * after another (the CLI's provers, which synthesize into arrays of their own; the engine
 * synthesizes into its pooled buffers instead).
 */
#ifndef CUZK_FILECOIN_RECORDING_H
#define CUZK_FILECOIN_RECORDING_H

#include "cuzk/assignment.h"
#include "cuzk/bellperson.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_bellperson.h"
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

/* The partitions of a loaded request (PoRep C2, SnapDeals update), as proving and verifying
 * them takes them. */
typedef struct cz__recording_parts {
    const char *what; /* the proof kind, for the messages */
    unsigned nparts;
    const void *ld; /* the loaded request, passed to synth and public_of */
    /* Partition k synthesized in the variable order of r: out the witness (r->nvars entries),
     * a, b, c each row's evaluations with bellperson's input constraints after them. */
    int (*synth)(uint64_t (*out)[4], uint64_t (*a)[4], uint64_t (*b)[4], uint64_t (*c)[4],
                 const void *ld, unsigned k, const cz_r1cs *r, cz_threadpool *pool, cz_errinfo *ei);
    /* The public inputs of partition k, as cz_groth16_verify takes them (freed by the caller
     * with cz_groth16_public_free, also after an error). */
    int (*public_of)(cz_groth16_public *pub, const void *ld, unsigned k, cz_errinfo *ei);
} cz__recording_parts;

/* The proving assignment of partition k of parts: parts->synth into arrays of its own (free with
 * cz_assignment_free) and the densities of r. */
int cz__recording_assignment(cz_assignment *as, const cz__recording_parts *parts, unsigned k,
                             const cz_r1cs *r, cz_threadpool *pool, cz_errinfo *ei);
/* Proves the partitions of parts with key, which must be a key of r (cz__recording_key_check),
 * one after another, each from a proving assignment of its own (opts: the prover's options), into
 * proofs; *nproofs gets their number once all are proven, and they are verified against the key's
 * vk (cz__recording_verify). */
int cz__recording_prove(cz_groth16_proof *proofs, unsigned *nproofs,
                        const cz_bellperson_params *key, const cz_r1cs *r,
                        const cz__recording_parts *parts, cz_threadpool *pool,
                        const cz_groth16_bp_opts *opts, cz_errinfo *ei);
/* Verifies the nproofs proofs of parts against vk: CZ_EINVAL for a count that is not the
 * partitions', the verifier's code (CZ_EVERIFY) naming the first partition that fails. */
int cz__recording_verify(const cz_groth16_vk *vk, const cz_groth16_proof *proofs, unsigned nproofs,
                         const cz__recording_parts *parts, cz_errinfo *ei);

#endif
