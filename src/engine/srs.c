/*
 * The SRS (proving key) manager (include/cuzk/engine.h).
 *
 * Entries: a short list (a daemon holds a handful of keys) of keys, each with its canonical path
 * (realpath, so "./k.zkey" and "k.zkey" are one key), its loader, the loader's data, the identity
 * of the file it was loaded from (cz_file_id: device, inode, size, mtime), its budget reservation
 * (the footprint, taken before the load and given back when the key is freed), a reference count,
 * a last-used tick, its state and its per-device data.
 *
 * States: LOADING (published in the list before the load, so a second caller of the same key
 * waits for it instead of loading it twice), READY, FAILED (the load failed: the entry leaves the
 * list at once and its waiters get the loader's message). Loading runs without any lock: a load
 * that blocks (a hung file system) holds up only the callers of that key. Other keys, hits on
 * loaded keys, PreloadSRS of other paths, stats and eviction go on meanwhile.
 *
 * Changed files: every acquire of a READY key first stats the path; when the identity differs
 * from the loaded one (replaced, truncated, rewritten), the entry is retired: it leaves the list
 * (jobs that hold it keep using its bytes, which the manager owns, and it is freed with its last
 * reference), a warning names the path and the change, and the key is loaded again from the new
 * file; a new file that is no valid key fails that acquire with the loader's message. A file that
 * changes while it is loaded (identity before and after the load differ) fails the load.
 *
 * Eviction: only READY entries in the list with no reference; the thread that unlinked an entry
 * frees it without locks (device data through the hooks, the loader's close, the reservation);
 * an unlinked entry that is still referenced is freed by the release that drops its last
 * reference. cz_srs_evict_lru picks the oldest last-used tick (ticks come from a counter, not a
 * clock: deterministic order).
 *
 * Device data: created on first cz_srs_key_device for a device under the entry's `dev_lock`
 * (an upload may take long and must not block other keys), freed with the entry.
 *
 * Host memory: loaders (srs_loaders.c) read keys into memory from cfg->host_mem:
 * cz_srs_host_mem_pinned when the engine has GPUs (pinned: huge-page mappings registered once
 * the loader has filled them, pageable with one warning when pinning fails, hostmem.c), else
 * pageable cz_host_alloc blocks; nothing is served from a mapping of a file that
 * someone else can change, and a GPU upload of the bases copies from pinned memory.
 *
 * Lock order: lock -> budget lock (the evictor takes lock only, and is called by the budget
 * without its lock); dev_lock is taken alone. Nothing slow (stat, load, budget wait) runs under
 * lock.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/engine.h"
#include "cuzk/fileio.h"
#include "cuzk/log.h"
#include "cuzk/threadpool.h"

typedef enum { KEY_LOADING, KEY_READY, KEY_FAILED } key_state;

struct cz_srs_key {
    cz_srs *m;
    char *path;
    const cz_srs_loader *loader;
    void *data;
    uint64_t bytes;
    cz_file_id id; /* the file as loaded */
    cz_reservation res;
    key_state state;    /* under m->lock */
    int linked;         /* in m->list; under m->lock */
    int refs;           /* under m->lock (waiters of a LOADING key count too) */
    uint64_t last_used; /* under m->lock */
    int err_code;       /* FAILED: the load's error, for its waiters */
    char err_msg[CZ_ERRINFO_MSG_MAX];
    pthread_mutex_t dev_lock;
    void *dev[CZ_SRS_MAX_DEVICES]; /* under dev_lock */
    uint8_t dev_made[CZ_SRS_MAX_DEVICES];
    struct cz_srs_key *next;
};

struct cz_srs {
    pthread_mutex_t lock;  /* the list, states, refs, ticks, counters */
    pthread_cond_t loaded; /* broadcast when a LOADING entry becomes READY or FAILED */
    cz_srs_config cfg;
    cz_srs_host_mem host_mem;
    cz_srs_key *list;
    uint64_t tick;
    uint64_t nloads, nhits, nevictions, nchanged;
};

