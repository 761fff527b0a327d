/*
 * Host memory for data the GPU copies from (include/cuzk/engine.h, "Memory manager"; the
 * allocation part of the memory module, src/engine/mem.h): pinned (page-locked,
 * cz_gpu_host_alloc) when asked for and possible, plain malloc otherwise.
 *
 * Every block starts with a 64-byte header {magic, pinned, bytes}, so cz_host_free needs only the
 * pointer (the SRS seam's free and the memory manager's put get no flag) and the manager can read a
 * buffer's size. Blocks are 64-byte aligned (pinned: page aligned; pageable: posix_memalign), so
 * the payload after the 64-byte header is too, for 32-byte limb loads and DMA.
 *
 * Pinning may fail: no GPU or no CUDA build (CZ_ENOGPU), the driver out of pinned memory or
 * RLIMIT_MEMLOCK (CZ_ENOMEM / CZ_EGPU). Then the block comes from malloc and the first failure
 * of the process logs one warning; a job never fails for want of pinned memory. The caller decides
 * (want_pinned: the engine's pageable_buffers, the daemon's gpus.pinned_buffers). Tests replace the
 * pinner (cz_host_set_pinner) to simulate both outcomes without a GPU.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/engine.h"
#include "cuzk/gpu.h"
#include "cuzk/log.h"

#define HDR_BYTES 64
#define HDR_MAGIC 0x637a686f73746d65ull /* "czhostme" */

typedef struct {
    uint64_t magic;
    uint64_t pinned;
    uint64_t bytes;
} hdr;

static const cz_host_pinner cuda_pinner = {cz_gpu_host_alloc, cz_gpu_host_free};
static _Atomic(const cz_host_pinner *) pinner = &cuda_pinner;
static atomic_uint_fast64_t npinned, npageable, npin_failed, nwarnings;

void cz_host_set_pinner(const cz_host_pinner *p) {
    atomic_store(&pinner, p != NULL ? p : &cuda_pinner);
}

void *cz_host_alloc(size_t bytes, int want_pinned) {
    void *raw = NULL;
    int pinned = 0;
    if (bytes > SIZE_MAX - HDR_BYTES)
        return NULL;
    if (want_pinned) {
        const cz_host_pinner *pn = atomic_load(&pinner);
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        if (pn->alloc(&raw, bytes + HDR_BYTES, &ei) == CZ_OK && raw != NULL) {
            pinned = 1;
        } else {
            raw = NULL;
            atomic_fetch_add(&npin_failed, 1);
            if (atomic_fetch_add(&nwarnings, 1) == 0)
                CZ_LOG_WARN("host memory: cannot pin %zu bytes (%s); using pageable memory "
                            "(slower host-to-device copies; warned once)",
                            bytes, ei.msg);
        }
    }
    /* Pageable blocks are 64-byte aligned like pinned ones (page aligned), so the payload after
     * the 64-byte header is too; plain malloc would give 16. */
    if (raw == NULL && posix_memalign(&raw, HDR_BYTES, bytes + HDR_BYTES) != 0)
        return NULL;
    hdr *h = raw;
    h->magic = HDR_MAGIC;
    h->pinned = (uint64_t)pinned;
    h->bytes = bytes;
    atomic_fetch_add(pinned ? &npinned : &npageable, 1);
    return (uint8_t *)raw + HDR_BYTES;
}

static hdr *header(const void *p) {
    hdr *h = (hdr *)((uint8_t *)(uintptr_t)p - HDR_BYTES);
    CZ_ASSERT(h->magic == HDR_MAGIC);
    return h;
}

void cz_host_free(void *p) {
    if (p == NULL)
        return;
    hdr *h = header(p);
    int pinned = (int)h->pinned;
    h->magic = 0;
    if (pinned)
        atomic_load(&pinner)->free(h);
    else
        free(h);
}

int cz_host_is_pinned(const void *p) {
    return (int)header(p)->pinned;
}

size_t cz_host_size(const void *p) {
    return (size_t)header(p)->bytes;
}

void cz_host_stats_get(cz_host_stats *out) {
    out->npinned = atomic_load(&npinned);
    out->npageable = atomic_load(&npageable);
    out->npin_failed = atomic_load(&npin_failed);
    out->nwarnings = atomic_load(&nwarnings) > 0;
}

/* The SRS manager's seam with pinned memory (cz_srs_config.pinned). */
static void *srs_pinned_alloc(void *arg, size_t bytes) {
    (void)arg;
    return cz_host_alloc(bytes, 1);
}

static void srs_pinned_free(void *arg, void *p, size_t bytes) {
    (void)arg;
    (void)bytes;
    cz_host_free(p);
}

const cz_srs_host_mem cz_srs_host_mem_pinned = {srs_pinned_alloc, srs_pinned_free, NULL};
