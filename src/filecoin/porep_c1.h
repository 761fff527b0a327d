/*
 * PoRep C1 files: the SealCommitPhase1Output of rust-filecoin-proofs-api as JSON (what
 * filecoin-ffi's seal_commit_phase1 returns), bare or in the envelope Curio sends cuzk in a
 * POREP_SEAL_COMMIT request's vanilla_proof:
 *
 *   envelope  {"SectorNum": n, "Phase1Out": "<base64 of the C1 JSON>", "SectorSize": bytes}
 *   C1        {"registered_proof": "StackedDrg32GiBV1_1", "vanilla_proofs": {"StackedDrg32GiBV1":
 *             [[Proof × challenges] × partitions]}, "comm_r", "comm_d", "replica_id", "seed",
 *             "ticket": arrays of 32 byte values}
 *   Proof     {"comm_d_proofs": M, "comm_r_last_proof": M, "replica_column_proofs": {"c_x": C,
 *             "drg_parents": [C × 6], "exp_parents": [C × 8]}, "labeling_proofs": [P × layers],
 *             "encoding_proof": P}
 *   C         {"column": {"index", "rows": [32 bytes × layers], "_h": null}, "inclusion_proof": M}
 *   P         {"parents": [32 bytes × 37], "layer_index", "node"}
 *   M         {"data": {"Single" | "Sub" | "Top": {"root", "leaf", and the paths "path" |
 * "base_proof", "sub_proof" | ..., "top_proof", each {"path": [{"hashes": [32 bytes × arity-1],
 *             "index"}]}}}}
 *
 * The enum key of vanilla_proofs names the size only ("StackedDrg32GiBV1" for every version).
 * Reading is one pass (json_read.h): the envelope's base64 is decoded as it is parsed, so the
 * request's bytes and the decoded proofs are the only copies. Members may come in any order;
 * unknown members are skipped, as serde does. Every value is checked as it is read: the
 * registered proof is a PoRep one and its size is the enum key's and the envelope's; the numbers
 * of partitions and of proofs per partition are the registered proof's; every Merkle proof has the
 * variant, levels and arities of its tree (tree D binary; trees C and R the sector size's shape);
 * every column has one row per layer, every labeling proof 37 parents; every domain value is a
 * field element below r. An error names the partition, the proof, the member and the byte offset
 * in the C1 text. supra_seal's bincode form (porep_c1_bincode.h) is read by cz__porep_c1_read_any.
 */
#ifndef CUZK_FILECOIN_POREP_C1_H
#define CUZK_FILECOIN_POREP_C1_H

#include "filecoin/porep_vanilla.h"

/* What the envelope says besides the C1 (0 when read from a bare C1). */
typedef struct cz__porep_envelope {
    uint64_t sector_num, sector_size;
    int enveloped;
} cz__porep_envelope;

/* Reads len bytes at data, an envelope or a bare C1 JSON, into c1 (free with cz__porep_c1_free,
 * also after an error) and env (may be NULL). CZ_EFORMAT naming the place, CZ_ENONCANON for a
 * value not below r, CZ_EINVAL for a registered proof that is not PoRep or a size that disagrees,
 * CZ_ENOMEM. */
int cz__porep_c1_read(cz__porep_c1 *c1, cz__porep_envelope *env, const uint8_t *data, size_t len,
                      cz_errinfo *ei);

/* Either form: JSON (bare or enveloped) when the first byte that is not white space is '{', else
 * the bincode of porep_c1_bincode.h, which holds no registered proof: registered is the
 * request's (UINT64_MAX: unknown, and a bincode C1 is refused naming what it needs). */
int cz__porep_c1_read_any(cz__porep_c1 *c1, cz__porep_envelope *env, const uint8_t *data,
                          size_t len, uint64_t registered, cz_errinfo *ei);

/* c1 as the C1 JSON (serde's member order), *out malloc'd, *len its size. CZ_ENOMEM, CZ_EINVAL
 * for an unknown registered proof. */
int cz__porep_c1_write(uint8_t **out, size_t *len, const cz__porep_c1 *c1, cz_errinfo *ei);
/* c1 in Curio's envelope with sector_num. */
int cz__porep_c1_write_envelope(uint8_t **out, size_t *len, const cz__porep_c1 *c1,
                                uint64_t sector_num, cz_errinfo *ei);

#endif
