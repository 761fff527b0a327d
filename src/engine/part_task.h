/*
 * What the engine's two partition tasks share (internal to the engine): g16_task.c runs the steps
 * of cz_workload_ops (cuzk/pipeline.h) for zkeys, bp_task.c for bellperson keys. These are the
 * pieces of those steps that do not depend on the key format: the job's table of public inputs,
 * the workload's common fields, an upload left to compute, the compute stage's times and a
 * benchmark key's skipped verification. Nothing here owns memory beyond what it returns.
 */
#ifndef CUZK_ENGINE_PART_TASK_H
#define CUZK_ENGINE_PART_TASK_H

#include <stdint.h>

#include "cuzk/groth16.h"
#include "cuzk/pipeline.h"

/* *pub: the zeroed table of nparts × npub public inputs that a job's partitions record (one
 * entry per partition where npub is 0; free with free). CZ_ENOMEM. */
int cz__task_pub_alloc(uint64_t (**pub)[4], uint32_t nparts, uint32_t npub, cz_errinfo *ei);

/* out cleared and given ops, job (its ctx), nparts, kind, part_bytes and abc_bytes (the bytes
 * released after the kernel region); the pooled buffers' sizes are the task's to set. */
void cz__task_workload_init(cz_workload *out, const cz_workload_ops *ops, void *job,
                            uint32_t nparts, cz_proof_kind kind, uint64_t part_bytes,
                            uint64_t abc_bytes);

/* Whether an upload that failed with rc leaves the partition's inputs to compute, which uploads
 * them under the device lock: the workspace could not grow (the device is full) and nothing was
 * copied. Then the failure is logged as a warning and ei cleared. */
int cz__task_upload_deferred(int rc, const cz_engine_device *dev, cz_errinfo *ei);

/* The compute stage's times in t (NTTs with the H MSM, the tail MSMs, upload, device) from the
 * prover's timings tm. */
void cz__task_compute_times(cz_part_times *t, const cz_groth16_timings *tm);

/* Whether a job's proofs go unverified (skip: a benchmark key's proofs are timed, not verified);
 * the first skip under *said says so on stderr, naming who. */
int cz__task_verify_skipped(int skip, int *said, const char *who);

#endif
