/*
 * The daemon's Filecoin proofs: circuits per shape, keys by their Filecoin names with the
 * manifest's digest, PoSt and PoRep requests into workloads (filecoin.h).
 *
 * One table of entries, one per key file (a shape has one file): the circuit and the trust
 * verdict of that file. Each is made by the first request that needs it, outside the lock, with a
 * busy flag set; requests for the same entry wait on the condition variable, requests for other
 * entries do not wait at all. A failed build leaves nothing behind: the next request tries again.
 */
#include "daemon/filecoin.h"

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/fileio.h"
#include "cuzk/log.h"
#include "cuzk/params.h"
#include "cuzk/workload.h"
#include "daemon/keydigests.h"
#include "daemon/service.h"

#define MAX_ENTRIES 32 /* the manifest's PoSt, PoRep and update keys fit */

typedef struct entry {
    const cz_param_file *file;
    cz_post_circuit *circuit; /* a PoSt key's, or */
    cz_porep_circuit *porep;  /* a PoRep key's, or */
    cz_snap_circuit *snap;    /* an update key's */
    int circuit_busy;
    /* trust: the verdict for the file as it was when hashed */
    int trust_busy, checked, trusted;
    cz_file_id id;
    char digest[CZ_PARAM_DIGEST_HEX + 1];
} entry;

struct cz_daemon_filecoin {
    char *param_dir;
    char *digest_store; /* keydigests.h; NULL: every start hashes the keys */
    int allow_untrusted;
    int abc_on_gpu; /* PoRep's and SnapDeals' a, b, c computed on the GPU */
    cz_srs *srs;
    cz_threadpool *pool;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    entry e[MAX_ENTRIES];
    size_t n;
};

int cz_daemon_filecoin_create(cz_daemon_filecoin **out, const char *param_dir, int allow_untrusted,
                              const char *digest_store, int abc_on_gpu, cz_srs *srs,
                              cz_threadpool *pool, cz_errinfo *ei) {
    cz_daemon_filecoin *f = calloc(1, sizeof *f);
    *out = NULL;
    if (f == NULL || (f->param_dir = strdup(param_dir != NULL ? param_dir : "")) == NULL ||
        (digest_store != NULL && (f->digest_store = strdup(digest_store)) == NULL)) {
        if (f != NULL)
            free(f->param_dir);
        free(f);
        return cz_fail(ei, CZ_ENOMEM, "filecoin: out of memory");
    }
    f->allow_untrusted = allow_untrusted;
    f->abc_on_gpu = abc_on_gpu;
    f->srs = srs;
    f->pool = pool;
    pthread_mutex_init(&f->lock, NULL);
    pthread_cond_init(&f->changed, NULL);
    *out = f;
    return CZ_OK;
}

void cz_daemon_filecoin_destroy(cz_daemon_filecoin *f) {
    if (f == NULL)
        return;
    for (size_t i = 0; i < f->n; i++) {
        cz_post_circuit_free(f->e[i].circuit);
        cz_porep_circuit_free(f->e[i].porep);
        cz_snap_circuit_free(f->e[i].snap);
    }
    pthread_mutex_destroy(&f->lock);
    pthread_cond_destroy(&f->changed);
    free(f->param_dir);
    free(f->digest_store);
    free(f);
}

/* The entry of file (made when missing), under the lock; NULL when the table is full. */
static entry *entry_of(cz_daemon_filecoin *f, const cz_param_file *file) {
    for (size_t i = 0; i < f->n; i++)
        if (f->e[i].file == file)
            return &f->e[i];
    if (f->n == MAX_ENTRIES)
        return NULL;
    memset(&f->e[f->n], 0, sizeof f->e[f->n]);
    f->e[f->n].file = file;
    return &f->e[f->n++];
}

/* Takes the lock and returns the entry of file once nobody makes its circuit (trust 0) or its
 * verdict (trust 1); NULL, unlocked, when the table is full. */
static entry *entry_lock(cz_daemon_filecoin *f, const cz_param_file *file, int trust,
                         cz_errinfo *ei) {
    entry *e;
    pthread_mutex_lock(&f->lock);
    if ((e = entry_of(f, file)) == NULL) {
        pthread_mutex_unlock(&f->lock);
        cz_fail(ei, CZ_EINTERNAL, "filecoin: more than %d key files", MAX_ENTRIES);
        return NULL;
    }
    while (trust ? e->trust_busy : e->circuit_busy)
        pthread_cond_wait(&f->changed, &f->lock);
    return e;
}

