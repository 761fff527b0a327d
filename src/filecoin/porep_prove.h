/*
 * A PoRep C2 from the inputs of a POREP_SEAL_COMMIT request (cz_porep_request: the C1 and the
 * sector's identity), proven partition by partition with a bellperson key and verified as
 * Filecoin's verify_seal verifies it: what the engine's PoRep workload and `cuzk filecoin prove|
 * verify porep-c2` run.
 *
 * Loading a request (cz__porep_request_load), before any synthesis:
 *   - the C1 read (porep_c1.h); its registered proof is the request's, its envelope's sector
 *     number the request's;
 *   - the replica id derived from the prover id (the miner's ID address payload: its number as
 *     an unsigned LEB128 varint, zero-padded to 32 bytes), the sector number, the ticket, comm_d
 *     and the registered proof's porep_id, and compared with the C1's;
 *   - every partition's vanilla proofs checked natively against the graph and the challenges the
 *     verifier derives (porep_vanilla.h), a task per partition on the pool; the first failure in
 *     partition order is reported, naming the partition, the challenge and what failed.
 *
 * Proving a partition: the circuit recorded once per shape (its matrices: what the key is made
 * from and the witness fills), the witness and each row's a, b, c synthesized in the recorded
 * order, bellperson's input constraints after them; its public inputs are the derived ones.
 * Verifying (cz__porep_verify) takes only what verify_seal takes: comm_r, comm_d, the ticket, the
 * seed (all from the C1 here), the miner and the sector; the vanilla proofs are not read.
 */
#ifndef CUZK_FILECOIN_POREP_PROVE_H
#define CUZK_FILECOIN_POREP_PROVE_H

#include "cuzk/assignment.h"
#include "cuzk/bellperson.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/threadpool.h"
#include "filecoin/porep_c1.h"

/* The prover id of miner_id (see the file comment). */
void cz__porep_prover_id(uint8_t out[32], uint64_t miner_id);

/* A request read and checked: what proving and the public inputs need. */
typedef struct cz__porep_loaded {
    cz__porep_config cfg;
    cz__porep_shape shape;
    cz__porep_graph graph;
    cz__porep_c1 c1;
    uint64_t *challenges; /* c1.npartitions × c1.per, partition after partition */
} cz__porep_loaded;

/* Reads and (check_proofs) checks rq into ld (free with cz__porep_loaded_free, also after an
 * error); the checks run on pool (NULL: this thread). CZ_EINVAL (a request that disagrees with its
 * C1; a non-interactive PoRep, whose C2 is an aggregate of its partition proofs), CZ_EVERIFY (a C1
 * that is not the sector's, or a vanilla proof that fails), the C1's read errors, CZ_ENOMEM. */
int cz__porep_request_load(cz__porep_loaded *ld, const cz_porep_request *rq, int check_proofs,
                           cz_threadpool *pool, cz_errinfo *ei);
void cz__porep_loaded_free(cz__porep_loaded *ld);

/* The blank partition circuit of shape recorded into *r (free with cz_r1cs_free): the top and one
 * challenge recorded, the other challenges copies of it (the structure of a challenge does not
 * depend on which it is), made by a task each on pool (NULL: this thread). CZ_ENOMEM, CZ_ERANGE
 * past 32-bit indexes. */
int cz__porep_record(cz_r1cs *r, const cz__porep_shape *shape, cz_threadpool *pool, cz_errinfo *ei);

/* The npub = 3 + 18·per public inputs of partition k of ld, canonical limbs, into out. */
void cz__porep_partition_inputs(uint64_t (*out)[4], const cz__porep_loaded *ld, unsigned k);

/* Partition k of ld synthesized in the variable order of r (cz__porep_record of its shape):
 * out[0..r->nvars) the witness in Montgomery limbs (input i at i, aux j at ninput + j); with a, b,
 * c (all or none; r->nrows + ninput entries each) each row's evaluations and bellperson's input
 * constraints after them. The top of the circuit on this thread, then a task per challenge on
 * pool (NULL: this thread), each in a system of its own (WITNESS, or PROVE without densities)
 * writing where the whole circuit has its aux, inputs and rows. CZ_EINTERNAL when a chunk does
 * not have the recording's counts. */
int cz__porep_synthesize(uint64_t (*out)[4], uint64_t (*a)[4], uint64_t (*b)[4], uint64_t (*c)[4],
                         const cz__porep_loaded *ld, unsigned k, const cz_r1cs *r,
                         cz_threadpool *pool, cz_errinfo *ei);
/* The same witness compact (cuzk/r1cs.h; r->booleans required): bits, cz_r1cs_bool_words(nvars)
 * words, cleared here first, and vals, cz_r1cs_nvals(r) entries, the inputs first. Each chunk
 * writes its own range of both; CZ_EINTERNAL too when a chunk's values or bits are not where the
 * recording's booleans put them. */
int cz__porep_synthesize_compact(uint64_t *bits, uint64_t (*vals)[4], const cz__porep_loaded *ld,
                                 unsigned k, const cz_r1cs *r, cz_threadpool *pool, cz_errinfo *ei);

/* Proves every partition of rq with key (opts: the prover's options, NULL: CPU, one thread) into
 * proofs (room for the registered proof's partitions; *nproofs gets their number) and verifies
 * them against the key's vk with cz__porep_verify's inputs. */
int cz__porep_prove(cz_groth16_proof *proofs, unsigned *nproofs, const cz_bellperson_params *key,
                    const cz_porep_request *rq, cz_threadpool *pool, const cz_groth16_bp_opts *opts,
                    cz_errinfo *ei);
/* Verifies the nproofs proofs of rq (see the file comment). CZ_OK or CZ_EVERIFY naming the
 * partition; CZ_EINVAL for a count that is not the registered proof's partitions. */
int cz__porep_verify(const cz_groth16_vk *vk, const cz_porep_request *rq,
                     const cz_groth16_proof *proofs, unsigned nproofs, cz_errinfo *ei);

#endif
