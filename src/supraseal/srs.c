/*
 * supra_seal's SRS functions (create_SRS, evict_SRS, drop_SRS, clone_SRS) over cuzk's bellperson
 * .params reader, the key cache, the resident GPU keys and the error translation
 * (cuzk/supraseal.h has the semantics, srs.h the ownership rules).
 *
 * Locks. cache_mu protects the cache table (paths and their references); each device slot's mu
 * protects that slot's current key and the reference counts of the keys it made. No code holds
 * two of them at once, and a key object is never freed with cache_mu held: files are read and
 * keys freed outside it, so a slow load or a large free does not stall other lookups.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cuzk/fileio.h"
#include "cuzk/gpu.h"
#include "supraseal/srs.h"

/* One device's resident key. */
typedef struct {
    pthread_mutex_t mu;
    cz__ss_key *cur; /* NULL until the first proof on the device, and after an eviction */
} ss_slot;

struct cz__ss_srs {
    atomic_size_t refs;
    char *path; /* as the caller gave it: the cache's key */
    cz_bellperson_params params;
    int ndev;
    ss_slot *slots; /* ndev */
};

/* The cache: the last CACHE_KEYS keys asked for, most recent first (supra_seal keeps four). */
#define CACHE_KEYS 4
static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;
static cz__ss_srs *cache[CACHE_KEYS];
static size_t ncache;

static pthread_once_t pool_once = PTHREAD_ONCE_INIT;
static cz_threadpool *pool;

static void pool_make(void) {
    if (cz_threadpool_create(&pool, 0, NULL) != CZ_OK)
        pool = NULL;
}

cz_threadpool *cz__ss_pool(void) {
    pthread_once(&pool_once, pool_make);
    return pool;
}

/* Drops the slot's hold on key (under the slot's lock) and frees it when it was the last. */
static void key_unref_locked(cz__ss_key *key) {
    if (key != NULL && --key->refs == 0) {
        cz_groth16_bp_gpu_key_free(key->k);
        free(key);
    }
}

static void srs_free(cz__ss_srs *s) {
    for (int d = 0; d < s->ndev; d++) {
        key_unref_locked(s->slots[d].cur);
        pthread_mutex_destroy(&s->slots[d].mu);
    }
    free(s->slots);
    cz_bellperson_params_free(&s->params);
    free(s->path);
    free(s);
}

void cz__ss_srs_ref(cz__ss_srs *s) {
    atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
}

void cz__ss_srs_unref(cz__ss_srs *s) {
    if (s != NULL && atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) == 1)
        srs_free(s);
}

const cz_bellperson_params *cz__ss_srs_params(const cz__ss_srs *s) {
    return &s->params;
}

int cz__ss_srs_ndev(const cz__ss_srs *s) {
    return s->ndev;
}

/* Reads path into a new key object with one reference. */
static int srs_load(cz__ss_srs **out, const char *path, cz_errinfo *ei) {
    cz_bellperson_read_opts ro = {.check_subgroup = 0, .pool = cz__ss_pool(), .mem = NULL};
    cz__ss_srs *s = calloc(1, sizeof *s);
    int ndev = 0, rc;

    *out = NULL;
    if (s == NULL || (s->path = strdup(path)) == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "cannot allocate the key object");
        goto out;
    }
    atomic_init(&s->refs, 1);
    if ((rc = cz_bellperson_params_read(&s->params, path, &ro, ei)) != CZ_OK)
        goto out;
    /* No device (or no CUDA build) is not an error: the CPU proves. */
    if (cz_gpu_device_count(&ndev, NULL) != CZ_OK)
        ndev = 0;
    if (ndev > 0 && (s->slots = calloc((size_t)ndev, sizeof *s->slots)) == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "cannot allocate the device slots");
        goto out;
    }
    for (; s->ndev < ndev; s->ndev++)
        pthread_mutex_init(&s->slots[s->ndev].mu, NULL);
    *out = s;
    s = NULL;
out:
    if (s != NULL)
        srs_free(s);
    return rc;
}

/* Removes cache entry i, returning its key object for the caller to unref outside the lock. */
static cz__ss_srs *cache_remove_locked(size_t i) {
    cz__ss_srs *s = cache[i];
    memmove(&cache[i], &cache[i + 1], (ncache - i - 1) * sizeof cache[0]);
    cache[--ncache] = NULL;
    return s;
}

static ssize_t cache_find_locked(const char *path) {
    for (size_t i = 0; i < ncache; i++)
        if (strcmp(cache[i]->path, path) == 0)
            return (ssize_t)i;
    return -1;
}

int cz__ss_srs_open(cz__ss_srs **out, const char *path, int use_cache, cz_errinfo *ei) {
    cz__ss_srs *s = NULL, *gone[2] = {NULL, NULL};
    cz_file_id id;
    ssize_t i;
    int rc;

    *out = NULL;
    if (!use_cache)
        return srs_load(out, path, ei);
    if ((rc = cz_file_id_get(&id, path, ei)) != CZ_OK)
        return rc;
    pthread_mutex_lock(&cache_mu);
    i = cache_find_locked(path);
    if (i >= 0 && cz_file_id_same(&cache[i]->params.id, &id)) {
        s = cache_remove_locked((size_t)i);
        memmove(&cache[1], &cache[0], ncache * sizeof cache[0]);
        cache[0] = s;
        ncache++;
        cz__ss_srs_ref(s);
    }
    pthread_mutex_unlock(&cache_mu);
    if (s != NULL) {
        *out = s;
        return CZ_OK;
    }
    if ((rc = srs_load(&s, path, ei)) != CZ_OK)
        return rc;
    /* A changed file, or a load that raced with another, replaces the entry of its path. */
    pthread_mutex_lock(&cache_mu);
    if ((i = cache_find_locked(path)) >= 0)
        gone[0] = cache_remove_locked((size_t)i);
    if (ncache == CACHE_KEYS)
        gone[1] = cache_remove_locked(ncache - 1);
    memmove(&cache[1], &cache[0], ncache * sizeof cache[0]);
    cache[0] = s;
    ncache++;
    cz__ss_srs_ref(s);
    pthread_mutex_unlock(&cache_mu);
    cz__ss_srs_unref(gone[0]);
    cz__ss_srs_unref(gone[1]);
    *out = s;
    return CZ_OK;
}

