/*
 * The workspaces a GPU's workers share (src/engine/dev_ws.h), on GPU 0 (skipped without one),
 * through the engine with a fake workload whose reserve step stands for the device's memory:
 *   - room for every worker: each partition uploads and computes in one workspace that no other
 *     partition uses meanwhile, at most one per worker exists, and every job's proofs are right;
 *   - room for one (reserve refuses every workspace but the first it sees): every partition
 *     still completes, all in that one workspace, never two at once, and the device pays one
 *     refusal per extra worker (the cap is lowered, later partitions wait without trying);
 *   - no room at all (every reserve refused): the only workspace is kept, upload gets it (its own
 *     fallback would follow), and the jobs complete.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/gpu.h"
#include "cuzk/pipeline.h"
#include "test.h"

enum { ROOM_ALL, ROOM_ONE, ROOM_NONE };
enum { WORKERS = 3, JOBS = 3, PARTS = 6, MAX_WS = 8 };

static int g_room;
static atomic_int g_refused;
static pthread_mutex_t g_m = PTHREAD_MUTEX_INITIALIZER;
static const void *g_first;         /* the first workspace reserve saw (g_m) */
static const void *g_seen[MAX_WS];  /* distinct workspaces of uploads (g_m) */
static int g_nseen, g_busy[MAX_WS]; /* a partition between upload and compute's end (g_m) */
static int g_overlap, g_wrong_ws;   /* violations seen (g_m) */

typedef struct part {
    int job;
    uint32_t p;
    const void *ws; /* where it uploaded */
} part;

static int seen_index(const void *ws) { /* under g_m */
    for (int i = 0; i < g_nseen; i++)
        if (g_seen[i] == ws)
            return i;
    if (g_nseen == MAX_WS)
        return -1;
    g_seen[g_nseen] = ws;
    return g_nseen++;
}

static int f_synth(void **out, void *ctx, uint32_t p, const cz_part_env *env, cz_part_times *t,
                   cz_errinfo *ei) {
    part *pt = calloc(1, sizeof *pt);
    (void)env;
    (void)t;
    if (pt == NULL)
        return cz_fail(ei, CZ_ENOMEM, "fake");
    pt->job = *(int *)ctx;
    pt->p = p;
    *out = pt;
    return CZ_OK;
}

static int f_prepare(void *vp, void *ctx, const cz_engine_device *dev, cz_part_times *t,
                     cz_errinfo *ei) {
    (void)vp, (void)ctx, (void)dev, (void)t, (void)ei;
    return CZ_OK;
}

static int f_reserve(void *ctx, const cz_engine_device *dev, cz_errinfo *ei) {
    int refuse;
    (void)ctx;
    pthread_mutex_lock(&g_m);
    if (g_first == NULL)
        g_first = dev->ws;
    refuse = g_room == ROOM_NONE || (g_room == ROOM_ONE && dev->ws != g_first);
    pthread_mutex_unlock(&g_m);
    if (!refuse)
        return CZ_OK;
    atomic_fetch_add(&g_refused, 1);
    return cz_fail(ei, CZ_ENOMEM, "fake: no device memory for another workspace");
}

static int f_upload(void *vp, void *ctx, const cz_engine_device *dev, cz_part_times *t,
                    cz_errinfo *ei) {
    part *pt = vp;
    int i;
    (void)ctx;
    (void)t;
    if (dev->ws == NULL)
        return cz_fail(ei, CZ_EINTERNAL, "fake: upload without a workspace");
    pthread_mutex_lock(&g_m);
    i = seen_index(dev->ws);
    if (i < 0 || g_busy[i]++ != 0)
        g_overlap++;
    if (g_room == ROOM_ONE && dev->ws != g_first)
        g_wrong_ws++;
    pthread_mutex_unlock(&g_m);
    pt->ws = dev->ws;
    usleep(2000); /* an upload takes a while: a second partition in the same buffers shows */
    return CZ_OK;
}

static int f_compute(void *vp, void *ctx, const cz_engine_device *dev, cz_part_times *t,
                     cz_errinfo *ei) {
    part *pt = vp;
    int i;
    (void)ctx;
    (void)t;
    if (dev->ws != pt->ws)
        return cz_fail(ei, CZ_EINTERNAL, "fake: computed in another workspace than uploaded");
    usleep(3000);
    pthread_mutex_lock(&g_m);
    i = seen_index(dev->ws);
    if (i >= 0)
        g_busy[i]--;
    pthread_mutex_unlock(&g_m);
    return CZ_OK;
}

