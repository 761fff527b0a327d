/*
 * The structure of a Filecoin circuit, recorded from its blank synthesis (no witness): what
 * `cuzk filecoin circuit-info` prints.
 */
#ifndef CUZK_FILECOIN_CIRCUIT_INFO_H
#define CUZK_FILECOIN_CIRCUIT_INFO_H

#include "cs/cs.h"
#include "filecoin/post_shape.h"

typedef struct cz__circuit_info {
    cz__cs_info cs;
    unsigned domain_log; /* log2 of the domain: rows + inputs (the input constraints) rounded up */
} cz__circuit_info;

/* Records the blank PoSt circuit of kind at sector_size. Memory: the recorded matrices, about
 * 70 bytes a row (9 GB for a 32 GiB WindowPoSt partition). */
int cz__post_circuit_info(cz__circuit_info *out, cz__post_kind kind, uint64_t sector_size,
                          cz_errinfo *ei);
/* Records one blank SnapDeals (EmptySectorUpdate) partition at sector_size (snap_circuit.h): 81 M
 * rows at 32 GiB; of the Poseidon variant when poseidon (22 M rows at 32 GiB). */
int cz__snap_circuit_info(cz__circuit_info *out, uint64_t sector_size, int poseidon,
                          cz_errinfo *ei);
/* Records one blank PoRep partition at sector_size (porep_circuit.h). A 32 GiB partition is
 * 130 M rows: about 10 GB of memory. */
int cz__porep_circuit_info(cz__circuit_info *out, uint64_t sector_size, cz_errinfo *ei);

#endif
