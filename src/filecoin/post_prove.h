/*
 * A PoSt partition from the inputs of a WINNING_POST or WINDOW_POST_PARTITION request (the
 * registered proof, the randomness, the partition index, the vanilla proofs), proven with a
 * bellperson key and verified: what the daemon and `cuzk filecoin prove|verify` run.
 *
 * Registered proofs (the chain's RegisteredPoStProof ids): 0-4 WinningPoSt 2 KiB, 8 MiB,
 * 512 MiB, 32 GiB, 64 GiB; 5-9 WindowPoSt V1 of the same sizes (challenge indexes counted over
 * the whole PoSt); 10-14 WindowPoSt V1_1 (indexes per sector). The randomness must be a field
 * element below r, as rust-fil-proofs requires. A WindowPoSt partition takes 1 to S vanilla
 * proofs in ascending sector id (the verifier's order), a WinningPoSt one exactly one.
 *
 * Proving: every vanilla proof decoded and checked natively first (post_vanilla.h: a bad one
 * costs no synthesis), then the circuit recorded, the witness synthesized alone into it, the
 * bellperson prover, and the proof verified against the key's vk before it is returned.
 */
#ifndef CUZK_FILECOIN_POST_PROVE_H
#define CUZK_FILECOIN_POST_PROVE_H

#include "cuzk/assignment.h"
#include "cuzk/bellperson.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/threadpool.h"
#include "filecoin/post_vanilla.h"

/* The kind, sector size and index rule of a registered proof; CZ_EINVAL naming an unknown id. */
int cz__post_registered(cz__post_kind *kind, uint64_t *sector_size, int *window_v1, uint64_t id,
                        cz_errinfo *ei);
/* The inverse: the registered proof of kind at sector_size (WindowPoSt V1 when window_v1, else
 * V1_1); CZ_EINVAL for a size Filecoin has no PoSt for. */
int cz__post_registered_id(uint64_t *id, cz__post_kind kind, uint64_t sector_size, int window_v1,
                           cz_errinfo *ei);
/* The challenge index of inclusion proof 0 of the vanilla proof at position i of partition
 * (inclusion proof n adds n): (partition·S + i)·10 for WindowPoSt V1, else 0. */
uint64_t cz__post_index_base(const cz__post_shape *shape, int window_v1, uint64_t partition,
                             size_t i);

/* The request's vanilla proofs decoded and (check_paths) checked: *vs (nvanilla, free with
 * cz__post_vanilla_free each and free) and the shape. The decoding (a task per proof) and the
 * checks (a task per comm_r and per inclusion proof) run on pool (NULL: this thread); the error is
 * the first in request order, as a serial pass would meet it: a proof's decoding, its sector
 * order, its comm_r, its inclusion proofs. Errors name the proof and what failed. */
int cz__post_request_load(cz__post_vanilla **vs, cz__post_shape *shape, const cz_post_request *rq,
                          int check_paths, cz_threadpool *pool, cz_errinfo *ei);
void cz__post_vanillas_free(cz__post_vanilla *vs, size_t n);

/* The blank circuit of shape recorded into *r (what the key is made from and the witness fills):
 * one sector recorded, then copied shape->sectors times on pool (NULL: this thread) by
 * cz__cs_to_r1cs_repeat, each copy with its variables where sequential synthesis puts them and
 * its booleans (every sector has the same structure; only values differ). CZ_ERANGE past 32-bit
 * indexes, CZ_ENOMEM. Free with cz_r1cs_free. */
int cz__post_record(cz_r1cs *r, const cz__post_shape *shape, cz_threadpool *pool, cz_errinfo *ei);
/* The same recorded sector after sector in one system (the reference the tests hold
 * cz__post_record to; as slow as it sounds for 2349 sectors). */
int cz__post_record_direct(cz_r1cs *r, const cz__post_shape *shape, cz_errinfo *ei);

/* The partition of w synthesized in the variable order of the recorded circuit r (cz__post_record
 * of shape): out[0..r->nvars) the witness in Montgomery limbs, input i at i, aux j at ninput + j;
 * with a, b, c (all or none; r->nrows + ninput entries each) also each row's evaluations and
 * bellperson's input constraints after them (a = the input, b = c = 0), what A·w, B·w, C·w of the
 * recording give. The sectors are synthesized in chunks on pool (NULL: the calling thread), each
 * in a system of its own (WITNESS, or PROVE without densities: the recording has them) whose
 * values land where bellperson's extend puts them: sector s's aux after those of the sectors
 * before it, its inputs and rows likewise; every chunk's counts are checked against the
 * recording's (CZ_EINTERNAL naming the chunk). CZ_ENOMEM. */
int cz__post_synthesize(uint64_t (*out)[4], uint64_t (*a)[4], uint64_t (*b)[4], uint64_t (*c)[4],
                        const cz__post_witness *w, const cz__post_shape *shape, const cz_r1cs *r,
                        cz_threadpool *pool, cz_errinfo *ei);

/* Proves the request's partition with key (opts: the prover's options, NULL: CPU, one thread) and
 * verifies the proof against the key's vk. */
int cz__post_prove(cz_groth16_proof *proof, const cz_bellperson_params *key,
                   const cz_post_request *rq, cz_threadpool *pool, const cz_groth16_bp_opts *opts,
                   cz_errinfo *ei);
/* Verifies proof for the request: the public inputs from the vanilla proofs' sector ids and
 * comm_r and the derived challenges (their paths are not read). CZ_OK or CZ_EVERIFY. */
int cz__post_verify(const cz_groth16_vk *vk, const cz_post_request *rq,
                    const cz_groth16_proof *proof, cz_errinfo *ei);

#endif
