/* Clears the parameters of one ec_impl.h (or ec_export.h) instantiation. */
#undef G_PREFIX
#undef G_F
#undef G_F_T
#undef G_AFF
#undef G_JAC
#undef G_XYZZ
#undef G_FR
#undef G_FR_T
#undef G_B
#undef G_GX
#undef G_GY
#undef G_ORDER
#undef G_ORDER_N
#undef G_COFACTOR_ONE
#undef G_ENDO
#undef G_ENDO_SQUARE
#undef G_ENDO_K
