/*
 * cuzk-bench inputs, reproducible from a seed (splitmix64), so two runs measure the same work.
 *
 * Scalars: uniform below 2^252 (below r on both curves), in Montgomery form like every cuzk Fr.
 * Bases: the arithmetic progression [a + i·d]G for i < 2^16 (one addition per point and one batch
 * conversion to affine, seconds even at 2^26 points), repeated to fill n. The MSMs' work does not
 * depend on bases being distinct; building n distinct ones would dominate the benchmark's run.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cuzk/curve.h"
#include "cuzk/field.h"

#define DISTINCT_BASES ((size_t)1 << 16)

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* 32 little-endian bytes of a value below 2^252. */
static void random_bytes(uint8_t b[32], uint64_t *s) {
    for (int l = 0; l < 4; l++) {
        uint64_t x = splitmix(s);
        for (int k = 0; k < 8; k++)
            b[8 * l + k] = (uint8_t)(x >> (8 * k));
    }
    b[31] &= 0x0f;
}

void bench_random_fr(void *out, cz_curve_id curve, size_t n, uint64_t seed) {
    for (size_t i = 0; i < n; i++) {
        uint8_t b[32];
        random_bytes(b, &seed);
        /* Below 2^252 < r: from_bytes_le cannot refuse it. */
        if (curve == CZ_CURVE_BN254)
            (void)cz_bn254_fr_from_bytes_le((cz_bn254_fr *)out + i, b);
        else
            (void)cz_bls12381_fr_from_bytes_le((cz_bls12381_fr *)out + i, b);
    }
}

const char *const bench_scalars_names[4] = {"uniform", "bits", "equal", "porep"};

void bench_shape_scalars(void *s, cz_curve_id curve, size_t n, int kind, uint64_t seed) {
    uint64_t(*v)[4] = s, one[4];
    if (curve == CZ_CURVE_BN254) {
        cz_bn254_fr o;
        cz_bn254_fr_one(&o);
        memcpy(one, o.l, sizeof one);
    } else {
        cz_bls12381_fr o;
        cz_bls12381_fr_one(&o);
        memcpy(one, o.l, sizeof one);
    }
    for (size_t i = 0; i < n; i++) {
        if (kind == BENCH_SCALARS_EQUAL && i > 0) {
            memcpy(v[i], v[0], sizeof v[i]);
        } else if (kind == BENCH_SCALARS_BITS || kind == BENCH_SCALARS_POREP) {
            uint64_t r = splitmix(&seed) % 1000;
            if (r < 987) {
                if (r & 1)
                    memcpy(v[i], one, sizeof one);
                else
                    memset(v[i], 0, sizeof v[i]);
            }
        }
    }
}

/* make_<group>(out, n, seed): the bases of the file comment for one group. */
#define MAKE_BASES(G)                                                                              \
    static void *make_##G(size_t n, uint64_t seed) {                                               \
        size_t nd = n < DISTINCT_BASES ? n : DISTINCT_BASES;                                       \
        cz_##G##_affine *out = malloc(n * sizeof *out), ga;                                        \
        cz_##G##_jacobian *jac = malloc(nd * sizeof *jac), p, d;                                   \
        uint64_t a[4], dd[4];                                                                      \
        if (out == NULL || jac == NULL) {                                                          \
            free(out);                                                                             \
            free(jac);                                                                             \
            return NULL;                                                                           \
        }                                                                                          \
        for (int l = 0; l < 4; l++) {                                                              \
            a[l] = splitmix(&seed);                                                                \
            dd[l] = splitmix(&seed);                                                               \
        }                                                                                          \
        cz_##G##_generator(&ga);                                                                   \
        cz_##G##_from_affine(&p, &ga);                                                             \
        cz_##G##_mul_limbs(&d, &p, dd, 4);                                                         \
        cz_##G##_mul_limbs(&p, &p, a, 4);                                                          \
        for (size_t i = 0; i < nd; i++) {                                                          \
            jac[i] = p;                                                                            \
            cz_##G##_add(&p, &p, &d);                                                              \
        }                                                                                          \
        cz_##G##_batch_to_affine(out, jac, nd);                                                    \
        free(jac);                                                                                 \
        for (size_t i = nd; i < n; i++)                                                            \
            out[i] = out[i - nd];                                                                  \
        return out;                                                                                \
    }
MAKE_BASES(bn254_g1)
MAKE_BASES(bn254_g2)
MAKE_BASES(bls12381_g1)
MAKE_BASES(bls12381_g2)

void *bench_make_bases(cz_curve_id curve, int g2, size_t n, uint64_t seed) {
    if (curve == CZ_CURVE_BN254)
        return g2 ? make_bn254_g2(n, seed) : make_bn254_g1(n, seed);
    return g2 ? make_bls12381_g2(n, seed) : make_bls12381_g1(n, seed);
}

size_t bench_affine_size(cz_curve_id curve, int g2) {
    if (curve == CZ_CURVE_BN254)
        return g2 ? sizeof(cz_bn254_g2_affine) : sizeof(cz_bn254_g1_affine);
    return g2 ? sizeof(cz_bls12381_g2_affine) : sizeof(cz_bls12381_g1_affine);
}

void bench_shape_bases(void *bases, size_t elem, size_t n, int kind, uint64_t seed) {
    if (kind != BENCH_SCALARS_POREP)
        return;
    for (size_t i = 0; i < n; i++)
        if (splitmix(&seed) % 4 != 0)
            memset((uint8_t *)bases + i * elem, 0, elem);
}