typedef enum { CIRCUIT_POST, CIRCUIT_POREP, CIRCUIT_SNAP } circuit_kind;

/* e's circuit of kind (NULL: not made yet). */
static void *circuit_of(const entry *e, circuit_kind kind) {
    return kind == CIRCUIT_POST    ? (void *)e->circuit
           : kind == CIRCUIT_POREP ? (void *)e->porep
                                   : (void *)e->snap;
}

/* Makes the circuit of kind for registered_proof (outside the lock). */
static int circuit_make(void **out, circuit_kind kind, const cz_daemon_filecoin *f,
                        uint64_t registered_proof, cz_errinfo *ei) {
    cz_post_circuit *post = NULL;
    cz_porep_circuit *porep = NULL;
    cz_snap_circuit *snap = NULL;
    int rc;
    if (kind == CIRCUIT_POST)
        rc = cz_post_circuit_create(&post, registered_proof, f->pool, ei);
    else if (kind == CIRCUIT_POREP)
        rc = cz_porep_circuit_create(&porep, registered_proof, f->pool, ei);
    else
        rc = cz_snap_circuit_create(&snap, registered_proof, f->pool, ei);
    if (porep != NULL)
        cz_porep_circuit_abc_on_gpu(porep, f->abc_on_gpu);
    if (snap != NULL)
        cz_snap_circuit_abc_on_gpu(snap, f->abc_on_gpu);
    *out = post != NULL ? (void *)post : porep != NULL ? (void *)porep : (void *)snap;
    return rc;
}

/* The recorded circuit of kind for registered_proof's shape (file), made on first use. */
static int circuit_get(const void **out, circuit_kind kind, cz_daemon_filecoin *f,
                       const cz_param_file *file, uint64_t registered_proof, cz_errinfo *ei) {
    entry *e;
    int rc = CZ_OK;
    if ((e = entry_lock(f, file, 0, ei)) == NULL)
        return CZ_EINTERNAL;
    if (circuit_of(e, kind) == NULL) {
        void *made = NULL;
        e->circuit_busy = 1;
        pthread_mutex_unlock(&f->lock);
        uint64_t t0 = cz_clock_now_ms();
        rc = circuit_make(&made, kind, f, registered_proof, ei);
        if (rc == CZ_OK)
            CZ_LOG_INFO("cuzk-daemon: circuit of %s recorded in %llu ms", file->name,
                        (unsigned long long)(cz_clock_now_ms() - t0));
        pthread_mutex_lock(&f->lock);
        if (kind == CIRCUIT_POST)
            e->circuit = made;
        else if (kind == CIRCUIT_POREP)
            e->porep = made;
        else
            e->snap = made;
        e->circuit_busy = 0;
        pthread_cond_broadcast(&f->changed);
    }
    *out = circuit_of(e, kind);
    pthread_mutex_unlock(&f->lock);
    return rc;
}

/* Whether the key at path (file of the manifest) may be used: its digest, computed once per file
 * identity, against the manifest's. CZ_OK (trusted, or allowed untrusted), CZ_EVERIFY (refused),
 * or the file's error (CZ_EIO naming it). */
