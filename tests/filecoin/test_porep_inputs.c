/*
 * What the PoRep verifier derives (src/filecoin/porep_inputs.h, porep_challenges.h) against
 * tests/vectors/out/porep/vectors.txt, which tests/vectors/porep_vectors.mjs computes from
 * rust-fil-proofs' definitions with Node's crypto, @noble/hashes and BigInt: replica ids (sector
 * ids 0, 1, a large one and 2^64 - 1; four registered proofs); interactive, synthetic (the whole
 * set at several offsets, the selected indexes, the challenges proven) and non-interactive
 * challenges at the node counts of 2 KiB, 8 MiB, 512 MiB, 32 GiB and 64 GiB, for first, middle
 * and last partitions; the figures and porep_id of registered seal proofs 0..19 and the
 * challenges each one's kind gives. Beside the oracle: rust-fil-proofs' own hardcoded synthetic
 * challenges, the partition counts its seal regression records show, the circuit shapes of
 * porep_circuit.h, and the properties every derivation must have (challenges in [1, nodes),
 * partitions that are pieces of one sequence).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep_inputs.h"
#include "test.h"

#define VECTORS "tests/vectors/out/porep/vectors.txt"
#define MAXTOK  64

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

static int unhex_fr(cz_bls12381_fr *out, const char *s) {
    uint8_t b[32];
    return unhex(b, s, 32) && cz_bls12381_fr_from_bytes_le(out, b) == CZ_OK;
}

static uint64_t num(const char *s) {
    return strtoull(s, NULL, 10);
}

/* Checks got[0..n) against the numbers tok[0..n). */
static void check_list(const uint64_t *got, char **tok, size_t n) {
    for (size_t i = 0; i < n; i++)
        CHECK_EQ_U64(got[i], num(tok[i]));
}

/* Calls fn with the tokens of each vector line whose first token is tag; returns their count. */
static int for_each(const char *tag, void (*fn)(char **tok, int nt)) {
    FILE *f = fopen(VECTORS, "r");
    char line[4096];
    int count = 0;
    if (!CHECK(f != NULL)) {
        fprintf(stderr, "  %s missing (make vectors)\n", VECTORS);
        return 0;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        char *tok[MAXTOK];
        int nt = 0;
        for (char *p = strtok(line, " \n"); p != NULL && nt < MAXTOK; p = strtok(NULL, " \n"))
            tok[nt++] = p;
        if (nt > 0 && strcmp(tok[0], tag) == 0) {
            fn(tok, nt);
            count++;
        }
    }
    fclose(f);
    return count;
}

static void replica_line(char **tok, int nt) {
    uint8_t prover[32], ticket[32], comm_d[32], porep_id[32], want[32], got[32];
    cz_bls12381_fr id;
    if (!CHECK(nt == 7 && unhex(prover, tok[1], 32) && unhex(ticket, tok[3], 32) &&
               unhex(comm_d, tok[4], 32) && unhex(porep_id, tok[5], 32) && unhex(want, tok[6], 32)))
        return;
    cz__porep_replica_id(&id, prover, num(tok[2]), ticket, comm_d, porep_id);
    cz_bls12381_fr_to_bytes_le(got, &id);
    CHECK_EQ_MEM(got, want, 32);
}

/* A line "<tag> <nodes or nsynth> <n> <k> <replica_id> <seed> <n numbers>" against fn, which
 * takes its arguments in that order (cz__porep_challenges, cz__porep_synth_indexes). */
typedef void seeded_fn(uint64_t *out, size_t n, uint64_t nodes, const cz_bls12381_fr *replica_id,
                       const uint8_t seed[32], unsigned k);
static void seeded_line(char **tok, int nt, seeded_fn *fn) {
    const size_t n = num(tok[2]);
    uint8_t seed[32];
    uint64_t c[32];
    cz_bls12381_fr id;
    if (!CHECK(n <= 32 && nt == 6 + (int)n && unhex_fr(&id, tok[4]) && unhex(seed, tok[5], 32)))
        return;
    fn(c, n, num(tok[1]), &id, seed, (unsigned)num(tok[3]));
    check_list(c, tok + 6, n);
}

