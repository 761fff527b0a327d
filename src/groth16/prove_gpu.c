/*
 * The Groth16 prover on a CUDA GPU (cz_groth16_prove with opts->use_gpu) and the resident GPU key
 * (cz_groth16_gpu_key): the same proof as the CPU prover (prove_impl.h), byte for byte, for the
 * same r and s. The per-curve prover is prove_gpu_impl.h; this file holds what is not per curve
 * (device checks, named device allocations, the key's lifecycle) and instantiates it.
 *
 * The GPU compute stage (cz_groth16_compute with a key; the other stages are prove.c's): upload
 * a, b and the witness; c = a∘b; for X in a, b, c an inverse NTT and a coset NTT; h = a·b - c;
 * witness -> Montgomery; the G1 MSMs H', A', B1', C' against the resident bases; then, when the key
 * holds the B2 bases and the G2 MSM was not started on the CPU (cz_groth16_g2_start), the G2 MSM
 * B2' on the same device witness. Otherwise the G2 MSM runs on the CPU meanwhile. The blinding
 * combination comes after (cz_groth16_finish).
 *
 * The key's B2 bases (nvars G2 points, 128 / 192 bytes each) are optional: cz_tuning.gpu_g2_on_cpu
 * leaves them off, and a device too full for them (CZ_ENOMEM) gives a key without them and one
 * warning, so the G2 MSM stays on the CPU. Any other failure fails the key as for the G1 bases.
 *
 * Device memory per proof: 3 domain-sized Fr vectors (96 bytes per row) + the witness (32 bytes
 * per signal) + the MSM's own temporaries; the key holds the bases. Host memory: 2 domain-sized
 * vectors for the evaluation, given back as soon as they are on the device (pinned when they come
 * from cz_groth16_prove or the engine's buffer pool, so the async uploads are direct DMA).
 * Everything is freed on every path.
 *
 * Errors never abort: no CUDA build or no device -> CZ_ENOGPU ("prove: --gpu asked but ..."),
 * a device index out of range -> CZ_EINVAL naming the index and the count, device memory
 * exhausted -> CZ_ENOMEM naming the buffer, any other CUDA failure -> CZ_EGPU with its message.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16.h"
#include "cuzk/log.h"
#include "cuzk/msm.h"
#include "cuzk/tuning.h"
#include "curve/ec.h"
#include "field/field.h"
#include "groth16/gpu_util.h"
#include "groth16/pending.h"

/* One allocation holding a | b | c | witness of the proof being computed (prove_gpu_impl.h). */
struct cz_groth16_gpu_ws {
    int dev;
    void *buf;
    size_t cap;
};

/* Bytes of the workspaces allocated on each device, for the room a key leaves for proofs. */
#define WS_DEVICES 64
static _Atomic size_t ws_bytes_on[WS_DEVICES];

static void ws_count(int dev, size_t add, size_t sub) {
    if (dev >= 0 && dev < WS_DEVICES)
        ws_bytes_on[dev] += add - sub; /* modular: the sum of the live workspaces */
}

size_t cz__g16_gpu_ws_bytes_on(int dev) {
    return dev >= 0 && dev < WS_DEVICES ? ws_bytes_on[dev] : 0;
}

struct cz_groth16_gpu_key {
    const cz_zkey *zk;
    int dev;
    cz_gpu_bases *a, *b1, *c, *h;
    cz_gpu_bases *b2; /* NULL: the G2 MSM runs on the CPU */
    size_t bytes;     /* device bytes of the handles */
};

/* Checks that dev names a CUDA device. what prefixes the message ("prove", "gpu key"). */
int cz__g16_gpu_check(int dev, const char *what, cz_errinfo *ei) {
    cz_errinfo sub;
    int count = 0, rc;
    cz_errinfo_clear(&sub);
    rc = cz_gpu_device_count(&count, &sub);
    if (rc != CZ_OK)
        return cz_fail(ei, rc, "%s: --gpu asked but %s", what, sub.msg);
    if (dev < 0 || dev >= count)
        return cz_fail(ei, CZ_EINVAL, "%s: GPU device %d does not exist (%d present, 0..%d)", what,
                       dev, count, count - 1);
    return CZ_OK;
}

