/*
 * `cuzk filecoin ...`: the Filecoin proof kinds (docs/filecoin.md). circuit-info for now: the
 * structure of a kind's circuit at a sector size, from its blank synthesis, as one JSON object.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "filecoin/circuit_info.h"

static const char filecoin_help[] =
    "usage: cuzk filecoin circuit-info KIND --sector-size SIZE\n"
    "\n"
    "KIND: winning-post, window-post (porep-c2 and snap-update are not implemented yet).\n"
    "SIZE: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB (or 4KiB, 16KiB, 32KiB, 16MiB, 1GiB; or bytes).\n"
    "\n"
    "circuit-info: synthesizes the circuit without a witness and prints one JSON object:\n"
    "  constraints (as synthesized, without bellperson's input constraints), inputs (ONE\n"
    "  included), aux, a_aux_density, b_input_density, b_aux_density (variables counted),\n"
    "  nnz_a, nnz_b, nnz_c, domain_log. A 32 GiB WindowPoSt partition records 125 M rows: about\n"
    "  9 GB of memory and a minute.\n";

static int circuit_info(int argc, char **argv) {
    const char *kind = NULL;
    uint64_t sector_size = 0;
    cz__post_kind pk;
    cz__circuit_info info;
    cz_errinfo ei;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--sector-size") == 0) {
            if (i + 1 == argc || cz__cli_parse_sector_size(&sector_size, argv[i + 1]) != CZ_OK)
                return cz__cli_usage_error("filecoin circuit-info",
                                           "--sector-size needs a size (2KiB, 32GiB, ...)");
            i++;
        } else if (argv[i][0] == '-') {
            return cz__cli_usage_error("filecoin circuit-info", "unknown option '%s'", argv[i]);
        } else if (kind == NULL) {
            kind = argv[i];
        } else {
            return cz__cli_usage_error("filecoin circuit-info", "unexpected argument '%s'",
                                       argv[i]);
        }
    }
    if (kind == NULL || sector_size == 0)
        return cz__cli_usage_error("filecoin circuit-info", "needs KIND and --sector-size");
    if (strcmp(kind, "winning-post") == 0)
        pk = CZ__POST_WINNING;
    else if (strcmp(kind, "window-post") == 0)
        pk = CZ__POST_WINDOW;
    else if (strcmp(kind, "porep-c2") == 0 || strcmp(kind, "snap-update") == 0)
        return cz__cli_usage_error("filecoin circuit-info", "%s: not implemented yet", kind);
    else
        return cz__cli_usage_error("filecoin circuit-info",
                                   "unknown kind '%s' (winning-post, window-post)", kind);
    cz_errinfo_clear(&ei);
    if (cz__post_circuit_info(&info, pk, sector_size, &ei) != CZ_OK)
        return cz__cli_report("filecoin circuit-info", &ei);
    printf("{\"kind\":\"%s\",\"sector_size\":%llu,\"constraints\":%zu,\"inputs\":%zu,\"aux\":%zu,"
           "\"a_aux_density\":%zu,\"b_input_density\":%zu,\"b_aux_density\":%zu,"
           "\"nnz_a\":%llu,\"nnz_b\":%llu,\"nnz_c\":%llu,\"domain_log\":%u}\n",
           kind, (unsigned long long)sector_size, info.cs.nrows, info.cs.ninput, info.cs.naux,
           info.cs.a_aux, info.cs.b_input, info.cs.b_aux, (unsigned long long)info.cs.nnz[0],
           (unsigned long long)info.cs.nnz[1], (unsigned long long)info.cs.nnz[2], info.domain_log);
    return CZ_EXIT_OK;
}

int cz__cli_filecoin(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(filecoin_help, argc < 2 ? stderr : stdout);
        return argc < 2 ? CZ_EXIT_USAGE : CZ_EXIT_OK;
    }
    if (strcmp(argv[1], "circuit-info") == 0)
        return circuit_info(argc - 1, argv + 1);
    return cz__cli_usage_error("filecoin", "unknown subcommand '%s' (circuit-info)", argv[1]);
}