/* The default host memory: pageable cz_host_alloc blocks (huge-page mappings for a key's sizes,
 * which a load touches with 512 times fewer page faults). */
static void *heap_alloc(void *arg, size_t bytes) {
    (void)arg;
    return cz_host_alloc(bytes, 0);
}

static void heap_free(void *arg, void *p, size_t bytes) {
    (void)arg;
    (void)bytes;
    cz_host_free(p);
}

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
    pthread_cond_init(&m->loaded, NULL);
    *out = m;
    return CZ_OK;
}

/* Frees an entry that is out of the list and unreferenced (no lock held). */
/* The device hooks of k: its loader's, else the manager's (may be NULL). */
static const cz_srs_device_hooks *device_hooks(const cz_srs_key *k) {
    return k->loader != NULL && k->loader->device != NULL ? k->loader->device : k->m->cfg.device;
}

static void free_entry(cz_srs_key *k) {
    cz_srs *m = k->m;
    const cz_srs_device_hooks *h = device_hooks(k);
    for (int d = 0; d < CZ_SRS_MAX_DEVICES; d++)
        if (k->dev_made[d])
            h->free(k->dev[d], h->arg);
    if (k->state == KEY_READY)
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
    pthread_cond_destroy(&m->loaded);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

static cz_srs_key *find(cz_srs *m, const char *canon) {
    for (cz_srs_key *k = m->list; k != NULL; k = k->next)
        if (strcmp(k->path, canon) == 0)
            return k;
    return NULL;
}

/* Unlinks k from the list. Lock held. */
static void unlink_entry(cz_srs *m, cz_srs_key *k) {
    cz_srs_key **link = &m->list;
    while (*link != k)
        link = &(*link)->next;
    *link = k->next;
    k->next = NULL;
    k->linked = 0;
}

/* Drops one reference; returns k when it was the last one of an unlinked entry (the caller frees
 * it after unlocking), else NULL. Lock held. */
static cz_srs_key *unref_locked(cz_srs_key *k) {
    CZ_ASSERT(k->refs > 0);
    k->refs--;
    k->last_used = ++k->m->tick;
    return k->refs == 0 && !k->linked ? k : NULL;
}

/*
 * The lookup part of acquire, under the lock: *out = a reference to the READY key at canon whose
 * file is still `now`; NULL when the caller has to load it (a retired entry goes to *retired when
 * nobody holds it, for the caller to free). Waits for another caller's load of the same key.
 */
static int lookup_locked(cz_srs_key **out, cz_srs_key **retired, cz_srs *m, const char *canon,
                         const cz_file_id *now, const cz_srs_loader *loader, cz_errinfo *ei) {
    *out = NULL;
    for (;;) {
        cz_srs_key *k = find(m, canon);
        if (k == NULL)
            return CZ_OK;
        if (k->loader != loader)
            return cz_fail(ei, CZ_EINVAL, "srs: %s is loaded as %s, not %s", canon, k->loader->name,
                           loader->name);
        if (k->state == KEY_LOADING) {
            k->refs++;
            while (k->state == KEY_LOADING)
                pthread_cond_wait(&m->loaded, &m->lock);
            int failed = k->state == KEY_FAILED;
            int rc = failed ? cz_fail(ei, k->err_code, "%s", k->err_msg) : CZ_OK;
            cz_srs_key *last = unref_locked(k);
            if (last != NULL) {
                /* A failed load (unlinked at once), or a key retired while we waited. */
                pthread_mutex_unlock(&m->lock);
                free_entry(last);
                pthread_mutex_lock(&m->lock);
            }
            if (failed)
                return rc;
            continue; /* READY now: look again (it may have been retired meanwhile) */
        }
        if (!cz_file_id_same(&k->id, now)) {
            char what[160];
            cz_file_id_describe_change(what, sizeof what, &k->id, now);
            CZ_LOG_WARN("srs: key %s changed on disk (%s); loading it again (%d holders keep "
                        "the copy loaded before)",
                        canon, what, k->refs);
            unlink_entry(m, k);
            m->nchanged++;
            if (k->refs == 0)
                *retired = k;
            return CZ_OK;
        }
        k->refs++;
        k->last_used = ++m->tick;
        m->nhits++;
        *out = k;
        return CZ_OK;
    }
}

/* Loads k (LOADING, one reference: ours) without locks. */
static int load_entry(cz_srs_key *k, const char *canon, cz_errinfo *ei) {
    cz_srs *m = k->m;
    const cz_srs_loader *loader = k->loader;
    int rc = loader->footprint(&k->bytes, canon, ei);
    if (rc == CZ_OK && m->cfg.budget != NULL)
        rc = cz_budget_reserve(&k->res, m->cfg.budget, k->bytes, -1, NULL, NULL, ei);
    if (rc == CZ_OK) {
        const cz_srs_load_ctx ctx = {&m->host_mem, m->cfg.pool, m->cfg.params_check_subgroup};
        rc = loader->open(&k->data, canon, &ctx, ei);
        cz_file_id after;
        if (rc == CZ_OK &&
            (cz_file_id_get(&after, canon, NULL) != CZ_OK || !cz_file_id_same(&after, &k->id))) {
            loader->close(k->data, &m->host_mem);
            k->data = NULL;
            rc = cz_fail(ei, CZ_EIO, "%s: the file changed while it was being loaded", canon);
        }
        if (rc != CZ_OK)
            cz_reservation_release_all(&k->res);
    }
    if (rc != CZ_OK)
        cz_fail(ei, rc, "srs: loading %s key %s", loader->name, canon);
    return rc;
}

int cz_srs_acquire(cz_srs_key **out, cz_srs *m, const char *path, const cz_srs_loader *loader,
                   cz_errinfo *ei) {
    *out = NULL;
    if (loader == NULL)
        loader = &cz_srs_loader_zkey;
    if (path == NULL || path[0] == '\0')
        return cz_fail(ei, CZ_EINVAL, "srs: empty key path");
    char canon[PATH_MAX];
    cz_file_id now;
    if (realpath(path, canon) == NULL)
        return cz_fail(ei, CZ_EIO, "srs: cannot open key %s: %s", path, strerror(errno));
    int rc = cz_file_id_get(&now, canon, ei);
    if (rc != CZ_OK)
        return cz_fail(ei, rc, "srs: key %s", path);

    cz_srs_key *retired = NULL, *k = NULL;
    pthread_mutex_lock(&m->lock);
    rc = lookup_locked(out, &retired, m, canon, &now, loader, ei);
    if (rc == CZ_OK && *out == NULL) {
        /* Ours to load: publish it as LOADING, so callers of this key wait for us. */
        if ((k = calloc(1, sizeof *k)) == NULL || (k->path = strdup(canon)) == NULL) {
            free(k);
            k = NULL;
            rc = cz_fail(ei, CZ_ENOMEM, "srs: out of memory");
        } else {
            k->m = m;
            k->loader = loader;
            k->id = now;
            k->state = KEY_LOADING;
            k->refs = 1;
            pthread_mutex_init(&k->dev_lock, NULL);
            k->next = m->list;
            m->list = k;
            k->linked = 1;
        }
    }
    pthread_mutex_unlock(&m->lock);
    if (retired != NULL)
        free_entry(retired); /* before the load: its budget room goes to the new copy */
    if (k == NULL)
        return rc;

    rc = load_entry(k, canon, ei);

    cz_srs_key *dead = NULL;
    pthread_mutex_lock(&m->lock);
    if (rc == CZ_OK) {
        k->state = KEY_READY;
        k->last_used = ++m->tick;
        m->nloads++;
        *out = k;
    } else {
        k->state = KEY_FAILED;
        k->err_code = rc;
        snprintf(k->err_msg, sizeof k->err_msg, "%s", ei != NULL ? ei->msg : "load failed");
        unlink_entry(m, k);
        dead = unref_locked(k);
    }
    pthread_cond_broadcast(&m->loaded);
    pthread_mutex_unlock(&m->lock);
    if (dead != NULL)
        free_entry(dead);
    return rc;
}

void cz_srs_release(cz_srs_key *k) {
    if (k == NULL)
        return;
    cz_srs *m = k->m;
    pthread_mutex_lock(&m->lock);
    cz_srs_key *dead = unref_locked(k);
    pthread_mutex_unlock(&m->lock);
    if (dead != NULL)
        free_entry(dead);
}

int cz_srs_preload(cz_srs *m, const char *path, const cz_srs_loader *loader, cz_errinfo *ei) {
    cz_srs_key *k;
    int rc = cz_srs_acquire(&k, m, path, loader, ei);
    if (rc == CZ_OK)
        cz_srs_release(k);
    return rc;
}

int cz_srs_evict(cz_srs *m, const char *path, cz_errinfo *ei) {
    char canon[PATH_MAX];
    const char *name = realpath(path, canon) != NULL ? canon : path;
    pthread_mutex_lock(&m->lock);
    cz_srs_key *k = find(m, name);
    int rc = CZ_OK;
    if (k == NULL)
        rc = cz_fail(ei, CZ_ENOTFOUND, "srs: key %s is not loaded", path);
    else if (k->state == KEY_LOADING)
        rc = cz_fail(ei, CZ_EBUSY, "srs: key %s is being loaded; not evicted", name);
    else if (k->refs > 0)
        rc = cz_fail(ei, CZ_EBUSY, "srs: key %s is in use (%d references); not evicted", name,
                     k->refs);
    else
        unlink_entry(m, k), m->nevictions++;
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
            if (k->state == KEY_READY && k->refs == 0 &&
                (victim == NULL || k->last_used < victim->last_used))
                victim = k;
        if (victim != NULL)
            unlink_entry(m, victim), m->nevictions++;
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
    const cz_srs_key *k = find(m, canon);
    int loaded = k != NULL && k->state == KEY_READY;
    pthread_mutex_unlock(&m->lock);
    return loaded;
}

void cz_srs_stats_get(cz_srs_stats *out, cz_srs *m) {
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&m->lock);
    for (cz_srs_key *k = m->list; k != NULL; k = k->next) {
        if (k->state == KEY_LOADING) {
            out->nloading++;
            continue;
        }
        out->nloaded++;
        out->nreferenced += k->refs > 0;
        out->bytes += k->bytes;
    }
    out->nloads = m->nloads;
    out->nhits = m->nhits;
    out->nevictions = m->nevictions;
    out->nchanged = m->nchanged;
    pthread_mutex_unlock(&m->lock);
    out->load_threads = cz_threadpool_size(m->cfg.pool);
    out->params_check_subgroup = m->cfg.params_check_subgroup;
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

int cz_srs_key_device(void **out, cz_srs_key *k, int device, const void *hint, cz_errinfo *ei) {
    *out = NULL;
    const cz_srs_device_hooks *h = device_hooks(k);
    if (device < 0 || device >= CZ_SRS_MAX_DEVICES)
        return cz_fail(ei, CZ_EINVAL, "srs: device %d outside 0..%d", device,
                       CZ_SRS_MAX_DEVICES - 1);
    if (h == NULL || h->create == NULL)
        return cz_fail(ei, CZ_EUNSUPPORTED, "srs: no device hooks configured");
    int rc = CZ_OK;
    pthread_mutex_lock(&k->dev_lock);
    if (!k->dev_made[device]) {
        rc = h->create(&k->dev[device], k->data, device, hint, h->arg, ei);
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
