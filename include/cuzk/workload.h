/*
 * The engine's Groth16 workloads (include/cuzk/pipeline.h, cz_workload): how a job's partitions
 * are synthesized. Each workload is one file of src/engine/ that writes its synthesis and takes
 * every other step from the shared Groth16 task (src/engine/g16_task.h):
 *
 *   zkey         a circom/snarkjs job (workload_zkey.c): one partition; synthesis is the zkey's
 *                A·w, B·w (cz_groth16_eval); the proving key comes from the SRS manager.
 *   porep-synth  the synthetic PoRep-shaped circuit (include/cuzk/porep_synth.h) at scale 2^k
 *                (workload_porep_synth.c): nparts partitions with different witnesses (seed,
 *                partition); synthesis is the witness generation and A·w, B·w of the constraint
 *                system; the key is made once by our test setup (and cached as a .zkey file), so
 *                every proof is verified.
 *
 *   post         a Filecoin PoSt partition, WinningPoSt or WindowPoSt (workload_post.c): one
 *                partition from the request's vanilla proofs, each checked natively when the job
 *                is made; synthesis is the witness of the circuit recorded once per shape
 *                (cz_post_circuit) and A·w, B·w, C·w; bellperson's prover with a .params key of
 *                the SRS manager, whose device data are its GPU bases.
 *
 *   porep        a Filecoin PoRep C2 (workload_porep.c): the C1 read and checked natively when
 *                the job is made; each partition's synthesis is the witness of the circuit
 *                recorded once per sector size (cz_porep_circuit) and A·w, B·w, C·w; bellperson's
 *                prover with the size's .params key of the SRS manager.
 *
 * porep-synth also runs in bellperson's mode (cz_porep_synth_ctx_create_bp): the same circuit
 * proven from proving assignments with a bellperson key (src/engine/bp_task.h).
 *
 * A job's result is its partitions' proofs in order, each verified against the partition's
 * public inputs and encoded once by cz_groth16_proof_encode: BLS12-381 in the zcash/bellman
 * compressed encoding (192 bytes, Filecoin's), BN254 as snarkjs's affine little-endian
 * Montgomery points (256 bytes).
 */
#ifndef CUZK_WORKLOAD_H
#define CUZK_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/bellperson.h"
#include "cuzk/curve_id.h"
#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/filecoin.h"
#include "cuzk/pipeline.h"
#include "cuzk/zkey.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fixed blinding factors for every partition (tests: reproducible proofs); NULL = random. */
typedef struct cz_workload_blinding {
    const uint8_t *r, *s; /* 32 bytes each, canonical little-endian, < r */
} cz_workload_blinding;

/* The SRS manager's per-device hooks for zkeys: a cz_groth16_gpu_key on that device. */
extern const cz_srs_device_hooks cz_workload_zkey_gpu_hooks;

/*
 * A zkey job: key (a reference from cz_srs_acquire with the zkey loader; the workload releases
 * it when the job is dropped, also when this call fails) and a .wtns of wtns_len bytes (copied)
 * named name in messages. The witness is checked against the key here (CZ_ECURVE/CZ_EFORMAT),
 * so a bad job fails at submit, not in the pipeline.
 */
int cz_workload_zkey(cz_workload *out, cz_srs_key *key, const void *wtns, size_t wtns_len,
                     const char *name, const cz_workload_blinding *bl, cz_errinfo *ei);

/* The synthetic PoRep-shaped circuit at scale k with its key, built once and shared by jobs. */
typedef struct cz_porep_synth_ctx cz_porep_synth_ctx;

/*
 * Builds the constraint system of scale k on curve and its proving key: read from
 * cache_dir/porep-synth-<curve>-<k>.zkey when present, else made by cz_groth16_setup with a
 * fixed seed trapdoor (INSECURE, benchmarks only) and written there (under a temporary name,
 * then renamed), with a checksum beside it (<key>.sum). A cached key whose bytes do not match
 * its checksum, that does not open or that is not this circuit's is logged (a warning naming the
 * file and why) and made again, once; a key that cannot be made or read back is CZ_EIO (an
 * internal error, not the caller's). cache_dir is made (0700) when missing; it must be private
 * to the caller's user, whose keys are trusted as found. CZ_ERANGE (k), CZ_EIO, CZ_ENOMEM.
 * The context must outlive every job made from it.
 */
int cz_porep_synth_ctx_create(cz_porep_synth_ctx **out, cz_curve_id curve, unsigned k,
                              const char *cache_dir, cz_threadpool *pool, cz_errinfo *ei);
/*
 * The same circuit with a benchmark key instead (for large scales, up to the real 2^27: no CPU
 * setup, no file): random header points, the G1 vectors A, B1, C, H as progressions made on the
 * device when a GPU first uses the key (never in host memory), the G2 vector B2 in host memory
 * (nvars × 192 bytes on BLS12-381; points only for the columns B touches). Its proofs are timed,
 * NOT verified: the jobs' verify step is explicitly skipped (and says so once on stderr), and a
 * job on the CPU backend fails with CZ_EUNSUPPORTED. src/engine/bench_key.h has the design.
 */
