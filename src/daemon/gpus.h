/*
 * The daemon's GPUs: which devices the engine runs on (from gpus.devices and the devices that
 * are visible) and what GetStatus, /status and /metrics say about each (docs/daemon.md, "GPUs").
 *
 * Selection is a pure function of the configuration and the number of visible devices, so that
 * every rule and every message is tested without a GPU (tests/daemon/test_config.c):
 *
 *   gpus.devices           visible = 0                        visible = n > 0
 *   [] / "auto" (default)  the CPU backend, with a log note   0 .. n-1 (at most 16)
 *   "all"                  CZ_ENOGPU                          0 .. n-1 (at most 16)
 *   [i, j, ...]            CZ_ENOGPU                          those; CZ_ERANGE for an i >= n
 *   "none"                 the CPU backend                    the CPU backend
 *
 * Errors name the key and where it was set ("cuzk.toml:7: gpus.devices = [3]: ...").
 */
#ifndef CZ_DAEMON_GPUS_H
#define CZ_DAEMON_GPUS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/err.h"
#include "cuzk/pipeline.h"
#include "daemon/config.h"

/*
 * devices[0 .. *ndevices) = the CUDA indices the engine runs on; *ndevices = 0: the CPU backend.
 * visible: cz_gpu_device_count's answer (0 when it failed); why_none: its message when it failed
 * (quoted in errors and in the note). note (may be NULL): one line for the start-up log saying
 * what was chosen and why. CZ_ENOGPU / CZ_ERANGE with "WHERE: gpus.devices ...: what".
 */
int cz_daemon_gpus_select(int *devices, int *ndevices, char *note, size_t note_len,
                          const cz_daemon_config *c, int visible, const char *why_none,
                          cz_errinfo *ei);

/* One device slot of the engine as the status pages show it. */
typedef struct cz_daemon_gpu_status {
    int slot;                     /* the engine's slot (position in the configuration) */
    int index;                    /* CUDA index; -1 for the CPU backend */
    char name[256];               /* the device's name; "cpu" for the CPU backend */
    uint64_t mem_total_bytes;     /* device memory; 0 for the CPU backend or when unknown */
    uint64_t mem_free_bytes;      /* free now (cudaMemGetInfo) */
    int workers;                  /* GPU workers on the device */
    int busy;                     /* 1 while a worker is in its kernel region */
    double busy_ms;               /* time in kernel regions since start */
    int out_of_service;           /* the engine took it out (CZ_EDEVICE: lost until a restart) */
    char why[CZ_ERRINFO_MSG_MAX]; /* the error that did, "" while in service */
} cz_daemon_gpu_status;

/* Remembers the name and memory of CUDA device index (the daemon reads them at start-up), for
 * the status of that device once it is out of service: the runtime is not asked about a lost
 * device. Thread-safe; an index of CZ_ENGINE_MAX_DEVICES or more is not remembered. */
void cz_daemon_gpus_remember(int index, const char *name, uint64_t mem_total_bytes);

/* Fills out[0 .. st->ndevices) from the engine's statistics and device queries (name and
 * memory). A device out of service is not queried (its every call fails): it shows the name and
 * total memory remembered for it (free 0), or "?" and 0; so does a device whose query fails.
 * Returns the number of entries. */
int cz_daemon_gpus_status(cz_daemon_gpu_status out[CZ_ENGINE_MAX_DEVICES],
                          const cz_engine_stats *st);

/*
 * Writes the per-device families of the Prometheus text: cuzk_gpu_devices, cuzk_gpu_info{device,
 * index, name} 1, cuzk_gpu_busy{device} (0/1 now), cuzk_gpu_busy_seconds_total{device}; device =
 * the engine's slot. help: with "# HELP" lines (the HTTP page) or only "# TYPE" (GetMetrics).
 */
void cz_daemon_gpus_metrics(FILE *f, const cz_engine_stats *st, int help);

#endif
