/*
 * The engine's timeline: one line per pipeline step, written while the engine runs, read back
 * afterwards to measure how busy each GPU was and to draw a waterfall picture (docs/timeline.md).
 *
 * Line format (one line each, '\n'-terminated; fields separated by ','):
 *
 *   TIMELINE,<ms>,<EVENT>,<job>,<detail>
 *
 *   ms      milliseconds since the emitter's start (the engine's start), 3 decimals, monotonic
 *   EVENT   SYNTH_START SYNTH_END GPU_QUEUE GPU_PICKUP GPU_START GPU_END FINALIZE DONE FAILED
 *           CANCELLED, or STAGE (a per-stage timing record, below)
 *   job     the job id (no ',' and no whitespace; the emitter replaces those by '_')
 *   detail  key=value pairs separated by ',' (it is the rest of the line, commas included):
 *           p=<partition>  w=<worker>  and anything else (synth_ms=..., msg=...)
 *
 * Workers are named `synth<N>` (synthesis workers) and `gpu<G>.<W>` (GPU worker W of GPU G).
 * A stage record says that a stage of one partition ended at <ms> after running <dur> ms:
 *
 *   TIMELINE,<ms>,STAGE,<job>,p=<partition>,w=<worker>,stage=<name>,dur=<ms>
 *
 * with <name> one of prep, ntt_h, batch_add, tail_msm, g2_msm, lock_wait, lock_held.
 * The lines may be written to a file of their own or through the log (include/cuzk/log.h), where
 * they get the log's timestamp and level in front; the reader accepts both.
 *
 * Writing: cz_timeline_emitter. Reading and analysis: cz_timeline_parse / cz_timeline_read.
 * Drawing: cz_timeline_render_svg. The `cuzk-bench timeline` command: cz_timeline_cmd.
 */
#ifndef CUZK_TIMELINE_H
#define CUZK_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/err.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CZ_TL_SYNTH_START = 0, /* a synthesis worker starts a partition (p=, w=synth<N>) */
    CZ_TL_SYNTH_END,       /* ... and ends it (p=, w=, synth_ms=) */
    CZ_TL_GPU_QUEUE,       /* a synthesized partition enters the GPU queue (p=) */
    CZ_TL_GPU_PICKUP,      /* a GPU worker takes it (p=, w=gpu<G>.<W>) */
    CZ_TL_GPU_START,       /* the worker's GPU region starts (p=, w=) */
    CZ_TL_GPU_END,         /* ... and ends (p=, w=, gpu_ms=) */
    CZ_TL_FINALIZE,        /* the partition proof is written (p=) */
    CZ_TL_DONE,            /* the whole job is done (proof verified) */
    CZ_TL_FAILED,          /* the job failed (msg=; with w= it also ends that worker's interval) */
    CZ_TL_CANCELLED,       /* the job was cancelled (likewise) */
    CZ_TL_STAGE,           /* a per-stage timing record (see above) */
    CZ_TL_NEVENTS
} cz_timeline_event;

typedef enum {
    CZ_TL_STAGE_PREP = 0,  /* CPU preparation before the GPU region */
    CZ_TL_STAGE_NTT_H,     /* NTTs and the H MSM */
    CZ_TL_STAGE_BATCH_ADD, /* batch additions */
    CZ_TL_STAGE_TAIL_MSM,  /* the tail MSMs (L, A, B1) */
    CZ_TL_STAGE_G2_MSM,    /* the G2 MSM for B (CPU, outside the lock) */
    CZ_TL_STAGE_LOCK_WAIT, /* waiting for the GPU lock */
    CZ_TL_STAGE_LOCK_HELD, /* holding the GPU lock */
    CZ_TL_STAGE_UPLOAD,    /* host -> device copies of the partition's vectors (inside the lock) */
    CZ_TL_STAGE_DEVICE,    /* the whole device region: uploads, allocations, kernels, frees */
    CZ_TL_NSTAGES
} cz_timeline_stage;

