/*
 * A SnapDeals update from the inputs of a SNAP_DEALS_UPDATE request (cz_snap_request: the
 * registered update proof, the commitments, a vanilla proof per partition), proven partition by
 * partition with a bellperson key and verified: what `cuzk filecoin prove|verify snap-update`
 * runs.
 *
 * Loading a request (cz__snap_request_load), before any synthesis: the registered proof known,
 * the commitments below r, one vanilla proof per partition, each decoded and checked natively
 * (snap_vanilla.h) with h the size's production value, a task per partition on the pool; the
 * first failure in partition order is reported, naming the partition, the challenge and what
 * failed. Proving (a loaded request): the circuit recorded once (its matrices: what the key is made
 * from), each partition's witness synthesized alone and put into the recording's order,
 * bellperson's prover; every proof is verified against the key's vk before the update is returned.
 * Verifying (cz__snap_verify) takes only the registered proof and the commitments: the public
 * inputs of partition k are k with the production h, comm_r_old, comm_d_new and comm_r_new.
 */
#ifndef CUZK_FILECOIN_SNAP_PROVE_H
#define CUZK_FILECOIN_SNAP_PROVE_H

#include "cuzk/bellperson.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/threadpool.h"
#include "filecoin/snap_vanilla.h"

/* The sector size of registered update proof id; CZ_EINVAL naming an unknown id. */
int cz__snap_registered(uint64_t *sector_size, uint64_t id, cz_errinfo *ei);
/* The inverse: the registered update proof of a published sector size, else CZ_EINVAL. */
int cz__snap_registered_id(uint64_t *id, uint64_t sector_size, cz_errinfo *ei);

/* A request read and checked. */
typedef struct cz__snap_loaded {
    cz__snap_shape shape;
    cz__snap_public pub; /* pub.k: 0; the others' */
    cz__snap_vanilla *v; /* shape.partitions */
} cz__snap_loaded;

/* Reads and (check) checks rq into ld (free with cz__snap_loaded_free, also after an error); the
 * decoding and the checks run on pool (NULL: this thread). CZ_EINVAL (an unknown registered proof,
 * a commitment not below r, a count of vanilla proofs that is not the partitions'), the decoder's
 * errors, CZ_EVERIFY (a vanilla proof that fails its check), CZ_ENOMEM. */
int cz__snap_request_load(cz__snap_loaded *ld, const cz_snap_request *rq, int check,
                          cz_threadpool *pool, cz_errinfo *ei);
void cz__snap_loaded_free(cz__snap_loaded *ld);

/* The blank partition circuit of shape recorded into *r (free with cz_r1cs_free): the top and
 * one challenge recorded, the other challenges copied from it (a task per copy on pool, NULL:
 * this thread), each reading its own generated bits; the same r1cs as recording them all
 * (test_snap_prove). */
int cz__snap_record(cz_r1cs *r, const cz__snap_shape *shape, cz_threadpool *pool, cz_errinfo *ei);

/* Partition k of ld synthesized in the variable order of r (cz__snap_record of its shape), in
 * chunks on pool (synth_chunks.h: the top, then a task per challenge; NULL: this thread):
 * out[0..r->nvars) the witness in Montgomery limbs (input i at i, aux j at ninput + j); with a, b,
 * c (all or none; r->nrows + ninput entries each) each row's evaluations and bellperson's input
 * constraints after them. The counts must be the recording's (CZ_EINTERNAL). */
int cz__snap_synthesize(uint64_t (*out)[4], uint64_t (*a)[4], uint64_t (*b)[4], uint64_t (*c)[4],
                        const cz__snap_loaded *ld, unsigned k, const cz_r1cs *r,
                        cz_threadpool *pool, cz_errinfo *ei);
/* The same witness compact (cuzk/r1cs.h; r->booleans required): bits, cz_r1cs_bool_words(nvars)
 * words, and vals, cz_r1cs_nvals(r) entries, the inputs first. */
int cz__snap_synthesize_compact(uint64_t *bits, uint64_t (*vals)[4], const cz__snap_loaded *ld,
                                unsigned k, const cz_r1cs *r, cz_threadpool *pool, cz_errinfo *ei);
/* The 4 public inputs of partition k of ld (canonical limbs). */
void cz__snap_partition_inputs(uint64_t (*out)[4], const cz__snap_loaded *ld, unsigned k);

/* Proves every partition of a request loaded and checked (cz__snap_request_load with check; the
 * caller loads it before it reads the key, so a bad request costs neither) with key (opts: NULL,
 * CPU, one thread) into proofs (room for the shape's partitions; *nproofs gets their number) and
 * verifies them as cz__snap_verify does. */
int cz__snap_prove(cz_groth16_proof *proofs, unsigned *nproofs, const cz_bellperson_params *key,
                   const cz__snap_loaded *ld, cz_threadpool *pool, const cz_groth16_bp_opts *opts,
                   cz_errinfo *ei);
/* Verifies the nproofs proofs of rq's update (see the file comment; the vanilla proofs are not
 * read). CZ_OK or CZ_EVERIFY naming the partition; CZ_EINVAL for a count that is not the
 * partitions'. */
int cz__snap_verify(const cz_groth16_vk *vk, const cz_snap_request *rq,
                    const cz_groth16_proof *proofs, unsigned nproofs, cz_errinfo *ei);

#endif
