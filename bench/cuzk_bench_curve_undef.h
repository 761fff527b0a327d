/* Clears the parameters of one cuzk_bench_curve_impl.h instantiation. */
#undef B_G
#undef B_AFF
#undef B_JAC
#undef B_XYZZ
#undef B_FR_T
#undef B_CURVE
#undef B_GN