/* A partition's "proof": its job and number in A's first bytes. */
static int f_finish(cz_groth16_proof *proof, void *vp, void *ctx, cz_part_times *t,
                    cz_errinfo *ei) {
    part *pt = vp;
    (void)ctx, (void)t, (void)ei;
    memset(proof, 0, sizeof *proof);
    proof->curve = CZ_CURVE_BN254;
    memcpy(&proof->u.bn254.a, &pt->job, sizeof pt->job);
    memcpy((uint8_t *)&proof->u.bn254.a + sizeof pt->job, &pt->p, sizeof pt->p);
    return CZ_OK;
}

static void f_free(void *vp, void *ctx) {
    (void)ctx;
    free(vp);
}

static int f_verify(void *ctx, const cz_groth16_proof *proofs, uint32_t nparts, cz_errinfo *ei) {
    int job = *(int *)ctx, j;
    uint32_t p;
    for (uint32_t k = 0; k < nparts; k++) {
        memcpy(&j, &proofs[k].u.bn254.a, sizeof j);
        memcpy(&p, (const uint8_t *)&proofs[k].u.bn254.a + sizeof j, sizeof p);
        if (j != job || p != k)
            return cz_fail(ei, CZ_EVERIFY, "fake: job %d partition %u is job %d's %u", job, k, j,
                           p);
    }
    return CZ_OK;
}

static void f_destroy(void *ctx) {
    free(ctx);
}

static const cz_workload_ops ops = {.name = "fake-ws",
                                    .synthesize = f_synth,
                                    .prepare = f_prepare,
                                    .reserve = f_reserve,
                                    .upload = f_upload,
                                    .compute = f_compute,
                                    .finish = f_finish,
                                    .part_free = f_free,
                                    .verify = f_verify,
                                    .destroy = f_destroy};

/* JOBS jobs of PARTS partitions with room for room; every one must be done. */
static void run(int room) {
    cz_engine_config cfg;
    cz_engine *e = NULL;
    cz_errinfo ei;
    char key[16];
    g_room = room;
    atomic_store(&g_refused, 0);
    g_first = NULL;
    g_nseen = g_overlap = g_wrong_ws = 0;
    memset(g_busy, 0, sizeof g_busy);
    memset(&cfg, 0, sizeof cfg);
    cfg.ndevices = 1;
    cfg.devices[0] = 0;
    cfg.workers_per_device = WORKERS;
    cfg.partition_workers = 3;
    cfg.synthesis_threads = 1;
    cfg.gpu_threads = 1;
    cfg.budget.total_bytes = 1u << 20;
    if (!CHECK_ERR(cz_engine_create(&e, &cfg, &ei), CZ_OK))
        return;
    for (int j = 0; j < JOBS; j++) {
        int *id = malloc(sizeof *id);
        cz_workload wl = {&ops, id, PARTS, CZ_KIND_OTHER, 1000, 0, {0}};
        if (!CHECK(id != NULL))
            break;
        *id = j;
        snprintf(key, sizeof key, "ws-%d", j);
        if (!CHECK_ERR(cz_engine_submit(NULL, e, key, CZ_PRIO_NORMAL, &wl, &ei), CZ_OK))
            free(id);
    }
    for (int j = 0; j < JOBS; j++) {
        cz_job *job = NULL;
        const char *msg = NULL;
        snprintf(key, sizeof key, "ws-%d", j);
        if (!CHECK_ERR(cz_engine_await(&job, e, key, 60000, &ei), CZ_OK))
            continue;
        if (!CHECK_EQ_INT(cz_job_state_get(job), CZ_JOB_DONE)) {
            cz_job_error(job, &msg);
            fprintf(stderr, "room %d, job %d: %s\n", room, j, msg ? msg : "?");
        }
        cz_job_unref(job);
    }
    cz_engine_destroy(e);
    CHECK_EQ_INT(g_overlap, 0);
    CHECK_EQ_INT(g_wrong_ws, 0);
    CHECK(g_nseen >= 1 && g_nseen <= WORKERS);
    if (room == ROOM_ONE) {
        CHECK_EQ_INT(g_nseen, 1);
        CHECK(atomic_load(&g_refused) <= WORKERS - 1);
    }
    if (room == ROOM_NONE)
        CHECK_EQ_INT(g_nseen, 1);
}

static void test_room_all(void) {
    run(ROOM_ALL);
}
static void test_room_one(void) {
    run(ROOM_ONE);
}
static void test_room_none(void) {
    run(ROOM_NONE);
}

static int setup(void) {
    int n = 0;
    cz_errinfo ei;
    if (cz_gpu_device_count(&n, &ei) != CZ_OK || n == 0) {
        fprintf(stderr, "no GPU: skipped\n");
        return TEST_SKIP;
    }
    return 0;
}

static const test_case cases[] = {
    {"room_all", test_room_all}, {"room_one", test_room_one}, {"room_none", test_room_none}};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, NULL);
}
