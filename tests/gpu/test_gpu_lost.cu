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
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuzk/gpu.h"
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

static void test_lost_context(void) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(child());
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

static const test_case cases[] = {
    {"codes", test_codes},
    {"lost_context", test_lost_context},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
