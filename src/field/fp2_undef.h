/* Clears the parameters of one fp2_impl.h (or fp2_export.h) instantiation. */
#undef E2_PREFIX
#undef E2_T
#undef E2_BASE
#undef E2_BASE_T
#undef E2_XI0
#undef E2_P_MINUS_3_QUARTER
#undef E2_P_MINUS_1_HALF
