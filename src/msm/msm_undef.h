/* Clears the parameters of one msm_impl.h instantiation. */
#undef M_G
#undef M_F
#undef M_F_T
#undef M_AFF
#undef M_JAC
#undef M_XYZZ
#undef M_FR
#undef M_FR_T
#undef M_EXPORT
#undef M_GLV
#undef M_GLV_BETA
#undef M_BETA_T
#undef M_ENDO
