/* Token pasting used by the *_impl.h templates. */
#ifndef CUZK_CZ_MACROS_H
#define CUZK_CZ_MACROS_H

#define CZ_CAT_(a, b)    a##b
#define CZ_CAT(a, b)     CZ_CAT_(a, b)
#define CZ_CAT3(a, b, c) CZ_CAT(CZ_CAT(a, b), c)

/* 64x64 -> 128-bit products; __extension__ keeps -Wpedantic quiet about the GNU type. */
__extension__ typedef unsigned __int128 cz_u128;

#endif
