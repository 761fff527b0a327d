/*
 * Shared pieces of the `cuzk` command-line tool: exit codes, option parsing helpers and error
 * reporting. Each subcommand lives in its own cmd_<name>.c and is called from cuzk.c.
 *
 * Exit codes (also in docs/cli.md and `cuzk --help`):
 *   0  success (for verify: the proof is valid)
 *   1  verify: the proof is invalid
 *   2  usage error (unknown command or option, missing argument)
 *   3  bad input (a file that cannot be read or is malformed, mismatched files)
 *   4  resources or internal failure (out of memory, no randomness, no GPU for --gpu, a GPU
 *      failure)
 */
#ifndef CUZK_CLI_CLI_H
#define CUZK_CLI_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/params.h"
#include "cuzk/r1cs.h"

enum {
    CZ_EXIT_OK = 0,
    CZ_EXIT_INVALID = 1,
    CZ_EXIT_USAGE = 2,
    CZ_EXIT_INPUT = 3,
    CZ_EXIT_INTERNAL = 4,
};

/* Prints "cuzk <cmd>: <message>" for ei to stderr and returns the exit code for its error. */
int cz__cli_report(const char *cmd, const cz_errinfo *ei);
/* The same for a command whose input was checked (a prover's request): a check or format error
 * (CZ_EVERIFY, CZ_EINVAL, CZ_EFORMAT, CZ_ENONCANON) is the input's fault, exit 3. */
int cz__cli_input_report(const char *cmd, const cz_errinfo *ei);
/* A verifier's answer rc: "valid" (CZ_OK, exit 0) or "invalid" (CZ_EVERIFY, exit 1, why on
 * stderr) on stdout; any other error reported as cz__cli_report does. */
int cz__cli_verdict(const char *cmd, int rc, const cz_errinfo *ei);
/* Prints a usage error and returns CZ_EXIT_USAGE. */
int cz__cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Parses a thread count ("0" = all CPUs). CZ_OK or CZ_EINVAL. */
int cz__cli_parse_threads(size_t *out, const char *s);
/* Parses a CUDA device number (0..1024). CZ_OK or CZ_EINVAL. */
int cz__cli_parse_device(int *out, const char *s);
/* Parses a sector size: "2KiB", "512MiB", "32GiB" (K, M, G too) or bytes. CZ_OK or CZ_EINVAL. */
int cz__cli_parse_sector_size(uint64_t *out, const char *s);
/* Parses 64 hex digits (big-endian, as people write numbers) into 32 little-endian bytes. */
int cz__cli_parse_hex32(uint8_t out[32], const char *s);
/* Makes the output folder dir of a command that writes several files (its parent must exist);
 * one that exists is used as it is. CZ_EXIT_OK, or CZ_EXIT_INPUT with the reason on stderr. */
int cz__cli_out_dir(const char *cmd, const char *dir);

/* The options both forms of `cuzk prove` take: --threads/-t N, --r/--s HEX, --gpu, --device N,
 * --verify, --verbose/-v. */
typedef struct cz__cli_prove_opts {
    size_t threads;
    uint8_t r[32], s[32]; /* little-endian, valid when have_rs */
    int have_r, have_s, have_rs, use_gpu, device, have_device, verify, verbose;
} cz__cli_prove_opts;

#define CZ__CLI_NOT_MINE (-1)
/* When argv[*i] is one of those options, takes it (and its value, advancing *i) into o and returns
 * CZ_EXIT_OK, or prints the usage error and returns CZ_EXIT_USAGE; CZ__CLI_NOT_MINE otherwise. */
int cz__cli_prove_option(cz__cli_prove_opts *o, int argc, char **argv, int *i);
/* After the loop: both or neither of --r and --s (sets have_rs), --device only with --gpu.
 * CZ_EXIT_OK or the usage error's CZ_EXIT_USAGE. */
int cz__cli_prove_opts_check(cz__cli_prove_opts *o);

/* The options the Filecoin commands take alike: when argv[*i] is --gpu (device 0 unless --device
 * gave one), --device N or --sector-size SIZE, takes it (and its value, advancing *i) into *dev
 * or *sector_size and returns CZ_EXIT_OK, or prints the usage error for cmd and returns
 * CZ_EXIT_USAGE; CZ__CLI_NOT_MINE otherwise. */
int cz__cli_gpu_or_size_option(int *dev, uint64_t *sector_size, const char *cmd, int argc,
                               char **argv, int *i);

/* "DIR/name" of the built-in manifest's file of proof, sector_size and ext: malloc'd; NULL when
 * the manifest has no such file or memory is short. */
char *cz__cli_param_path(const char *dir, cz_param_proof proof, uint64_t sector_size,
                         cz_param_ext ext);
/* Writes len bytes at data to a new file path (CZ_EIO naming it). */
int cz__cli_write_file(const char *path, const void *data, size_t len, cz_errinfo *ei);