static int key_trust(cz_daemon_filecoin *f, const cz_param_file *file, const char *path,
                     cz_errinfo *ei) {
    cz_file_id now;
    entry *e;
    int rc;
    if ((rc = cz_file_id_get(&now, path, ei)) != CZ_OK)
        return rc;
    if ((e = entry_lock(f, file, 1, ei)) == NULL)
        return CZ_EINTERNAL;
    if (!e->checked || !cz_file_id_same(&e->id, &now)) {
        char digest[CZ_PARAM_DIGEST_HEX + 1];
        struct stat version;
        const int keep = f->digest_store != NULL && cz_daemon_key_version(&version, path) == 0;
        int remembered;
        e->trust_busy = 1;
        pthread_mutex_unlock(&f->lock);
        uint64_t t0 = cz_clock_now_ms();
        remembered = keep && cz_daemon_key_digest_find(digest, f->digest_store, path, &version);
        rc = remembered ? CZ_OK : cz_params_digest_file(digest, NULL, path, NULL, NULL, ei);
        pthread_mutex_lock(&f->lock);
        e->trust_busy = 0;
        pthread_cond_broadcast(&f->changed);
        if (rc != CZ_OK) {
            e->checked = 0;
            pthread_mutex_unlock(&f->lock);
            return rc;
        }
        if (keep && !remembered) {
            cz_errinfo sei;
            cz_errinfo_clear(&sei);
            if (cz_daemon_key_digest_store(f->digest_store, path, &version, digest, &sei) != CZ_OK)
                CZ_LOG_WARN("cuzk-daemon: key %s: its digest is not remembered: %s", path, sei.msg);
        }
        e->checked = 1;
        e->id = now;
        e->trusted = strcmp(digest, file->digest) == 0;
        memcpy(e->digest, digest, sizeof digest);
        if (e->trusted)
            CZ_LOG_INFO("cuzk-daemon: key %s: digest %s is the manifest's (%s, %llu ms)", path,
                        digest, remembered ? "remembered" : "hashed",
                        (unsigned long long)(cz_clock_now_ms() - t0));
        else if (f->allow_untrusted)
            CZ_LOG_WARN("cuzk-daemon: key %s: UNTRUSTED, used because srs.allow_untrusted = true: "
                        "its digest %s (%s, %llu ms) is not the manifest's %s, so its proofs do "
                        "not verify on chain",
                        path, digest, remembered ? "remembered" : "hashed",
                        (unsigned long long)(cz_clock_now_ms() - t0), file->digest);
        else
            CZ_LOG_ERROR("cuzk-daemon: key %s: refused: its digest %s is not the manifest's %s "
                         "(a local test key needs srs.allow_untrusted = true)",
                         path, digest, file->digest);
    }
    rc = e->trusted || f->allow_untrusted
             ? CZ_OK
             : cz_fail(ei, CZ_EVERIFY,
                       "key %s: its digest %s is not the manifest's %s; a local test key needs "
                       "srs.allow_untrusted = true",
                       path, e->digest, file->digest);
    pthread_mutex_unlock(&f->lock);
    return rc;
}

int cz_daemon_filecoin_key_check(cz_daemon_filecoin *f, const char *path, cz_errinfo *ei) {
    const char *slash = strrchr(path, '/'), *base = slash != NULL ? slash + 1 : path;
    const cz_param_file *file = cz_params_find(NULL, base);
    if (file == NULL || file->ext != CZ_PARAM_EXT_PARAMS)
        return CZ_OK; /* not one of Filecoin's keys */
    return key_trust(f, file, path, ei);
}

/* The request's own checks: kind, sector size, randomness. */
static int request_check(const cz_param_file **file, int *winning,
                         const Cuzk__V1__SubmitProofRequest *r, cz_errinfo *ei) {
    int want_winning = r->proof_kind == CUZK__V1__PROOF_KIND__WINNING_POST;
    int rc = cz_post_params_file(file, winning, r->registered_proof, ei);
    if (rc != CZ_OK)
        return rc;
    if (*winning != want_winning)
        return cz_fail(ei, CZ_EINVAL, "registered proof %llu is a %s, the request is %s",
                       (unsigned long long)r->registered_proof,
                       *winning ? "WinningPoSt" : "WindowPoSt",
                       want_winning ? "WINNING_POST" : "WINDOW_POST_PARTITION");
    if (r->sector_size != 0 && r->sector_size != (*file)->sector_size)
        return cz_fail(ei, CZ_EINVAL,
                       "sector_size %llu is not the registered proof's (%llu bytes for %llu)",
                       (unsigned long long)r->sector_size, (unsigned long long)(*file)->sector_size,
                       (unsigned long long)r->registered_proof);
    if (r->randomness.len != 32)
        return cz_fail(ei, CZ_EINVAL, "randomness has %zu bytes, not 32", r->randomness.len);
    if (r->n_vanilla_proofs == 0)
        return cz_fail(ei, CZ_EINVAL, "no vanilla_proofs");
    if (*winning && r->partition_index != 0)
        return cz_fail(ei, CZ_EINVAL, "partition_index %u for a WinningPoSt (it has one)",
                       r->partition_index);
    return CZ_OK;
}

/* The key file of file in the parameter directory (path, sizeof path ≥ 4096), its trust
 * checked: 0, or the gRPC status (ei says why). */
