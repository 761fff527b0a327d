/*
 * The functions of one prime field, declared for CZ_FIELD_T with names CZ_FIELD_PREFIX_<verb>.
 * Included by cuzk/field.h once per field; not a header to include on its own.
 */
#define CZ_FA_CAT_(a, b) a##b
#define CZ_FA_CAT(a, b)  CZ_FA_CAT_(a, b)
#define CZ_FA(name)      CZ_FA_CAT(CZ_FIELD_PREFIX, _##name)

void CZ_FA(zero)(CZ_FIELD_T *ret);
void CZ_FA(one)(CZ_FIELD_T *ret);
void CZ_FA(from_u64)(CZ_FIELD_T *ret, uint64_t v);
int CZ_FA(is_zero)(const CZ_FIELD_T *a);
int CZ_FA(eq)(const CZ_FIELD_T *a, const CZ_FIELD_T *b);
void CZ_FA(add)(CZ_FIELD_T *ret, const CZ_FIELD_T *a, const CZ_FIELD_T *b);
void CZ_FA(sub)(CZ_FIELD_T *ret, const CZ_FIELD_T *a, const CZ_FIELD_T *b);
void CZ_FA(neg)(CZ_FIELD_T *ret, const CZ_FIELD_T *a);
void CZ_FA(dbl)(CZ_FIELD_T *ret, const CZ_FIELD_T *a);
void CZ_FA(mul)(CZ_FIELD_T *ret, const CZ_FIELD_T *a, const CZ_FIELD_T *b);
void CZ_FA(sqr)(CZ_FIELD_T *ret, const CZ_FIELD_T *a);
/* ret = a⁻¹; the inverse of zero is zero. */
void CZ_FA(inv)(CZ_FIELD_T *ret, const CZ_FIELD_T *a);
/* ret = a^e, e given as nlimbs 64-bit limbs, least significant first. */
void CZ_FA(pow)(CZ_FIELD_T *ret, const CZ_FIELD_T *a, const uint64_t *e, size_t nlimbs);
/* 1 for a non-zero square, -1 for a non-square, 0 for zero. */
int CZ_FA(legendre)(const CZ_FIELD_T *a);
/* Canonical (standard-form) bytes, CZ_<FIELD>_BYTES of them. from_* reject values >= p. */
int CZ_FA(from_bytes_le)(CZ_FIELD_T *ret, const uint8_t *in);
int CZ_FA(from_bytes_be)(CZ_FIELD_T *ret, const uint8_t *in);
void CZ_FA(to_bytes_le)(uint8_t *out, const CZ_FIELD_T *a);
void CZ_FA(to_bytes_be)(uint8_t *out, const CZ_FIELD_T *a);
/* Montgomery-form little-endian bytes (snarkjs "LEM"), CZ_<FIELD>_BYTES of them. */
int CZ_FA(from_mont_bytes_le)(CZ_FIELD_T *ret, const uint8_t *in);
void CZ_FA(to_mont_bytes_le)(uint8_t *out, const CZ_FIELD_T *a);
/* Decimal strings: digits only. CZ_EFORMAT for other characters, CZ_ERANGE for a value >= p.
 * to_dec writes at most CZ_FIELD_DEC_MAX bytes (with the NUL) and returns the length. */
int CZ_FA(from_dec)(CZ_FIELD_T *ret, const char *s);
size_t CZ_FA(to_dec)(char *out, const CZ_FIELD_T *a);
/* A uniformly random element from the CSPRNG (rejection sampling). CZ_EIO if getrandom fails. */
int CZ_FA(random)(CZ_FIELD_T *ret);

#undef CZ_FA
#undef CZ_FA_CAT
#undef CZ_FA_CAT_
#undef CZ_FIELD_T
#undef CZ_FIELD_PREFIX
