/*
 * cuzk-bench options: one parser for every subcommand. Options that belong to one subcommand
 * (--group, --kind, --cache, --check) are refused by the others, so a typo never silently
 * measures something else. Lists ("16,18,20") and repeated options add up.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

const char *const bench_ntt_kind_names[4] = {"forward", "inverse", "coset-forward",
                                             "coset-inverse"};

const char *bench_curve_name(cz_curve_id c) {
    return c == CZ_CURVE_BN254 ? "bn254" : "bls12381";
}

void bench_usage(FILE *f) {
    fprintf(
        f,
        "usage: cuzk-bench SUBCOMMAND [options]\n"
        "subcommands:\n"
        "  msm     multi-scalar multiplication over random scalars (CPU G1/G2, GPU G1)\n"
        "  ntt     number-theoretic transform over Fr\n"
        "  prove   Groth16 proofs of a multiplication chain of domain 2^K\n"
        "  upload  --gpu: host->device copy of 2^K Fr, pageable vs pinned host memory\n"
        "  engine  proofs through the in-process proving engine (its own options)\n"
        "  timeline LOG  a waterfall of an engine log (its own options)\n"
        "  list    this text (also --help); cuzk-bench SUBCOMMAND --help: that one's usage\n"
        "options (all subcommands):\n"
        "  --curve bn254|bls12381   repeatable or a list (default bn254)\n"
        "  --log-n K                size 2^K; repeatable or a list like 16,18,20\n"
        "                           (default 16; prove: 10)\n"
        "  --runs N                 timed runs (default 5)\n"
        "  --warmup N               untimed runs first (default 1)\n"
        "  --threads T              CPU thread pool size (default 0: one per CPU)\n"
        "  --gpu [--device D]       run on CUDA device D (default 0) instead of the CPU\n"
        "  --copies | --no-copies   GPU msm/ntt: time only with (or only without) the host\n"
        "                           copies in and out (default: both, one line each)\n"
        "msm:   --group g1|g2       (default g1)\n"
        "       --scalars uniform|bits|equal|porep   scalar set (default uniform; bits: 98.7 %% "
        "0/1;\n"
        "                porep: bits, and 3/4 of the bases infinity like B2)\n"
        "       --split auto|on|off the 0/1 split, GPU or CPU (default auto: the library decides)\n"
        "       --profile           each MSM's phase times to stderr (cz_tuning.msm_profile)\n"
        "       --window-bits C     GPU Pippenger windows of C bits, 4..22 (default: the\n"
        "                           library's width for the size; cz_tuning.gpu_msm_window_bits)\n"
        "       --accumulation auto|madd|batch-affine|both   GPU G1 bucket accumulation (default\n"
        "                           auto; cz_tuning.gpu_msm_accumulation; both: madd and\n"
        "                           batch-affine, one line each)\n"
        "ntt:   --kind forward|inverse|coset-forward|coset-inverse   repeatable or a list\n"
        "prove: --cache DIR         circuits and keys are kept there (default ./bench-cache)\n"
        "       --check             verify every proof (not timed)\n"
        "output: one JSON line per (op, curve, size, mode) on stdout; see docs/bench.md\n"
        "a client of cuzk-daemon: cuzk-bench [-a unix:///PATH|HOST:PORT] SUBCOMMAND\n"
        "  single   one proof          batch -c COUNT -j CONCURRENCY [--warmup N]\n"
        "  status | metrics | preload ID | evict ID | cancel JOB\n"
        "  proofs:  --workload porep-synth [--scale K] [--partitions N] [--curve C] [--seed S]\n"
        "           | --workload zkey --zkey F --wtns F\n"
        "           | --workload winning-post|window-post --request DIR (fake-vanilla's)\n"
        "           | --workload porep-c2 --c1 FILE [--miner ID] [--sector N] [--registered-proof "
        "N]\n"
        "           --priority P, --id ID and -o PROOF_FILE (single)\n"
        "  sweep --key TABLE.KEY --values V1,V2,.. [--config BASE] [--daemon PATH]\n"
        "        [--daemon-arg ARG].. plus the batch options: one daemon per value, one table\n"
        "exit: 0 ok, 1 failure, 2 usage (or --gpu where no GPU is)\n");
}

static const char common_opts[] =
    "options:\n"
    "  --curve bn254|bls12381   repeatable or a list (default bn254)\n"
    "  --log-n K                size 2^K; repeatable or a list like 16,18,20\n"
    "  --runs N                 timed runs (default 5)\n"
    "  --warmup N               untimed runs first (default 1)\n"
    "  --threads T              CPU thread pool size (default 0: one per CPU)\n"
    "  --gpu [--device D]       run on CUDA device D (default 0) instead of the CPU\n";

static const char proof_opts[] =
    "proofs: --workload porep-synth [--scale K] [--partitions N] [--curve C] [--seed S]\n"
    "        | --workload zkey --zkey F --wtns F\n"
    "        | --workload winning-post|window-post --request DIR: DIR/request.txt as\n"
    "          `cuzk filecoin fake-vanilla` writes it (the kind's priority unless given)\n"
    "        | --workload porep-c2 --c1 FILE [--miner ID] [--sector N]: a POREP_SEAL_COMMIT\n"
    "          of the C1 (Curio's envelope, or bare with --sector); miner default 1000\n"
    "        --priority low|normal|high|critical\n"
    "        --timeout S (0: none); -a/--addr before the subcommand, or here\n";

static const struct {
    const char *cmd, *usage, *opts;
} sub_usage[] = {
    {"msm",
     "usage: cuzk-bench msm [options]\n"
     "Multi-scalar multiplication over random scalars (CPU G1/G2, GPU G1/G2), default 2^16.\n",
     "  --copies | --no-copies   GPU: time only with (or only without) the host copies\n"
     "  --group g1|g2            (default g1)\n"
     "  --scalars uniform|bits|equal|porep   scalar set (default uniform; bits: 98.7 % 0/1;\n"
     "                           porep: bits, and 3/4 of the bases infinity like B2)\n"
     "  --split auto|on|off      the 0/1 split, GPU or CPU (default auto)\n"
     "  --profile                each MSM's phase times to stderr (cz_tuning.msm_profile)\n"
     "  --window-bits C          GPU Pippenger windows of C bits, 4..22 (default: the\n"
     "                           library's width for the size; cz_tuning.gpu_msm_window_bits)\n"
     "  --accumulation auto|madd|batch-affine|both   GPU G1 bucket accumulation (default\n"
     "                           auto; cz_tuning.gpu_msm_accumulation; both: madd and\n"
     "                           batch-affine, one line each)\n"},
    {"ntt",
     "usage: cuzk-bench ntt [options]\n"
     "One in-place number-theoretic transform of 2^K elements of Fr, default 2^16.\n",
     "  --copies | --no-copies   GPU: time only with (or only without) the host copies\n"
     "  --kind forward|inverse|coset-forward|coset-inverse   repeatable or a list\n"},
    {"prove",
     "usage: cuzk-bench prove [options]\n"
     "Groth16 proofs of a multiplication chain of domain 2^K (default 2^10).\n",
     "  --cache DIR              circuits and keys are kept there (default ./bench-cache)\n"
     "  --check                  verify every proof (not timed)\n"},
    {"upload",
     "usage: cuzk-bench upload --gpu [options]\n"
     "Host->device copy of 2^K Fr, pageable vs pinned host memory (default 2^16).\n",
     ""},
    {"engine",
     "usage: cuzk-bench engine [options]\n"
     "Proofs through the in-process proving engine, as the daemon runs them.\n"
     "  --workload porep-synth [--scale K (12)] [--partitions N (10)] [--curve C (bls12381)]\n"
     "             [--seed S] [--bench-key] [--bellperson] [--cache DIR]\n"
     "  --workload zkey --zkey F --wtns F\n"
     "  -c COUNT -j CONCURRENCY  jobs, and at most that many in flight (default 1, 1)\n"
     "  --gpu [--device D,...]   the GPUs; --gw N GPU workers per device\n"
     "  --partition-workers N --gpu-threads N --synthesis-threads N --queue-depth N\n"
     "  --budget-gib G           the memory budget;  --pinned | --pageable;  --prefill\n"
     "  --timeline FILE          the engine's TIMELINE log (cuzk-bench timeline FILE)\n"
     "  --warmup P               partitions of the untimed warm-up job (0: none)\n"
     "  --sweep GW:PW,...        one engine per pair, one summary line each\n",
     NULL},
    {"single",
     "usage: cuzk-bench [-a ADDR] single [proof options] [--id ID]\n"
     "One proof from cuzk-daemon, its line and times.\n",
     proof_opts},
    {"batch",
     "usage: cuzk-bench [-a ADDR] batch [proof options] -c COUNT -j CONCURRENCY "
     "[--warmup N]\n"
     "COUNT proofs from cuzk-daemon, at most CONCURRENCY in flight, and a summary.\n",
     proof_opts},
    {"sweep",
     "usage: cuzk-bench sweep --key TABLE.KEY --values V1,V2,.. [--config BASE] [--daemon PATH]\n"
     "       [--daemon-arg ARG].. [--start-timeout S] [--stop-timeout S] plus the batch options\n"
     "One cuzk-daemon per value of the configuration key, a batch against each, one table.\n",
     proof_opts},
    {"status", "usage: cuzk-bench [-a ADDR] status\nThe daemon's status.\n", NULL},
    {"metrics", "usage: cuzk-bench [-a ADDR] metrics\nThe daemon's metrics.\n", NULL},
    {"preload", "usage: cuzk-bench [-a ADDR] preload ID\nLoads a key (ID: a .zkey path).\n", NULL},
    {"evict", "usage: cuzk-bench [-a ADDR] evict ID\nDrops a loaded key.\n", NULL},
    {"cancel", "usage: cuzk-bench [-a ADDR] cancel JOB\nCancels a queued or running job.\n", NULL},
};

int bench_cmd_usage(FILE *f, const char *cmd) {
    for (size_t i = 0; i < sizeof sub_usage / sizeof sub_usage[0]; i++) {
        if (strcmp(cmd, sub_usage[i].cmd) != 0)
            continue;
        fputs(sub_usage[i].usage, f);
        if (i < 4) { /* msm, ntt, prove, upload: the common options and their own */
            fputs(common_opts, f);
            fputs(sub_usage[i].opts, f);
            fputs("output: one JSON line per (op, curve, size, mode) on stdout; docs/bench.md\n",
                  f);
        } else if (sub_usage[i].opts != NULL) {
            fputs(sub_usage[i].opts, f);
        }
        return 0;
    }
    return -1;
}