/* Renames the error of a failed device call: what was being done, on which device. */
int cz__g16_gpu_wrap(int rc, cz_errinfo *ei, int dev, const char *what, size_t bytes) {
    /* cz_fail keeps the inner message after ours ("outer: inner"). */
    if (rc == CZ_OK)
        return rc;
    if (rc == CZ_ENOMEM)
        return cz_fail(ei, rc, "GPU %d out of memory for %s (%zu MiB)", dev, what, bytes >> 20);
    return cz_fail(ei, rc, "GPU %d: %s", dev, what);
}

/* Whether a key gets its B2 bases on the device (cz_tuning.gpu_g2_on_cpu: no). */
int cz__g16_gpu_g2_wanted(void) {
    cz_tuning tu;
    cz_tuning_get(&tu);
    return !tu.gpu_g2_on_cpu;
}

/* The outcome of making the B2 bases: CZ_ENOMEM leaves the key without them (the G2 MSM stays
 * on the CPU) with a warning; other errors fail the key. */
static int gpu_key_g2_done(cz_groth16_gpu_key *k, int rc, cz_errinfo *ei) {
    if (rc == CZ_ENOMEM) {
        CZ_LOG_WARN("gpu key: the G2 MSM stays on the CPU: %s", ei != NULL ? ei->msg : "");
        cz_errinfo_clear(ei);
        cz_gpu_bases_free(k->b2);
        k->b2 = NULL;
        return CZ_OK;
    }
    if (rc == CZ_OK)
        k->bytes += cz_gpu_bases_bytes(k->b2);
    return rc;
}

/* k->bytes += the device bytes of the four G1 handles (sparse ones count what they store). */
static void gpu_key_count_g1(cz_groth16_gpu_key *k) {
    k->bytes += cz_gpu_bases_bytes(k->a) + cz_gpu_bases_bytes(k->b1) + cz_gpu_bases_bytes(k->c) +
                cz_gpu_bases_bytes(k->h);
}

/* A device buffer named what for the error message. */
int cz__g16_gpu_alloc(void **d, size_t bytes, int dev, const char *what, cz_errinfo *ei) {
    return cz__g16_gpu_wrap(cz_gpu_alloc(d, bytes, dev, ei), ei, dev, what, bytes);
}

/* *out = a zeroed host object of size bytes for device dev, once dev is checked; what names it
 * in messages ("gpu key", "gpu workspace"). */
