/*
 * The bellperson partition task (internal to the engine): the steps of cz_workload_ops for a
 * workload that proves bellperson keys (cuzk/groth16_bellperson.h) from proving assignments, as
 * g16_task.h is for zkeys. A workload embeds a cz__bp_job as the first member of its job, makes
 * each partition with cz__bp_part_new (pooled a, b, c and w = input | aux, the densities shared
 * from the job), fills them, and ends with cz__bp_part_end (which records the public inputs);
 * every other step is one of the cz__bp_* stages below (CZ__BP_STAGES), which run the bellperson
 * prover's stages on the partition:
 *
 *   prepare   the device's GPU key (made on first use from the first partition's densities,
 *             outside the lock), the pending proof, the G2 MSM started on dev->cpu unless the
 *             key holds B_G2
 *   reserve   the circuit's matrices resident (abc_on_gpu), then dev->ws grown to what an upload
 *             takes (cz_groth16_bp_gpu_ws_need), in that order: the matrices go before a second
 *             workspace where the device holds only one of the two
 *   upload    a, b, c and w into the partition's device buffers (dev->ws); a, b, c go back to
 *             the pool at once. A partition of a circuit with abc_on_gpu carries w alone, compact
 *             when the circuit knows its booleans (cuzk/r1cs.h: bits and the other values, about
 *             70 MB for a 32 GiB PoRep partition instead of 4.2 GB): w is uploaded (expanded on
 *             the device) and a, b, c computed there from the circuit's matrices, resident from
 *             the first use (cz__bp_circuit.dev); where they cannot be (device memory, the CPU
 *             backend) a, b, c are computed on the CPU from the matrices instead, into buffers of
 *             the partition's own, and a compact w expanded on the CPU too (one warning per
 *             circuit); so is a compact w where the device key has no B_G2 (prepare)
 *   compute   under the device lock: the 6 NTTs and the MSMs (GPU, or CPU with dev->compute)
 *   finish    joins the G2 MSM, the epilogue: the proof (a struct); w goes back to the pool
 *   verify    the job's partitions at once (cz_groth16_verify_batch)
 */
#ifndef CUZK_ENGINE_BP_TASK_H
#define CUZK_ENGINE_BP_TASK_H

#include <pthread.h>
#include <stdint.h>

#include "cuzk/assignment.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/pipeline.h"
#include "cuzk/workload.h"

/* GPU keys of one bellperson key, one per device, made on first use (thread-safe). With bench
 * set, params came from cz_groth16_bp_bench_params and the device keys are benchmark keys
 * (cz_groth16_bp_gpu_key_create_bench). */
typedef struct cz__bp_keys {
    pthread_mutex_t lock; /* guards gpu[] */
    const cz_bellperson_params *params;
    int bench;
    cz_groth16_bp_gpu_key *gpu[CZ_ENGINE_MAX_DEVICES];
} cz__bp_keys;

void cz__bp_keys_init(cz__bp_keys *k, const cz_bellperson_params *params);
void cz__bp_keys_fini(cz__bp_keys *k);

/* What every bellperson job has. */
typedef struct cz__bp_job {
    const cz_bellperson_params *params;
    cz_groth16_vk vk;
    uint32_t nparts, npub;
    uint64_t (*pub)[4]; /* nparts × npub canonical public inputs, from cz__bp_part_end */
    int fixed;          /* r, s given (tests: reproducible proofs) */
    cz_bls12381_fr r, s;
    int skip_verify;                      /* a benchmark key: proofs timed, not verified */
    const uint64_t *a_aux, *b_in, *b_aux; /* the circuit's densities (the workload's) */
    size_t abc_size, ninput, naux;
    struct cz__bp_circuit *circ; /* the circuit of cz__bp_workload_of (not owned); NULL: none */
    cz__bp_keys *keys;           /* a key cache of the workload's (not owned), or */
    cz_srs_key *key; /* the SRS manager's key (the job's reference; its device data are the
                      * GPU keys); params is its data */
} cz__bp_job;

/* One partition in flight: the pooled vectors and the assignment that views them. */
typedef struct cz__bp_part {
    cz_mem *mem;
    cz_bls12381_fr *a, *b, *c, *w;
    int abc_own; /* a, b, c are the partition's own (cz_host_alloc), not the pool's */
    /* a compact witness: bits and vals in the pooled w (as.input = vals, as.aux NULL), and w
     * expanded on the host where something there needs it (cz_host_alloc) */
    uint64_t *bits;
    cz_bls12381_fr *vals, *w_own;
    cz_assignment as;
    cz_groth16_bp_pending *pp;
} cz__bp_part;