static void interactive_line(char **tok, int nt) {
    seeded_line(tok, nt, cz__porep_challenges);
}

static void test_interactive(void) {
    CHECK_EQ_INT(for_each("replica", replica_line), 4);
    CHECK_EQ_INT(for_each("challenges", interactive_line), 5);
}

/* synth <nodes> <replica_id> <comm_r> <first> <c...> */
static void synth_line(char **tok, int nt) {
    const size_t n = (size_t)(nt - 5);
    uint64_t c[32];
    cz_bls12381_fr id, comm_r;
    if (!CHECK(nt > 5 && n <= 32 && unhex_fr(&id, tok[2]) && unhex_fr(&comm_r, tok[3])))
        return;
    cz__porep_synth_challenges(c, num(tok[4]), n, num(tok[1]), &id, &comm_r);
    check_list(c, tok + 5, n);
}

static void synth_index_line(char **tok, int nt) {
    seeded_line(tok, nt, cz__porep_synth_indexes);
}

/* synthporep <nodes> <n> <k> <replica_id> <comm_r> <seed> <c...> */
static void synth_porep_line(char **tok, int nt) {
    const size_t n = num(tok[2]);
    uint8_t seed[32];
    uint64_t c[32];
    cz_bls12381_fr id, comm_r;
    if (!CHECK(n <= 32 && nt == 7 + (int)n && unhex_fr(&id, tok[4]) && unhex_fr(&comm_r, tok[5]) &&
               unhex(seed, tok[6], 32)))
        return;
    cz__porep_challenges_synth(c, n, num(tok[1]), &id, &comm_r, seed, (unsigned)num(tok[3]));
    check_list(c, tok + 7, n);
}

static void test_synthetic(void) {
    CHECK_EQ_INT(for_each("synth", synth_line), 25);
    CHECK_EQ_INT(for_each("synthindex", synth_index_line), 7);
    CHECK_EQ_INT(for_each("synthporep", synth_porep_line), 20);
    CHECK_EQ_U64(cz__porep_synth_count(64), 64);
    CHECK_EQ_U64(cz__porep_synth_count(UINT64_C(1) << 18), UINT64_C(1) << 18);
    CHECK_EQ_U64(cz__porep_synth_count(UINT64_C(1) << 30), UINT64_C(1) << 18);
}

/* rust-fil-proofs challenges.rs test_synth_challenges_against_hardcoded: 2^10 nodes, replica id
 * 55, comm_r 101, 21 synthetic challenges, 10 porep challenges of seed [1; 32]. */
static void test_rust_hardcoded(void) {
    static const uint64_t synth[21] = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                       801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
    static const uint64_t porep[10] = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
    uint8_t seed[32];
    uint64_t got[21], idx[10];
    cz_bls12381_fr id, comm_r;
    memset(seed, 1, sizeof seed);
    cz_bls12381_fr_from_u64(&id, 55);
    cz_bls12381_fr_from_u64(&comm_r, 101);
    cz__porep_synth_challenges(got, 0, 21, 1024, &id, &comm_r);
    for (int i = 0; i < 21; i++)
        CHECK_EQ_U64(got[i], synth[i]);
    cz__porep_synth_indexes(idx, 10, 21, &id, seed, 0);
    for (int i = 0; i < 10; i++) {
        cz__porep_synth_challenges(got, idx[i], 1, 1024, &id, &comm_r);
        CHECK_EQ_U64(got[0], porep[i]);
    }
}

/* ni <nodes> <n> <k> <replica_id> <comm_r> <c...> */
static void ni_line(char **tok, int nt) {
    const size_t n = num(tok[2]);
    uint64_t c[32];
    cz_bls12381_fr id, comm_r;
    if (!CHECK(n <= 32 && nt == 6 + (int)n && unhex_fr(&id, tok[4]) && unhex_fr(&comm_r, tok[5])))
        return;
    cz__porep_challenges_ni(c, n, num(tok[1]), &id, &comm_r, (unsigned)num(tok[3]));
    check_list(c, tok + 6, n);
}

