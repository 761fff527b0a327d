/* Clears the parameters of one curve_test_impl.h instantiation. */
#undef T_G
#undef T_AFF
#undef T_JAC
#undef T_XYZZ
#undef T_FR
#undef T_FR_T
#undef T_F
#undef T_F_T
#undef T_B
#undef T_DEG
#undef T_ORDER
