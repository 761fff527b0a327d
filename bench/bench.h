/*
 * cuzk-bench internals: the pieces of the one benchmark program bench/cuzk_bench.c, one file per
 * concern (bench_cli.c options, bench_json.c output, bench_time.c timing and devices,
 * bench_inputs.c inputs, bench_msm.c / bench_ntt.c / bench_prove.c the subcommands).
 *
 * Every subcommand takes the parsed bench_opts, runs each (curve, size, mode) it names and prints
 * one JSON line per result on stdout; messages go to stderr. Return values are exit codes:
 * BENCH_OK, BENCH_FAIL (something failed while running) or BENCH_USAGE (a bad request, e.g.
 * --gpu where no GPU is). docs/bench.md describes the options and the output.
 */
#ifndef CUZK_BENCH_BENCH_H
#define CUZK_BENCH_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/curve_id.h"
#include "cuzk/err.h"
#include "cuzk/threadpool.h"
#include "cuzk/tuning.h"
#include "bench_util.h" /* BENCH_ACC_BOTH, bench_acc_from_name */

#define BENCH_OK    0
#define BENCH_FAIL  1
#define BENCH_USAGE 2

#define BENCH_MAX_SIZES 32
#define BENCH_MAX_RUNS  1000

/* NTT kinds (bench_opts.ntt_kinds is a bit mask of 1 << kind). */
enum { BENCH_NTT_FORWARD, BENCH_NTT_INVERSE, BENCH_NTT_COSET_FORWARD, BENCH_NTT_COSET_INVERSE };
extern const char *const bench_ntt_kind_names[4];

typedef struct bench_opts {
    const char *cmd; /* "msm", "ntt", "prove" */
    unsigned curves; /* bit mask of 1 << cz_curve_id; default BN254 */
    unsigned log_n[BENCH_MAX_SIZES];
    size_t nsizes;
    int runs, warmup;     /* defaults 5 and 1 */
    int gpu, device;      /* --gpu, --device D (default 0) */
    size_t threads;       /* --threads T; 0 = one per online CPU */
    int copies;           /* GPU: -1 both (default), 1 --copies, 0 --no-copies */
    int g2;               /* msm --group g2 */
    unsigned ntt_kinds;   /* ntt --kind: mask, default forward */
    const char *cache;    /* prove --cache DIR, default ./bench-cache */
    int check;            /* prove --check */
    int scalars;          /* msm --scalars: BENCH_SCALARS_* */
    int split;            /* msm --split (GPU or CPU): -1 auto (default), 0 off, 1 on */
    int profile;          /* msm --profile: cz_tuning.msm_profile (phase times to stderr) */
    unsigned window_bits; /* msm --window-bits: cz_tuning.gpu_msm_window_bits (0: the library's) */
    int accumulation;     /* msm --accumulation (GPU): a cz_acc_mode (default 0, auto), or 3: both
                           * madd and batch-affine (BENCH_ACC_BOTH) */
    char devname[256];    /* "cpu" or the GPU's name, set by bench_device_open */
    size_t pool_threads;  /* the CPU pool's size, set by the subcommand */
} bench_opts;

/* bench_cli.c */
const char *bench_curve_name(cz_curve_id c);
/* Parses argv[1..] (argv[0] is the subcommand) into o; BENCH_OK or BENCH_USAGE (message
 * printed). */
int bench_cli_parse(bench_opts *o, int argc, char **argv);
void bench_usage(FILE *f);
/* `cuzk-bench CMD --help`: CMD's usage (timeline has its own). 0, or -1 for an unknown CMD. */
int bench_cmd_usage(FILE *f, const char *cmd);
/* Prints "cuzk-bench CMD: WHAT: ARG (cuzk-bench --help)" on stderr; returns BENCH_USAGE. */
int bench_usage_error(const char *cmd, const char *what, const char *arg);
/* A whole decimal number in [lo, hi] (s may be NULL); 0, or -1 without touching *out. */
int bench_parse_long(long *out, const char *s, long lo, long hi);

/* bench_time.c */
typedef int (*bench_fn)(void *ctx, cz_errinfo *ei);
/*
 * Checks that --gpu can run: a CUDA build and device o->device present; fills o->devname
 * ("cpu" without --gpu). BENCH_OK, or BENCH_USAGE with a message.
 */
int bench_device_open(bench_opts *o);
/*
 * Calls fn warmup times untimed, then runs times; ms[i] = milliseconds of call i. With gpu_dev
 * >= 0 in a CUDA build, times between CUDA events on that device's legacy default stream (what
 * every cuzk GPU call runs on); otherwise the monotonic clock. CZ_OK or fn's error.
 */
int bench_time(double *ms, int runs, int warmup, int gpu_dev, bench_fn fn, void *ctx,
               cz_errinfo *ei);

/*
 * Runs run(o, curve, log_n, pool) for every requested curve and size, in order, until one fails;
 * with a CPU pool of o->threads when with_pool (o->pool_threads says its size), else pool NULL.
 * Returns the first failure's code, BENCH_OK, or BENCH_FAIL when the pool cannot start.
 */