static void test_non_interactive(void) {
    CHECK_EQ_INT(for_each("ni", ni_line), 25);
}

static const char *const kind_names[] = {"interactive", "synthetic", "non-interactive"};

/* config <id> <name> <sector size> <kind> <partitions> <per partition> <api minor> <porep_id> */
static void config_line(char **tok, int nt) {
    cz__porep_config cfg, by_name;
    cz__porep_shape shape;
    cz_errinfo ei = {0};
    uint8_t want_id[32], porep_id[32];
    if (!CHECK(nt == 9 && unhex(want_id, tok[8], 32)) ||
        !CHECK_EQ_INT(cz__porep_config_get(&cfg, num(tok[1]), &ei), CZ_OK))
        return;
    CHECK_EQ_U64(cfg.registered_proof, num(tok[1]));
    CHECK_EQ_STR(cfg.name, tok[2]);
    CHECK_EQ_U64(cfg.sector_size, num(tok[3]));
    CHECK_EQ_STR(kind_names[cfg.kind], tok[4]);
    CHECK_EQ_U64(cfg.partitions, num(tok[5]));
    CHECK_EQ_U64(cfg.challenges, num(tok[6]));
    CHECK_EQ_U64(cfg.api_minor, num(tok[7]));
    cz__porep_id(porep_id, cfg.registered_proof);
    CHECK_EQ_MEM(porep_id, want_id, 32);
    if (CHECK_EQ_INT(cz__porep_config_by_name(&by_name, tok[2], &ei), CZ_OK))
        CHECK_EQ_U64(by_name.registered_proof, cfg.registered_proof);
    /* porep_circuit.h's shapes: one circuit per sector size, for every kind; the interactive
     * partition counts are synthetic ones too */
    if (!CHECK_EQ_INT(cz__porep_shape_get(&shape, cfg.sector_size, &ei), CZ_OK))
        return;
    CHECK_EQ_U64(cfg.challenges, shape.challenges);
    if (cfg.kind != CZ__POREP_NON_INTERACTIVE)
        CHECK_EQ_U64(cfg.partitions, shape.partitions);
}

static void test_config(void) {
    cz__porep_config cfg;
    cz_errinfo ei = {0};
    CHECK_EQ_INT(for_each("config", config_line), CZ__POREP_REGISTERED_PROOFS);
    CHECK_EQ_INT(cz__porep_config_get(&cfg, CZ__POREP_REGISTERED_PROOFS, &ei), CZ_EINVAL);
    CHECK(strstr(ei.msg, "20") != NULL);
    ei = (cz_errinfo){0};
    CHECK_EQ_INT(cz__porep_config_get(&cfg, UINT64_MAX, &ei), CZ_EINVAL);
    ei = (cz_errinfo){0};
    CHECK_EQ_INT(cz__porep_config_by_name(&cfg, "StackedDrg2KiBV1_2", &ei), CZ_EINVAL);
    CHECK(strstr(ei.msg, "StackedDrg2KiBV1_2") != NULL);
    ei = (cz_errinfo){0};
    CHECK_EQ_INT(cz__porep_config_by_name(&cfg, "stackeddrg2kibv1", &ei), CZ_EINVAL);
    ei = (cz_errinfo){0};
    CHECK_EQ_INT(cz__porep_config_by_name(&cfg, "StackedDrg2KiBV1_2_Feat_NiPoRep", &ei), CZ_EINVAL);
    ei = (cz_errinfo){0};
    CHECK_EQ_INT(cz__porep_config_by_name(&cfg, NULL, &ei), CZ_EINVAL);
    /* size, kind and version name one registered proof each */
    for (uint64_t id = 0; id < CZ__POREP_REGISTERED_PROOFS; id++) {
        cz__porep_config want, got;
        if (CHECK_EQ_INT(cz__porep_config_get(&want, id, NULL), CZ_OK) &&
            CHECK_EQ_INT(
                cz__porep_config_find(&got, want.sector_size, want.kind, want.api_minor, NULL),
                CZ_OK))
            CHECK_EQ_U64(got.registered_proof, id);
    }
    ei = (cz_errinfo){0};
    CHECK_EQ_INT(cz__porep_config_find(&cfg, 4096, CZ__POREP_INTERACTIVE, 1, &ei), CZ_EINVAL);
    CHECK(strstr(ei.msg, "4096-byte") != NULL);
}

