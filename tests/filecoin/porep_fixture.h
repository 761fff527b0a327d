/*
 * A real 2 KiB PoRep sector for the C1 tests of tests/filecoin/: fixed Fr32 data (a byte pattern
 * with each node's top two bits clear), prover id {7}, sector 99, a fixed ticket and seed, sealed
 * by cz__porep_seal_2k (whose labels and trees test_porep_seal holds to rust-fil-proofs).
 */
#ifndef CUZK_TESTS_FILECOIN_POREP_FIXTURE_H
#define CUZK_TESTS_FILECOIN_POREP_FIXTURE_H

#include <stdio.h>

#include "filecoin/porep_seal.h"
#include "test.h"

/* The sector sealed for registered proof id into c1 (free with cz__porep_c1_free); 1, or 0 with
 * a failed check. */
static inline int porep_fixture_seal(cz__porep_c1 *c1, uint64_t id) {
    uint8_t data[2048], prover[32] = {7}, ticket[32], seed[32];
    cz_errinfo ei;
    for (int i = 0; i < 2048; i++)
        data[i] = (uint8_t)(i * 37 + 11) & (i % 32 == 31 ? 0x3f : 0xff);
    for (int i = 0; i < 32; i++)
        ticket[i] = (uint8_t)(i + 1), seed[i] = (uint8_t)(100 - i);
    cz_errinfo_clear(&ei);
    if (!CHECK_EQ_INT(cz__porep_seal_2k(c1, id, data, prover, 99, ticket, seed, &ei), CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        return 0;
    }
    return 1;
}

#endif