int cz_porep_synth_ctx_create_bench(cz_porep_synth_ctx **out, cz_curve_id curve, unsigned k,
                                    cz_threadpool *pool, cz_errinfo *ei);
/*
 * The same circuit (BLS12-381) proven as bellperson proves (cuzk/groth16_bellperson.h): jobs of
 * this context synthesize proving assignments (a, b, c with the input constraints, the witness,
 * the circuit's densities shared by every partition) and run the bellperson prover's stages
 * (src/engine/bp_task.h). The key is made in memory by the bellperson-format setup with a fixed
 * seed (INSECURE, benchmarks and tests only; not cached: minutes at 2^20 on two cores), or with
 * bench set, a benchmark key whose bases are progressions made on the device (proofs timed, NOT
 * verified; GPU only, as the zkey benchmark key). CZ_ERANGE (k), CZ_ENOMEM, the setup's errors.
 */
int cz_porep_synth_ctx_create_bp(cz_porep_synth_ctx **out, unsigned k, int bench,
                                 cz_threadpool *pool, cz_errinfo *ei);
/* Whether ctx has a benchmark key (proofs not verified). */
int cz_porep_synth_ctx_is_bench(const cz_porep_synth_ctx *ctx);
/* Host bytes the context holds (matrices, its witness, a benchmark key's B2), for the budget. */
uint64_t cz_porep_synth_ctx_host_bytes(const cz_porep_synth_ctx *ctx);
void cz_porep_synth_ctx_free(cz_porep_synth_ctx *ctx);
/* The context's key (for its GPU residency: cz_groth16_gpu_key_create). */
const cz_zkey *cz_porep_synth_ctx_zkey(const cz_porep_synth_ctx *ctx);
/* Bytes of host memory one partition holds from synthesis to finish (the budget's unit). */
uint64_t cz_porep_synth_ctx_part_bytes(const cz_porep_synth_ctx *ctx);

/* A job of nparts partitions of ctx's circuit, witnesses from (seed, partition). */
int cz_workload_porep_synth(cz_workload *out, cz_porep_synth_ctx *ctx, uint32_t nparts,
                            uint64_t seed, const cz_workload_blinding *bl, cz_errinfo *ei);

/* The circuit of a PoSt shape (a kind and a sector size), recorded once: its matrices and
 * densities, shared by every job of the shape (WindowPoSt V1 and V1_1 of a size are one shape).
 * pool (may be NULL: the calling thread) records it and later runs the native checks of its jobs'
 * vanilla proofs (cz_workload_post), so it must outlive the circuit.
 * Errors: CZ_EINVAL (an id that is no PoSt), CZ_ENOMEM. Must outlive its jobs. */
typedef struct cz_post_circuit cz_post_circuit;
int cz_post_circuit_create(cz_post_circuit **out, uint64_t registered_proof, cz_threadpool *pool,
                           cz_errinfo *ei);
void cz_post_circuit_free(cz_post_circuit *c); /* NULL is a no-op */
/* 1 when registered_proof is of c's shape. */
int cz_post_circuit_serves(const cz_post_circuit *c, uint64_t registered_proof);
/* Whether key is a key of c's circuit: its public inputs and L points (one per aux variable).
 * CZ_EFORMAT naming the count that differs. */
int cz_post_circuit_key_check(const cz_post_circuit *c, const cz_bellperson_params *key,
                              cz_errinfo *ei);

/*
 * A PoSt job of one partition: rq (read only during the call) proven with key, a reference from
 * cz_srs_acquire with cz_srs_loader_params (the workload releases it when the job ends, also when
 * this call fails). Everything is checked here, before the job is queued: the registered proof
 * against c, the key's public inputs against the circuit (CZ_EFORMAT), the randomness, the number
 * of vanilla proofs, their decoding and every Merkle path, comm_r and challenge (post_vanilla.h:
 * CZ_EFORMAT, CZ_ENONCANON, CZ_EINVAL or CZ_EVERIFY naming the proof, the sector and the
 * challenge). The job's result is the 192-byte proof, verified against the key's verifying key.
 */
int cz_workload_post(cz_workload *out, const cz_post_circuit *c, cz_srs_key *key,
                     const cz_post_request *rq, const cz_workload_blinding *bl, cz_errinfo *ei);

/* The circuit of a PoRep sector size, recorded once: one partition's matrices and densities,
 * shared by every job and partition of the size (every registered version of a size is one
 * circuit: one key file). A 32 GiB partition is 130 M rows in ~9 GB: its top and one challenge
 * are recorded, the other 17 challenges copied from it, and the densities counted, on pool
 * (NULL: this thread). Errors: CZ_EINVAL (an id that is no PoRep), CZ_ENOMEM. Must outlive its
 * jobs. */
typedef struct cz_porep_circuit cz_porep_circuit;
int cz_porep_circuit_create(cz_porep_circuit **out, uint64_t registered_proof, cz_threadpool *pool,
                            cz_errinfo *ei);
