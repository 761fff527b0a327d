/*
 * Devices in and out of service (pipeline_internal.h). A CUDA error after which the process's
 * context on a device cannot be used again (CZ_EDEVICE, cuzk/gpu.h: an illegal address, a kernel
 * that failed, an uncorrectable ECC error) makes every later call on that device fail the same
 * way until the process restarts. So the first step that fails with it takes the device out of
 * service: the partition it was running fails with its message, the device's workers stop taking
 * partitions (one that took a partition gives it back to the GPU queue for the other devices),
 * and the other devices go on with the queue. When the last device goes, every partition queued
 * for a GPU fails at once, and so does every later one before its synthesis, with a message that
 * names each device and why it went: nothing waits for a device that will not come back. The
 * exception is a Critical partition (a WinningPoSt, whose lateness loses a block reward): it is
 * proven on the CPU backend instead, in the thread that would have queued it (cz__cpu_compute;
 * seconds for a WinningPoSt on a host's cores, where failing it loses the reward for sure).
 *
 * The GPU queue's pushes go through cz__gpu_queue_push, under the engine's stats_lock, the lock
 * under which the last device's exit empties the queue: no partition is pushed after that and
 * left waiting. (The GPU queue has no capacity, so a push under the lock never waits.)
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/log.h"
#include "engine/pipeline_internal.h"

/* What messages call slot: "GPU <CUDA index>", or "slot <i>" for a CPU slot. */
typedef struct slot_name {
    char s[24];
} slot_name;

static slot_name name_of(const cz_engine *e, int slot) {
    slot_name n;
    if (e->dev[slot].d.device >= 0)
        snprintf(n.s, sizeof n.s, "GPU %d", e->dev[slot].d.device);
    else
        snprintf(n.s, sizeof n.s, "slot %d", slot);
    return n;
}

/* Slot slot's reason for going out of service, without a leading "<its name>: " (the library's
 * GPU errors name their device: "GPU 0: inverse NTT: ..."), for messages that name the slot
 * themselves; stats_lock held. */
static const char *why_unnamed(const cz_engine *e, int slot, const slot_name *name) {
    const char *why = e->dev[slot].why;
    const size_t nlen = strlen(name->s);
    return strncmp(why, name->s, nlen) == 0 && why[nlen] == ':' && why[nlen + 1] == ' '
               ? why + nlen + 2
               : why;
}

/* "no GPU left in service (GPU 0: why; GPU 1: why)" into msg; stats_lock held. */
static void no_device_text(const cz_engine *e, char *msg, size_t len) {
    size_t o = (size_t)snprintf(msg, len, "no GPU left in service (");
    for (int i = 0; i < e->nslots && o < len; i++) {
        const slot_name name = name_of(e, i);
        o += (size_t)snprintf(msg + o, len - o, "%s%s: %s", i ? "; " : "", name.s,
                              why_unnamed(e, i, &name));
    }
    if (o < len)
        snprintf(msg + o, len - o, ")");
}

int cz__no_device(cz_engine *e, char *msg, size_t len) {
    int none;
    pthread_mutex_lock(&e->stats_lock);
    none = e->nslots_ok == 0;
    if (none)
        no_device_text(e, msg, len);
    pthread_mutex_unlock(&e->stats_lock);
    return none;
}

int cz__dev_in_service(cz_engine *e, int slot) {
    int ok;
    pthread_mutex_lock(&e->stats_lock);
    ok = !e->dev[slot].failed;
    pthread_mutex_unlock(&e->stats_lock);
    return ok;
}

/* Ends every partition of list (linked through node.next) with msg, but the Critical ones,
 * which compute on the CPU. */
static void fail_all(cz_engine *e, cz__wq_node *list, const char *msg) {
    while (list != NULL) {
        item *it = (item *)list;
        list = list->next;
        if (cz__is_critical(it))
            cz__cpu_compute(e, it);
        else
            cz__end_part(it, CZ_EDEVICE, msg);
    }
}

void cz__dev_out_of_service(cz_engine *e, int slot, const char *why) {
    dev_slot *ds = &e->dev[slot];
    char msg[CZ_ERRINFO_MSG_MAX + 64];
    cz__wq_node *drained = NULL, **tail = &drained, *n;
    int first = 0, left = 0;
    pthread_mutex_lock(&e->stats_lock);
    if (!ds->failed) {
        ds->failed = 1;
        snprintf(ds->why, sizeof ds->why, "%s", why != NULL && why[0] ? why : "failed");
        first = 1;
        left = --e->nslots_ok;
        if (left == 0) {
            no_device_text(e, msg, sizeof msg);
            while ((n = cz__workq_try_pop_below(&e->gpu_q, UINT64_MAX)) != NULL) {
                n->next = NULL;
                *tail = n;
                tail = &n->next;
            }
        }
    }
    pthread_mutex_unlock(&e->stats_lock);
    if (!first)
        return;
    /* ds->why no longer changes: the slot stays failed */
    const slot_name name = name_of(e, slot);
    CZ_LOG_ERROR("engine: %s is out of service until the process restarts (%d device(s) left): %s",
                 name.s, left, why_unnamed(e, slot, &name));
    fail_all(e, drained, msg);
}

void cz__gpu_queue_push(cz_engine *e, item *it, int slot) {
    char msg[CZ_ERRINFO_MSG_MAX + 64];
    int pushed = 0, cpu = 0;
    pthread_mutex_lock(&e->stats_lock);
    if (e->nslots_ok > 0) {
        pushed = cz__workq_push_ordered_open(&e->gpu_q, &it->node);
        if (!pushed) { /* only a slot out of service gives a partition back this late */
            slot_name name = {"a device"};
            const char *why = "";
            if (slot >= 0) {
                name = name_of(e, slot);
                why = why_unnamed(e, slot, &name);
            }
            snprintf(msg, sizeof msg,
                     "partition %u: the engine stopped while %s was out of service: %s", it->p,
                     name.s, why);
        }
    } else if (!(cpu = cz__is_critical(it))) {
        no_device_text(e, msg, sizeof msg);
    }
    pthread_mutex_unlock(&e->stats_lock);
    if (cpu)
        cz__cpu_compute(e, it);
    else if (!pushed)
        cz__end_part(it, CZ_EDEVICE, msg);
}

void cz__dev_fail_part(cz_engine *e, item *it, int slot) {
    char msg[CZ_ERRINFO_MSG_MAX + 64];
    pthread_mutex_lock(&e->stats_lock);
    const slot_name name = name_of(e, slot);
    snprintf(msg, sizeof msg, "partition %u: %s went out of service: %s", it->p, name.s,
             why_unnamed(e, slot, &name));
    pthread_mutex_unlock(&e->stats_lock);
    cz__end_part(it, CZ_EDEVICE, msg);
}