static int gpu_object_new(void **out, size_t size, int dev, const char *what, cz_errinfo *ei) {
    int rc;
    *out = NULL;
    if ((rc = cz__g16_gpu_check(dev, what, ei)) != CZ_OK)
        return rc;
    if ((*out = calloc(1, size)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "%s: cannot allocate it", what);
    return CZ_OK;
}

int cz_groth16_gpu_ws_create(cz_groth16_gpu_ws **out, int dev, cz_errinfo *ei) {
    void *p;
    int rc = gpu_object_new(&p, sizeof **out, dev, "gpu workspace", ei);
    *out = p;
    if (rc == CZ_OK)
        (*out)->dev = dev;
    return rc;
}

void cz_groth16_gpu_ws_free(cz_groth16_gpu_ws *ws) {
    if (ws == NULL)
        return;
    cz_gpu_free(ws->buf, ws->dev);
    ws_count(ws->dev, 0, ws->cap);
    free(ws);
}

size_t cz_groth16_gpu_ws_bytes(const cz_groth16_gpu_ws *ws) {
    return ws != NULL ? ws->cap : 0;
}

int cz__groth16_gpu_ws_device(const cz_groth16_gpu_ws *ws) {
    return ws->dev;
}

void *cz__g16_gpu_ws_buf(const cz_groth16_gpu_ws *ws) {
    return ws->buf;
}

/* One free and one allocation when ws grows, nothing otherwise. */
int cz_groth16_gpu_ws_reserve(cz_groth16_gpu_ws *ws, size_t bytes, cz_errinfo *ei) {
    int rc;
    if (ws->cap >= bytes)
        return CZ_OK;
    cz_gpu_free(ws->buf, ws->dev);
    ws_count(ws->dev, 0, ws->cap);
    ws->buf = NULL;
    ws->cap = 0;
    if ((rc = cz__g16_gpu_alloc(&ws->buf, bytes, ws->dev, "the vectors a, b, c and the witness",
                                ei)) == CZ_OK) {
        ws->cap = bytes;
        ws_count(ws->dev, bytes, 0);
    }
    return rc;
}

#define CURVE bn254
#include "groth16/prove_gpu_impl.h"
#undef CURVE
#define CURVE bls12381
#include "groth16/prove_gpu_impl.h"
#undef CURVE

void cz_groth16_gpu_key_free(cz_groth16_gpu_key *k) {
    if (k == NULL)
        return;
    cz_gpu_bases_free(k->a);
    cz_gpu_bases_free(k->b1);
    cz_gpu_bases_free(k->c);
    cz_gpu_bases_free(k->h);
    cz_gpu_bases_free(k->b2);
    free(k);
}

int cz_groth16_gpu_key_device(const cz_groth16_gpu_key *k) {
    return k->dev;
}

const cz_zkey *cz__groth16_gpu_key_zkey(const cz_groth16_gpu_key *k) {
    return k->zk;
}

size_t cz_groth16_gpu_key_bytes(const cz_groth16_gpu_key *k) {
    return k != NULL ? k->bytes : 0;
}

int cz_groth16_gpu_key_has_g2(const cz_groth16_gpu_key *k) {
    return k != NULL && k->b2 != NULL;
}

/* A key with its device checked and nothing on it yet; the callers fill in the bases. */
static int gpu_key_new(cz_groth16_gpu_key **out, const cz_zkey *zk, int dev, cz_errinfo *ei) {
    void *p;
    int rc = gpu_object_new(&p, sizeof **out, dev, "gpu key", ei);
    *out = p;
    if (rc == CZ_OK) {
        (*out)->zk = zk;
        (*out)->dev = dev;
    }
    return rc;
}

/* Hands k out on success, frees it on failure. */
static int gpu_key_done(cz_groth16_gpu_key **out, cz_groth16_gpu_key *k, int rc) {
    if (rc != CZ_OK) {
        cz_groth16_gpu_key_free(k);
        return rc;
    }
    *out = k;
    return CZ_OK;
}

int cz_groth16_gpu_key_create(cz_groth16_gpu_key **out, const cz_zkey *zk, int dev,
                              cz_errinfo *ei) {
    cz_groth16_gpu_key *k;
    int rc;
    *out = NULL;
    if ((rc = gpu_key_new(&k, zk, dev, ei)) != CZ_OK)
        return rc;
    if (zk->curve == CZ_CURVE_BN254)
        rc = bn254_gpu_key_upload(k, zk, ei);
    else
        rc = bls12381_gpu_key_upload(k, zk, ei);
    return gpu_key_done(out, k, rc);
}

int cz_groth16_gpu_key_create_progression(cz_groth16_gpu_key **out, const cz_zkey *zk,
                                          const void *p0, const void *step, int dev,
                                          cz_errinfo *ei) {
    cz_groth16_gpu_key *k;
    int rc;
    *out = NULL;
    if ((rc = gpu_key_new(&k, zk, dev, ei)) != CZ_OK)
        return rc;
    if (zk->curve == CZ_CURVE_BN254)
        rc = bn254_gpu_key_progression(k, zk, p0, step, ei);
    else
        rc = bls12381_gpu_key_progression(k, zk, p0, step, ei);
    return gpu_key_done(out, k, rc);
}
