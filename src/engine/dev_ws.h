/*
 * The device buffers (cz_groth16_gpu_ws) of one GPU, shared by its GPU workers. A worker takes
 * one for a partition, from its upload to the end of its compute, and gives it back. Workers make
 * them as they need them, one each at most; a device that cannot hold another (the workload's
 * reserve step answers CZ_ENOMEM while others exist: a 32 GiB PoRep key, its matrices and one
 * workspace fill an 80 GB card) keeps those it has, and its workers take turns with them. The
 * first partition that finds a device full pays one failed allocation; the rest wait without
 * trying, so nothing fails and no partition falls back to the host for want of a second
 * workspace.
 */
#ifndef CUZK_ENGINE_DEV_WS_H
#define CUZK_ENGINE_DEV_WS_H

#include <pthread.h>

#include "cuzk/groth16.h"

#define CZ__DEV_WS_MAX                                                                             \
    16 /* the most workers a device can have (daemon: gpu_workers_per_device)                      \
        */

typedef struct cz__dev_ws {
    pthread_mutex_t lock; /* guards the rest */
    pthread_cond_t idle_cv;
    int device;
    int slot;
    int cap;   /* at most this many exist: the workers, lowered when the device is full */
    int made;  /* made and not retired */
    int nidle; /* idle[0..nidle) */
    cz_groth16_gpu_ws *idle[CZ__DEV_WS_MAX];
} cz__dev_ws;

/* workers (1..CZ__DEV_WS_MAX) on CUDA device `device`, engine slot `slot` (for messages). */
void cz__dev_ws_init(cz__dev_ws *s, int device, int slot, int workers);
/* Frees every workspace: call once every worker has given its own back. */
void cz__dev_ws_fini(cz__dev_ws *s);
/* A workspace for one partition: an idle one, else a new one while fewer than cap exist, else
 * waits for one. NULL when a new one cannot be made (the device check failed; logged): the
 * partition then uploads under the device lock, as before workspaces existed. */
cz_groth16_gpu_ws *cz__dev_ws_take(cz__dev_ws *s);
void cz__dev_ws_give(cz__dev_ws *s, cz_groth16_gpu_ws *ws); /* NULL is a no-op */
/* ws (taken) could not get the memory a partition needs: with other workspaces on the device,
 * frees it, lowers the cap to those left (logged with why) and returns 1: take another. With
 * none other, keeps it and returns 0. */
int cz__dev_ws_retire(cz__dev_ws *s, cz_groth16_gpu_ws *ws, const char *why);

#endif
