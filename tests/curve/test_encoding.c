/*
 * Point encodings: zcash/bellman bytes of BLS12-381 G1/G2 compared byte for byte with
 * @noble/curves (random points and infinity), LEM and decimal round trips for the four groups
 * (decimal strings compared with noble's), and every malformed input rejected with its code:
 * wrong lengths, bad flag bits, coordinates >= p, off-curve points, x without a y, points on the
 * curve outside the subgroup (noble's), non-canonical z in decimal triples.
 */
#include "curve_test_groups.h"

/* The base-field moduli in decimal (published constants; the test also checks p - 1 parses). */
#define BLS12381_PDEC                                                                              \
    "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629"  \
    "129015664037894272559787"
#define BN254_PDEC "21888242871839275222246405745257275088696311157297823662689037894645226208583"

#define T_G     cz_bls12381_g1
#define T_AFF   cz_bls12381_g1_affine
#define T_F     cz_bls12381_fp
#define T_F_T   cz_bls12381_fp
#define T_B     cz_bls12381_fp
#define T_DEG   1
#define T_LEM   CZ_BLS12381_G1_LEM_BYTES
#define T_N8    48
#define T_P     BLS12381_FP_P
#define T_PDEC  BLS12381_PDEC
#define T_ZCASH 1
#include "encoding_test_impl.h"
#include "encoding_test_undef.h"

#define T_G     cz_bls12381_g2
#define T_AFF   cz_bls12381_g2_affine
#define T_F     cz_bls12381_fp2
#define T_F_T   cz_bls12381_fp2
#define T_B     cz_bls12381_fp
#define T_DEG   2
#define T_LEM   CZ_BLS12381_G2_LEM_BYTES
#define T_N8    48
#define T_P     BLS12381_FP_P
#define T_PDEC  BLS12381_PDEC
#define T_ZCASH 1
#include "encoding_test_impl.h"
#include "encoding_test_undef.h"

#define T_G     cz_bn254_g1
#define T_AFF   cz_bn254_g1_affine
#define T_F     cz_bn254_fp
#define T_F_T   cz_bn254_fp
#define T_B     cz_bn254_fp
#define T_DEG   1
#define T_LEM   CZ_BN254_G1_LEM_BYTES
#define T_N8    32
#define T_P     BN254_FP_P
#define T_PDEC  BN254_PDEC
#define T_ZCASH 0
#include "encoding_test_impl.h"
#include "encoding_test_undef.h"

#define T_G     cz_bn254_g2
#define T_AFF   cz_bn254_g2_affine
#define T_F     cz_bn254_fp2
#define T_F_T   cz_bn254_fp2
#define T_B     cz_bn254_fp
#define T_DEG   2
#define T_LEM   CZ_BN254_G2_LEM_BYTES
#define T_N8    32
#define T_P     BN254_FP_P
#define T_PDEC  BN254_PDEC
#define T_ZCASH 0
#include "encoding_test_impl.h"
#include "encoding_test_undef.h"

static unsigned long nzc, nnosub, ngmul;

static void encoding_record(char **f, int nf) {
    int bls, g2, fi;
    if (strcmp(f[0], "zc") == 0 && nf == 5) {
        bls = 1, g2 = strcmp(f[1], "g2") == 0, fi = 2;
        nzc++;
    } else if (strcmp(f[0], "gmul") == 0 && nf == 5) {
        bls = strcmp(f[1], "bls12381") == 0, g2 = strcmp(f[2], "g2") == 0, fi = 4;
        ngmul++;
    } else if (strcmp(f[0], "nosub") == 0 && nf == 4) {
        bls = strcmp(f[1], "bls12381") == 0, g2 = strcmp(f[2], "g2") == 0, fi = 3;
        nnosub++;
    } else {
        return;
    }
    if (bls && !g2)
        cz_bls12381_g1_t_enc_record(f, nf, fi);
    else if (bls)
        cz_bls12381_g2_t_enc_record(f, nf, fi);
    else if (!g2)
        cz_bn254_g1_t_enc_record(f, nf, fi);
    else
        cz_bn254_g2_t_enc_record(f, nf, fi);
}

static void test_vectors(void) {
    curve_vectors_each(encoding_record);
    CHECK_EQ_U64(nzc, 66);   /* 8 + 24 random points and infinity, G1 and G2 */
    CHECK_EQ_U64(nnosub, 9); /* BLS12-381 G1, G2 and BN254 G2 */
    CHECK(ngmul > 40);
}

static const test_case cases[] = {
    {"bls12381_g1_misc", cz_bls12381_g1_t_enc_misc},
    {"bls12381_g2_misc", cz_bls12381_g2_t_enc_misc},
    {"bn254_g1_misc", cz_bn254_g1_t_enc_misc},
    {"bn254_g2_misc", cz_bn254_g2_t_enc_misc},
    {"vectors", test_vectors},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