/* "SYNTH_START", ...; "?" outside the enum. */
const char *cz_timeline_event_name(cz_timeline_event ev);
/* "prep", "ntt_h", ...; "?" outside the enum. */
const char *cz_timeline_stage_name(cz_timeline_stage st);

/* ---- writing ---------------------------------------------------------------------------- */

typedef struct cz_timeline_emitter cz_timeline_emitter;

/*
 * A new emitter, enabled, whose time 0 is start_ns (a cz_clock_now_ns value; 0 means now).
 * out: the FILE* to write to (the caller keeps it open while the emitter lives), or NULL to write
 * through the log at level INFO regardless of the log level. CZ_OK, or CZ_ENOMEM.
 */
int cz_timeline_emitter_create(cz_timeline_emitter **ret, FILE *out, uint64_t start_ns);
void cz_timeline_emitter_destroy(cz_timeline_emitter *em);
/* Turns writing on or off (any thread, any time). A NULL emitter is always off. */
void cz_timeline_emitter_set_enabled(cz_timeline_emitter *em, int on);
int cz_timeline_emitter_enabled(const cz_timeline_emitter *em);

/*
 * Writes one event line with detail `p=<partition>,w=<worker>` (partition < 0 or worker NULL
 * leave that key out) followed by `,<extra>` when extra is non-NULL and not empty. Thread-safe:
 * the clock is read and the whole line written under the emitter's lock, so lines never tear and
 * their times never go backwards in the output. A NULL or disabled emitter costs one branch.
 */
void cz_timeline_emit(cz_timeline_emitter *em, cz_timeline_event ev, const char *job, int partition,
                      const char *worker, const char *extra);
