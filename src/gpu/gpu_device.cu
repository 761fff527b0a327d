/*
 * Device queries, device selection, error mapping, plain device memory, pinned host memory and
 * asynchronous uploads and zero fills for the CUDA backend (see cuzk/gpu.h). An upload or fill in
 * flight owns a non-blocking stream of its own (created per upload: a few microseconds, nothing
 * next to the hundreds of megabytes it carries), so the default-stream kernels of the other calls
 * overlap it. Nothing here keeps state except what the CUDA runtime keeps per device; the NTT
 * twiddle cache lives in gpu_ntt.cu and is dropped by cz_gpu_release.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/tuning.h"
#include "gpu_common.cuh"

int cz__gpu_error_code(cudaError_t e) {
    switch (e) {
    case cudaErrorMemoryAllocation:
        return CZ_ENOMEM;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
        return CZ_ENOGPU;
        /* the errors of which driver_types.h says that any further CUDA work returns the same error
         * and the process must be terminated and relaunched (an access out of bounds, a trap, a
         * kernel killed by the watchdog, an error contained by the hardware), and an uncorrectable
         * ECC error; the two newest, as the 13.0 headers have them, only where the toolkit does */
#if CUDART_VERSION >= 13000
    case cudaErrorContained:
    case cudaErrorTensorMemoryLeak:
#endif
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchFailure:
    case cudaErrorMpsClientTerminated:
    case cudaErrorExternalDevice:
    case cudaErrorECCUncorrectable:
        return CZ_EDEVICE;
    default:
        return CZ_EGPU;
    }
}

int cz__gpu_fail(cz_errinfo *ei, cudaError_t e, const char *what, const char *file, int line) {
    int code = cz__gpu_error_code(e);
    (void)cudaGetLastError(); /* clear a sticky non-fatal error so the next call starts clean */
    return cz_fail(ei, code, "CUDA %s: %s (%s:%d: %s)", cudaGetErrorName(e), cudaGetErrorString(e),
                   file, line, what);
}

extern "C" int cz_gpu_built(void) {
    return 1;
}

extern "C" int cz_gpu_device_count(int *count, cz_errinfo *ei) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    *count = 0;
    if (e != cudaSuccess && cz__gpu_error_code(e) == CZ_EDEVICE) /* a context lost before */
        return cz__gpu_fail(ei, e, "cudaGetDeviceCount", __FILE__, __LINE__);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return cz_fail(ei, CZ_ENOGPU, "no CUDA device: %s", cudaGetErrorString(e));
    }
    if (n <= 0)
        return cz_fail(ei, CZ_ENOGPU, "no CUDA device");
    *count = n;
    return CZ_OK;
}

int cz__gpu_select(int dev, cz_errinfo *ei) {
    int n = 0, rc = cz_gpu_device_count(&n, ei);
    if (rc != CZ_OK)
        return rc;
    if (dev < 0 || dev >= n)
        return cz_fail(ei, CZ_ENOGPU, "no CUDA device %d (%d present)", dev, n);
    CZ_CUDA_TRY(cudaSetDevice(dev));
out:
    return rc;
}

int cz__gpu_pool_keep(int dev, cz_errinfo *ei) {
    cudaMemPool_t pool;
    uint64_t keep = UINT64_MAX;
    int rc = CZ_OK;
    CZ_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, dev));
    CZ_CUDA_TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
out:
    return rc;
}

int cz__gpu_pool_trim(int dev) {
    cudaMemPool_t pool;
    if (cudaDeviceSynchronize() == cudaSuccess &&
        cudaDeviceGetDefaultMemPool(&pool, dev) == cudaSuccess &&
        cudaMemPoolTrimTo(pool, 0) == cudaSuccess)
        return 1;
    (void)cudaGetLastError();
    return 0;
}

size_t cz__gpu_async_room(void) {
    size_t free_b = 0, total_b = 0;
    cudaMemPool_t pool;
    uint64_t reserved = 0, used = 0;
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    if (cudaDeviceGetDefaultMemPool(&pool, dev) != cudaSuccess ||
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved) !=
            cudaSuccess ||
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) != cudaSuccess) {
        (void)cudaGetLastError();
        return free_b;
    }
    return free_b + (reserved > used ? (size_t)(reserved - used) : 0);
}

