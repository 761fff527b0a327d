/*
 * Shared plumbing of the CUDA backend (host side): error checking and device selection.
 *
 * Convention: a function that calls CUDA declares `int rc = CZ_OK;` and ends with an `out:` label
 * that releases what it took, in reverse order. CZ_CUDA_TRY(call) jumps there with CZ_EGPU and
 * the CUDA error string in ei; CZ_CUDA_LAUNCHED() checks cudaGetLastError after a kernel launch.
 * A failed allocation maps to CZ_ENOMEM.
 */
#ifndef CUZK_GPU_COMMON_CUH
#define CUZK_GPU_COMMON_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "cuzk/err.h"
#include "cuzk/gpu.h"

#define CZ_CUDA_TRY(call)                                                                          \
    do {                                                                                           \
        cudaError_t cz_e_ = (call);                                                                \
        if (cz_e_ != cudaSuccess) {                                                                \
            rc = cz__gpu_fail(ei, cz_e_, #call, __FILE__, __LINE__);                               \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

#define CZ_CUDA_LAUNCHED() CZ_CUDA_TRY(cudaGetLastError())

/* The cuzk code of CUDA error e: CZ_ENOMEM for an allocation failure, CZ_ENOGPU for no device or
 * driver, CZ_EDEVICE for an error that leaves the process's context on the device unusable (see
 * cuzk/gpu.h), else CZ_EGPU. */
int cz__gpu_error_code(cudaError_t e);
/* Records a CUDA error in ei; returns cz__gpu_error_code(e). */
int cz__gpu_fail(cz_errinfo *ei, cudaError_t e, const char *what, const char *file, int line);
/* Selects dev for the calling thread: CZ_ENOGPU if there is no such device. */
int cz__gpu_select(int dev, cz_errinfo *ei);
/* Makes dev's default stream-ordered pool keep what is freed into it (the NTT's scratch, the
 * MSM's temporaries): with the default release threshold (0) every synchronisation hands the
 * memory back to the driver and the next call maps it again (about 25 ms at 2^26). */
int cz__gpu_pool_keep(int dev, cz_errinfo *ei);
/* Hands the idle memory of dev's default pool back to the driver, once the device's work is done
 * (frees queued on a stream count as idle only then): 1 done, 0 failed (error cleared). */
int cz__gpu_pool_trim(int dev);
/* The bytes the current device can still give a cudaMallocAsync: free memory plus what its
 * default pool holds unused. */
size_t cz__gpu_async_room(void);

static inline unsigned cz__gpu_blocks(size_t n, unsigned threads) {
    return (unsigned)((n + threads - 1) / threads);
}

#endif
