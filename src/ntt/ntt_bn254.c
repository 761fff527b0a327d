/* The CPU NTT of ntt_impl.h instantiated for the BN254 scalar field Fr. */
#include "field/field.h"

#define NTT_CURVE         bn254
#define NTT_F             bn254_fr
#define NTT_T             cz_bn254_fr
#define NTT_TWO_ADICITY   BN254_FR_TWO_ADICITY
#define NTT_ROOT_OF_UNITY BN254_FR_ROOT_OF_UNITY
#define NTT_NQR           BN254_FR_NQR
#include "ntt/ntt_impl.h"
