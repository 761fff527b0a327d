/*
 * What the PoRep verifier derives (src/filecoin/porep_inputs.h) against
 * tests/vectors/out/porep/vectors.txt, which tests/vectors/porep_vectors.mjs computes from
 * rust-fil-proofs' definitions with Node's crypto and BigInt: replica ids (sector ids 0, 1, a
 * large one and 2^64 - 1; four registered proofs) and interactive challenges (2 KiB, 8 MiB,
 * 32 GiB and 64 GiB node counts, partitions 0, 3 and 9).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep_inputs.h"
#include "test.h"

#define VECTORS "tests/vectors/out/porep/vectors.txt"

static int unhex(uint8_t *out, const char *s, size_t n) {
    if (strlen(s) != 2 * n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return 0;
        out[i] = (uint8_t)v;
    }
    return 1;
}

static void test_vectors(void) {
    FILE *f = fopen(VECTORS, "r");
    char line[4096];
    int nreplica = 0, nchallenge = 0;
    if (!CHECK(f != NULL)) {
        fprintf(stderr, "  %s missing (make vectors)\n", VECTORS);
        return;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        char *tok[64];
        int nt = 0;
        for (char *p = strtok(line, " \n"); p != NULL && nt < 64; p = strtok(NULL, " \n"))
            tok[nt++] = p;
        if (nt == 7 && strcmp(tok[0], "replica") == 0) {
            uint8_t prover[32], ticket[32], comm_d[32], porep_id[32], want[32], got[32];
            cz_bls12381_fr id;
            if (!CHECK(unhex(prover, tok[1], 32) && unhex(ticket, tok[3], 32) &&
                       unhex(comm_d, tok[4], 32) && unhex(porep_id, tok[5], 32) &&
                       unhex(want, tok[6], 32)))
                continue;
            cz__porep_replica_id(&id, prover, strtoull(tok[2], NULL, 10), ticket, comm_d, porep_id);
            cz_bls12381_fr_to_bytes_le(got, &id);
            CHECK_EQ_MEM(got, want, 32);
            nreplica++;
        } else if (nt >= 6 && strcmp(tok[0], "challenges") == 0) {
            const uint64_t nodes = strtoull(tok[1], NULL, 10);
            const size_t n = strtoul(tok[2], NULL, 10);
            const unsigned k = (unsigned)strtoul(tok[3], NULL, 10);
            uint8_t idb[32], seed[32];
            uint64_t c[32];
            cz_bls12381_fr id;
            if (!CHECK(n <= 32 && nt == 6 + (int)n && unhex(idb, tok[4], 32) &&
                       unhex(seed, tok[5], 32)) ||
                !CHECK_EQ_INT(cz_bls12381_fr_from_bytes_le(&id, idb), CZ_OK))
                continue;
            cz__porep_challenges(c, n, nodes, &id, seed, k);
            for (size_t i = 0; i < n; i++)
                CHECK_EQ_U64(c[i], strtoull(tok[6 + i], NULL, 10));
            nchallenge++;
        }
    }
    fclose(f);
    CHECK_EQ_INT(nreplica, 4);
    CHECK_EQ_INT(nchallenge, 5);
}

/* Every challenge is a node in [1, nodes) (node 0 is never challenged). */
static void test_range(void) {
    uint8_t seed[32] = {7};
    cz_bls12381_fr id;
    uint64_t c[2000];
    int bad = 0;
    cz_bls12381_fr_from_u64(&id, 99);
    cz__porep_challenges(c, 2000, 64, &id, seed, 1);
    for (int i = 0; i < 2000; i++)
        bad += c[i] < 1 || c[i] >= 64;
    CHECK_EQ_INT(bad, 0);
}

static const test_case cases[] = {{"vectors", test_vectors}, {"range", test_range}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
