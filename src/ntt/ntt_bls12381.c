/* The CPU NTT of ntt_impl.h instantiated for the BLS12-381 scalar field Fr. */
#include "field/field.h"

/* bellperson's domain (cuzk/ntt.h, CZ_NTT_ROOTS_BELLPERSON): blstrs's Scalar::ROOT_OF_UNITY =
 * 7^((r-1) >> 32), canonical 0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b,
 * here in Montgomery form (R = 2^256, as blst's, so these are blstrs's limbs), and its
 * MULTIPLICATIVE_GENERATOR 7, the coset generator. tests/ntt/test_ntt.c checks both against GMP
 * and the published value. */
static const uint64_t ntt_bls12381_bp_root[4] = {0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL,
                                                 0x0af53ae352a31e64ULL, 0x5bf3adda19e9b27bULL};

#define NTT_CURVE            bls12381
#define NTT_F                bls12381_fr
#define NTT_T                cz_bls12381_fr
#define NTT_TWO_ADICITY      BLS12381_FR_TWO_ADICITY
#define NTT_ROOT_OF_UNITY    BLS12381_FR_ROOT_OF_UNITY
#define NTT_NQR              BLS12381_FR_NQR
#define NTT_BP_ROOT_OF_UNITY ntt_bls12381_bp_root
#define NTT_BP_GENERATOR     7
#include "ntt/ntt_impl.h"