void cz__ss_srs_evict(cz__ss_srs *s) {
    cz__ss_srs *gone = NULL;
    ssize_t i;

    pthread_mutex_lock(&cache_mu);
    if ((i = cache_find_locked(s->path)) >= 0)
        gone = cache_remove_locked((size_t)i);
    pthread_mutex_unlock(&cache_mu);
    cz__ss_srs_unref(gone);
    for (int d = 0; d < s->ndev; d++) {
        pthread_mutex_lock(&s->slots[d].mu);
        key_unref_locked(s->slots[d].cur);
        s->slots[d].cur = NULL;
        pthread_mutex_unlock(&s->slots[d].mu);
    }
}

int cz__ss_key_take(cz__ss_key **out, cz__ss_srs *s, int dev, const cz_assignment *shape,
                    cz_errinfo *ei) {
    ss_slot *slot = &s->slots[dev];
    cz__ss_key *key = NULL;
    int rc = CZ_OK;

    pthread_mutex_lock(&slot->mu);
    if (slot->cur != NULL && cz_groth16_bp_gpu_key_fits(slot->cur->k, shape)) {
        key = slot->cur;
        key->refs++;
        goto out;
    }
    /* The old key goes first, so that its device memory is free for the new one unless a proof
     * still uses it. */
    key_unref_locked(slot->cur);
    slot->cur = NULL;
    if ((key = calloc(1, sizeof *key)) == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "cannot allocate a device key");
        goto out;
    }
    if ((rc = cz_groth16_bp_gpu_key_create(&key->k, &s->params, shape, dev, ei)) != CZ_OK) {
        free(key);
        key = NULL;
        goto out;
    }
    key->dev = dev;
    key->refs = 2; /* the slot's and the caller's */
    slot->cur = key;
out:
    pthread_mutex_unlock(&slot->mu);
    *out = key;
    return rc;
}

void cz__ss_key_give(cz__ss_srs *s, cz__ss_key *key) {
    pthread_mutex_t *mu;
    if (key == NULL)
        return;
    mu = &s->slots[key->dev].mu; /* before the key may be freed */
    pthread_mutex_lock(mu);
    key_unref_locked(key);
    pthread_mutex_unlock(mu);
}

/* supra_seal's codes are errno values where no CUDA error code applies; so are these. */
static int errno_of(int code) {
    switch (code) {
    case CZ_ENOMEM:
        return ENOMEM;
    case CZ_EIO:
        return EIO;
    case CZ_ERANGE:
        return ERANGE;
    case CZ_ENOGPU:
        return ENODEV;
    case CZ_EGPU:
    case CZ_EDEVICE:
        return EIO;
    case CZ_EUNSUPPORTED:
        return ENOTSUP;
    case CZ_ENOTFOUND:
        return ENOENT;
    case CZ_EBUSY:
        return EBUSY;
    case CZ_ETIMEDOUT:
        return ETIMEDOUT;
    case CZ_ECANCELED:
        return ECANCELED;
    case CZ_EINTERNAL:
        return EFAULT;
    default: /* CZ_EINVAL and the malformed-input codes */
        return EINVAL;
    }
}

cz_supraseal_error cz__ss_error(int code, const char *what, const cz_errinfo *ei) {
    cz_supraseal_error e = {0, NULL};
    const char *msg;
    size_t len;

    if (code == CZ_OK)
        return e;
    msg = ei != NULL && ei->msg[0] != '\0' ? ei->msg : cz_strerror(code);
    e.code = errno_of(code);
    len = strlen(what) + strlen(msg) + 3;
    if ((e.message = malloc(len)) != NULL)
        snprintf(e.message, len, "%s: %s", what, msg);
    return e;
}

cz_supraseal_error create_SRS(cz_supraseal_srs *ret, const char *srs_path, bool cache_it) {
    cz_errinfo ei;
    cz__ss_srs *s = NULL;
    int rc;

    cz_errinfo_clear(&ei);
    if (ret == NULL || srs_path == NULL)
        rc = cz_fail(&ei, CZ_EINVAL, "no %s", ret == NULL ? "handle" : "path");
    else if ((rc = cz__ss_srs_open(&s, srs_path, cache_it, &ei)) == CZ_OK)
        ret->ptr = s;
    return cz__ss_error(rc, "create_SRS", &ei);
}

void evict_SRS(const cz_supraseal_srs *srs) {
    if (srs != NULL && srs->ptr != NULL)
        cz__ss_srs_evict(srs->ptr);
}

void drop_SRS(const cz_supraseal_srs *srs) {
    if (srs != NULL)
        cz__ss_srs_unref(srs->ptr);
}

cz_supraseal_srs clone_SRS(const cz_supraseal_srs *srs) {
    cz_supraseal_srs r = {NULL};
    if (srs != NULL && srs->ptr != NULL) {
        cz__ss_srs_ref(srs->ptr);
        r.ptr = srs->ptr;
    }
    return r;
}
