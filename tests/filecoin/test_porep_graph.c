/*
 * The SDR graph (src/filecoin/porep_graph.h) against rust-fil-proofs' parent caches.
 *
 * Oracle: storage-proofs-porep/parent_cache.json lists the SHA-256 digest of every production
 * parent cache (each node's 6 DRG then 8 expander parents as u32 little-endian), two per sector
 * size: the graphs of the v1 registered proofs (API v1.0) and of the v1.1 ones. The caches of
 * 2 KiB (registered proofs 0 and 5) and 8 MiB (1 and 6) built here must have exactly those
 * digests; a porep_id of another registered proof must not. Also: every parent of node v ≥ 2 is
 * below v for the DRG, and the predecessor v - 1 is where the API version puts it.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/sha256.h"
#include "filecoin/porep_graph.h"
#include "test.h"

/* The hex digest of the parent cache of nodes nodes for registered proof id. */
static void cache_digest(char hex[65], uint64_t nodes, uint64_t id, int v1_0) {
    uint8_t porep_id[32], d[32], entry[56];
    cz__porep_graph g;
    cz_sha256 s;
    cz__porep_id(porep_id, id);
    cz__porep_graph_init(&g, nodes, porep_id, v1_0);
    cz_sha256_init(&s);
    for (uint32_t v = 0; v < nodes; v++) {
        uint32_t p[14];
        cz__porep_drg_parents(&g, v, p);
        cz__porep_exp_parents(&g, v, p + 6);
        for (int i = 0; i < 14; i++)
            for (int b = 0; b < 4; b++)
                entry[4 * i + b] = (uint8_t)(p[i] >> (8 * b));
        cz_sha256_update(&s, entry, sizeof entry);
    }
    cz_sha256_final(d, &s);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

static void check_pair(uint64_t nodes, uint64_t id_v1, uint64_t id_v1_1, const char *a,
                       const char *b, int check_other) {
    char h1[65], h2[65], other[65];
    cache_digest(h1, nodes, id_v1, 1);
    cache_digest(h2, nodes, id_v1_1, 0);
    if (!CHECK(strcmp(h1, a) == 0 || strcmp(h1, b) == 0) ||
        !CHECK(strcmp(h2, a) == 0 || strcmp(h2, b) == 0) || !CHECK(strcmp(h1, h2) != 0))
        fprintf(stderr, "  %llu nodes: %s, %s\n", (unsigned long long)nodes, h1, h2);
    if (check_other) { /* another proof's porep_id: another graph */
        cache_digest(other, nodes, id_v1_1 + 5, 0);
        CHECK(strcmp(other, a) != 0 && strcmp(other, b) != 0);
    }
}

static void test_cache_2k(void) {
    check_pair(64, 0, 5, "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d",
               "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97", 1);
}

static void test_cache_8m(void) {
    if (test_plain_only("the 8 MiB parent caches"))
        return;
    check_pair(UINT64_C(1) << 18, 1, 6,
               "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab",
               "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce", 0);
}

static void test_shape(void) {
    uint8_t porep_id[32];
    cz__porep_graph g[2];
    int bad = 0;
    cz__porep_id(porep_id, 8);
    cz__porep_graph_init(&g[0], UINT64_C(1) << 30, porep_id, 0);
    cz__porep_graph_init(&g[1], UINT64_C(1) << 30, porep_id, 1);
    for (uint32_t v = 2; v < 20000; v += 7)
        for (int k = 0; k < 2; k++) {
            uint32_t p[6], e[8];
            cz__porep_drg_parents(&g[k], v, p);
            cz__porep_exp_parents(&g[k], v, e);
            bad += p[k ? 5 : 0] != v - 1;
            for (int i = 0; i < 6; i++)
                bad += p[i] >= v;
            for (int i = 0; i < 8; i++)
                bad += e[i] >= (UINT64_C(1) << 30);
        }
    CHECK_EQ_INT(bad, 0);
}

static const test_case cases[] = {
    {"cache_2k", test_cache_2k}, {"cache_8m", test_cache_8m}, {"shape", test_shape}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
