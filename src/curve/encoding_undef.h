/* Clears the parameters of one encoding_impl.h instantiation. */
#undef E_G
#undef E_EX
#undef E_F
#undef E_F_T
#undef E_B
#undef E_B_T
#undef E_DEG
#undef E_N8
#undef E_AFF
#undef E_NAME
#undef E_ZCASH
#undef E_HALF
