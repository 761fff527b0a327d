/*
 * The SRS (proving key) manager (include/cuzk/engine.h).
 *
 * Entries: a short list (a daemon holds a handful of keys) of loaded keys, each with its
 * canonical path (realpath, so "./k.zkey" and "k.zkey" are one key), its loader, the loader's
 * data, its budget reservation (the footprint, taken before the load and given back when the key
 * is evicted), a reference count, a last-used tick and its per-device data.
 *
 * Loading: acquire looks the path up under `lock` and, when the key is loaded, takes a reference
 * and returns at once. Otherwise it takes `load_lock` (loads are serialised: they are few, disk
 * bound, and it spares two threads loading one key twice), looks again, reserves the footprint
 * in the budget (this may wait, and may evict other keys through the evictor, which takes `lock`
 * only), opens the key without any lock but `load_lock`, and publishes the entry with one
 * reference. So a caller whose key is loaded never waits for another key's load.
 *
 * Eviction: an entry leaves the list only under `lock` and only with no reference; the thread
 * that unlinked it then frees it without locks (device data through the hooks, the loader's
 * close, the reservation). cz_srs_evict_lru picks the unreferenced entry with the oldest
 * last-used tick (ticks come from a counter, not a clock: deterministic order).
 *
 * Device data: created on first cz_srs_key_device for a device under the entry's `dev_lock`
 * (an upload may take long and must not block other keys), freed with the entry.
 *
 * Host memory: a loader that copies bases into host memory gets them from cfg->host_mem:
 * cz_srs_host_mem_pinned when the engine has GPUs (cudaHostAlloc, pageable with one warning when
 * pinning fails, hostmem.c), else malloc/free. The zkey loader maps its file
 * read-only and copies nothing: its bases are read once per device, when the key is made GPU
 * resident (cz_groth16_gpu_key_create), so pinning gigabytes of page cache for that one upload
 * would cost more RAM than it saves time (docs/engine.md, "Pinned memory").
 *
 * Lock order: load_lock -> lock -> budget lock; dev_lock is taken alone.
 */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuzk/engine.h"
#include "cuzk/zkey.h"

struct cz_srs_key {
    cz_srs *m;
    char *path;
    const cz_srs_loader *loader;
    void *data;
    uint64_t bytes;
    cz_reservation res;
    int refs;           /* under m->lock */
    uint64_t last_used; /* under m->lock */
    pthread_mutex_t dev_lock;
    void *dev[CZ_SRS_MAX_DEVICES]; /* under dev_lock */
    uint8_t dev_made[CZ_SRS_MAX_DEVICES];
    struct cz_srs_key *next;
};

struct cz_srs {
    pthread_mutex_t lock;      /* the list, refs, ticks, counters */
    pthread_mutex_t load_lock; /* one load at a time */
    cz_srs_config cfg;
    cz_srs_host_mem host_mem;
    cz_srs_key *list;
    uint64_t tick;
    uint64_t nloads, nhits, nevictions;
};

static void *heap_alloc(void *arg, size_t bytes) {
    (void)arg;
    return malloc(bytes);
}

static void heap_free(void *arg, void *p, size_t bytes) {
    (void)arg;
    (void)bytes;
    free(p);
}

/* ---- the zkey loader ---- */

static int zkey_footprint(uint64_t *bytes, const char *path, cz_errinfo *ei) {
    struct stat st;
    if (stat(path, &st) != 0)
        return cz_fail(ei, CZ_EIO, "srs: cannot stat %s", path);
    *bytes = (uint64_t)st.st_size;
    return CZ_OK;
}

static int zkey_open(void **key, const char *path, const cz_srs_host_mem *mem, cz_errinfo *ei) {
    (void)mem; /* mapped, not copied */
    cz_zkey *zk;
    int rc = cz_zkey_open(&zk, path, ei);
    *key = rc == CZ_OK ? zk : NULL;
    return rc;
}

static void zkey_close(void *key, const cz_srs_host_mem *mem) {
    (void)mem;
    cz_zkey_close(key);
}

const cz_srs_loader cz_srs_loader_zkey = {"zkey", zkey_footprint, zkey_open, zkey_close};

/* ---- the manager ---- */

int cz_srs_create(cz_srs **out, const cz_srs_config *cfg, cz_errinfo *ei) {
    *out = NULL;
    cz_srs *m = calloc(1, sizeof *m);
    if (m == NULL)
        return cz_fail(ei, CZ_ENOMEM, "srs: out of memory");
    if (cfg != NULL)
        m->cfg = *cfg;
    if (m->cfg.host_mem != NULL) {
        m->host_mem = *m->cfg.host_mem;
    } else {
        m->host_mem.alloc = heap_alloc;
        m->host_mem.free = heap_free;
    }
    pthread_mutex_init(&m->lock, NULL);
    pthread_mutex_init(&m->load_lock, NULL);
    *out = m;
    return CZ_OK;
}

