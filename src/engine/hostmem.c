/*
 * Host memory for data the GPU copies from (include/cuzk/engine.h, "Memory manager"; the
 * allocation part of the memory module, src/engine/mem.h): pinned (page-locked) when asked for
 * and possible, pageable otherwise.
 *
 * Every block starts with a 64-byte header {magic, kind, bytes, mapped length}, so cz_host_free
 * needs only the pointer (the SRS seam's free and the memory manager's put get no flag) and the
 * manager can read a buffer's size. Blocks are 64-byte aligned, so the payload after the 64-byte
 * header is too, for 32-byte limb loads and DMA.
 *
 * Blocks of 2 MiB and more (keys, a partition's vectors) are anonymous mappings with transparent
 * huge pages asked for (madvise MADV_HUGEPAGE, which the kernel's default "madvise" mode needs):
 * touching them takes 512 times fewer page faults than 4 KiB pages (a 47 GB key load on the H200:
 * 12.8 against 16.6 s with the portable field product, 12.0 against 12.2 s with the ADX one,
 * bench/results/2026-12-02-h200-params-load-adx.md). To pin such a block the mapping is
 * registered with the driver (cudaHostRegister), which the same load found a third faster than
 * cudaHostAlloc (21.0 against 31.5 s); registration counts against
 * RLIMIT_MEMLOCK, and where it fails the block comes from cudaHostAlloc instead. Smaller blocks:
 * posix_memalign, or cudaHostAlloc for pinned.
 *
 * Registering a mapping nobody has touched makes the driver fault in and clear every page on the
 * calling thread: 7 to 16 s for 44 GiB on the H200, against 0.9 s for 16 threads touching it and
 * then 1.2 s to register it. So the SRS seam (cz_srs_host_mem_pinned) hands out unpinned
 * mappings for large blocks and pins them with cz_host_pin once the loader's threads have written
 * them (cz_file_alloc.filled).
 *
 * Pinning may fail: no GPU or no CUDA build (CZ_ENOGPU), the driver out of pinned memory or
 * RLIMIT_MEMLOCK (CZ_ENOMEM / CZ_EGPU). Then the block is pageable and the first failure of the
 * process logs one warning; a job never fails for want of pinned memory. The caller decides
 * (want_pinned: the engine's pageable_buffers, the daemon's gpus.pinned_buffers). Tests replace the
 * pinner (cz_host_set_pinner) to simulate both outcomes without a GPU.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cuzk/engine.h"
#include "cuzk/gpu.h"
#include "cuzk/log.h"
#include "core/hugepages.h"

#define HDR_BYTES  64
#define HDR_MAGIC  0x637a686f73746d65ull /* "czhostme" */
#define HUGE_BYTES CZ__HUGE_PAGE         /* also the mapping threshold */

typedef enum block_kind {
    BLOCK_HEAP = 0,         /* posix_memalign */
    BLOCK_PINNED = 1,       /* the pinner's alloc (cudaHostAlloc) */
    BLOCK_MAPPED = 2,       /* an anonymous huge-page mapping */
    BLOCK_MAPPED_PINNED = 3 /* the same, registered with the pinner */
} block_kind;

typedef struct {
    uint64_t magic;
    uint64_t kind; /* block_kind */
    uint64_t bytes;
    uint64_t map_len; /* BLOCK_MAPPED*: the mapping's length */
} hdr;

static const cz_host_pinner cuda_pinner = {cz_gpu_host_alloc, cz_gpu_host_free,
                                           cz_gpu_host_register, cz_gpu_host_unregister};
static _Atomic(const cz_host_pinner *) pinner = &cuda_pinner;
static atomic_uint_fast64_t npinned, npageable, npin_failed, nwarnings;

void cz_host_set_pinner(const cz_host_pinner *p) {
    atomic_store(&pinner, p != NULL ? p : &cuda_pinner);
}

/* An anonymous mapping of at least bytes, whole huge pages on a huge-page boundary (kernels
 * before 6.7 do not align large mappings themselves), with huge pages asked for; NULL when the
 * kernel refuses. */
static void *map_huge(size_t bytes, size_t *len) {
    *len = (bytes + HUGE_BYTES - 1) / HUGE_BYTES * HUGE_BYTES;
    size_t span = *len + HUGE_BYTES;
    uint8_t *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    size_t head = (HUGE_BYTES - (uintptr_t)p % HUGE_BYTES) % HUGE_BYTES;
    if (head > 0)
        munmap(p, head);
    if (span - head - *len > 0)
        munmap(p + head + *len, span - head - *len);
    cz__huge_pages_advise(p + head, *len);
    return p + head;
}

/* A pinned block: a registered huge-page mapping where that is possible, else the pinner's
 * alloc. NULL with *ei set when neither pins. */
