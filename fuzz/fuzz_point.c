/*
 * libFuzzer target for the point decoders (cuzk/encoding.h): zcash/bellman BLS12-381 G1/G2,
 * compressed and uncompressed, with and without the subgroup check; snarkjs LEM of the four
 * groups, with and without CZ_ENC_CHECK_SUBGROUP; decimal triples of the four groups. Each
 * fixed-length decoder gets the whole input (mostly a wrong length) and, when it is long enough,
 * the input's first bytes of the right length. Checked on every decoding:
 *
 *   - a refusal is one of the documented codes, left in ei with a message, and *ret unchanged;
 *   - an accepted point is on the curve, in the subgroup where that was checked, and encodes back
 *     to the same bytes (zcash, LEM; each has one encoding per point) or, for decimals, decodes
 *     back from its own encoding to the same point;
 *   - the unchecked decoders accept what the checked ones accept, the same point, and refuse
 *     what they refuse unless the checked refusal is CZ_ENOTINSUBGROUP.
 *
 * Seeds: fuzz/corpus/fuzz_point/, the generator, 2·G and infinity of each group in each encoding
 * (written by the library's encoders; decimals as "x y z" lines), and points off the curve and
 * outside the subgroup.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/curve.h"
#include "cuzk/encoding.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SENTINEL 0xA5

static int all_sentinel(const void *p, size_t n) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != SENTINEL)
            return 0;
    return 1;
}

static void check_refusal(int rc, const cz_errinfo *ei, const void *ret, size_t ret_size) {
    if (rc != CZ_EFORMAT && rc != CZ_EFLAGS && rc != CZ_ENONCANON && rc != CZ_ENOTONCURVE &&
        rc != CZ_ENOTINSUBGROUP)
        __builtin_trap();
    if (ei->code != rc || ei->msg[0] == '\0' || !all_sentinel(ret, ret_size))
        __builtin_trap();
}

#define FP_G            cz_bls12381_g1
#define FP_AFF          cz_bls12381_g1_affine
#define FP_LEM          CZ_BLS12381_G1_LEM_BYTES
#define FP_NDEC         3
#define FP_ZCASH        1
#define FP_COMPRESSED   CZ_BLS12381_G1_COMPRESSED_BYTES
#define FP_UNCOMPRESSED CZ_BLS12381_G1_UNCOMPRESSED_BYTES
#include "fuzz_point_impl.h"

#define FP_G            cz_bls12381_g2
#define FP_AFF          cz_bls12381_g2_affine
#define FP_LEM          CZ_BLS12381_G2_LEM_BYTES
#define FP_NDEC         6
#define FP_ZCASH        1
#define FP_COMPRESSED   CZ_BLS12381_G2_COMPRESSED_BYTES
#define FP_UNCOMPRESSED CZ_BLS12381_G2_UNCOMPRESSED_BYTES
#include "fuzz_point_impl.h"

#define FP_G     cz_bn254_g1
#define FP_AFF   cz_bn254_g1_affine
#define FP_LEM   CZ_BN254_G1_LEM_BYTES
#define FP_NDEC  3
#define FP_ZCASH 0
#include "fuzz_point_impl.h"

#define FP_G     cz_bn254_g2
#define FP_AFF   cz_bn254_g2_affine
#define FP_LEM   CZ_BN254_G2_LEM_BYTES
#define FP_NDEC  6
#define FP_ZCASH 0
#include "fuzz_point_impl.h"

/* The whole input, then its first n bytes when there are more. */
static void both_lengths(void (*fn)(const uint8_t *, size_t), const uint8_t *data, size_t size,
                         size_t n) {
    fn(data, size);
    if (size > n)
        fn(data, n);
}

/* The input as up to 6 space- or newline-separated words (the rest ignored); missing words are
 * empty strings. */
static void fuzz_decimals(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (text == NULL)
        return;
    memcpy(text, data, size);
    text[size] = '\0';
    const char *w[6] = {"", "", "", "", "", ""};
    char *p = text;
    for (int i = 0; i < 6 && *p != '\0'; i++) {
        w[i] = p;
        p += strcspn(p, " \n");
        if (*p != '\0')
            *p++ = '\0';
    }
    cz_bn254_g1_fuzz_dec(w);
    cz_bls12381_g1_fuzz_dec(w);
    cz_bn254_g2_fuzz_dec(w);
    cz_bls12381_g2_fuzz_dec(w);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    both_lengths(cz_bls12381_g1_fuzz_compressed, data, size, CZ_BLS12381_G1_COMPRESSED_BYTES);
    both_lengths(cz_bls12381_g1_fuzz_uncompressed, data, size, CZ_BLS12381_G1_UNCOMPRESSED_BYTES);
    both_lengths(cz_bls12381_g2_fuzz_compressed, data, size, CZ_BLS12381_G2_COMPRESSED_BYTES);
    both_lengths(cz_bls12381_g2_fuzz_uncompressed, data, size, CZ_BLS12381_G2_UNCOMPRESSED_BYTES);
    both_lengths(cz_bn254_g1_fuzz_lem, data, size, CZ_BN254_G1_LEM_BYTES);
    both_lengths(cz_bn254_g2_fuzz_lem, data, size, CZ_BN254_G2_LEM_BYTES);
    both_lengths(cz_bls12381_g1_fuzz_lem, data, size, CZ_BLS12381_G1_LEM_BYTES);
    both_lengths(cz_bls12381_g2_fuzz_lem, data, size, CZ_BLS12381_G2_LEM_BYTES);
    fuzz_decimals(data, size);
    return 0;
}
