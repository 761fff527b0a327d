/* Clears the parameters of one mont_impl.h (or mont_export.h) instantiation. */
#undef F_PREFIX
#undef F_T
#undef F_N
#undef F_P
#undef F_ONE
#undef F_R2
#undef F_N0
#undef F_P_MINUS_2
#undef F_P_MINUS_1_HALF
#undef F_P_PLUS_1_QUARTER
#undef FN_HAVE_MUL_ADX
