/*
 * A device whose context is lost (cuzk/gpu.h, CZ_EDEVICE). Without a GPU: the classification of
 * CUDA's errors (the runtime headers' own words are the oracle: those after which "the process
 * must be terminated and relaunched" are CZ_EDEVICE, an allocation failure CZ_ENOMEM, no device
 * CZ_ENOGPU, an argument error CZ_EGPU). With one: a child process launches a kernel that writes
 * through a null pointer; the launch's synchronisation fails with an illegal address, and then
 * a plain library call on that device (an allocation) fails too, with CZ_EDEVICE, naming the
 * CUDA error: the error the engine takes a device out of service on. In a child, because the
 * lost context is the process's; the parent makes no CUDA call before the fork (a child of a
 * process that did cannot use the device).
 *
 * The engine on such a device (case engine, a child too): bellperson jobs of the porep-synth
 * circuit (a key of its own, made on the CPU) on one GPU, then the same fault just before a
 * partition's kernel region. That job fails naming the CUDA error, the device is out of service
 * (the engine's stats say why), the next job fails at once, and a Critical job is proven on the
 * CPU: its proofs equal those the GPU gave for the same witnesses and r, s before the fault, and
 * the engine verified them; destroying the engine after all that returns.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/gpu.h"
#include "cuzk/pipeline.h"
#include "cuzk/workload.h"
#include "gpu/gpu_common.cuh"
#include "test.h"

static void test_codes(void) {
    CHECK(cz__gpu_error_code(cudaErrorIllegalAddress) == CZ_EDEVICE);
    CHECK(cz__gpu_error_code(cudaErrorLaunchFailure) == CZ_EDEVICE);
    CHECK(cz__gpu_error_code(cudaErrorIllegalInstruction) == CZ_EDEVICE);
    CHECK(cz__gpu_error_code(cudaErrorMisalignedAddress) == CZ_EDEVICE);
    CHECK(cz__gpu_error_code(cudaErrorAssert) == CZ_EDEVICE);
    CHECK(cz__gpu_error_code(cudaErrorECCUncorrectable) == CZ_EDEVICE);
    CHECK(cz__gpu_error_code(cudaErrorMemoryAllocation) == CZ_ENOMEM);
    CHECK(cz__gpu_error_code(cudaErrorNoDevice) == CZ_ENOGPU);
    CHECK(cz__gpu_error_code(cudaErrorInvalidValue) == CZ_EGPU);
    CHECK(cz__gpu_error_code(cudaErrorInvalidDevice) == CZ_EGPU);
}

static __global__ void write_through_null(int *p) {
    p[threadIdx.x] = 1;
}

/* The child: 0 when the lost context gives CZ_EDEVICE as described; 77 without a GPU. */
static int child(void) {
    cz_errinfo ei;
    int n = 0;
    void *d = NULL;
    cz_errinfo_clear(&ei);
    if (cz_gpu_device_count(&n, &ei) != CZ_OK || n == 0)
        return 77;
    if (cudaSetDevice(0) != cudaSuccess) {
        fprintf(stderr, "the child cannot select device 0\n");
        return 2;
    }
    write_through_null<<<1, 32>>>(NULL);
    cudaError_t e = cudaDeviceSynchronize();
    if (cz__gpu_error_code(e) != CZ_EDEVICE) {
        fprintf(stderr, "the fault gave %s\n", cudaGetErrorName(e));
        return 3;
    }
    int rc = cz_gpu_alloc(&d, 1 << 20, 0, &ei);
    if (rc != CZ_EDEVICE || strstr(ei.msg, "CUDA cudaErrorIllegalAddress") == NULL) {
        fprintf(stderr, "after the fault, an allocation gave %s: %s\n", cz_err_name(rc), ei.msg);
        return 4;
    }
    printf("after the fault: %s: %s\n", cz_err_name(rc), ei.msg);
    fflush(stdout); /* the child leaves by _exit */
    return 0;
}

/* Runs body in a child process; the child's exit status 77 means no GPU. */
static void in_child(int (*body)(void)) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(body());
    int status = 0;
    if (!CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)))
        return;
    if (WEXITSTATUS(status) == 77) {
        printf("no GPU: the lost context is not tried\n");
        return;
    }
    if (!CHECK(WEXITSTATUS(status) == 0))
        fprintf(stderr, "  the child exited %d\n", WEXITSTATUS(status));
}

static void test_lost_context(void) {
    in_child(child);
}

/* ---- the engine on a device that is lost ---- */

static const uint8_t R[32] = {3, 1, 4, 1, 5}, S[32] = {2, 7, 1, 8};
static const cz_workload_ops *g_real_ops; /* the porep-synth workload's steps */
static cz_workload_ops g_faulting_ops;    /* the same, with compute below */
static volatile int g_armed;              /* the next compute on a GPU faults first */

