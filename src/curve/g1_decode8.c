/*
 * cz_bls12381_g1_from_uncompressed_unchecked_batch: the G1 points of a .params file (427 M of the
 * 460 M points of PoRep 32 GiB's key) decoded eight at a time in AVX-512 IFMA where the CPU has
 * it, one by one (encoding_impl.h) otherwise and for every point the eight-lane check does not
 * pass: the point at infinity and every error, so the messages are the one-by-one decoder's.
 */
#include <string.h>

#include "cuzk/encoding.h"
#include "cuzk/err.h"
#include "curve/g1_decode8.h"
#include "field/cz_macros.h"
#include "field/field_consts.h"
#include "field/fp8.h"

#define G1_BYTES 96

static uint64_t load_be64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

/* 1 when the 6 little-endian words a are below p. */
static int below_p(const uint64_t a[6]) {
    for (int w = 5; w >= 0; w--)
        if (a[w] != BLS12381_FP_P[w])
            return a[w] < BLS12381_FP_P[w];
    return 0;
}

/* The coordinates of eight encodings, transposed for the lanes (xw[w][i]: word w of point i), and
 * the lanes whose flag bits are clear and whose coordinates are both below p. */
static unsigned parse8(uint64_t xw[6][8], uint64_t yw[6][8], const uint8_t *in) {
    unsigned ok = 0;
    for (int i = 0; i < 8; i++) {
        const uint8_t *e = in + i * G1_BYTES;
        uint64_t x[6], y[6];
        for (int w = 0; w < 6; w++) {
            x[w] = load_be64(e + 8 * (5 - w));
            y[w] = load_be64(e + 48 + 8 * (5 - w));
            xw[w][i] = x[w];
            yw[w][i] = y[w];
        }
        ok |= (unsigned)((e[0] & 0xe0u) == 0 && below_p(x) && below_p(y)) << i;
    }
    return ok;
}

/* ---- the portable instantiation: the IFMA instructions emulated lane by lane ---------------- */

static inline void madd52lo_portable(cz_v8 *acc, const cz_v8 *a, const cz_v8 *b) {
    for (int i = 0; i < 8; i++)
        (*acc)[i] +=
            (uint64_t)((cz_u128)((*a)[i] & CZ_FP8_MASK) * ((*b)[i] & CZ_FP8_MASK)) & CZ_FP8_MASK;
}
static inline void madd52hi_portable(cz_v8 *acc, const cz_v8 *a, const cz_v8 *b) {
    for (int i = 0; i < 8; i++)
        (*acc)[i] += (uint64_t)(((cz_u128)((*a)[i] & CZ_FP8_MASK) * ((*b)[i] & CZ_FP8_MASK)) >> 52);
}

#define P8(name)               fp8p_##name
#define P8_FN                  static inline
#define P8_MADD52LO(acc, a, b) madd52lo_portable(&(acc), &(a), &(b))
#define P8_MADD52HI(acc, a, b) madd52hi_portable(&(acc), &(a), &(b))
#include "field/fp8_impl.h"
#include "curve/g1_decode8_impl.h"
#include "field/fp8_undef.h"

unsigned cz__g1_decode8_portable(cz_bls12381_g1_affine out[8], const uint8_t in[8 * G1_BYTES]) {
    uint64_t xw[6][8], yw[6][8];
    unsigned ok = parse8(xw, yw, in);
    return fp8p_decode8(out, xw, yw, ok);
}

/* ---- the AVX-512 IFMA instantiation ---------------------------------------------------------- */

#ifdef CZ_CURVE_IFMA
#include <immintrin.h>

int cz__curve_ifma;

__attribute__((constructor)) static void detect_ifma(void) {
    __builtin_cpu_init();
    cz__curve_ifma = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
}

#define CZ_IFMA_TARGET __attribute__((target("avx512f,avx512ifma")))
#define P8(name)       fp8i_##name
#define P8_FN          static inline CZ_IFMA_TARGET
#define P8_MADD52LO(acc, a, b)                                                                     \
    ((acc) = (cz_v8)_mm512_madd52lo_epu64((__m512i)(acc), (__m512i)(a), (__m512i)(b)))
#define P8_MADD52HI(acc, a, b)                                                                     \
    ((acc) = (cz_v8)_mm512_madd52hi_epu64((__m512i)(acc), (__m512i)(a), (__m512i)(b)))
#include "field/fp8_impl.h"
#include "curve/g1_decode8_impl.h"
#include "field/fp8_undef.h"

CZ_IFMA_TARGET unsigned cz__g1_decode8_ifma(cz_bls12381_g1_affine out[8],
                                            const uint8_t in[8 * G1_BYTES]) {
    uint64_t xw[6][8], yw[6][8];
    unsigned ok = parse8(xw, yw, in);
    return fp8i_decode8(out, xw, yw, ok);
}
#endif

/* ---- the batch ------------------------------------------------------------------------------ */

int cz_bls12381_g1_from_uncompressed_unchecked_batch(cz_bls12381_g1_affine *out, const uint8_t *in,
                                                     size_t n, size_t *bad, cz_errinfo *ei) {
    size_t i = 0;
    int rc;
#ifdef CZ_CURVE_IFMA
    if (cz__curve_ifma)
        for (; n - i >= 8; i += 8) {
            uint8_t buf[8 * G1_BYTES]; /* out may be in: the encodings are copied first */
            cz_bls12381_g1_affine dec[8];
            memcpy(buf, in + i * G1_BYTES, sizeof buf);
            unsigned ok = cz__g1_decode8_ifma(dec, buf);
            for (int k = 0; k < 8; k++) {
                if (ok >> k & 1u) {
                    out[i + k] = dec[k];
                    continue;
                }
                rc = cz_bls12381_g1_from_uncompressed_unchecked(&out[i + k], buf + k * G1_BYTES,
                                                                G1_BYTES, ei);
                if (rc != CZ_OK) {
                    *bad = i + k;
                    return rc;
                }
            }
        }
#endif
    for (; i < n; i++) {
        rc = cz_bls12381_g1_from_uncompressed_unchecked(&out[i], in + i * G1_BYTES, G1_BYTES, ei);
        if (rc != CZ_OK) {
            *bad = i;
            return rc;
        }
    }
    *bad = n;
    return CZ_OK;
}
