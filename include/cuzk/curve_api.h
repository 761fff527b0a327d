/*
 * The functions of one group (G1 or G2 of one curve), declared for the point types CZ_G_AFF,
 * CZ_G_JAC, CZ_G_XYZZ and the scalar type CZ_G_FR with names CZ_G_PREFIX_<verb>. Included by
 * cuzk/curve.h once per group; not a header to include on its own.
 *
 * Arithmetic cannot fail and accepts every point of the curve, including infinity, P = Q and
 * P = -Q (the additions are complete). Outputs may alias inputs except where noted.
 * Nothing here is constant-time (see src/curve/ec_impl.h).
 */
#define CZ_GA_CAT_(a, b) a##b
#define CZ_GA_CAT(a, b)  CZ_GA_CAT_(a, b)
#define CZ_GA(name)      CZ_GA_CAT(CZ_G_PREFIX, _##name)

/* The standard generator (the one snarkjs, zcash and noble use). */
void CZ_GA(generator)(CZ_G_AFF *ret);
/* Affine infinity is (0, 0); Jacobian infinity is z = 0. */
int CZ_GA(is_infinity)(const CZ_G_AFF *p);
int CZ_GA(jacobian_is_infinity)(const CZ_G_JAC *p);
/* y² = x³ + b (infinity counts as on the curve). */
int CZ_GA(on_curve)(const CZ_G_AFF *p);
/* For a point already known to be on the curve: [r]p = O (always 1 for BN254 G1, cofactor 1). */
int CZ_GA(in_subgroup)(const CZ_G_AFF *p);
void CZ_GA(to_affine)(CZ_G_AFF *ret, const CZ_G_JAC *p);
void CZ_GA(from_affine)(CZ_G_JAC *ret, const CZ_G_AFF *p);
/* Equality of the points represented (projective comparison). */
int CZ_GA(eq)(const CZ_G_JAC *a, const CZ_G_JAC *b);
int CZ_GA(affine_eq)(const CZ_G_AFF *a, const CZ_G_AFF *b);
void CZ_GA(neg)(CZ_G_JAC *ret, const CZ_G_JAC *p);
void CZ_GA(affine_neg)(CZ_G_AFF *ret, const CZ_G_AFF *p);
/* Jacobian + Jacobian (add-1998-cmo-2, 12M + 4S). */
void CZ_GA(add)(CZ_G_JAC *ret, const CZ_G_JAC *a, const CZ_G_JAC *b);
/* Jacobian + affine (madd-2004-hmv, 8M + 3S). */
void CZ_GA(add_mixed)(CZ_G_JAC *ret, const CZ_G_JAC *a, const CZ_G_AFF *b);
/* 2p (dbl-2009-l, 2M + 5S). */
void CZ_GA(dbl)(CZ_G_JAC *ret, const CZ_G_JAC *p);
/* XYZZ coordinates for MSM buckets: from affine, + affine (madd-2008-s, 8M + 2S), + XYZZ
 * (add-2008-s, 12M + 2S), 2p (dbl-2008-s-1, 6M + 3S), to affine (one inversion), to Jacobian. */
void CZ_GA(xyzz_from_affine)(CZ_G_XYZZ *ret, const CZ_G_AFF *p);
void CZ_GA(xyzz_add_mixed)(CZ_G_XYZZ *ret, const CZ_G_XYZZ *a, const CZ_G_AFF *b);
void CZ_GA(xyzz_add)(CZ_G_XYZZ *ret, const CZ_G_XYZZ *a, const CZ_G_XYZZ *b);
void CZ_GA(xyzz_dbl)(CZ_G_XYZZ *ret, const CZ_G_XYZZ *p);
void CZ_GA(xyzz_to_affine)(CZ_G_AFF *ret, const CZ_G_XYZZ *p);
void CZ_GA(xyzz_to_jacobian)(CZ_G_JAC *ret, const CZ_G_XYZZ *p);
/* [k]p for a scalar-field element, and for a raw little-endian scalar of nlimbs 64-bit limbs
 * (any width: used with the group order and cofactors). */
void CZ_GA(mul)(CZ_G_JAC *ret, const CZ_G_JAC *p, const CZ_G_FR *k);
void CZ_GA(mul_limbs)(CZ_G_JAC *ret, const CZ_G_JAC *p, const uint64_t *k, size_t nlimbs);
/* n Jacobian points to affine with one field inversion (Montgomery's trick); infinity inputs
 * give (0, 0). in and out must not overlap. */
void CZ_GA(batch_to_affine)(CZ_G_AFF *out, const CZ_G_JAC *in, size_t n);

#undef CZ_GA
#undef CZ_GA_CAT
#undef CZ_GA_CAT_
#undef CZ_G_PREFIX
#undef CZ_G_AFF
#undef CZ_G_JAC
#undef CZ_G_XYZZ
#undef CZ_G_FR
