/*
 * GPU selection and per-device status for the daemon (gpus.h). Selection does no device calls
 * (the caller counts the visible devices once); status reads the engine's counters and asks the
 * CUDA runtime for each device's name and memory per call (a few hundred microseconds per
 * device; status pages are rare), except for a device out of service, whose name and memory
 * are those remembered at start-up.
 */
#include "daemon/gpus.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/gpu.h"

/* The name and memory of each CUDA index, as the daemon read them at start-up. */
static struct {
    char name[256]; /* "" until remembered */
    uint64_t mem_total_bytes;
} g_known[CZ_ENGINE_MAX_DEVICES];
static pthread_mutex_t g_known_lock = PTHREAD_MUTEX_INITIALIZER;

void cz_daemon_gpus_remember(int index, const char *name, uint64_t mem_total_bytes) {
    if (index < 0 || index >= CZ_ENGINE_MAX_DEVICES)
        return;
    pthread_mutex_lock(&g_known_lock);
    snprintf(g_known[index].name, sizeof g_known[index].name, "%s", name);
    g_known[index].mem_total_bytes = mem_total_bytes;
    pthread_mutex_unlock(&g_known_lock);
}

/* g's name and total memory as remembered for its index; "?" and 0 when they were not. */
static void remembered(cz_daemon_gpu_status *g) {
    snprintf(g->name, sizeof g->name, "?");
    if (g->index < 0 || g->index >= CZ_ENGINE_MAX_DEVICES)
        return;
    pthread_mutex_lock(&g_known_lock);
    if (g_known[g->index].name[0] != 0) {
        snprintf(g->name, sizeof g->name, "%s", g_known[g->index].name);
        g->mem_total_bytes = g_known[g->index].mem_total_bytes;
    }
    pthread_mutex_unlock(&g_known_lock);
}

static void note_set(char *note, size_t len, const char *what, const char *why) {
    if (note != NULL && len > 0)
        snprintf(note, len, "CPU backend (%s: %s)", what, why);
}

/* "[0, 2]" or "\"all\"" as written, for messages. */
static void devices_text(char *out, size_t len, const cz_daemon_config *c) {
    size_t o = 0;
    if (c->gpus.mode == CZ_DAEMON_GPUS_ALL || c->gpus.mode == CZ_DAEMON_GPUS_NONE) {
        snprintf(out, len, "\"%s\"", c->gpus.mode == CZ_DAEMON_GPUS_ALL ? "all" : "none");
        return;
    }
    o += (size_t)snprintf(out + o, len - o, "[");
    for (int i = 0; i < c->gpus.ndevices && o < len; i++)
        o += (size_t)snprintf(out + o, len - o, "%s%d", i ? ", " : "", c->gpus.devices[i]);
    if (o < len)
        snprintf(out + o, len - o, "]");
}

int cz_daemon_gpus_select(int *devices, int *ndevices, char *note, size_t note_len,
                          const cz_daemon_config *c, int visible, const char *why_none,
                          cz_errinfo *ei) {
    const char *where = c->gpus.devices_where[0] ? c->gpus.devices_where : "default";
    char list[128];
    *ndevices = 0;
    if (visible < 0)
        visible = 0;
    if (why_none == NULL || why_none[0] == 0)
        why_none = "no CUDA device";
    devices_text(list, sizeof list, c);
    switch (c->gpus.mode) {
    case CZ_DAEMON_GPUS_NONE:
        note_set(note, note_len, where, "gpus.devices = \"none\"");
        return CZ_OK;
    case CZ_DAEMON_GPUS_AUTO:
    case CZ_DAEMON_GPUS_ALL:
        if (visible == 0) {
            if (c->gpus.mode == CZ_DAEMON_GPUS_ALL)
                return cz_fail(ei, CZ_ENOGPU, "%s: gpus.devices = \"all\": no GPU is visible (%s)",
                               where, why_none);
            note_set(note, note_len, "no GPU visible", why_none);
            return CZ_OK;
        }
        *ndevices = visible < CZ_ENGINE_MAX_DEVICES ? visible : CZ_ENGINE_MAX_DEVICES;
        for (int i = 0; i < *ndevices; i++)
            devices[i] = i;
        if (note != NULL && note_len > 0)
            snprintf(note, note_len, "%d of %d visible GPUs (gpus.devices = %s)", *ndevices,
                     visible, list);
        return CZ_OK;
    case CZ_DAEMON_GPUS_LIST:
        if (visible == 0)
            return cz_fail(ei, CZ_ENOGPU, "%s: gpus.devices = %s: no GPU is visible (%s)", where,
                           list, why_none);
        for (int i = 0; i < c->gpus.ndevices; i++)
            if (c->gpus.devices[i] >= visible)
                return cz_fail(ei, CZ_ERANGE,
                               "%s: gpus.devices = %s: there is no GPU %d (%d visible: 0..%d)",
                               where, list, c->gpus.devices[i], visible, visible - 1);
        *ndevices = c->gpus.ndevices;
        memcpy(devices, c->gpus.devices, (size_t)*ndevices * sizeof *devices);
        if (note != NULL && note_len > 0)
            snprintf(note, note_len, "GPUs %s of %d visible (%s)", list, visible, where);
        return CZ_OK;
    }
    return cz_fail(ei, CZ_EINTERNAL, "gpus.devices: bad mode %d", (int)c->gpus.mode);
}

