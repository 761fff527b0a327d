/*
 * cuzk-bench: the benchmark program, one subcommand per operation (docs/bench.md).
 *
 *   cuzk-bench msm   --curve bn254 --log-n 16,18,20 [--gpu [--device D]] [--runs N] ...
 *   cuzk-bench ntt   --curve bls12381 --log-n 20 --kind forward,inverse ...
 *   cuzk-bench prove --curve bn254 --log-n 16 --check [--gpu] [--cache DIR] ...
 *   cuzk-bench upload --gpu --log-n 27          (host->device copies: pageable vs pinned memory)
 *   cuzk-bench engine --workload porep-synth --scale K -c COUNT -j CONC [--gpu] ...
 *   cuzk-bench timeline LOG [-o OUT.svg]   (a waterfall of an engine log: docs/timeline.md)
 *   cuzk-bench [-a ADDR] single|batch|status|metrics|preload|evict|cancel|sweep ...
 *                                          (a client of cuzk-daemon: bench_client.c)
 *   cuzk-bench list | --help | SUBCOMMAND --help   (the global usage, or one subcommand's)
 *
 * One JSON line per (op, curve, size, mode) on stdout, messages on stderr. Exit status: 0 ok,
 * 1 a measurement failed, 2 usage (bad options, or --gpu where there is no GPU).
 * The parts live in bench/bench_*.c (CMake links them into this program only); the older
 * per-area programs (cuzk-bench-field, -curve, -pairing, -msm, -ntt) stay as they are.
 */
#include <string.h>

#include "bench.h"
#include "cuzk/timeline.h"

static const struct {
    const char *name;
    int (*run)(bench_opts *o);
} cmds[] = {
    {"msm", bench_cmd_msm},
    {"ntt", bench_cmd_ntt},
    {"prove", bench_cmd_prove},
    {"upload", bench_cmd_upload},
};

int main(int argc, char **argv) {
    bench_opts o;
    const char *addr = NULL;
    /* The global -a/--addr ADDR (the daemon's address) before the subcommand. */
    if (argc >= 3 && (strcmp(argv[1], "-a") == 0 || strcmp(argv[1], "--addr") == 0)) {
        addr = argv[2];
        argv[2] = argv[0];
        argc -= 2;
        argv += 2;
        if (argc < 2 || !bench_is_client_cmd(argv[1])) {
            fprintf(stderr, "cuzk-bench: -a/--addr goes with single, batch, status, metrics, "
                            "preload, evict, cancel or sweep\n");
            return BENCH_USAGE;
        }
    }
    if (argc < 2) {
        bench_usage(stderr);
        return BENCH_USAGE;
    }
    if (strcmp(argv[1], "list") == 0 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        bench_usage(stdout);
        return BENCH_OK;
    }
    if (strcmp(argv[1], "timeline") == 0) { /* its own options: src/engine/timeline_cmd.c */
        static char timeline_prog[] = "cuzk-bench timeline"; /* for its usage line */
        argv[1] = timeline_prog;
        return cz_timeline_cmd(argc - 1, argv + 1);
    }
    /* SUBCOMMAND --help (or -h) anywhere after it: that subcommand's usage. */
    for (int a = 2; a < argc; a++)
        if ((strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) &&
            bench_cmd_usage(stdout, argv[1]) == 0)
            return BENCH_OK;
    if (strcmp(argv[1], "engine") == 0) /* its own options: bench_engine.c */
        return bench_cmd_engine(argc - 1, argv + 1);
    if (bench_is_client_cmd(argv[1])) /* a client of cuzk-daemon: bench_client.c */
        return bench_cmd_client(argc - 1, argv + 1, addr);
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        if (strcmp(argv[1], cmds[i].name) != 0)
            continue;
        int rc = bench_cli_parse(&o, argc - 1, argv + 1);
        if (rc == BENCH_OK)
            rc = bench_device_open(&o);
        return rc == BENCH_OK ? cmds[i].run(&o) : rc;
    }
    fprintf(stderr, "cuzk-bench: unknown subcommand '%s' (cuzk-bench list)\n", argv[1]);
    return BENCH_USAGE;
}