/* Decodes an even-length hex string ("0x" allowed) into a new buffer (free it), *len its
 * length; NULL for an empty, odd or non-hex string or no memory. */
uint8_t *cz__cli_parse_hex(const char *s, size_t *len);

/* Makes the INSECURE bellperson key of cs (what names it in the messages; td NULL: random) and
 * writes params_path and, when not NULL, vk_path, with progress lines on stderr. */
int cz__cli_bellperson_key(const char *what, const cz_r1cs *cs, const char *params_path,
                           const char *vk_path, const cz_groth16_trapdoor *td, cz_threadpool *pool,
                           int dev, cz_errinfo *ei);

/* The trapdoor of setup's --seed HEX (cz_groth16_trapdoor_from_seed) into td, *use pointing at
 * it; seed_hex NULL: *use NULL, a random trapdoor. CZ_EXIT_OK, or the usage error's CZ_EXIT_USAGE
 * for a seed that is not an even number of hex digits. The caller wipes td. */
int cz__cli_setup_trapdoor(cz_groth16_trapdoor *td, const cz_groth16_trapdoor **use,
                           const char *cmd, const char *seed_hex);

/* Records the circuit of a Filecoin kind's shape into r on pool (cz__porep_record and its kin). */
typedef int (*cz__cli_record_fn)(cz_r1cs *r, const void *shape, cz_threadpool *pool,
                                 cz_errinfo *ei);
/* The work of `cuzk filecoin setup` once the kind's shape and key files are known: records the
 * circuit on nthreads threads and writes its INSECURE key (cz__cli_bellperson_key: what, td, dev)
 * to params_path and vk_path. CZ_EXIT_OK, or the exit code of the failure reported for cmd. */
int cz__cli_filecoin_key(const char *cmd, const char *what, cz__cli_record_fn record,
                         const void *shape, const char *params_path, const char *vk_path,
                         const cz_groth16_trapdoor *td, size_t nthreads, int dev);

/* The bellperson prover's options of a Filecoin command into bo: pool, GPU dev (dev < 0: the
 * CPU), random r and s. */
void cz__cli_bp_opts_init(cz_groth16_bp_opts *bo, cz_threadpool *pool, int dev);
/* Writes the nproofs partition proofs of `cuzk filecoin prove` (each verified against the key at
 * params_path) to path and says so on stderr. */
int cz__cli_write_partition_proofs(const char *path, const cz_groth16_proof *proofs,
                                   unsigned nproofs, const char *params_path, cz_errinfo *ei);

/* Checks nproofs proofs against vk for a Filecoin kind's request (cz__porep_verify and its kin). */
typedef int (*cz__cli_verify_fn)(const cz_groth16_vk *vk, const void *request,
                                 const cz_groth16_proof *proofs, unsigned nproofs, cz_errinfo *ei);
/* The work of `cuzk filecoin verify` once the request and the key file are known: reads the key
 * at vk_path and the proofs at proof_path, checks them with verify and prints the verdict
 * (cz__cli_verdict). The exit code. */
int cz__cli_filecoin_verdict(const char *cmd, const char *vk_path, const char *proof_path,
                             cz__cli_verify_fn verify, const void *request, cz_errinfo *ei);

/* The Groth16 verifying key of the bellperson .vk at vk_path (or of the .params it may name: the
 * key it starts with, cz_bellperson_vk_read_any) into vk and the 192-byte
 * BLS12-381 proofs of the file at proof_path into a new array *proofs (free it) of *nproofs. On
 * failure nothing is left to free. */
int cz__cli_vk_and_proofs(const char *vk_path, const char *proof_path, cz_groth16_vk *vk,
                          cz_groth16_proof **proofs, size_t *nproofs, cz_errinfo *ei);

/* Writes the verification key of the proving key at zkey_path to vk_path (snarkjs JSON). */
int cz__cli_export_vk(const char *zkey_path, const char *vk_path, cz_errinfo *ei);

int cz__cli_prove(int argc, char **argv);
/* The bellperson forms (cmd_bellperson.c), when --params / --vk is given. */
int cz__cli_prove_bellperson(int argc, char **argv);
int cz__cli_verify_bellperson(int argc, char **argv);
int cz__cli_verify(int argc, char **argv);
int cz__cli_info(int argc, char **argv);
int cz__cli_vk(int argc, char **argv);
int cz__cli_setup(int argc, char **argv);
int cz__cli_params(int argc, char **argv);
int cz__cli_filecoin(int argc, char **argv);
/* The porep-c2 forms of setup, prove, verify and vanilla-check, fake-c1 and seal-2k
 * (cmd_filecoin_porep.c): sub is the subcommand, argv[0] too. */
int cz__cli_filecoin_porep(const char *sub, int argc, char **argv);
/* The SnapDeals forms: fake-update (cmd_filecoin_snap.c); sub and argv[0] as above. */
int cz__cli_filecoin_snap(const char *sub, int argc, char **argv);

#endif