static void *alloc_pinned(size_t total, block_kind *kind, size_t *map_len, cz_errinfo *ei) {
    const cz_host_pinner *pn = atomic_load(&pinner);
    void *raw = NULL;
    if (total >= HUGE_BYTES && pn->register_mem != NULL &&
        (raw = map_huge(total, map_len)) != NULL) {
        if (pn->register_mem(raw, *map_len, 0, ei) == CZ_OK) {
            *kind = BLOCK_MAPPED_PINNED;
            return raw;
        }
        munmap(raw, *map_len);
        raw = NULL;
        cz_errinfo_clear(ei);
    }
    if (pn->alloc(&raw, total, ei) == CZ_OK && raw != NULL) {
        *kind = BLOCK_PINNED;
        return raw;
    }
    return NULL;
}

/* A block that could not be pinned stays pageable: counted, and the process's first such failure
 * logs the one warning. */
static void pin_failed(size_t bytes, const char *why) {
    atomic_fetch_add(&npin_failed, 1);
    if (atomic_fetch_add(&nwarnings, 1) == 0)
        CZ_LOG_WARN("host memory: cannot pin %zu bytes (%s); using pageable memory (slower "
                    "host-to-device copies; warned once)",
                    bytes, why);
}

void *cz_host_alloc(size_t bytes, int want_pinned) {
    void *raw = NULL;
    block_kind kind = BLOCK_HEAP;
    size_t map_len = 0, total;
    if (bytes > SIZE_MAX - HDR_BYTES - 2 * HUGE_BYTES) /* map_huge rounds up, then adds a page */
        return NULL;
    total = bytes + HDR_BYTES;
    if (want_pinned) {
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        if ((raw = alloc_pinned(total, &kind, &map_len, &ei)) == NULL)
            pin_failed(bytes, ei.msg);
    }
    if (raw == NULL && total >= HUGE_BYTES && (raw = map_huge(total, &map_len)) != NULL)
        kind = BLOCK_MAPPED;
    /* Pageable blocks are 64-byte aligned like pinned ones (page aligned), so the payload after
     * the 64-byte header is too; plain malloc would give 16. */
    if (raw == NULL) {
        kind = BLOCK_HEAP;
        if (posix_memalign(&raw, HDR_BYTES, total) != 0)
            return NULL;
    }
    hdr *h = raw;
    h->magic = HDR_MAGIC;
    h->kind = (uint64_t)kind;
    h->bytes = bytes;
    h->map_len = map_len;
    int pinned = kind == BLOCK_PINNED || kind == BLOCK_MAPPED_PINNED;
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
    block_kind kind = (block_kind)h->kind;
    size_t map_len = (size_t)h->map_len;
    h->magic = 0;
    switch (kind) {
    case BLOCK_PINNED:
        atomic_load(&pinner)->free(h);
        break;
    case BLOCK_MAPPED_PINNED:
        (void)atomic_load(&pinner)->unregister_mem(h, NULL);
        munmap(h, map_len);
        break;
    case BLOCK_MAPPED:
        munmap(h, map_len);
        break;
    default:
        free(h);
    }
}

int cz_host_pin(void *p) {
    hdr *h = header(p);
    cz_errinfo ei;
    if (h->kind == BLOCK_PINNED || h->kind == BLOCK_MAPPED_PINNED)
        return 1;
    const cz_host_pinner *pn = atomic_load(&pinner);
    cz_errinfo_clear(&ei);
    if (h->kind != BLOCK_MAPPED || pn->register_mem == NULL)
        cz_fail(&ei, CZ_EINVAL, "a %s block cannot be registered",
                h->kind == BLOCK_MAPPED ? "mapped" : "heap");
    else if (pn->register_mem(h, (size_t)h->map_len, 0, &ei) == CZ_OK) {
        h->kind = BLOCK_MAPPED_PINNED;
        atomic_fetch_sub(&npageable, 1);
        atomic_fetch_add(&npinned, 1);
        return 1;
    }
    pin_failed((size_t)h->bytes, ei.msg);
    return 0;
}

int cz_host_is_pinned(const void *p) {
    uint64_t kind = header(p)->kind;
    return kind == BLOCK_PINNED || kind == BLOCK_MAPPED_PINNED;
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

/* The SRS manager's seam with pinned memory (cz_srs_config.host_mem): blocks that will be
 * mappings are pinned after they are filled (see the top of the file), smaller ones at once. */
static void *srs_pinned_alloc(void *arg, size_t bytes) {
    (void)arg;
    int late = bytes <= SIZE_MAX - HDR_BYTES && bytes + HDR_BYTES >= HUGE_BYTES &&
               atomic_load(&pinner)->register_mem != NULL;
    return cz_host_alloc(bytes, !late);
}

static void srs_pinned_filled(void *arg, void *p, size_t bytes) {
    (void)arg;
    (void)bytes;
    (void)cz_host_pin(p);
}

static void srs_pinned_free(void *arg, void *p, size_t bytes) {
    (void)arg;
    (void)bytes;
    cz_host_free(p);
}

const cz_srs_host_mem cz_srs_host_mem_pinned = {srs_pinned_alloc, srs_pinned_free, NULL,
                                                srs_pinned_filled};
