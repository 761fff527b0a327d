/*
 * Process-wide tuning of the compute kernels: the few choices that stay adjustable, for
 * debugging, tests and benchmarks, and the daemon's GPU settings. One struct, filled by the
 * program (cuzk-daemon from its TOML, shown in /status; cuzk-bench from its flags; tests per
 * case) and installed with cz_tuning_set; the library reads it at each call (cz_tuning_get) and
 * never reads the environment. A zeroed struct is the default everywhere: every size and window
 * is then derived from the problem and the device.
 *
 * Threads: cz_tuning_set and cz_tuning_get may be called from any thread (a lock guards the
 * copy); a call already running keeps the settings it started with.
 */
#ifndef CUZK_TUNING_H
#define CUZK_TUNING_H

#include <stddef.h>

#include "cuzk/err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The 0/1 split of the MSMs (zeros dropped, ones summed apart from Pippenger). */
typedef enum {
    CZ_SPLIT_AUTO = 0, /* split when the scalars' zeros and ones pay for it (the default) */
    CZ_SPLIT_OFF = 1,  /* never (tests, benchmarks) */
    CZ_SPLIT_ON = 2    /* always (tests, benchmarks) */
} cz_split_mode;

/* Sparse GPU bases: a handle keeps only its finite points when enough are infinity. */
typedef enum {
    CZ_COMPACT_AUTO = 0,  /* when at least 1/8 of the points are infinity (the default) */
    CZ_COMPACT_NEVER = 1, /* keep every point (tests) */
    CZ_COMPACT_ALWAYS = 2 /* whenever any point is infinity (tests) */
} cz_compact_mode;

/* The bucket accumulation of the GPU MSMs, G1 and G2 (gpu_msm_impl.cuh). */
typedef enum {
    CZ_ACC_AUTO = 0,        /* batch-affine for BLS12-381 G1 MSMs large enough to pay for it (the
                             * default), madd otherwise */
    CZ_ACC_MADD = 1,        /* mixed XYZZ additions always (tests, benchmarks) */
    CZ_ACC_BATCH_AFFINE = 2 /* batch-affine always (tests, benchmarks) */
} cz_acc_mode;

/* The upload piece size when gpu_copy_chunk_bytes is 0 (the daemon's gpus.upload_chunk default). */
#define CZ_TUNING_COPY_CHUNK_DEFAULT ((size_t)64 << 20)

typedef struct cz_tuning {
    cz_split_mode msm_split; /* CPU and GPU MSMs */
    int msm_profile;         /* 1: every MSM prints its phases' times to stderr */
    /* GPU MSM windows, for debugging: 0 derives them from n; otherwise every window is
     * gpu_msm_window_bits wide (4..22), or there are gpu_msm_windows of them (12..64, balanced
     * widths; this one wins when both are set). */
    unsigned gpu_msm_window_bits, gpu_msm_windows;
    size_t gpu_copy_chunk_bytes;       /* uploads in pieces of this size; 0: the default */
    int gpu_copy_whole;                /* 1: an upload is one piece */
    cz_compact_mode gpu_bases_compact; /* sparse GPU bases */
    int gpu_g2_on_cpu; /* 1: GPU keys leave B2 on the host, so the G2 MSM runs on the CPU */
    /* A bellperson GPU key whose B_G2 does not fit beside its G1 bases and a proof's working
     * memory streams it from the host copy through the device in pieces (groth16.md).
     * gpu_g2_stream = 1 streams it even where it would fit, in pieces of gpu_g2_stream_points
     * points when that is not 0 (tests); 0 and 0: resident where it fits, pieces as large as the
     * free memory allows. */
    int gpu_g2_stream;
    size_t gpu_g2_stream_points;
    /* 1: a streamed B_G2 uploads its next piece after the current piece's MSM; 0: before it, on a
     * stream of its own, where the device has room for both (the copy beside the kernels). */
    int gpu_g2_stream_serial;
    /* How the G1 GPU MSMs accumulate their buckets: batch-affine (affine additions whose slopes
     * share one inversion a round) or with mixed XYZZ additions (madd); G2 MSMs always madd. */
    cz_acc_mode gpu_msm_accumulation;
} cz_tuning;

/* Checks the ranges above: CZ_ERANGE naming the field. */
int cz_tuning_check(const cz_tuning *t, cz_errinfo *ei);
/* "auto", "madd" or "batch-affine"; NULL for a value outside cz_acc_mode. */
const char *cz_acc_mode_name(cz_acc_mode m);
/* The cz_acc_mode of one of those names, or -1. */
int cz_acc_mode_from_name(const char *name);
/* Installs *t (a copy; NULL: the defaults). CZ_ERANGE (nothing changes) as cz_tuning_check. */
int cz_tuning_set(const cz_tuning *t, cz_errinfo *ei);
void cz_tuning_get(cz_tuning *out);

/* msm_split as the MSMs take it: -1 auto, 0 forced off, 1 forced on. */
static inline int cz_tuning_split(const cz_tuning *t) {
    return t->msm_split == CZ_SPLIT_OFF ? 0 : t->msm_split == CZ_SPLIT_ON ? 1 : -1;
}

#ifdef __cplusplus
}
#endif

#endif