extern "C" int cz_gpu_device_info(cz_gpu_info *info, int dev, cz_errinfo *ei) {
    cudaDeviceProp prop;
    int rc = cz__gpu_select(dev, ei);
    if (rc != CZ_OK)
        return rc;
    memset(info, 0, sizeof *info);
    CZ_CUDA_TRY(cudaGetDeviceProperties(&prop, dev));
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->cc_major = prop.major;
    info->cc_minor = prop.minor;
    info->multiprocessors = prop.multiProcessorCount;
    info->global_mem = prop.totalGlobalMem;
    info->l2_bytes = (size_t)prop.l2CacheSize;
    info->smem_per_block_optin = prop.sharedMemPerBlockOptin;
    {
        int khz = 0;
        if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) == cudaSuccess)
            info->clock_khz = khz;
        else
            (void)cudaGetLastError();
    }
out:
    return rc;
}

extern "C" int cz_gpu_mem_info(size_t *free_bytes, size_t *total_bytes, int dev, cz_errinfo *ei) {
    int rc = cz__gpu_select(dev, ei);
    *free_bytes = *total_bytes = 0;
    if (rc != CZ_OK)
        return rc;
    CZ_CUDA_TRY(cudaMemGetInfo(free_bytes, total_bytes));
out:
    return rc;
}

extern "C" int cz_gpu_alloc(void **d_ptr, size_t bytes, int dev, cz_errinfo *ei) {
    int rc = cz__gpu_select(dev, ei);
    cudaError_t e;
    *d_ptr = NULL;
    if (rc != CZ_OK)
        return rc;
    e = cudaMalloc(d_ptr, bytes ? bytes : 1);
    if (e == cudaErrorMemoryAllocation) {
        /* the stream-ordered pool keeps what the NTTs and MSMs freed (cz__gpu_pool_keep): hand
         * its idle memory back to the driver and try once more */
        (void)cudaGetLastError();
        if (cz__gpu_pool_trim(dev))
            e = cudaMalloc(d_ptr, bytes ? bytes : 1);
    }
    if (e != cudaSuccess) {
        *d_ptr = NULL;
        rc = cz__gpu_fail(ei, e, "cudaMalloc", __FILE__, __LINE__);
    }
    return rc;
}

extern "C" void cz_gpu_free(void *d_ptr, int dev) {
    if (d_ptr == NULL || cudaSetDevice(dev) != cudaSuccess)
        return;
    (void)cudaFree(d_ptr);
}

extern "C" int cz_gpu_upload(void *d_dst, const void *src, size_t bytes, int dev, cz_errinfo *ei) {
    int rc = cz__gpu_select(dev, ei);
    if (rc != CZ_OK)
        return rc;
    CZ_CUDA_TRY(cudaMemcpy(d_dst, src, bytes, cudaMemcpyHostToDevice));
out:
    return rc;
}

extern "C" int cz_gpu_download(void *dst, const void *d_src, size_t bytes, int dev,
                               cz_errinfo *ei) {
    int rc = cz__gpu_select(dev, ei);
    if (rc != CZ_OK)
        return rc;
    CZ_CUDA_TRY(cudaMemcpy(dst, d_src, bytes, cudaMemcpyDeviceToHost));
out:
    return rc;
}

/* ---- pinned host memory ---- */

extern "C" int cz_gpu_host_alloc(void **out, size_t bytes, cz_errinfo *ei) {
    int n = 0, rc = cz_gpu_device_count(&n, ei);
    *out = NULL;
    if (rc != CZ_OK)
        return rc;
    CZ_CUDA_TRY(cudaHostAlloc(out, bytes ? bytes : 1, cudaHostAllocPortable));
out:
    if (rc != CZ_OK)
        *out = NULL;
    return rc;
}

extern "C" void cz_gpu_host_free(void *p) {
    if (p != NULL)
        (void)cudaFreeHost(p);
}

extern "C" int cz_gpu_host_register(void *p, size_t bytes, int read_only, cz_errinfo *ei) {
    int n = 0, rc = cz_gpu_device_count(&n, ei);
    unsigned flags = cudaHostRegisterPortable | (read_only ? cudaHostRegisterReadOnly : 0u);
    if (rc != CZ_OK)
        return rc;
    CZ_CUDA_TRY(cudaHostRegister(p, bytes, flags));
out:
    return rc;
}