int bench_usage_error(const char *cmd, const char *what, const char *arg) {
    fprintf(stderr, "cuzk-bench %s: %s%s%s (cuzk-bench --help)\n", cmd, what, arg ? ": " : "",
            arg ? arg : "");
    return BENCH_USAGE;
}

int bench_parse_long(long *out, const char *s, long lo, long hi) {
    char *end;
    errno = 0;
    long v = s != NULL ? strtol(s, &end, 10) : 0;
    if (s == NULL || errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Calls item(o, token) for each comma-separated token of list; -1 on the first failure. */
static int each_item(bench_opts *o, const char *list, int (*item)(bench_opts *, const char *)) {
    char buf[256];
    if (strlen(list) >= sizeof buf || list[0] == '\0')
        return -1;
    strcpy(buf, list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t != NULL;
         t = strtok_r(NULL, ",", &save))
        if (item(o, t) != 0)
            return -1;
    return 0;
}

static int add_curve(bench_opts *o, const char *s) {
    if (strcmp(s, "bn254") == 0)
        o->curves |= 1u << CZ_CURVE_BN254;
    else if (strcmp(s, "bls12381") == 0)
        o->curves |= 1u << CZ_CURVE_BLS12381;
    else
        return -1;
    return 0;
}

static int add_size(bench_opts *o, const char *s) {
    long v;
    if (o->nsizes == BENCH_MAX_SIZES || bench_parse_long(&v, s, 1, 30) != 0)
        return -1;
    o->log_n[o->nsizes++] = (unsigned)v;
    return 0;
}

static int add_kind(bench_opts *o, const char *s) {
    for (unsigned k = 0; k < 4; k++)
        if (strcmp(s, bench_ntt_kind_names[k]) == 0) {
            o->ntt_kinds |= 1u << k;
            return 0;
        }
    return -1;
}

int bench_cli_parse(bench_opts *o, int argc, char **argv) {
    const char *cmd = argv[0];
    int is_msm = strcmp(cmd, "msm") == 0, is_ntt = strcmp(cmd, "ntt") == 0;
    int is_prove = strcmp(cmd, "prove") == 0, device_set = 0;
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->runs = 5;
    o->warmup = 1;
    o->copies = -1;
    o->split = -1;
    o->cache = "./bench-cache";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        int takes =
            strcmp(a, "--curve") == 0 || strcmp(a, "--log-n") == 0 || strcmp(a, "--runs") == 0 ||
            strcmp(a, "--warmup") == 0 || strcmp(a, "--device") == 0 ||
            strcmp(a, "--threads") == 0 || strcmp(a, "--group") == 0 || strcmp(a, "--kind") == 0 ||
            strcmp(a, "--cache") == 0 || strcmp(a, "--scalars") == 0 || strcmp(a, "--split") == 0 ||
            strcmp(a, "--accumulation") == 0 || strcmp(a, "--window-bits") == 0;
        if (takes && v == NULL)
            return bench_usage_error(cmd, "missing value after", a);
        if (takes)
            i++;
        if (strcmp(a, "--curve") == 0) {
            if (each_item(o, v, add_curve) != 0)
                return bench_usage_error(cmd, "--curve takes bn254 or bls12381", v);
        } else if (strcmp(a, "--log-n") == 0) {
            if (each_item(o, v, add_size) != 0)
                return bench_usage_error(cmd, "--log-n takes sizes 1..30 (at most 32 of them)", v);
        } else if (strcmp(a, "--runs") == 0) {
            if (bench_parse_long(&n, v, 1, BENCH_MAX_RUNS) != 0)
                return bench_usage_error(cmd, "--runs takes 1..1000", v);
            o->runs = (int)n;
        } else if (strcmp(a, "--warmup") == 0) {
            if (bench_parse_long(&n, v, 0, BENCH_MAX_RUNS) != 0)
                return bench_usage_error(cmd, "--warmup takes 0..1000", v);
            o->warmup = (int)n;
        } else if (strcmp(a, "--device") == 0) {
            if (bench_parse_long(&n, v, 0, 1023) != 0)
                return bench_usage_error(cmd, "--device takes a device number", v);
            o->device = (int)n;
            device_set = 1;
        } else if (strcmp(a, "--threads") == 0) {
            if (bench_parse_long(&n, v, 0, 4096) != 0)
                return bench_usage_error(cmd, "--threads takes 0..4096", v);
            o->threads = (size_t)n;
        } else if (strcmp(a, "--gpu") == 0) {
            o->gpu = 1;
        } else if (strcmp(a, "--copies") == 0 || strcmp(a, "--no-copies") == 0) {
            o->copies = strcmp(a, "--copies") == 0;
        } else if (strcmp(a, "--group") == 0 && is_msm) {
            if (strcmp(v, "g1") != 0 && strcmp(v, "g2") != 0)
                return bench_usage_error(cmd, "--group takes g1 or g2", v);
            o->g2 = strcmp(v, "g2") == 0;
        } else if (strcmp(a, "--scalars") == 0 && is_msm) {
            int k = 0;
            while (k < 4 && strcmp(v, bench_scalars_names[k]) != 0)
                k++;
            if (k == 4)
                return bench_usage_error(cmd, "--scalars takes uniform, bits, equal or porep", v);
            o->scalars = k;
        } else if (strcmp(a, "--split") == 0 && is_msm) {
            if (strcmp(v, "auto") != 0 && strcmp(v, "on") != 0 && strcmp(v, "off") != 0)
                return bench_usage_error(cmd, "--split takes auto, on or off", v);
            o->split = strcmp(v, "auto") == 0 ? -1 : strcmp(v, "on") == 0;
        } else if (strcmp(a, "--accumulation") == 0 && is_msm) {
            int k = bench_acc_from_name(v);
            if (k < 0)
                return bench_usage_error(
                    cmd, "--accumulation takes auto, madd, batch-affine or both", v);
            o->accumulation = k;
        } else if (strcmp(a, "--profile") == 0 && is_msm) {
            o->profile = 1;
        } else if (strcmp(a, "--window-bits") == 0 && is_msm) {
            if (bench_parse_long(&n, v, 4, 22) != 0)
                return bench_usage_error(cmd, "--window-bits takes 4..22", v);
            o->window_bits = (unsigned)n;
        } else if (strcmp(a, "--kind") == 0 && is_ntt) {
            if (each_item(o, v, add_kind) != 0)
                return bench_usage_error(
                    cmd, "--kind takes forward, inverse, coset-forward, coset-inverse", v);
        } else if (strcmp(a, "--cache") == 0 && is_prove) {
            o->cache = v;
        } else if (strcmp(a, "--check") == 0 && is_prove) {
            o->check = 1;
        } else {
            return bench_usage_error(cmd, "unknown option", a);
        }
    }
    if (device_set && !o->gpu)
        return bench_usage_error(cmd, "--device needs --gpu", NULL);
    if (o->copies >= 0 && !o->gpu)
        return bench_usage_error(cmd, "--copies / --no-copies need --gpu", NULL);
    if (o->curves == 0)
        o->curves = 1u << CZ_CURVE_BN254;
    if (o->ntt_kinds == 0)
        o->ntt_kinds = 1u << BENCH_NTT_FORWARD;
    if (o->nsizes == 0)
        o->log_n[o->nsizes++] = is_prove ? 10 : 16;
    return BENCH_OK;
}
