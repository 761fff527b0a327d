/*
 * BLAKE2b (cuzk/blake2b.h) against RFC 7693's own example and against two implementations we did
 * not write: tests/vectors/out/blake2b/vectors.txt (tests/vectors/blake2b_vectors.mjs), Node's
 * crypto for BLAKE2b-512 over 0..300 bytes, every block boundary to 20 blocks and long inputs up
 * to 3 MiB, Python's hashlib for every output length 1..64 and every key length 1..64. Each
 * digest is also made streaming, the message cut into chunks of random lengths (and one byte at a
 * time for the short ones): the same digest whatever the cuts. Lengths out of range are refused;
 * final wipes the state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/blake2b.h"
#include "cuzk/fileio.h"
#include "test.h"

#define VECTORS_DIR "tests/vectors/out/blake2b/"

static uint8_t *stream;
static size_t stream_len;

static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* RFC 7693 Appendix A: BLAKE2b-512("abc"). */
static void test_rfc7693(void) {
    static const uint8_t want[64] = {
        0xBA, 0x80, 0xA5, 0x3F, 0x98, 0x1C, 0x4D, 0x0D, 0x6A, 0x27, 0x97, 0xB6, 0x9F,
        0x12, 0xF6, 0xE9, 0x4C, 0x21, 0x2F, 0x14, 0x68, 0x5A, 0xC4, 0xB7, 0x4B, 0x12,
        0xBB, 0x6F, 0xDB, 0xFF, 0xA2, 0xD1, 0x7D, 0x87, 0xC5, 0x39, 0x2A, 0xAB, 0x79,
        0x2D, 0xC2, 0x52, 0xD5, 0xDE, 0x45, 0x33, 0xCC, 0x95, 0x18, 0xD3, 0x8A, 0xA8,
        0xDB, 0xF1, 0x92, 0x5A, 0xB9, 0x23, 0x86, 0xED, 0xD4, 0x00, 0x99, 0x23,
    };
    uint8_t got[64];
    CHECK_ERR(cz_blake2b_hash(got, 64, NULL, 0, "abc", 3), CZ_OK);
    CHECK_EQ_MEM(got, want, 64);
}

/* The digest of stream[off, off+n) fed in chunks of random lengths up to maxchunk. */
static void streamed(uint8_t *out, size_t outlen, const uint8_t *key, size_t keylen,
                     const uint8_t *msg, size_t n, size_t maxchunk, uint64_t *rng) {
    cz_blake2b s;
    CHECK_ERR(cz_blake2b_init_key(&s, outlen, key, keylen), CZ_OK);
    cz_blake2b_update(&s, NULL, 0);
    for (size_t pos = 0; pos < n;) {
        size_t c = 1 + (size_t)(splitmix64(rng) % maxchunk);
        if (c > n - pos)
            c = n - pos;
        cz_blake2b_update(&s, msg + pos, c);
        pos += c;
    }
    cz_blake2b_final(out, &s);
}

static void test_vectors(void) {
    static char line[1024];
    FILE *fp = fopen(VECTORS_DIR "vectors.txt", "r");
    size_t nnode = 0, npython = 0, nkeyed = 0, outlens = 0;
    uint64_t rng = 7;
    if (!CHECK(fp != NULL && stream != NULL)) {
        fprintf(stderr, "missing %s: run make vectors\n", VECTORS_DIR "vectors.txt");
        if (fp != NULL)
            fclose(fp);
        return;
    }
    while (fgets(line, sizeof line, fp)) {
        char oracle[16], keyhex[160], dhex[160];
        size_t outlen, off, n;
        uint8_t key[64], want[64], got[64];
        int keylen = 0;
        if (!CHECK(sscanf(line, "%15s %zu %159s %zu %zu %159s", oracle, &outlen, keyhex, &off, &n,
                          dhex) == 6))
            break;
        if (strcmp(keyhex, "-") != 0)
            keylen = test_unhex(key, sizeof key, keyhex);
        if (!CHECK(keylen >= 0 && test_unhex(want, sizeof want, dhex) == (int)outlen &&
                   off <= stream_len && n <= stream_len - off))
            break;
        CHECK_ERR(cz_blake2b_hash(got, outlen, key, (size_t)keylen, stream + off, n), CZ_OK);
        if (!CHECK_EQ_MEM(got, want, outlen))
            fprintf(stderr, "  %s outlen %zu keylen %d offset %zu length %zu\n", oracle, outlen,
                    keylen, off, n);
        streamed(got, outlen, key, (size_t)keylen, stream + off, n, n < 4096 ? 300 : 1 << 20, &rng);
        CHECK_EQ_MEM(got, want, outlen);
        if (n <= 600) {
            streamed(got, outlen, key, (size_t)keylen, stream + off, n, 1, &rng);
            CHECK_EQ_MEM(got, want, outlen);
        }
        nnode += strcmp(oracle, "node") == 0;
        npython += strcmp(oracle, "python") == 0;
        nkeyed += keylen > 0;
        outlens |= outlen == 1 || outlen == 33 || outlen == 63;
    }
    fclose(fp);
    /* The file holds what the script promises (a truncated file fails here). */
    CHECK(nnode >= 300 + 60 + 7);
    CHECK(npython >= 64 * 6 + 64 * 4);
    CHECK(nkeyed >= 64 * 4);
    CHECK(outlens);
}

static void test_lengths(void) {
    cz_blake2b s;
    uint8_t key[65] = {0}, out[64];
    CHECK_ERR(cz_blake2b_init(&s, 0), CZ_EINVAL);
    CHECK_ERR(cz_blake2b_init(&s, 65), CZ_EINVAL);
    CHECK_ERR(cz_blake2b_init_key(&s, 64, key, 65), CZ_EINVAL);
    CHECK_ERR(cz_blake2b_hash(out, 0, NULL, 0, "", 0), CZ_EINVAL);
    CHECK_ERR(cz_blake2b_init_key(&s, 64, key, 64), CZ_OK);
    CHECK_ERR(cz_blake2b_init(&s, 1), CZ_OK);
}

/* A keyed state is wiped by final; a 16-byte digest writes 16 bytes, no more. */
static void test_final_wipes(void) {
    static const uint8_t zero[sizeof(cz_blake2b)];
    cz_blake2b s;
    uint8_t key[32], out[64];
    memset(key, 0xa5, sizeof key);
    memset(out, 0xee, sizeof out);
    CHECK_ERR(cz_blake2b_init_key(&s, 16, key, sizeof key), CZ_OK);
    cz_blake2b_update(&s, "data", 4);
    cz_blake2b_final(out, &s);
    CHECK_EQ_MEM(&s, zero, sizeof s);
    CHECK_EQ_INT(out[16], 0xee);
    CHECK_EQ_INT(out[63], 0xee);
}

static int setup(void) {
    void *data = NULL;
    cz_errinfo ei;
    if (cz_file_read(&data, &stream_len, VECTORS_DIR "stream.bin", &ei) != CZ_OK) {
        fprintf(stderr, "%s (run make vectors)\n", ei.msg);
        return 0; /* test_vectors fails on the missing stream */
    }
    stream = data;
    return 0;
}

static void teardown(void) {
    free(stream);
}

static const test_case cases[] = {
    {"rfc7693", test_rfc7693},
    {"vectors", test_vectors},
    {"lengths", test_lengths},
    {"final_wipes", test_final_wipes},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