static int key_path_trusted(char *path, size_t cap, cz_daemon_filecoin *f,
                            const cz_param_file *file, cz_errinfo *ei) {
    int rc;
    if (f->param_dir[0] == '\0') {
        cz_fail(ei, CZ_EINVAL, "no parameter directory (srs.param_cache) for the key %s",
                file->name);
        return CZ_RPC_FAILED_PRECONDITION;
    }
    if ((size_t)snprintf(path, cap, "%s/%s", f->param_dir, file->name) >= cap) {
        cz_fail(ei, CZ_EINVAL, "srs.param_cache is longer than %zu bytes", cap - 100);
        return CZ_RPC_FAILED_PRECONDITION;
    }
    if ((rc = key_trust(f, file, path, ei)) != CZ_OK)
        return rc == CZ_ENOMEM ? CZ_RPC_RESOURCE_EXHAUSTED : CZ_RPC_FAILED_PRECONDITION;
    return 0;
}

/* The key at path from the SRS manager (*load_ms: how long that took): 0, or the gRPC status. */
static int key_acquire(cz_srs_key **key, uint64_t *load_ms, cz_daemon_filecoin *f, const char *path,
                       cz_errinfo *ei) {
    const uint64_t t0 = cz_clock_now_ms();
    int rc = cz_srs_acquire(key, f->srs, path, &cz_srs_loader_params, ei);
    *load_ms = cz_clock_now_ms() - t0;
    if (rc == CZ_OK)
        return 0;
    return rc == CZ_ERANGE || rc == CZ_ENOMEM ? CZ_RPC_RESOURCE_EXHAUSTED
                                              : CZ_RPC_FAILED_PRECONDITION;
}

/* The gRPC status of a workload's refusal. */
static int workload_status(int rc) {
    return rc == CZ_OK          ? 0
           : rc == CZ_ENOMEM    ? CZ_RPC_RESOURCE_EXHAUSTED
           : rc == CZ_EINTERNAL ? CZ_RPC_INTERNAL
                                : CZ_RPC_INVALID_ARGUMENT;
}

/* The request's vanilla proofs as the Filecoin requests take them: (*bytes)[i] and (*lens)[i]
 * point into r (free both arrays). 0, or the gRPC status. */
static int vanilla_views(const uint8_t ***bytes, size_t **lens,
                         const Cuzk__V1__SubmitProofRequest *r, cz_errinfo *ei) {
    const size_t n = r->n_vanilla_proofs;
    *bytes = calloc(n ? n : 1, sizeof **bytes);
    *lens = calloc(n ? n : 1, sizeof **lens);
    if (*bytes == NULL || *lens == NULL) {
        free(*bytes);
        free(*lens);
        cz_fail(ei, CZ_ENOMEM, "filecoin: %zu vanilla proofs", n);
        return CZ_RPC_RESOURCE_EXHAUSTED;
    }
    for (size_t i = 0; i < n; i++) {
        (*bytes)[i] = r->vanilla_proofs[i].data;
        (*lens)[i] = r->vanilla_proofs[i].len;
    }
    return 0;
}

/* Whether key is a key of circuit c of kind (its inputs and sizes). */
static int circuit_key_check(const void *c, circuit_kind kind, const cz_srs_key *key,
                             cz_errinfo *ei) {
    const cz_bellperson_params *k = cz_srs_key_data(key);
    return kind == CIRCUIT_POST    ? cz_post_circuit_key_check(c, k, ei)
           : kind == CIRCUIT_POREP ? cz_porep_circuit_key_check(c, k, ei)
                                   : cz_snap_circuit_key_check(c, k, ei);
}

/* The circuit of kind for registered_proof (file) in *c and its key in *key: the key file's
 * trust first, then the circuit (recorded on first use), the key from the SRS manager (*load_ms)
 * and the check that it is the circuit's key. 0 (release *key), or the gRPC status. */
