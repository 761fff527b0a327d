/* Clears the parameters of one encoding_test_impl.h instantiation. */
#undef T_G
#undef T_AFF
#undef T_F
#undef T_F_T
#undef T_B
#undef T_DEG
#undef T_LEM
#undef T_N8
#undef T_P
#undef T_PDEC
#undef T_ZCASH
