/* The workspaces a GPU's workers share (engine/dev_ws.h). */
#include "engine/dev_ws.h"

#include "cuzk/err.h"
#include "cuzk/log.h"
#include "engine/wait.h"

void cz__dev_ws_init(cz__dev_ws *s, int device, int slot, int workers) {
    CZ_ASSERT(pthread_mutex_init(&s->lock, NULL) == 0);
    cz__cond_init_mono(&s->idle_cv);
    s->device = device;
    s->slot = slot;
    s->cap = workers < 1 ? 1 : workers > CZ__DEV_WS_MAX ? CZ__DEV_WS_MAX : workers;
    s->made = 0;
    s->nidle = 0;
}

void cz__dev_ws_fini(cz__dev_ws *s) {
    for (int i = 0; i < s->nidle; i++)
        cz_groth16_gpu_ws_free(s->idle[i]);
    s->nidle = 0;
    s->made = 0;
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->idle_cv);
}

cz_groth16_gpu_ws *cz__dev_ws_take(cz__dev_ws *s) {
    cz_groth16_gpu_ws *ws = NULL;
    cz_errinfo ei;
    pthread_mutex_lock(&s->lock);
    while (s->nidle == 0 && s->made >= s->cap)
        pthread_cond_wait(&s->idle_cv, &s->lock);
    if (s->nidle > 0) {
        ws = s->idle[--s->nidle];
        pthread_mutex_unlock(&s->lock);
        return ws;
    }
    s->made++; /* counted while made outside the lock */
    pthread_mutex_unlock(&s->lock);
    cz_errinfo_clear(&ei);
    if (cz_groth16_gpu_ws_create(&ws, s->device, &ei) != CZ_OK) {
        CZ_LOG_WARN("engine: GPU %d (slot %d): a partition uploads under the lock: %s", s->device,
                    s->slot, ei.msg);
        pthread_mutex_lock(&s->lock);
        s->made--;
        pthread_cond_broadcast(&s->idle_cv);
        pthread_mutex_unlock(&s->lock);
        return NULL;
    }
    return ws;
}

void cz__dev_ws_give(cz__dev_ws *s, cz_groth16_gpu_ws *ws) {
    if (ws == NULL)
        return;
    pthread_mutex_lock(&s->lock);
    CZ_ASSERT(s->nidle < CZ__DEV_WS_MAX);
    s->idle[s->nidle++] = ws;
    pthread_cond_signal(&s->idle_cv);
    pthread_mutex_unlock(&s->lock);
}

int cz__dev_ws_retire(cz__dev_ws *s, cz_groth16_gpu_ws *ws, const char *why) {
    int others;
    pthread_mutex_lock(&s->lock);
    others = s->made > 1;
    if (others) {
        s->made--;
        s->cap = s->made;
    }
    pthread_mutex_unlock(&s->lock);
    if (!others)
        return 0;
    cz_groth16_gpu_ws_free(ws);
    CZ_LOG_WARN("engine: GPU %d has room for %d partition workspace%s only, its workers take "
                "turns: %s",
                s->device, s->cap, s->cap == 1 ? "" : "s", why);
    return 1;
}