/* dispatch <id> <k> <replica_id> <comm_r> <seed> <c...> */
static void dispatch_line(char **tok, int nt) {
    cz__porep_config cfg;
    cz_errinfo ei = {0};
    uint8_t seed[32];
    uint64_t c[32];
    cz_bls12381_fr id, comm_r;
    if (!CHECK_EQ_INT(cz__porep_config_get(&cfg, num(tok[1]), &ei), CZ_OK) ||
        !CHECK(nt == 6 + (int)cfg.challenges && unhex_fr(&id, tok[3]) &&
               unhex_fr(&comm_r, tok[4]) && unhex(seed, tok[5], 32)))
        return;
    cz__porep_challenges_for(c, &cfg, cfg.sector_size / 32, &id, &comm_r, seed,
                             (unsigned)num(tok[2]));
    check_list(c, tok + 6, cfg.challenges);
}

/* record <sector size> <api version> <kind> <partitions> <proof bytes> <nproofs>: each registered
 * proof of that size and kind has the record's partitions, and its proof says so too: 192 bytes a
 * partition, or, aggregated (non-interactive), a SnarkPack proof of the partitions padded to a
 * power of two (get_aggregate_target_len), 2260 + 2976·log2(nproofs) bytes (bellperson
 * AggregateProof::write: com_ab, com_c 4 Gt, ip_ab 1 Gt, agg_c 1 G1, nproofs, final a, b, c,
 * vkey, wkey and the two KZG openings 484 + 288 bytes; per GIPA round 8 + 8 + 2 Gt and 2 G1, a
 * compressed Gt 288 bytes, G1 48, G2 96). */
static void record_line(char **tok, int nt) {
    const uint64_t size = num(tok[1]), parts = num(tok[4]), len = num(tok[5]);
    const uint64_t nproofs = num(tok[6]);
    int matched = 0;
    if (!CHECK(nt == 7))
        return;
    for (uint64_t id = 0; id < CZ__POREP_REGISTERED_PROOFS; id++) {
        cz__porep_config cfg;
        cz_errinfo ei = {0};
        CHECK_EQ_INT(cz__porep_config_get(&cfg, id, &ei), CZ_OK);
        if (cfg.sector_size != size || strcmp(kind_names[cfg.kind], tok[3]) != 0)
            continue;
        matched++;
        CHECK_EQ_U64(cfg.partitions, parts);
        if (cfg.kind != CZ__POREP_NON_INTERACTIVE) {
            CHECK_EQ_U64(len, 192 * (uint64_t)cfg.partitions);
        } else {
            uint64_t pow2 = 1, log2 = 0;
            for (; pow2 < cfg.partitions; pow2 *= 2)
                log2++;
            CHECK_EQ_U64(nproofs, pow2);
            CHECK_EQ_U64(len, 2260 + 2976 * log2);
        }
    }
    CHECK(matched > 0);
}

static void test_dispatch_and_records(void) {
    CHECK_EQ_INT(for_each("dispatch", dispatch_line), 42);
    CHECK_EQ_INT(for_each("record", record_line), 18);
}

/* Every challenge is a node in [1, nodes) (node 0 is never challenged), every synthetic index
 * below the count; partition k of n is challenges n·k .. n·k + n - 1 of one partition of all. */