typedef int (*bench_size_fn)(const bench_opts *o, cz_curve_id curve, unsigned log_n,
                             cz_threadpool *pool);
int bench_each_size(bench_opts *o, int with_pool, bench_size_fn run);

/* bench_json.c: one result line, built member by member. */
typedef struct bench_json {
    char *buf;
    size_t len, cap;
} bench_json;
/* Starts a line with the members every result has: bench, op, curve, log_n, n, mode, copies
 * (GPU only; copies < 0 leaves it out), device, threads (CPU), runs, warmup, median_ms, min_ms,
 * max_ms, runs_ms (the raw times in run order). */
void bench_json_result(bench_json *j, const bench_opts *o, const char *op, cz_curve_id curve,
                       unsigned log_n, int copies, const double *ms);
void bench_json_str(bench_json *j, const char *key, const char *v);
void bench_json_int(bench_json *j, const char *key, long long v);
void bench_json_num(bench_json *j, const char *key, double v);
void bench_json_bool(bench_json *j, const char *key, int v);
/* A member's key ("key":), then its value as JSON text in as many pieces as the caller likes. */
void bench_json_key(bench_json *j, const char *key);
void bench_json_text(bench_json *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The median of n >= 1 values (sorts v). */
double bench_median(double *v, size_t n);
/* Closes the object, prints it as one line on stdout and frees the buffer. */
void bench_json_print(bench_json *j);

/* bench_inputs.c: reproducible inputs (seeded, not random). */
/* n Montgomery-form Fr elements of curve (32 bytes each), uniform below 2^252. */
void bench_random_fr(void *out, cz_curve_id curve, size_t n, uint64_t seed);
/* Scalar sets of msm --scalars. */
enum { BENCH_SCALARS_UNIFORM, BENCH_SCALARS_BITS, BENCH_SCALARS_EQUAL, BENCH_SCALARS_POREP };
extern const char *const bench_scalars_names[4];
/* Reshapes n uniform scalars (bench_random_fr) in place: BITS keeps 1.3 % of them and makes the
 * rest 0 or 1 (half each; a Filecoin PoRep aux vector is 98.7 % bits), EQUAL copies the first
 * one everywhere (every digit of a window in one bucket: the most skewed load), POREP is BITS
 * (and bench_shape_bases makes 3/4 of the bases infinity, like the B2 bases of a PoRep key). */
void bench_shape_scalars(void *s, cz_curve_id curve, size_t n, int kind, uint64_t seed);
/* n affine points of G1 (g2 = 0) or G2: 2^16 distinct points [a + i·d]G, repeated to fill n.
 * NULL when out of memory; free with free(). */
void *bench_make_bases(cz_curve_id curve, int g2, size_t n, uint64_t seed);
size_t bench_affine_size(cz_curve_id curve, int g2);
/* For the POREP scalar set: sets a seeded 3/4 of the n bases (elem bytes each) to infinity
 * (all-zero coordinates); other sets leave them alone. */
void bench_shape_bases(void *bases, size_t elem, size_t n, int kind, uint64_t seed);

/* bench_summary.c: the summary of a batch of proofs (engine, and the daemon client's batch). */
typedef struct bench_agg {
    double sum, min, max;
    int n;
} bench_agg;
typedef struct bench_batch {
    int count, done;       /* proofs asked for, proofs done */
    double batch_ms;       /* wall time of the whole batch, set by the caller */
    bench_agg wall, prove; /* per proof, ms; prove.n == 0 when not known (engine) */
} bench_batch;
void bench_batch_init(bench_batch *b, int count);
/* One proof: its wall time, its prove time (< 0: not known), whether it is done. */
void bench_batch_add(bench_batch *b, double wall_ms, double prove_ms, int done);
double bench_batch_proofs_per_min(const bench_batch *b); /* count / batch minutes */
double bench_batch_s_per_proof(const bench_batch *b);    /* batch seconds / count */
/* The timing members of a summary line, without braces: avg_wall_s, min_wall_s, max_wall_s,
 * batch_s, proofs_per_min, s_per_proof, and avg/min/max_prove_s when prove times are known. */
void bench_batch_json(FILE *f, const bench_batch *b);
/* The same as one text line on stderr: "TAG: D/N done; avg ... s/proof EXTRA". */
void bench_batch_text(const bench_batch *b, const char *tag, const char *extra);

/* The subcommands. */
int bench_cmd_msm(bench_opts *o);
int bench_cmd_ntt(bench_opts *o);
int bench_cmd_prove(bench_opts *o);
int bench_cmd_upload(bench_opts *o); /* bench_upload.c */
/* engine has its own options (bench_engine.c): argv[0] is "engine". */
int bench_cmd_engine(int argc, char **argv);
/* The daemon's client (bench_client.c, bench_client_sweep.c): argv[0] is the subcommand (single,
 * batch, status, preload, evict, cancel, metrics, sweep); addr is the global -a/--addr or NULL.
 * Without the daemon in the build it prints "built without the daemon client" (exit 2). */
int bench_is_client_cmd(const char *name);
int bench_cmd_client(int argc, char **argv, const char *addr);

#endif