void cz_porep_circuit_free(cz_porep_circuit *c); /* NULL is a no-op */
/* on: the partitions of c's jobs carry their witness alone, and a, b, c are computed on the GPU
 * from c's matrices, uploaded to each device on first use (cz_gpu_r1cs: ~6 GB for 32 GiB): a
 * 32 GiB partition in flight holds 4.2 instead of 16.6 GB of host memory and moves 4.2 instead
 * of 16.8 GB to the device. Where a device cannot hold the matrices, or on the CPU backend, a, b,
 * c are computed on the CPU from them (outside the budget, with a warning). Set it before the
 * first job of c (an engine with GPUs); off by default. */
void cz_porep_circuit_abc_on_gpu(cz_porep_circuit *c, int on);
/* 1 when registered_proof is of c's sector size. */
int cz_porep_circuit_serves(const cz_porep_circuit *c, uint64_t registered_proof);
/* Whether key is a key of c's circuit (CZ_EFORMAT naming the counts that differ). */
int cz_porep_circuit_key_check(const cz_porep_circuit *c, const cz_bellperson_params *key,
                               cz_errinfo *ei);

/*
 * A PoRep C2 request read and checked, before it needs a key: the C1 (porep_c1.h: CZ_EFORMAT,
 * CZ_ENONCANON, CZ_EINVAL naming the place) decoded from rq (read only during the call), its
 * registered proof and sector against the request's (CZ_EINVAL), the replica id against the miner
 * and the sector, every partition's vanilla proofs against the graph and the derived challenges
 * (CZ_EVERIFY naming the partition, the challenge and what failed), a task per partition on pool
 * (NULL: this thread); a non-interactive PoRep is refused (CZ_EINVAL: its C2 is an aggregate).
 */
typedef struct cz_porep_input cz_porep_input;
int cz_porep_input_load(cz_porep_input **out, const cz_porep_request *rq, cz_threadpool *pool,
                        cz_errinfo *ei);
void cz_porep_input_free(cz_porep_input *in); /* NULL is a no-op */
/* The registered proof of a loaded request. */
uint64_t cz_porep_input_registered(const cz_porep_input *in);

/*
 * A PoRep C2 job of in (the workload's from here, also when this call fails) proven with key, a
 * reference from cz_srs_acquire with cz_srs_loader_params (the workload releases it when the job
 * ends, also when this call fails). Checked here: the registered proof against c, the key against
 * the circuit (CZ_EFORMAT). The job's result is the partitions' proofs in order (192 bytes each),
 * verified against the key's verifying key with the public inputs verify_seal derives.
 */
int cz_workload_porep(cz_workload *out, const cz_porep_circuit *c, cz_srs_key *key,
                      cz_porep_input *in, const cz_workload_blinding *bl, cz_errinfo *ei);

/* The circuit of a SnapDeals sector size, recorded once (one partition's matrices and densities,
 * 81 M rows at 32 GiB, recorded whole), shared by every job and partition of the size. Errors:
 * CZ_EINVAL (an id that is no update proof), CZ_ENOMEM. Must outlive its jobs. */
typedef struct cz_snap_circuit cz_snap_circuit;
int cz_snap_circuit_create(cz_snap_circuit **out, uint64_t registered_proof, cz_threadpool *pool,
                           cz_errinfo *ei);
void cz_snap_circuit_free(cz_snap_circuit *c); /* NULL is a no-op */
/* As cz_porep_circuit_abc_on_gpu: the witness alone, compact, and a, b, c on the GPU from c's
 * matrices (about 4 GB on each device for 32 GiB). */
void cz_snap_circuit_abc_on_gpu(cz_snap_circuit *c, int on);
int cz_snap_circuit_serves(const cz_snap_circuit *c, uint64_t registered_proof);
int cz_snap_circuit_key_check(const cz_snap_circuit *c, const cz_bellperson_params *key,
                              cz_errinfo *ei);

/* A SnapDeals request read and checked, before it needs a key: the commitments, one vanilla
 * proof per partition decoded and checked natively (snap_vanilla.h: CZ_EFORMAT, CZ_ENONCANON,
 * CZ_EINVAL or CZ_EVERIFY naming the partition, the challenge and what failed), a task per
 * partition on pool (NULL: this thread); rq is read only during the call. */
typedef struct cz_snap_input cz_snap_input;
int cz_snap_input_load(cz_snap_input **out, const cz_snap_request *rq, cz_threadpool *pool,
                       cz_errinfo *ei);
void cz_snap_input_free(cz_snap_input *in); /* NULL is a no-op */

/* A SnapDeals job of in (the workload's from here, also when this call fails) proven with key (as
 * cz_workload_porep takes it). The job's result is the partitions' proofs in order (192 bytes
 * each), verified against the key's verifying key with the public inputs of the commitments. */
int cz_workload_snap(cz_workload *out, const cz_snap_circuit *c, cz_srs_key *key, cz_snap_input *in,
                     const cz_workload_blinding *bl, cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
