/* Clears the parameters of one pairing_impl.h instantiation. */
#undef PR_CURVE
#undef PR_FP_T
#undef PR_FP2_T
#undef PR_FP6_T
#undef PR_FP12_T
#undef PR_G1_T
#undef PR_G2_T
#undef PR_MTWIST
#undef PR_B2_X3
#undef PR_FROB3
#undef PR_FROB6
#undef PR_LOOP
#undef PR_LOOP_LEN
#undef PR_BN
#undef PR_X_NEGATIVE
#undef PR_HARD_X