/* Frees an unlinked entry (no reference, no lock held). */
static void free_entry(cz_srs_key *k) {
    cz_srs *m = k->m;
    for (int d = 0; d < CZ_SRS_MAX_DEVICES; d++)
        if (k->dev_made[d])
            m->cfg.device->free(k->dev[d], m->cfg.device->arg);
    k->loader->close(k->data, &m->host_mem);
    cz_reservation_release_all(&k->res);
    pthread_mutex_destroy(&k->dev_lock);
    free(k->path);
    free(k);
}

void cz_srs_destroy(cz_srs *m) {
    if (m == NULL)
        return;
    pthread_mutex_lock(&m->lock);
    cz_srs_key *k = m->list;
    m->list = NULL;
    pthread_mutex_unlock(&m->lock);
    while (k != NULL) {
        cz_srs_key *next = k->next;
        CZ_ASSERT(k->refs == 0);
        free_entry(k);
        k = next;
    }
    pthread_mutex_destroy(&m->lock);
    pthread_mutex_destroy(&m->load_lock);
    free(m);
}

static cz_srs_key *find(cz_srs *m, const char *canon) {
    for (cz_srs_key *k = m->list; k != NULL; k = k->next)
        if (strcmp(k->path, canon) == 0)
            return k;
    return NULL;
}

/* A reference to the loaded key at canon, or NULL when it is not loaded. Lock held. */
static int take_loaded(cz_srs_key **out, cz_srs *m, const char *canon, const cz_srs_loader *loader,
                       cz_errinfo *ei) {
    cz_srs_key *k = find(m, canon);
    *out = NULL;
    if (k == NULL)
        return CZ_OK;
    if (k->loader != loader)
        return cz_fail(ei, CZ_EINVAL, "srs: %s is loaded as %s, not %s", canon, k->loader->name,
                       loader->name);
    k->refs++;
    k->last_used = ++m->tick;
    m->nhits++;
    *out = k;
    return CZ_OK;
}

int cz_srs_acquire(cz_srs_key **out, cz_srs *m, const char *path, const cz_srs_loader *loader,
                   cz_errinfo *ei) {
    *out = NULL;
    if (loader == NULL)
        loader = &cz_srs_loader_zkey;
    if (path == NULL || path[0] == '\0')
        return cz_fail(ei, CZ_EINVAL, "srs: empty key path");
    char canon[PATH_MAX];
    if (realpath(path, canon) == NULL)
        return cz_fail(ei, CZ_EIO, "srs: cannot open key %s", path);

    pthread_mutex_lock(&m->lock);
    int rc = take_loaded(out, m, canon, loader, ei);
    pthread_mutex_unlock(&m->lock);
    if (rc != CZ_OK || *out != NULL)
        return rc;

    pthread_mutex_lock(&m->load_lock);
    pthread_mutex_lock(&m->lock);
    rc = take_loaded(out, m, canon, loader, ei); /* loaded while we waited for load_lock? */
    pthread_mutex_unlock(&m->lock);
    if (rc != CZ_OK || *out != NULL)
        goto out_unlock;

    cz_srs_key *k = calloc(1, sizeof *k);
    if (k == NULL || (k->path = strdup(canon)) == NULL) {
        free(k);
        rc = cz_fail(ei, CZ_ENOMEM, "srs: out of memory");
        goto out_unlock;
    }
    k->m = m;
    k->loader = loader;
    rc = loader->footprint(&k->bytes, canon, ei);
    if (rc == CZ_OK && m->cfg.budget != NULL)
        rc = cz_budget_reserve(&k->res, m->cfg.budget, k->bytes, -1, NULL, NULL, ei);
    if (rc == CZ_OK) {
        rc = loader->open(&k->data, canon, &m->host_mem, ei);
        if (rc != CZ_OK)
            cz_reservation_release_all(&k->res);
    }
    if (rc != CZ_OK) {
        cz_fail(ei, rc, "srs: loading %s key %s", loader->name, canon);
        free(k->path);
        free(k);
        goto out_unlock;
    }
    pthread_mutex_init(&k->dev_lock, NULL);
    pthread_mutex_lock(&m->lock);
    k->refs = 1;
    k->last_used = ++m->tick;
    k->next = m->list;
    m->list = k;
    m->nloads++;
    pthread_mutex_unlock(&m->lock);
    *out = k;
out_unlock:
    pthread_mutex_unlock(&m->load_lock);
    return rc;
}

