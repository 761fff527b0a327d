/*
 * SHA-256 (cuzk/sha256.h) against the FIPS 180-2 examples (Appendix B: "abc", the 448-bit
 * message, a million 'a') and the digest of the empty message, whole and streamed in pieces of
 * every size from 1 to 130 bytes; a copy of a state continues independently.
 */
#include <string.h>

#include "cuzk/sha256.h"
#include "test.h"

static void hex(char out[65], const uint8_t d[32]) {
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void check_hash(const void *msg, size_t len, const char *want) {
    uint8_t d[32];
    char got[65];
    cz_sha256_hash(d, msg, len);
    hex(got, d);
    if (!CHECK(strcmp(got, want) == 0))
        fprintf(stderr, "sha256 of %zu bytes: %s\n", len, got);
    for (size_t piece = 1; piece <= 130; piece++) {
        cz_sha256 s;
        cz_sha256_init(&s);
        for (size_t at = 0; at < len; at += piece)
            cz_sha256_update(&s, (const uint8_t *)msg + at, len - at < piece ? len - at : piece);
        cz_sha256_final(d, &s);
        hex(got, d);
        if (!CHECK(strcmp(got, want) == 0)) {
            fprintf(stderr, "sha256 of %zu bytes in pieces of %zu: %s\n", len, piece, got);
            break;
        }
    }
}

static void test_fips(void) {
    static char million[1000000];
    check_hash("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    check_hash("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    check_hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
               "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    memset(million, 'a', sizeof million);
    {
        uint8_t d[32];
        char got[65];
        cz_sha256_hash(d, million, sizeof million);
        hex(got, d);
        CHECK(strcmp(got, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") == 0);
    }
}

static void test_copy(void) {
    cz_sha256 s, t;
    uint8_t d1[32], d2[32];
    cz_sha256_init(&s);
    cz_sha256_update(&s, "ab", 2);
    t = s;
    cz_sha256_update(&s, "c", 1);
    cz_sha256_final(d1, &s);
    cz_sha256_update(&t, "c", 1);
    cz_sha256_final(d2, &t);
    CHECK(memcmp(d1, d2, 32) == 0);
    cz_sha256_hash(d2, "abc", 3);
    CHECK(memcmp(d1, d2, 32) == 0);
}

static const test_case cases[] = {{"fips", test_fips}, {"copy", test_copy}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
