/*
 * The moduli, Montgomery ones (R mod p) and n0 = -p^-1 mod 2^32 of the four fields as u32 limbs
 * (little-endian), for the device code. Split from the u64 limbs of src/field/field_consts.h
 * (same bytes); tests/gpu/test_gpu_consts.c checks that they agree. Plain C macros, so that the
 * check builds without CUDA.
 */
#ifndef CUZK_GPU_CONSTS_H
#define CUZK_GPU_CONSTS_H

#define CZ_GPU_BN254_FP_P                                                                          \
    {                                                                                              \
        0xd87cfd47u, 0x3c208c16u, 0x6871ca8du, 0x97816a91u, 0x8181585du, 0xb85045b6u, 0xe131a029u, \
            0x30644e72u                                                                            \
    }
#define CZ_GPU_BN254_FP_ONE                                                                        \
    {                                                                                              \
        0xc58f0d9du, 0xd35d438du, 0xf5c70b3du, 0x0a78eb28u, 0x7879462cu, 0x666ea36fu, 0x9a07df2fu, \
            0x0e0a77c1u                                                                            \
    }
#define CZ_GPU_BN254_FP_N0 0xe4866389u
#define CZ_GPU_BN254_FR_P                                                                          \
    {                                                                                              \
        0xf0000001u, 0x43e1f593u, 0x79b97091u, 0x2833e848u, 0x8181585du, 0xb85045b6u, 0xe131a029u, \
            0x30644e72u                                                                            \
    }
#define CZ_GPU_BN254_FR_ONE                                                                        \
    {                                                                                              \
        0x4ffffffbu, 0xac96341cu, 0x9f60cd29u, 0x36fc7695u, 0x7879462eu, 0x666ea36fu, 0x9a07df2fu, \
            0x0e0a77c1u                                                                            \
    }
#define CZ_GPU_BN254_FR_N0 0xefffffffu
#define CZ_GPU_BLS12381_FP_P                                                                       \
    {                                                                                              \
        0xffffaaabu, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu, 0xf6b0f624u, 0x6730d2a0u, 0xf38512bfu, \
            0x64774b84u, 0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau                        \
    }
#define CZ_GPU_BLS12381_FP_ONE                                                                     \
    {                                                                                              \
        0x0002fffdu, 0x76090000u, 0xc40c0002u, 0xebf4000bu, 0x53c758bau, 0x5f489857u, 0x70525745u, \
            0x77ce5853u, 0xa256ec6du, 0x5c071a97u, 0xfa80e493u, 0x15f65ec3u                        \
    }
#define CZ_GPU_BLS12381_FP_N0 0xfffcfffdu
#define CZ_GPU_BLS12381_FR_P                                                                       \
    {                                                                                              \
        0x00000001u, 0xffffffffu, 0xfffe5bfeu, 0x53bda402u, 0x09a1d805u, 0x3339d808u, 0x299d7d48u, \
            0x73eda753u                                                                            \
    }
#define CZ_GPU_BLS12381_FR_ONE                                                                     \
    {                                                                                              \
        0xfffffffeu, 0x00000001u, 0x00034802u, 0x5884b7fau, 0xecbc4ff5u, 0x998c4fefu, 0xacc5056fu, \
            0x1824b159u                                                                            \
    }
#define CZ_GPU_BLS12381_FR_N0 0xffffffffu

#endif
