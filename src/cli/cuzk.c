/*
 * cuzk: the command-line tool. `cuzk <command> [options] [files]`; see usage() and docs/cli.md.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static void usage(FILE *out) {
    fputs(
        "usage: cuzk <command> [options] [files]\n"
        "\n"
        "commands:\n"
        "  prove ZKEY WTNS PROOF.json PUBLIC.json   prove with a snarkjs proving key and witness\n"
        "  prove --params KEY.params R1CS WTNS -o PROOF.bin --public PUBLIC.json\n"
        "                                           prove with a bellperson key (Filecoin's)\n"
        "  verify VK.json PUBLIC.json PROOF.json    verify a Groth16 proof (snarkjs JSON files)\n"
        "  verify --vk KEY.vk PROOF.bin PUBLIC.json...\n"
        "                                           verify bellperson proofs (one input file per\n"
        "                                           partition)\n"
        "  vk ZKEY VK.json                          export the verification key of a proving key\n"
        "  setup R1CS ZKEY                          make an INSECURE test proving key\n"
        "  setup --bellperson R1CS -o KEY.params --vk KEY.vk\n"
        "                                           the same in bellperson's format\n"
        "  info FILE                                say what a file is (zkey, wtns, r1cs, JSON,\n"
        "                                           bellperson .vk, .params, proofs)\n"
        "  params list|check [DIR]|digest FILE...   Filecoin's parameter files and their digests\n"
        "  filecoin circuit-info KIND --sector-size SIZE\n"
        "                                           the structure of a Filecoin circuit (PoSt)\n"
        "\n"
        "`cuzk <command> --help` describes each command.\n"
        "exit codes: 0 success (verify: valid), 1 invalid proof, 2 usage error, 3 bad input,\n"
        "            4 out of memory or internal error\n",
        out);
}

int main(int argc, char **argv) {
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
    } commands[] = {
        {"prove", cz__cli_prove},       {"verify", cz__cli_verify}, {"vk", cz__cli_vk},
        {"setup", cz__cli_setup},       {"info", cz__cli_info},     {"params", cz__cli_params},
        {"filecoin", cz__cli_filecoin},
    };
    if (argc < 2) {
        usage(stderr);
        return CZ_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CZ_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "cuzk: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return CZ_EXIT_USAGE;
}