void cz_srs_release(cz_srs_key *k) {
    if (k == NULL)
        return;
    cz_srs *m = k->m;
    pthread_mutex_lock(&m->lock);
    CZ_ASSERT(k->refs > 0);
    k->refs--;
    k->last_used = ++m->tick;
    pthread_mutex_unlock(&m->lock);
}

int cz_srs_preload(cz_srs *m, const char *path, const cz_srs_loader *loader, cz_errinfo *ei) {
    cz_srs_key *k;
    int rc = cz_srs_acquire(&k, m, path, loader, ei);
    if (rc == CZ_OK)
        cz_srs_release(k);
    return rc;
}

/* Unlinks k from the list. Lock held. */
static void unlink_entry(cz_srs *m, cz_srs_key *k) {
    cz_srs_key **link = &m->list;
    while (*link != k)
        link = &(*link)->next;
    *link = k->next;
    k->next = NULL;
    m->nevictions++;
}

int cz_srs_evict(cz_srs *m, const char *path, cz_errinfo *ei) {
    char canon[PATH_MAX];
    const char *name = realpath(path, canon) != NULL ? canon : path;
    pthread_mutex_lock(&m->lock);
    cz_srs_key *k = find(m, name);
    int rc = CZ_OK;
    if (k == NULL)
        rc = cz_fail(ei, CZ_ENOTFOUND, "srs: key %s is not loaded", path);
    else if (k->refs > 0)
        rc = cz_fail(ei, CZ_EBUSY, "srs: key %s is in use (%d references); not evicted", name,
                     k->refs);
    else
        unlink_entry(m, k);
    pthread_mutex_unlock(&m->lock);
    if (rc == CZ_OK)
        free_entry(k);
    return rc;
}

uint64_t cz_srs_evict_lru(void *arg, uint64_t need) {
    cz_srs *m = arg;
    uint64_t freed = 0;
    while (freed < need || need == 0) {
        pthread_mutex_lock(&m->lock);
        cz_srs_key *victim = NULL;
        for (cz_srs_key *k = m->list; k != NULL; k = k->next)
            if (k->refs == 0 && (victim == NULL || k->last_used < victim->last_used))
                victim = k;
        if (victim != NULL)
            unlink_entry(m, victim);
        pthread_mutex_unlock(&m->lock);
        if (victim == NULL)
            break;
        freed += victim->bytes;
        free_entry(victim);
        if (need == 0)
            break;
    }
    return freed;
}

int cz_srs_is_loaded(cz_srs *m, const char *path) {
    char canon[PATH_MAX];
    if (realpath(path, canon) == NULL)
        return 0;
    pthread_mutex_lock(&m->lock);
    int loaded = find(m, canon) != NULL;
    pthread_mutex_unlock(&m->lock);
    return loaded;
}

void cz_srs_stats_get(cz_srs_stats *out, cz_srs *m) {
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&m->lock);
    for (cz_srs_key *k = m->list; k != NULL; k = k->next) {
        out->nloaded++;
        out->nreferenced += k->refs > 0;
        out->bytes += k->bytes;
    }
    out->nloads = m->nloads;
    out->nhits = m->nhits;
    out->nevictions = m->nevictions;
    pthread_mutex_unlock(&m->lock);
}

const void *cz_srs_key_data(const cz_srs_key *k) {
    return k->data;
}

const char *cz_srs_key_path(const cz_srs_key *k) {
    return k->path;
}

uint64_t cz_srs_key_bytes(const cz_srs_key *k) {
    return k->bytes;
}

int cz_srs_key_device(void **out, cz_srs_key *k, int device, cz_errinfo *ei) {
    *out = NULL;
    const cz_srs_device_hooks *h = k->m->cfg.device;
    if (device < 0 || device >= CZ_SRS_MAX_DEVICES)
        return cz_fail(ei, CZ_EINVAL, "srs: device %d outside 0..%d", device,
                       CZ_SRS_MAX_DEVICES - 1);
    if (h == NULL || h->create == NULL)
        return cz_fail(ei, CZ_EUNSUPPORTED, "srs: no device hooks configured");
    int rc = CZ_OK;
    pthread_mutex_lock(&k->dev_lock);
    if (!k->dev_made[device]) {
        rc = h->create(&k->dev[device], k->data, device, h->arg, ei);
        if (rc == CZ_OK)
            k->dev_made[device] = 1;
        else
            cz_fail(ei, rc, "srs: device %d data for %s", device, k->path);
    }
    if (rc == CZ_OK)
        *out = k->dev[device];
    pthread_mutex_unlock(&k->dev_lock);
    return rc;
}
