/*
 * Filecoin's requests as the library takes them: the inputs of a WINNING_POST,
 * WINDOW_POST_PARTITION or POREP_SEAL_COMMIT request of cuzk.v1 (docs/filecoin.md), and the key
 * file that proves each registered proof. The circuits, the vanilla proofs' checks and the prover
 * are in src/filecoin/ (the CLI's `cuzk filecoin`) and the engine's PoSt workload
 * (cuzk/workload.h).
 *
 * Registered proofs (the chain's RegisteredPoStProof ids): 0-4 WinningPoSt 2 KiB, 8 MiB,
 * 512 MiB, 32 GiB, 64 GiB; 5-9 WindowPoSt V1 of the same sizes (challenge indexes counted over
 * the whole PoSt); 10-14 WindowPoSt V1_1 (indexes per sector; V1_2 has the same id and circuit).
 */
#ifndef CUZK_FILECOIN_H
#define CUZK_FILECOIN_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"
#include "cuzk/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One PoSt partition to prove. The bytes are the caller's and are only read. */
typedef struct cz_post_request {
    uint64_t registered_proof;
    uint8_t randomness[32];        /* a field element below r, little-endian */
    uint64_t partition;            /* WindowPoSt: the partition's index; WinningPoSt: 0 */
    const uint8_t *const *vanilla; /* nvanilla bincode FallbackPoStSectorProof, one per sector */
    const size_t *vanilla_len;
    size_t nvanilla;
} cz_post_request;

/* The .params file of the built-in manifest (cz_params_builtin) that proves registered_proof, and
 * whether it is a WinningPoSt (else a WindowPoSt). CZ_EINVAL naming an id that is no PoSt. */
int cz_post_params_file(const cz_param_file **out, int *winning, uint64_t registered_proof,
                        cz_errinfo *ei);

/* A PoRep C2 (a POREP_SEAL_COMMIT request): the sealed sector's C1 output, as Curio sends it (its
 * envelope {"SectorNum", "Phase1Out", "SectorSize"}) or bare (the SealCommitPhase1Output JSON),
 * and the sector's identity, which the proof is verified against. Registered seal proofs (the
 * chain's ids): 0-4 StackedDrg V1 of 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB; 5-9 V1_1; 10-14
 * V1_1 with synthetic PoRep; 15-19 V1_2 non-interactive PoRep. The bytes are the caller's and
 * are only read. */
typedef struct cz_porep_request {
    uint64_t registered_proof;
    uint64_t miner_id;      /* the prover: its ID address's number */
    uint64_t sector_number; /* must be the envelope's SectorNum when it has one */
    const uint8_t *c1;
    size_t c1_len;
} cz_porep_request;

/* The .params file of the built-in manifest that proves registered seal proof id (one per sector
 * size: every version shares the circuit). CZ_EINVAL naming an id that is no PoRep. */
int cz_porep_params_file(const cz_param_file **out, uint64_t registered_proof, cz_errinfo *ei);

/* A SnapDeals update (a SNAP_DEALS_UPDATE request): one bincode PartitionProof per partition
 * (storage-proofs-update vanilla.rs; 16 for 32 GiB) and the commitments it is proven against.
 * Registered update proofs (RegisteredUpdateProof): 0 2 KiB, 1 8 MiB, 2 512 MiB, 3 32 GiB, 4
 * 64 GiB; the proofs are made with the size's production h (10 above 32 KiB), as Filecoin does.
 * The bytes are the caller's and are only read. */
typedef struct cz_snap_request {
    uint64_t registered_proof;
    /* 0: the SHA-256 circuit, what Filecoin proves; 1: "empty-sector-update-poseidon" (tree D by
     * Poseidon, one partition of every challenge: rust-fil-proofs has its circuit but no vanilla
     * prover and no registered proof, so only `cuzk filecoin ... --poseidon` makes and takes it) */
    int poseidon;
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32]; /* field elements, little-endian */
    const uint8_t *const *vanilla;                          /* nvanilla, partition k at k */
    const size_t *vanilla_len;
    size_t nvanilla;
} cz_snap_request;

/* The .params file of the built-in manifest that proves registered update proof id. CZ_EINVAL
 * naming an id that is no update proof. */
int cz_snap_params_file(const cz_param_file **out, uint64_t registered_proof, cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