int cz_daemon_gpus_status(cz_daemon_gpu_status out[CZ_ENGINE_MAX_DEVICES],
                          const cz_engine_stats *st) {
    int n = st->ndevices < CZ_ENGINE_MAX_DEVICES ? st->ndevices : CZ_ENGINE_MAX_DEVICES;
    for (int i = 0; i < n; i++) {
        cz_daemon_gpu_status *g = &out[i];
        memset(g, 0, sizeof *g);
        g->slot = i;
        g->index = st->device[i];
        g->workers = st->workers_per_device;
        g->busy = st->busy_now[i];
        g->busy_ms = st->busy_ms[i];
        g->out_of_service = st->failed[i];
        if (st->failed[i])
            snprintf(g->why, sizeof g->why, "%s", st->failed_why[i]);
        if (g->index < 0) {
            snprintf(g->name, sizeof g->name, "cpu");
            continue;
        }
        if (st->failed[i]) {
            remembered(g);
            continue;
        }
        cz_gpu_info info;
        size_t free_b = 0, total_b = 0;
        if (cz_gpu_device_info(&info, g->index, NULL) == CZ_OK)
            snprintf(g->name, sizeof g->name, "%s", info.name);
        else
            remembered(g);
        if (cz_gpu_mem_info(&free_b, &total_b, g->index, NULL) == CZ_OK) {
            g->mem_total_bytes = total_b;
            g->mem_free_bytes = free_b;
        }
    }
    return n;
}

static void family(FILE *f, const char *name, const char *type, const char *help, int with_help) {
    if (with_help)
        fprintf(f, "# HELP %s %s\n", name, help);
    fprintf(f, "# TYPE %s %s\n", name, type);
}

/* A label value: the device name with '"' and '\\' escaped, newlines dropped. */
static void put_label(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if (*s != '\n')
            fputc(*s, f);
    }
}

void cz_daemon_gpus_metrics(FILE *f, const cz_engine_stats *st, int help) {
    cz_daemon_gpu_status gs[CZ_ENGINE_MAX_DEVICES];
    int n = cz_daemon_gpus_status(gs, st);
    family(f, "cuzk_gpu_devices", "gauge", "Device slots (GPUs, or 1 for the CPU backend).", help);
    fprintf(f, "cuzk_gpu_devices %d\n", n);
    family(f, "cuzk_gpu_info", "gauge",
           "Each device slot: its CUDA index (-1 = CPU backend) and name; value 1.", help);
    for (int i = 0; i < n; i++) {
        fprintf(f, "cuzk_gpu_info{device=\"%d\",index=\"%d\",name=\"", i, gs[i].index);
        put_label(f, gs[i].name);
        fprintf(f, "\"} 1\n");
    }
    family(f, "cuzk_gpu_memory_free_bytes", "gauge", "Free device memory (0 for the CPU).", help);
    for (int i = 0; i < n; i++)
        fprintf(f, "cuzk_gpu_memory_free_bytes{device=\"%d\"} %llu\n", i,
                (unsigned long long)gs[i].mem_free_bytes);
    family(f, "cuzk_gpu_busy", "gauge", "1 while a worker is in the device's kernel region.", help);
    for (int i = 0; i < n; i++)
        fprintf(f, "cuzk_gpu_busy{device=\"%d\"} %d\n", i, gs[i].busy);
    family(f, "cuzk_gpu_in_service", "gauge",
           "1 while the device takes work; 0 once an error lost its context (until a restart; "
           "/status says why).",
           help);
    for (int i = 0; i < n; i++)
        fprintf(f, "cuzk_gpu_in_service{device=\"%d\"} %d\n", i, !gs[i].out_of_service);
    family(f, "cuzk_gpu_busy_seconds_total", "counter",
           "Seconds each device's compute lock was held.", help);
    for (int i = 0; i < n; i++)
        fprintf(f, "cuzk_gpu_busy_seconds_total{device=\"%d\"} %.6f\n", i, gs[i].busy_ms / 1e3);
}