static void test_properties(void) {
    enum { N = 2000, PER = 18, PARTS = 10 };
    static uint64_t c[N], one[PER * PARTS], part[PER];
    uint8_t seed[32] = {7};
    cz_bls12381_fr id, comm_r;
    int bad = 0;
    cz_bls12381_fr_from_u64(&id, 99);
    cz_bls12381_fr_from_u64(&comm_r, 12345);
    cz__porep_challenges(c, N, 64, &id, seed, 1);
    for (int i = 0; i < N; i++)
        bad += c[i] < 1 || c[i] >= 64;
    cz__porep_challenges_ni(c, N, 64, &id, &comm_r, 1);
    for (int i = 0; i < N; i++)
        bad += c[i] < 1 || c[i] >= 64;
    cz__porep_synth_challenges(c, 0, 64, 64, &id, &comm_r);
    for (int i = 0; i < 64; i++)
        bad += c[i] < 1 || c[i] >= 64;
    cz__porep_synth_indexes(c, N, 37, &id, seed, 3);
    for (int i = 0; i < N; i++)
        bad += c[i] >= 37;
    CHECK_EQ_INT(bad, 0);

    for (int kind = 0; kind < 3; kind++) {
        const uint64_t nodes = UINT64_C(1) << 30;
        if (kind == 0)
            cz__porep_challenges(one, PER * PARTS, nodes, &id, seed, 0);
        else if (kind == 1)
            cz__porep_challenges_ni(one, PER * PARTS, nodes, &id, &comm_r, 0);
        else
            cz__porep_challenges_synth(one, PER * PARTS, nodes, &id, &comm_r, seed, 0);
        for (unsigned k = 0; k < PARTS; k++) {
            if (kind == 0)
                cz__porep_challenges(part, PER, nodes, &id, seed, k);
            else if (kind == 1)
                cz__porep_challenges_ni(part, PER, nodes, &id, &comm_r, k);
            else
                cz__porep_challenges_synth(part, PER, nodes, &id, &comm_r, seed, k);
            CHECK_EQ_MEM(part, one + PER * k, sizeof part);
        }
    }
}

/* graph ID NODES NODE d0..d5 e0..e7: the parents of NODE in the graph of registered proof ID. */
static void graph_line(char **tok, int nt) {
    uint8_t porep_id[32];
    cz__porep_graph g;
    uint32_t d[CZ__POREP_DRG_PARENTS], e[CZ__POREP_EXP_PARENTS];
    uint64_t got[CZ__POREP_COL_PARENTS];
    const uint64_t id = num(tok[1]);
    if (!CHECK_EQ_INT(nt, 4 + CZ__POREP_COL_PARENTS))
        return;
    cz__porep_id(porep_id, id);
    cz__porep_graph_init(&g, num(tok[2]), porep_id, id < 5);
    cz__porep_drg_parents(&g, (uint32_t)num(tok[3]), d);
    cz__porep_exp_parents(&g, (uint32_t)num(tok[3]), e);
    for (int i = 0; i < CZ__POREP_DRG_PARENTS; i++)
        got[i] = d[i];
    for (int i = 0; i < CZ__POREP_EXP_PARENTS; i++)
        got[CZ__POREP_DRG_PARENTS + i] = e[i];
    check_list(got, tok + 4, CZ__POREP_COL_PARENTS);
}

/* Every graph version and size against the JavaScript port of rust-fil-proofs' graph (its parent
 * caches of 2 KiB and 8 MiB are checked in test_porep_graph; here 32 GiB and 64 GiB too). */
static void test_graph(void) {
    CHECK_EQ_INT(for_each("graph", graph_line), 48);
}

static const test_case cases[] = {{"interactive", test_interactive},
                                  {"graph", test_graph},
                                  {"synthetic", test_synthetic},
                                  {"rust_hardcoded", test_rust_hardcoded},
                                  {"non_interactive", test_non_interactive},
                                  {"config", test_config},
                                  {"dispatch_and_records", test_dispatch_and_records},
                                  {"properties", test_properties}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
