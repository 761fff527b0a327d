/* The CPU NTT of ntt_impl.h instantiated for the BLS12-381 scalar field Fr. */
#include "field/field.h"

#define NTT_CURVE         bls12381
#define NTT_F             bls12381_fr
#define NTT_T             cz_bls12381_fr
#define NTT_TWO_ADICITY   BLS12381_FR_TWO_ADICITY
#define NTT_ROOT_OF_UNITY BLS12381_FR_ROOT_OF_UNITY
#define NTT_NQR           BLS12381_FR_NQR
#include "ntt/ntt_impl.h"