extern "C" int cz_gpu_host_unregister(void *p, cz_errinfo *ei) {
    int rc = CZ_OK;
    CZ_CUDA_TRY(cudaHostUnregister(p));
out:
    return rc;
}

extern "C" int cz_gpu_host_is_pinned(const void *p) {
    cudaPointerAttributes a;
    int n = 0;
    if (p == NULL || cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        (void)cudaGetLastError();
        return 0;
    }
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeHost;
}

/* ---- asynchronous uploads ---- */

/* The pieces an upload is cut into: cz_tuning.gpu_copy_chunk_bytes (0: 64 MiB; gpu_copy_whole:
 * one piece). The copies of all streams take turns at piece boundaries, so another thread's
 * small copies (an MSM's read-backs) never wait behind a whole multi-GB upload: an engine whose
 * uploads went in one piece (from pageable memory) saw its kernel regions stretch by two thirds
 * at 2^27 (docs/engine.md). A piece costs a few microseconds to enqueue. */
static size_t copy_chunk_bytes(size_t bytes) {
    cz_tuning tu;
    size_t chunk;
    cz_tuning_get(&tu);
    chunk = tu.gpu_copy_chunk_bytes != 0 ? tu.gpu_copy_chunk_bytes : CZ_TUNING_COPY_CHUNK_DEFAULT;
    return !tu.gpu_copy_whole && chunk < bytes ? chunk : (bytes > 0 ? bytes : 1);
}

struct cz_gpu_copy {
    int dev;
    cudaStream_t stream;
};

/* A copy handle with a non-blocking stream of its own on dev, or an error. */
static int copy_new(cz_gpu_copy **out, int dev, cz_errinfo *ei) {
    int rc = cz__gpu_select(dev, ei);
    cz_gpu_copy *c;
    *out = NULL;
    if (rc != CZ_OK)
        return rc;
    if ((c = (cz_gpu_copy *)calloc(1, sizeof *c)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "gpu copy: handle");
    c->dev = dev;
    CZ_CUDA_TRY(cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking));
    *out = c;
    return CZ_OK;
out:
    free(c);
    return rc;
}

/* The end of a start call: hands c out, or on an error waits for what was queued and frees it. */
static int copy_started(cz_gpu_copy **out, cz_gpu_copy *c, int rc) {
    if (rc == CZ_OK) {
        *out = c;
        return rc;
    }
    (void)cudaStreamSynchronize(c->stream);
    (void)cudaStreamDestroy(c->stream);
    free(c);
    *out = NULL;
    return rc;
}

extern "C" int cz_gpu_upload_start(cz_gpu_copy **out, void *d_dst, const void *src, size_t bytes,
                                   int dev, cz_errinfo *ei) {
    cz_gpu_copy *c;
    int rc = copy_new(&c, dev, ei);
    *out = NULL;
    if (rc != CZ_OK)
        return rc;
    for (size_t off = 0, chunk = copy_chunk_bytes(bytes); off < bytes; off += chunk) {
        size_t len = bytes - off < chunk ? bytes - off : chunk;
        CZ_CUDA_TRY(cudaMemcpyAsync((uint8_t *)d_dst + off, (const uint8_t *)src + off, len,
                                    cudaMemcpyHostToDevice, c->stream));
    }
out:
    return copy_started(out, c, rc);
}

extern "C" int cz_gpu_zero_start(cz_gpu_copy **out, void *d_dst, size_t bytes, int dev,
                                 cz_errinfo *ei) {
    cz_gpu_copy *c;
    int rc = copy_new(&c, dev, ei);
    *out = NULL;
    if (rc != CZ_OK)
        return rc;
    CZ_CUDA_TRY(cudaMemsetAsync(d_dst, 0, bytes, c->stream));
out:
    return copy_started(out, c, rc);
}

extern "C" int cz_gpu_copy_wait(cz_gpu_copy *c, cz_errinfo *ei) {
    int rc = CZ_OK;
    if (c == NULL)
        return CZ_OK;
    if ((rc = cz__gpu_select(c->dev, ei)) != CZ_OK)
        goto done;
    CZ_CUDA_TRY(cudaStreamSynchronize(c->stream));
out:
done:
    (void)cudaStreamDestroy(c->stream);
    free(c);
    return rc;
}
