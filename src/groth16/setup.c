/*
 * cz_groth16_setup: checks the circuit, picks the domain, reads or draws the trapdoor, and runs
 * the curve's instance of setup_impl.h into a zkey writer (formats/zkey_write.h). The trapdoor's
 * Montgomery copies live on this function's stack and are wiped before it returns.
 * INSECURE by construction (see cuzk/groth16_setup.h): for tests and benchmarks.
 */
#include "cuzk/groth16_setup.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/ntt.h"
#include "cuzk/threadpool.h"
#include "cuzk/zkey.h"
#include "curve/ec.h"
#include "field/field.h"
#include "formats/zkey_write.h"
#include "groth16/setup_internal.h"

/* Rows per batch inversion task; coefficient entries per write. */
#define SU_CHUNK    4096
#define SU_COEF_BUF 4096

#define CURVE       bn254
#define CZ_CURVE_ID CZ_CURVE_BN254
#include "groth16/setup_impl.h"
#undef CURVE
#undef CZ_CURVE_ID
#define CURVE       bls12381
#define CZ_CURVE_ID CZ_CURVE_BLS12381
#include "groth16/setup_impl.h"
#undef CURVE
#undef CZ_CURVE_ID

/* memset through a volatile pointer: the compiler must make the call, so the wipe stays. */
static void *(*const volatile wipe_memset)(void *, int, size_t) = memset;

void cz__setup_wipe(void *p, size_t n) {
    if (p != NULL && n > 0)
        wipe_memset(p, 0, n);
}

int cz__setup_trapdoor_bls12381(cz_bls12381_fr out[5], const cz_groth16_trapdoor *td,
                                int draw_gamma, cz_errinfo *ei) {
    bls12381_su_td t;
    int rc = bls12381_su_read_trapdoor(&t, td, draw_gamma, ei);
    out[0] = t.tau;
    out[1] = t.alpha;
    out[2] = t.beta;
    out[3] = t.gamma;
    out[4] = t.delta;
    cz__setup_wipe(&t, sizeof t);
    return rc;
}

/* FNV-1a 64 of the seed, then SplitMix64: a deterministic, non-cryptographic expansion. */
static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void cz_groth16_trapdoor_from_seed(cz_groth16_trapdoor *td, const uint8_t *seed, size_t seed_len) {
    uint64_t state = 0xcbf29ce484222325ULL;
    uint8_t *out[5] = {td->tau, td->alpha, td->beta, td->gamma, td->delta};
    for (size_t i = 0; i < seed_len; i++)
        state = (state ^ seed[i]) * 0x100000001b3ULL;
    for (int v = 0; v < 5; v++) {
        memset(out[v], 0, 32);
        if (v == 3) {
            out[v][0] = 1; /* gamma = 1 */
            continue;
        }
        do {
            for (int limb = 0; limb < 4; limb++) {
                uint64_t x = splitmix64(&state);
                if (limb == 3)
                    x &= (1ULL << 61) - 1; /* below 2^253 < r */
                for (int b = 0; b < 8; b++)
                    out[v][8 * limb + b] = (uint8_t)(x >> (8 * b));
            }
        } while (out[v][0] == 0 && memcmp(out[v], out[v] + 1, 31) == 0);
    }
}

int cz_groth16_setup(const char *zkey_path, const cz_r1cs_file *r1cs, const cz_groth16_trapdoor *td,
                     cz_threadpool *pool, cz_errinfo *ei) {
    uint64_t npub = (uint64_t)r1cs->npub_out + r1cs->npub_in;
    uint64_t nrows = (uint64_t)r1cs->nconstraints + npub + 1;
    unsigned k = 0, two_adicity = r1cs->curve == CZ_CURVE_BN254 ? BN254_FR_TWO_ADICITY
                                                                : BLS12381_FR_TWO_ADICITY;
    cz__zkey_writer w;
    int rc;

    if (r1cs->curve != CZ_CURVE_BN254 && r1cs->curve != CZ_CURVE_BLS12381)
        return cz_fail(ei, CZ_ECURVE,
                       "setup: the circuit's field is neither BN254's nor "
                       "BLS12-381's scalar field");
    if (npub >= r1cs->nwires)
        return cz_fail(ei, CZ_EINVAL, "setup: %llu public signals but only %u wires",
                       (unsigned long long)npub, r1cs->nwires);
    while (k < 40 && ((uint64_t)1 << k) < nrows)
        k++;
    if (k > two_adicity || k > 31)
        return cz_fail(ei, CZ_ERANGE,
                       "setup: %u constraints + %llu public inputs + 1 need a domain of 2^%u rows; "
                       "%s supports at most 2^%u",
                       r1cs->nconstraints, (unsigned long long)npub, k, cz_curve_name(r1cs->curve),
                       two_adicity < 31 ? two_adicity : 31);

    rc = cz__zkey_writer_open(&w, zkey_path, 10, ei);
    if (rc != CZ_OK) {
        cz__zkey_writer_abort(&w);
        return rc;
    }
    if (r1cs->curve == CZ_CURVE_BN254) {
        bn254_su_td t;
        rc = bn254_su_read_trapdoor(&t, td, 0, ei);
        if (rc == CZ_OK)
            rc = bn254_groth16_setup(&w, r1cs, &t, k, pool, ei);
        cz__setup_wipe(&t, sizeof t);
    } else {
        bls12381_su_td t;
        rc = bls12381_su_read_trapdoor(&t, td, 0, ei);
        if (rc == CZ_OK)
            rc = bls12381_groth16_setup(&w, r1cs, &t, k, pool, ei);
        cz__setup_wipe(&t, sizeof t);
    }
    if (rc == CZ_OK)
        return cz__zkey_writer_close(&w, ei);
    cz__zkey_writer_abort(&w);
    return rc;
}