/* A circuit recorded once per shape for bellperson jobs (the Filecoin workloads): its matrices
 * without a witness, and its densities. cz__bp_circuit_ready computes the densities of r (recorded
 * by the caller) on pool and drops its recording's witness; fini frees it all (the device copies
 * too). */
typedef struct cz__bp_circuit {
    cz_r1cs r;
    uint64_t *a_aux, *b_input, *b_aux;
    int abc_on_gpu;       /* partitions carry w alone; a, b, c come from r where they are proven */
    uint32_t nvals;       /* r's non-booleans: a compact witness's values (r.booleans set) */
    pthread_mutex_t lock; /* guards dev[], no_dev[] and warned; made by ready */
    int lock_made;
    cz_gpu_r1cs *dev[CZ_ENGINE_MAX_DEVICES]; /* r on each device, from its first use */
    int no_dev[CZ_ENGINE_MAX_DEVICES];       /* the device could not hold r */
    int warned;                              /* a, b, c computed on the CPU */
    int warned_w;                            /* compact witnesses expanded on the CPU */
} cz__bp_circuit;

int cz__bp_circuit_ready(cz__bp_circuit *c, cz_threadpool *pool, cz_errinfo *ei);
void cz__bp_circuit_fini(cz__bp_circuit *c);

/* The shell of a job of nparts partitions with params (blinding bl may be NULL: random). */
int cz__bp_job_init(cz__bp_job *j, const cz_bellperson_params *params, uint32_t nparts,
                    const cz_workload_blinding *bl, cz_errinfo *ei);
/* Drops the SRS key reference (the job has ended; idempotent). */
void cz__bp_job_release(cz__bp_job *j);
void cz__bp_job_fini(cz__bp_job *j);
/* The engine's side of the workload: nparts, the pooled buffers, part_bytes. */
void cz__bp_workload(cz_workload *out, const cz_workload_ops *ops, void *job, cz__bp_job *j,
                     cz_proof_kind kind, uint64_t part_bytes);
/* The same for a job whose partitions are c's: the densities and sizes from c, part_bytes its a, b,
 * c (none with c->abc_on_gpu) and w plus a copy of its inputs (what a chunked synthesis holds
 * beside the pooled buffers). */
void cz__bp_workload_of(cz_workload *out, const cz_workload_ops *ops, void *job, cz__bp_job *j,
                        cz_proof_kind kind, cz__bp_circuit *c);

/* A partition with a, b, c (abc_size each; none for a circuit with abc_on_gpu) and w (ninput +
 * naux; compact for a circuit with abc_on_gpu and booleans: pt->bits and pt->vals) from env's
 * pool. */
int cz__bp_part_new(cz__bp_part **out, const cz__bp_job *j, const cz_part_env *env, cz_errinfo *ei);
/* Whether j's partitions carry a compact witness. */
int cz__bp_compact(const cz__bp_job *j);
/* Whether the synthesized partition's public inputs (w[1..npub]) are expect's (canonical limbs):
 * CZ_EINTERNAL naming what (the workload) and the first that differs otherwise. */
int cz__bp_part_inputs_check(const cz__bp_part *pt, const cz__bp_job *j,
                             const uint64_t (*expect)[4], const char *what, cz_errinfo *ei);
/* Ends synthesis of partition p (see g16_task.h's cz__g16_part_end). */
int cz__bp_part_end(void **out, cz__bp_job *j, cz__bp_part *part, uint32_t p, int rc);

int cz__bp_prepare(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                   cz_errinfo *ei);
int cz__bp_reserve(void *job, const cz_engine_device *dev, cz_errinfo *ei);
int cz__bp_upload(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                  cz_errinfo *ei);
int cz__bp_compute(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                   cz_errinfo *ei);
int cz__bp_finish(cz_groth16_proof *proof, void *part, void *job, cz_part_times *t, cz_errinfo *ei);
void cz__bp_part_free(void *part, void *job);
int cz__bp_verify(void *job, const cz_groth16_proof *proofs, uint32_t nparts, cz_errinfo *ei);

#define CZ__BP_STAGES                                                                              \
    .prepare = cz__bp_prepare, .reserve = cz__bp_reserve, .upload = cz__bp_upload,                 \
    .compute = cz__bp_compute, .finish = cz__bp_finish, .part_free = cz__bp_part_free,             \
    .verify = cz__bp_verify

#endif