/* The same with a printf-formatted extra (fmt NULL means none). */
void cz_timeline_emitf(cz_timeline_emitter *em, cz_timeline_event ev, const char *job,
                       int partition, const char *worker, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* A stage record: stage st of (job, partition) on worker ended now after duration_ms. */
void cz_timeline_emit_stage(cz_timeline_emitter *em, const char *job, int partition,
                            const char *worker, cz_timeline_stage st, double duration_ms);

/* ---- reading and analysis --------------------------------------------------------------- */

typedef enum { CZ_TL_WORKER_SYNTH = 0, CZ_TL_WORKER_GPU = 1 } cz_timeline_worker_kind;

typedef struct cz_timeline_worker {
    char name[32];
    cz_timeline_worker_kind kind;
    int gpu;           /* GPU index (gpu<G>.<W>), -1 for synthesis workers */
    int slot;          /* W of gpu<G>.<W>; the trailing number of a synthesis worker, or -1 */
    size_t nintervals; /* its intervals are tl->intervals[first .. first + nintervals) */
    size_t first;
    double busy_ms; /* sum of its interval lengths (a worker's intervals never overlap) */
} cz_timeline_worker;

typedef struct cz_timeline_interval {
    double start_ms, end_ms;
    size_t job;    /* index into tl->jobs */
    size_t worker; /* index into tl->workers */
    int partition; /* -1 when the lines did not say */
    int open;      /* 1: no end line; the interval is cut at the last time of the log */
    int failed;    /* 1: ended by FAILED or CANCELLED instead of its END event */
} cz_timeline_interval;

typedef enum {
    CZ_TL_JOB_OPEN = 0, /* no DONE, FAILED or CANCELLED line */
    CZ_TL_JOB_DONE,
    CZ_TL_JOB_FAILED,
    CZ_TL_JOB_CANCELLED
} cz_timeline_job_state;

typedef struct cz_timeline_job {
    char id[80];
    cz_timeline_job_state state;
    double first_ms; /* its first line */
    double end_ms;   /* its DONE/FAILED/CANCELLED line; its last line while open */
    double wall_ms;  /* end_ms - first_ms */
    double synth_ms; /* sum of its synthesis intervals */
    double gpu_ms;   /* sum of its GPU intervals */
    int npartitions; /* 1 + the largest p= seen (0 if none) */
} cz_timeline_job;

/* Idle gaps of one GPU: holes between its busy intervals (all its workers merged). */
typedef struct cz_timeline_gpu {
    int gpu;
    size_t nworkers;
    double busy_ms_run;     /* length of the union of its GPU intervals */
    double busy_ms_steady;  /* ... inside the steady-state window */
    double busy_pct_run;    /* 100 * busy_ms_run / run window length */
    double busy_pct_steady; /* 100 * busy_ms_steady / steady window length */
    size_t ngaps;           /* holes between its first start and its last end */
    double gap_ms_total, gap_ms_max;
    size_t ngaps_short, ngaps_mid, ngaps_long; /* < 50 ms, 50..500 ms, > 500 ms */
} cz_timeline_gpu;

typedef struct cz_timeline_stage_rec {
    double end_ms, dur_ms;
    size_t job;
    long worker; /* index into tl->workers, or -1 when the line named none */
    int partition;
    cz_timeline_stage stage;
} cz_timeline_stage_rec;

typedef struct cz_timeline {
    cz_timeline_worker *workers; /* synthesis workers, then GPU workers by (gpu, slot) */
    size_t nworkers;
    cz_timeline_interval *intervals; /* grouped by worker, each group sorted by start */
    size_t nintervals;
    cz_timeline_job *jobs; /* in order of first appearance */
    size_t njobs;
    cz_timeline_gpu *gpus; /* by GPU index */
    size_t ngpus;
    cz_timeline_stage_rec *stages;
    size_t nstages;
    size_t nlines;                         /* lines read, TIMELINE or not */
    size_t nevents;                        /* TIMELINE lines */
    double run_start_ms, run_end_ms;       /* first and last TIMELINE time */
    double steady_start_ms, steady_end_ms; /* first GPU_START .. last GPU_END (any GPU) */
    size_t njobs_done, njobs_failed;       /* DONE; FAILED or CANCELLED */
} cz_timeline;

/*
 * Reads a log of len bytes (any text; lines without a TIMELINE record are skipped), builds the
 * intervals and computes the analysis. name labels error messages ("name:LINE: ..."). CZ_OK and
 * *ret (free with cz_timeline_free), or CZ_EFORMAT naming the first malformed line, CZ_ENOMEM.
 */
int cz_timeline_parse(cz_timeline **ret, const char *text, size_t len, const char *name,
                      cz_errinfo *ei);
/* The same from a file path; CZ_EIO when it cannot be read. */
int cz_timeline_read(cz_timeline **ret, const char *path, cz_errinfo *ei);
void cz_timeline_free(cz_timeline *tl);

/* ---- drawing ---------------------------------------------------------------------------- */

typedef struct cz_timeline_svg_opts {
    int width_px;      /* whole picture; 0 means 1400 */
    int lane_px;       /* height of one lane; 0 means 18 */
    const char *title; /* first title line; NULL means "cuzk timeline" */
    double from_ms;    /* time window drawn; from_ms == to_ms (e.g. both 0) means the run */
    double to_ms;
} cz_timeline_svg_opts;

/*
 * Writes an SVG waterfall of tl to out: one lane per worker (synthesis workers, then GPU workers
 * grouped by GPU, each GPU with a strip that marks its idle gaps), one bar per interval colored
 * by job, a time axis in seconds, and a title with each GPU's busy % and the proof counts.
 * o may be NULL (defaults). CZ_OK, CZ_EINVAL (bad options), or CZ_EIO (write failed).
 */
int cz_timeline_render_svg(FILE *out, const cz_timeline *tl, const cz_timeline_svg_opts *o,
                           cz_errinfo *ei);

/*
 * Writes the analysis as text (per GPU busy %, gaps, per job wall time) to out.
 */
void cz_timeline_print_summary(FILE *out, const cz_timeline *tl);

/*
 * `timeline LOG [-o OUT.svg] [--width PX] [--from S --to S] [--title T] [-q]`: reads LOG, prints
 * the summary on stdout (unless -q) and writes the picture to OUT.svg. argv[0] is the command's
 * name. Returns the process exit status: 0 ok, 2 usage, 3 unreadable or malformed log, 4 write.
 */
int cz_timeline_cmd(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
