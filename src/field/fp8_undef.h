/* Clears the names an includer of fp8_impl.h defined for one instantiation. */
#undef P8
#undef P8_FN
#undef P8_MADD52LO
#undef P8_MADD52HI