static int circuit_and_key(const void **c, cz_srs_key **key, uint64_t *load_ms, circuit_kind kind,
                           cz_daemon_filecoin *f, const cz_param_file *file,
                           uint64_t registered_proof, cz_errinfo *ei) {
    char path[4096];
    int rc, status;
    if ((status = key_path_trusted(path, sizeof path, f, file, ei)) != 0)
        return status;
    if ((rc = circuit_get(c, kind, f, file, registered_proof, ei)) != CZ_OK)
        return rc == CZ_ENOMEM ? CZ_RPC_RESOURCE_EXHAUSTED : CZ_RPC_INTERNAL;
    if ((status = key_acquire(key, load_ms, f, path, ei)) != 0)
        return status;
    if ((rc = circuit_key_check(*c, kind, *key, ei)) != CZ_OK) {
        cz_srs_release(*key);
        *key = NULL;
        cz_fail(ei, rc, "key %s", path);
        return CZ_RPC_FAILED_PRECONDITION;
    }
    return 0;
}

static int post_workload(cz_workload *wl, cz_priority *prio, uint64_t *load_ms,
                         cz_daemon_filecoin *f, const Cuzk__V1__SubmitProofRequest *r,
                         cz_errinfo *ei) {
    const cz_param_file *file = NULL;
    const cz_post_circuit *c = NULL;
    cz_srs_key *key = NULL;
    cz_post_request rq;
    const uint8_t **bytes = NULL;
    size_t *lens = NULL;
    int winning = 0, rc, status;
    if ((rc = request_check(&file, &winning, r, ei)) != CZ_OK)
        return rc == CZ_EINTERNAL ? CZ_RPC_INTERNAL : CZ_RPC_INVALID_ARGUMENT;
    *prio = winning ? CZ_PRIO_CRITICAL : CZ_PRIO_HIGH;
    if ((status = circuit_and_key((const void **)&c, &key, load_ms, CIRCUIT_POST, f, file,
                                  r->registered_proof, ei)) != 0)
        return status;
    if ((status = vanilla_views(&bytes, &lens, r, ei)) != 0) {
        cz_srs_release(key);
        return status;
    }
    memset(&rq, 0, sizeof rq);
    rq.registered_proof = r->registered_proof;
    memcpy(rq.randomness, r->randomness.data, 32);
    rq.partition = r->partition_index;
    rq.vanilla = bytes;
    rq.vanilla_len = lens;
    rq.nvanilla = r->n_vanilla_proofs;
    /* the workload owns key from here, also when it fails */
    rc = cz_workload_post(wl, c, key, &rq, NULL, ei);
    free(bytes);
    free(lens);
    return workload_status(rc);
}

static int porep_workload(cz_workload *wl, cz_priority *prio, uint64_t *load_ms,
                          cz_daemon_filecoin *f, const Cuzk__V1__SubmitProofRequest *r,
                          cz_errinfo *ei) {
    const cz_param_file *file = NULL;
    const cz_porep_circuit *c = NULL;
    cz_porep_input *in = NULL;
    cz_srs_key *key = NULL;
    cz_porep_request rq;
    int rc, status;
    *prio = CZ_PRIO_NORMAL; /* below both PoSts */
    if ((rc = cz_porep_params_file(&file, r->registered_proof, ei)) != CZ_OK)
        return rc == CZ_EINTERNAL ? CZ_RPC_INTERNAL : CZ_RPC_INVALID_ARGUMENT;
    if (r->sector_size != 0 && r->sector_size != file->sector_size) {
        cz_fail(ei, CZ_EINVAL,
                "sector_size %llu is not the registered proof's (%llu bytes for %llu)",
                (unsigned long long)r->sector_size, (unsigned long long)file->sector_size,
                (unsigned long long)r->registered_proof);
        return CZ_RPC_INVALID_ARGUMENT;
    }
    if (r->vanilla_proof.len == 0) {
        cz_fail(ei, CZ_EINVAL, "no vanilla_proof (the C1 output)");
        return CZ_RPC_INVALID_ARGUMENT;
    }
    /* the C1 first: a bad one costs no key load (50 GB at 32 GiB) */
    rq = (cz_porep_request){r->registered_proof, r->miner_id, r->sector_number,
                            r->vanilla_proof.data, r->vanilla_proof.len};
    if ((rc = cz_porep_input_load(&in, &rq, f->pool, ei)) != CZ_OK)
        return workload_status(rc);
    if ((status = circuit_and_key((const void **)&c, &key, load_ms, CIRCUIT_POREP, f, file,
                                  r->registered_proof, ei)) != 0)
        goto fail;
    /* the workload owns key and in from here, also when it fails */
    return workload_status(cz_workload_porep(wl, c, key, in, NULL, ei));
fail:
    cz_porep_input_free(in);
    return status;
}