static int faulting_compute(void *part, void *job, const cz_engine_device *dev, cz_part_times *t,
                            cz_errinfo *ei) {
    if (dev->device >= 0 && __sync_lock_test_and_set(&g_armed, 0)) {
        cudaSetDevice(dev->device);
        write_through_null<<<1, 32>>>(NULL);
        cudaDeviceSynchronize();
    }
    return g_real_ops->compute(part, job, dev, t, ei);
}

/* Runs a job of nparts porep-synth partitions (witnesses from seed) at prio; its end state, the
 * proofs in out (done) or the message in msg (failed). */
static cz_job_state run_job(cz_engine *e, cz_porep_synth_ctx *ctx, const char *key,
                            cz_priority prio, uint64_t seed, uint8_t *out, size_t cap, char *msg,
                            size_t msg_cap) {
    cz_workload wl;
    cz_workload_blinding bl = {R, S};
    cz_job *job = NULL;
    cz_errinfo ei;
    cz_job_state st = CZ_JOB_FAILED;
    size_t len = 0;
    const char *m = NULL;
    cz_errinfo_clear(&ei);
    msg[0] = 0;
    if (!CHECK_ERR(cz_workload_porep_synth(&wl, ctx, 2, seed, &bl, &ei), CZ_OK))
        return st;
    g_real_ops = wl.ops;
    g_faulting_ops = *wl.ops;
    g_faulting_ops.compute = faulting_compute;
    wl.ops = &g_faulting_ops;
    if (!CHECK_ERR(cz_engine_submit(NULL, e, key, prio, &wl, &ei), CZ_OK) ||
        !CHECK_ERR(cz_engine_await(&job, e, key, 300000, &ei), CZ_OK))
        return st;
    st = cz_job_state_get(job);
    if (st == CZ_JOB_DONE) {
        const uint8_t *r = (const uint8_t *)cz_job_result(job, &len);
        if (CHECK(len == cap))
            memcpy(out, r, cap);
    } else {
        cz_job_error(job, &m);
        snprintf(msg, msg_cap, "%s", m != NULL ? m : "?");
        printf("job %s: %s\n", key, msg);
    }
    cz_job_unref(job);
    return st;
}

/* The child of case engine: 0 when every check passed, 77 without a GPU. */
static int engine_child(void) {
    enum { NP = 2 };
    uint8_t before[NP * 192], winning[NP * 192];
    char msg[CZ_ERRINFO_MSG_MAX];
    cz_engine_config cfg;
    cz_engine_stats st;
    cz_engine *e = NULL;
    cz_porep_synth_ctx *ctx = NULL;
    cz_errinfo ei;
    int n = 0;
    cz_errinfo_clear(&ei);
    if (cz_gpu_device_count(&n, &ei) != CZ_OK || n == 0)
        return 77;
    memset(&cfg, 0, sizeof cfg);
    cfg.ndevices = 1;
    cfg.devices[0] = 0;
    cfg.partition_workers = 2;
    cfg.synthesis_threads = 2;
    cfg.gpu_threads = 2;
    cfg.budget.total_bytes = (uint64_t)1 << 30;
    if (!CHECK_ERR(cz_porep_synth_ctx_create_bp(&ctx, 10, 0, NULL, &ei), CZ_OK) ||
        !CHECK_ERR(cz_engine_create(&e, &cfg, &ei), CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        cz_porep_synth_ctx_free(ctx);
        return 1;
    }
    CHECK(run_job(e, ctx, "before", CZ_PRIO_HIGH, 42, before, sizeof before, msg, sizeof msg) ==
          CZ_JOB_DONE);
    g_armed = 1;
    CHECK(run_job(e, ctx, "lost", CZ_PRIO_HIGH, 43, NULL, 0, msg, sizeof msg) == CZ_JOB_FAILED);
    CHECK(strstr(msg, "cudaErrorIllegalAddress") != NULL);
    cz_engine_stats_get(&st, e);
    CHECK(st.failed[0] == 1 && strstr(st.failed_why[0], "cudaErrorIllegalAddress") != NULL);
    CHECK(run_job(e, ctx, "after", CZ_PRIO_HIGH, 44, NULL, 0, msg, sizeof msg) == CZ_JOB_FAILED);
    CHECK(strstr(msg, "no GPU left in service (GPU 0: ") != NULL);
    CHECK(strstr(msg, "GPU 0: GPU 0") == NULL); /* the error's own "GPU 0:" is not doubled */
    /* a WinningPoSt's priority: the same witnesses as "before", proven on the CPU */
    if (CHECK(run_job(e, ctx, "winning", CZ_PRIO_CRITICAL, 42, winning, sizeof winning, msg,
                      sizeof msg) == CZ_JOB_DONE))
        CHECK_EQ_MEM(winning, before, sizeof before);
    cz_engine_destroy(e);
    cz_porep_synth_ctx_free(ctx);
    printf("engine after the loss: %lu failed\n", test_failed_count);
    fflush(stdout); /* the child leaves by _exit */
    return test_failed_count == 0 ? 0 : 1;
}

static void test_engine(void) {
    in_child(engine_child);
}

static const test_case cases[] = {
    {"codes", test_codes},
    {"lost_context", test_lost_context},
    {"engine", test_engine},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
