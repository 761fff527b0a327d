/*
 * The key-format-free pieces of the engine's partition tasks (part_task.h).
 */
#include "engine/part_task.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/log.h"

int cz__task_pub_alloc(uint64_t (**pub)[4], uint32_t nparts, uint32_t npub, cz_errinfo *ei) {
    *pub = calloc((size_t)nparts * (npub ? npub : 1), sizeof **pub);
    if (*pub == NULL)
        return cz_fail(ei, CZ_ENOMEM, "workload: public inputs");
    return CZ_OK;
}

void cz__task_workload_init(cz_workload *out, const cz_workload_ops *ops, void *job,
                            uint32_t nparts, cz_proof_kind kind, uint64_t part_bytes,
                            uint64_t abc_bytes) {
    memset(out, 0, sizeof *out);
    out->ops = ops;
    out->ctx = job;
    out->nparts = nparts;
    out->kind = kind;
    out->part_bytes = part_bytes;
    out->part_abc_bytes = abc_bytes;
}

int cz__task_upload_deferred(int rc, const cz_engine_device *dev, cz_errinfo *ei) {
    if (rc != CZ_ENOMEM || cz_groth16_gpu_ws_bytes(dev->ws) != 0)
        return 0;
    CZ_LOG_WARN("GPU %d: partition inputs uploaded under the lock: %s", dev->device, ei->msg);
    cz_errinfo_clear(ei);
    return 1;
}

void cz__task_compute_times(cz_part_times *t, const cz_groth16_timings *tm) {
    t->ntt_h = tm->ntt_ms + tm->msm_h_ms;
    t->tail_msm = tm->msm_a_ms + tm->msm_b1_ms + tm->msm_c_ms;
    t->upload = tm->upload_ms;
    t->device = tm->gpu_ms;
}

int cz__task_verify_skipped(int skip, int *said, const char *who) {
    if (skip && !__atomic_exchange_n(said, 1, __ATOMIC_RELAXED))
        fprintf(stderr, "%s: benchmark key: proofs are timed, not verified\n", who);
    return skip;
}
