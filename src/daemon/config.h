/*
 * The daemon's configuration: one TOML file with the original cuzk daemon's tables (daemon,
 * memory, gpus, scheduler, synthesis, pipeline, srs, logging), every key with a default, plus
 * command-line overrides through cz_daemon_config_set. docs/daemon.md lists every key.
 *
 * Lifecycle: cz_daemon_config_defaults (or _load, which starts from the defaults) fills a
 * caller-owned struct; strings and arrays in it are heap copies owned by the struct, released by
 * cz_daemon_config_free. A struct is not shared between threads while it is being changed.
 *
 * Errors stop start-up: an unknown table or key, a wrong type, a value out of range or a
 * malformed line returns CZ_EFORMAT (CZ_ERANGE for a range) with "FILE:LINE: message". Keys that
 * the original accepts but ignores (or that this engine does not need) are "deprecated": they are
 * accepted with any value, logged as a warning with FILE:LINE, and ignored.
 */
#ifndef CUZK_DAEMON_CONFIG_H
#define CUZK_DAEMON_CONFIG_H

#include <stdint.h>
#include <stdio.h>

#include "cuzk/err.h"
#include "cuzk/log.h"
#include "cuzk/pipeline.h"

/* Where the daemon looks when no --config is given (the original's default path). */
#define CZ_DAEMON_CONFIG_DEFAULT_PATH "/data/zk/cuzk.toml"

/* gpus.devices: [] or "auto" (the default) = every visible GPU, the CPU backend when there is
 * none (logged); "all" = every visible GPU, an error when there is none; [0, 2] = exactly those,
 * an error when one is not visible; "none" = the CPU backend. */
typedef enum cz_daemon_gpu_mode {
    CZ_DAEMON_GPUS_AUTO = 0,
    CZ_DAEMON_GPUS_ALL,
    CZ_DAEMON_GPUS_LIST,
    CZ_DAEMON_GPUS_NONE
} cz_daemon_gpu_mode;

typedef struct cz_daemon_config {
    struct {
        char *listen;             /* gRPC address: "unix:///path" or "host:port" */
        unsigned socket_mode;     /* permissions of the Unix socket (0660), whatever the umask */
        char *status_listen;      /* HTTP /status and /metrics "host:port"; "" = off */
        char *status_cors_origin; /* Access-Control-Allow-Origin of those; "" = no header */
        int rpc_threads;          /* threads of the slow RPCs (submit, preload), >= 1 */
        char *state_dir;          /* the daemon's own files (the porep-synth key cache) */
    } daemon;
    struct {
        uint64_t total_budget;      /* bytes for proving; 0 = "auto" (RAM - safety_margin) */
        uint64_t safety_margin;     /* bytes kept free in auto mode */
        uint64_t eviction_min_idle; /* seconds an unused SRS must be idle before eviction */
    } memory;
    struct {
        cz_daemon_gpu_mode mode;            /* how devices are chosen (below) */
        int devices[CZ_ENGINE_MAX_DEVICES]; /* CZ_DAEMON_GPUS_LIST: CUDA indices */
        int ndevices;
        char devices_where[320];    /* where gpus.devices was set: "FILE:LINE", "command line",
                                     * or "" (the default), for start-up errors */
        int gpu_threads;            /* CPU threads beside the kernels; 0 = all CPUs */
        int gpu_workers_per_device; /* >= 1; 2 overlaps one worker's CPU part with the kernel */
        int pinned_buffers;         /* 1 (default): partition vectors in pinned host memory */
        int g2_msm_on_gpu;          /* 1 (default): B2 resident on the GPU, the G2 MSM there */
        int abc_on_gpu;             /* 1 (default): PoRep's a, b, c from resident matrices */
        uint64_t upload_chunk;      /* bytes per upload piece (64 MiB); 0 = one piece */
    } gpus;
    struct {
        uint64_t job_retention; /* seconds finished jobs stay queryable */
        int max_retained_jobs;  /* and at most this many */
    } scheduler;
    struct {
        int threads;           /* synthesis pool threads; 0 = all CPUs */
        int partition_workers; /* partitions synthesized at once, >= 1 */
        int urgent_worker;     /* 1 = the engine's urgent synthesis worker (urgent_synthesis) */
    } synthesis;
    struct {
        int finalizers;          /* finalizer threads; 0 = one per GPU worker */
        int max_gpu_queue_depth; /* the engine's gpu_queue_depth: 0 = one per GPU worker */
    } pipeline;
    struct {
        char *param_cache; /* directory of the proving keys */
        char **preload;    /* key files (relative to param_cache, or absolute) loaded at start */
        int npreload;
        int load_threads;          /* threads decoding a .params key as it loads; 0 = all CPUs */
        int params_subgroup_check; /* 1: .params proving sections checked for the subgroup */
        int allow_untrusted;       /* 1: Filecoin keys whose digest is not the manifest's used */
    } srs;
    struct {
        cz_log_level level; /* error, warn, info, debug, trace */
        char *timeline;     /* TIMELINE lines: "log" = the log, else a file path; "" = off */
        int msm_phases;     /* 1: every GPU MSM prints its phases' times (cz_tuning.msm_profile) */
    } logging;
    /* Where each key was set, for errors found after loading (cz_daemon_config_where). */
    char **where;
} cz_daemon_config;

/* Fills c with the defaults (docs/daemon.md). Aborts only when out of memory for the defaults'
 * few short strings. c's previous contents are not freed. */
void cz_daemon_config_defaults(cz_daemon_config *c);

/*
 * Defaults, then the file at path (NULL = defaults only; a path that cannot be read is an error,
 * CZ_EIO). On failure c holds the defaults (nothing leaks) and ei says FILE:LINE: what.
 * c's previous contents are not freed.
 */
int cz_daemon_config_load(cz_daemon_config *c, const char *path, cz_errinfo *ei);

/*
 * Sets one key from text, as a command-line override: dotted_key is "table.key"; value is the
 * plain text for string, size, duration and level keys ("0.0.0.0:9820", "5GiB", "5m", "debug")
 * and a TOML value for the others ("8", "[0, 1]"; a list of strings also as "a,b").
 * CZ_EFORMAT / CZ_ERANGE with "KEY: message"; c is unchanged on failure.
 */
int cz_daemon_config_set(cz_daemon_config *c, const char *dotted_key, const char *value,
                         cz_errinfo *ei);

/* Where dotted_key ("memory.total_budget") got its value: "FILE:LINE" for a file, "command
 * line" for cz_daemon_config_set, "" when it has its default (or is not a key). Start-up errors
 * about a value (a budget above physical memory, a state directory that is not private) begin
 * with it, as configuration errors do. The string lives as long as c. */
const char *cz_daemon_config_where(const cz_daemon_config *c, const char *dotted_key);

/* Writes every key of c as TOML, each with a comment; cuzk.example.toml is this output for the
 * defaults. CZ_OK or CZ_EIO. */
int cz_daemon_config_write(FILE *out, const cz_daemon_config *c);

/* Frees what c owns and zeroes it. NULL is allowed. */
void cz_daemon_config_free(cz_daemon_config *c);

#endif