static int snap_workload(cz_workload *wl, cz_priority *prio, uint64_t *load_ms,
                         cz_daemon_filecoin *f, const Cuzk__V1__SubmitProofRequest *r,
                         cz_errinfo *ei) {
    static const char *const names[3] = {"comm_r_old", "comm_d_new", "comm_r_new"};
    const ProtobufCBinaryData *comm[3] = {&r->comm_r_old, &r->comm_d_new, &r->comm_r_new};
    const cz_param_file *file = NULL;
    const cz_snap_circuit *c = NULL;
    cz_snap_input *in = NULL;
    cz_srs_key *key = NULL;
    cz_snap_request rq;
    const uint8_t **bytes = NULL;
    size_t *lens = NULL;
    int rc, status;
    *prio = CZ_PRIO_NORMAL; /* below both PoSts, as PoRep */
    if ((rc = cz_snap_params_file(&file, r->registered_proof, ei)) != CZ_OK)
        return rc == CZ_EINTERNAL ? CZ_RPC_INTERNAL : CZ_RPC_INVALID_ARGUMENT;
    memset(&rq, 0, sizeof rq);
    rq.registered_proof = r->registered_proof;
    for (int i = 0; i < 3; i++) {
        if (comm[i]->len != 32) {
            cz_fail(ei, CZ_EINVAL, "%s has %zu bytes, not 32", names[i], comm[i]->len);
            return CZ_RPC_INVALID_ARGUMENT;
        }
    }
    memcpy(rq.comm_r_old, r->comm_r_old.data, 32);
    memcpy(rq.comm_d_new, r->comm_d_new.data, 32);
    memcpy(rq.comm_r_new, r->comm_r_new.data, 32);
    if ((status = vanilla_views(&bytes, &lens, r, ei)) != 0)
        return status;
    rq.vanilla = bytes;
    rq.vanilla_len = lens;
    rq.nvanilla = r->n_vanilla_proofs;
    /* the vanilla proofs first: bad ones cost no key load */
    rc = cz_snap_input_load(&in, &rq, f->pool, ei);
    free(bytes);
    free(lens);
    if (rc != CZ_OK)
        return workload_status(rc);
    if ((status = circuit_and_key((const void **)&c, &key, load_ms, CIRCUIT_SNAP, f, file,
                                  r->registered_proof, ei)) != 0)
        goto fail;
    /* the workload owns key and in from here, also when it fails */
    return workload_status(cz_workload_snap(wl, c, key, in, NULL, ei));
fail:
    cz_snap_input_free(in);
    return status;
}

int cz_daemon_filecoin_workload(cz_workload *wl, cz_priority *prio, uint64_t *load_ms,
                                cz_daemon_filecoin *f, const Cuzk__V1__SubmitProofRequest *r,
                                cz_errinfo *ei) {
    *load_ms = 0;
    if (r->proof_kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT)
        return porep_workload(wl, prio, load_ms, f, r, ei);
    if (r->proof_kind == CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE)
        return snap_workload(wl, prio, load_ms, f, r, ei);
    return post_workload(wl, prio, load_ms, f, r, ei);
}

char *cz_daemon_filecoin_status_json(cz_daemon_filecoin *f) {
    json_t *o = json_object(), *keys = json_array();
    char *out = NULL;
    int bad = o == NULL || keys == NULL;
    pthread_mutex_lock(&f->lock);
    for (size_t i = 0; !bad && i < f->n; i++) {
        const entry *e = &f->e[i];
        json_t *k;
        if (!e->checked)
            continue;
        k = json_pack("{s:s, s:s, s:s, s:b}", "file", e->file->name, "digest", e->digest,
                      "manifest_digest", e->file->digest, "trusted", e->trusted);
        bad = k == NULL || json_array_append_new(keys, k) != 0;
    }
    pthread_mutex_unlock(&f->lock);
    if (!bad)
        bad = json_object_set_new(o, "param_dir", json_string(f->param_dir)) != 0 ||
              json_object_set_new(o, "allow_untrusted", json_boolean(f->allow_untrusted)) != 0 ||
              json_object_set(o, "keys", keys) != 0;
    if (!bad)
        out = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(keys);
    json_decref(o);
    return out;
}
