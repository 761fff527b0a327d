/*
 * Filecoin's PoSt requests as the library takes them: the inputs of a WINNING_POST or
 * WINDOW_POST_PARTITION request of cuzk.v1 (docs/filecoin.md), and the key file that proves each
 * registered proof. The circuits, the vanilla proofs' checks and the prover are in src/filecoin/
 * (the CLI's `cuzk filecoin`) and the engine's PoSt workload (cuzk/workload.h).
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

#ifdef __cplusplus
}
#endif

#endif
