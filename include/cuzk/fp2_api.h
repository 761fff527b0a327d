/*
 * The functions of one Fp2, declared for CZ_FP2_T (over CZ_FP2_BASE_T) with names
 * CZ_FP2_PREFIX_<verb>. Included by cuzk/field.h once per curve; not a header to include alone.
 */
#define CZ_F2_CAT_(a, b) a##b
#define CZ_F2_CAT(a, b)  CZ_F2_CAT_(a, b)
#define CZ_F2(name)      CZ_F2_CAT(CZ_FP2_PREFIX, _##name)

void CZ_F2(zero)(CZ_FP2_T *ret);
void CZ_F2(one)(CZ_FP2_T *ret);
int CZ_F2(is_zero)(const CZ_FP2_T *a);
int CZ_F2(eq)(const CZ_FP2_T *a, const CZ_FP2_T *b);
void CZ_F2(add)(CZ_FP2_T *ret, const CZ_FP2_T *a, const CZ_FP2_T *b);
void CZ_F2(sub)(CZ_FP2_T *ret, const CZ_FP2_T *a, const CZ_FP2_T *b);
void CZ_F2(neg)(CZ_FP2_T *ret, const CZ_FP2_T *a);
void CZ_F2(dbl)(CZ_FP2_T *ret, const CZ_FP2_T *a);
void CZ_F2(mul)(CZ_FP2_T *ret, const CZ_FP2_T *a, const CZ_FP2_T *b);
void CZ_F2(sqr)(CZ_FP2_T *ret, const CZ_FP2_T *a);
void CZ_F2(mul_fp)(CZ_FP2_T *ret, const CZ_FP2_T *a, const CZ_FP2_BASE_T *b);
/* Complex conjugate, which is also the Frobenius map a -> a^p. */
void CZ_F2(conj)(CZ_FP2_T *ret, const CZ_FP2_T *a);
void CZ_F2(inv)(CZ_FP2_T *ret, const CZ_FP2_T *a);
void CZ_F2(pow)(CZ_FP2_T *ret, const CZ_FP2_T *a, const uint64_t *e, size_t nlimbs);
int CZ_F2(legendre)(const CZ_FP2_T *a);
/* CZ_OK, or CZ_ENOSQRT when a is not a square. */
int CZ_F2(sqrt)(CZ_FP2_T *ret, const CZ_FP2_T *a);

#undef CZ_F2
#undef CZ_F2_CAT
#undef CZ_F2_CAT_
#undef CZ_FP2_T
#undef CZ_FP2_PREFIX
#undef CZ_FP2_BASE_T
