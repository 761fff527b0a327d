/*
 * The Groth16 partition task shared by every Groth16 workload (internal to the engine). A
 * workload writes only its synthesis: it embeds a cz__g16_job as the first member of its job,
 * makes each partition with cz__g16_part_new, fills a, b and the witness, and ends with
 * cz__g16_part_end (which records the partition's public inputs); every other step of
 * cz_workload_ops is one of the cz__g16_* stages below (CZ__G16_STAGES), which run the prover's
 * stages (include/cuzk/groth16.h) on the partition:
 *
 *   prepare   the device's GPU key (made on first use, outside the lock), the pending proof
 *             (a, b handed to it), the G2 MSM started on dev->cpu unless the key has B2
 *   upload    a, b and the witness into the GPU worker's device buffers (dev->ws)
 *   compute   under the device lock: NTTs and G1 MSMs (GPU, or CPU with dev->compute)
 *   finish    joins the G2 MSM, blinding: the proof (a struct); the pooled witness goes back
 *   verify    each partition's proof against the job's verification key and public inputs
 *
 * GPU keys come from the SRS manager (job->key, cz_srs_key_device) or from a key cache of the
 * workload's (job->keys, cz__g16_keys), which a context shared by many jobs owns.
 *
 * Buffers: a and b (and a workload's own witness, wit_owned) come from the engine's memory manager
 * (cz_part_env.mem) and go back to it: a and b through the pending proof's release hook, the
 * witness at finish or in part_free. Gets name the partition's reservation, which pays for them
 * until the pipeline's release hands them to the manager.
 */
#ifndef CUZK_ENGINE_G16_TASK_H
#define CUZK_ENGINE_G16_TASK_H

#include <pthread.h>
#include <stdint.h>

#include "cuzk/groth16.h"
#include "cuzk/pipeline.h"
#include "cuzk/workload.h"

/* GPU keys of one proving key, one per device, made on first use (thread-safe). With p0 and
 * step set, the G1 bases are made on the device as progressions (a benchmark key). */
typedef struct cz__g16_keys {
    pthread_mutex_t lock; /* guards gpu[] */
    const cz_zkey *zk;
    const void *p0, *step;
    cz_groth16_gpu_key *gpu[CZ_ENGINE_MAX_DEVICES];
} cz__g16_keys;

void cz__g16_keys_init(cz__g16_keys *k, const cz_zkey *zk, const void *p0, const void *step);
void cz__g16_keys_fini(cz__g16_keys *k);

/* What every Groth16 job has. */
typedef struct cz__g16_job {
    const cz_zkey *zk;
    cz_groth16_vk vk;
    uint32_t nparts, npub;
    uint64_t (*pub)[4]; /* nparts × npub public inputs, written by cz__g16_part_end */
    int fixed;          /* r, s given (tests: reproducible proofs) */
    uint8_t r[32], s[32];
    int skip_verify;    /* a benchmark key: proofs timed, not verified (said once on stderr) */
    cz_srs_key *key;    /* the SRS manager's key (its reference), or */
    cz__g16_keys *keys; /* a key cache of the workload's (not owned) */
} cz__g16_job;

/* One partition in flight. */
typedef struct cz__g16_part {
    cz_mem *mem;
    void *a, *b;        /* evaluations, from mem; handed to pp by prepare */
    uint64_t (*wit)[4]; /* canonical witness; from mem when wit_owned, else the job's */
    int wit_owned;
    cz_groth16_pending *pp;
} cz__g16_part;

/* The shell of a job of nparts partitions for zk: verification key, public-input table,
 * blinding (bl may be NULL: random). */
int cz__g16_job_init(cz__g16_job *j, const cz_zkey *zk, uint32_t nparts,
                     const cz_workload_blinding *bl, cz_errinfo *ei);
/* Drops the SRS key reference (the job has ended; idempotent). */
void cz__g16_job_release(cz__g16_job *j);
void cz__g16_job_fini(cz__g16_job *j);
/* Fills the engine's side of the workload: nparts, the pooled buffers (a, b, and wit_bytes for
 * a witness of the partition's own; 0 for none), part_bytes, the bytes released after the
 * kernel region (a and b). */
void cz__g16_workload(cz_workload *out, const cz_workload_ops *ops, void *job, cz__g16_job *j,
                      cz_proof_kind kind, uint64_t part_bytes, uint64_t wit_bytes);

/* A partition with a and b taken from env's pool (paid by env->res). */
int cz__g16_part_new(cz__g16_part **out, const cz__g16_job *j, const cz_part_env *env,
                     cz_errinfo *ei);
/* Ends synthesis of partition p: rc CZ_OK records its public inputs (wit[1..npub]) and hands
 * part to the engine (*out); otherwise part is freed. Returns rc. */
int cz__g16_part_end(void **out, cz__g16_job *j, cz__g16_part *part, uint32_t p, int rc);

int cz__g16_prepare(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                    cz_errinfo *ei);
int cz__g16_upload(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                   cz_errinfo *ei);
int cz__g16_compute(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                    cz_errinfo *ei);
int cz__g16_finish(cz_groth16_proof *proof, void *part, void *job, cz_part_times *t,
                   cz_errinfo *ei);
void cz__g16_part_free(void *part, void *job);
int cz__g16_verify(void *job, const cz_groth16_proof *proofs, uint32_t nparts, cz_errinfo *ei);

/* The steps every Groth16 workload's ops table takes from here. */
#define CZ__G16_STAGES                                                                             \
    .prepare = cz__g16_prepare, .upload = cz__g16_upload, .compute = cz__g16_compute,              \
    .finish = cz__g16_finish, .part_free = cz__g16_part_free, .verify = cz__g16_verify

#endif
