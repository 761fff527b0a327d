/*
 * Exports one instantiated group as the public cz_<curve>_<g>_* functions of cuzk/curve_api.h.
 * Parameters: G_PREFIX, G_AFF, G_JAC, G_XYZZ, G_FR_T. Included by curves.c only.
 */
#include "field/cz_macros.h"

#define IN(name) CZ_CAT3(G_PREFIX, _, name)
#define EX(name) CZ_CAT3(CZ_CAT(cz_, G_PREFIX), _, name)

void EX(generator)(G_AFF *ret) {
    IN(generator)(ret);
}
int EX(is_infinity)(const G_AFF *p) {
    return IN(affine_is_infinity)(p);
}
int EX(jacobian_is_infinity)(const G_JAC *p) {
    return IN(jac_is_infinity)(p);
}
int EX(on_curve)(const G_AFF *p) {
    return IN(affine_on_curve)(p);
}
int EX(in_subgroup)(const G_AFF *p) {
    return IN(affine_in_subgroup)(p);
}
void EX(to_affine)(G_AFF *ret, const G_JAC *p) {
    IN(to_affine)(ret, p);
}
void EX(from_affine)(G_JAC *ret, const G_AFF *p) {
    IN(from_affine)(ret, p);
}
int EX(eq)(const G_JAC *a, const G_JAC *b) {
    return IN(jac_eq)(a, b);
}
int EX(affine_eq)(const G_AFF *a, const G_AFF *b) {
    return IN(affine_eq)(a, b);
}
void EX(neg)(G_JAC *ret, const G_JAC *p) {
    IN(jac_neg)(ret, p);
}
void EX(affine_neg)(G_AFF *ret, const G_AFF *p) {
    IN(affine_neg)(ret, p);
}
void EX(add)(G_JAC *ret, const G_JAC *a, const G_JAC *b) {
    IN(add)(ret, a, b);
}
void EX(add_mixed)(G_JAC *ret, const G_JAC *a, const G_AFF *b) {
    IN(add_mixed)(ret, a, b);
}
void EX(dbl)(G_JAC *ret, const G_JAC *p) {
    IN(dbl)(ret, p);
}
void EX(xyzz_from_affine)(G_XYZZ *ret, const G_AFF *p) {
    IN(xyzz_from_affine)(ret, p);
}
void EX(xyzz_add_mixed)(G_XYZZ *ret, const G_XYZZ *a, const G_AFF *b) {
    IN(xyzz_add_mixed)(ret, a, b);
}
void EX(xyzz_add)(G_XYZZ *ret, const G_XYZZ *a, const G_XYZZ *b) {
    IN(xyzz_add)(ret, a, b);
}
void EX(xyzz_dbl)(G_XYZZ *ret, const G_XYZZ *p) {
    IN(xyzz_dbl)(ret, p);
}
void EX(xyzz_to_affine)(G_AFF *ret, const G_XYZZ *p) {
    IN(xyzz_to_affine)(ret, p);
}
void EX(xyzz_to_jacobian)(G_JAC *ret, const G_XYZZ *p) {
    IN(xyzz_to_jacobian)(ret, p);
}
void EX(mul)(G_JAC *ret, const G_JAC *p, const G_FR_T *k) {
    IN(mul)(ret, p, k);
}
void EX(mul_limbs)(G_JAC *ret, const G_JAC *p, const uint64_t *k, size_t nlimbs) {
    IN(mul_limbs)(ret, p, k, nlimbs);
}
void EX(batch_to_affine)(G_AFF *out, const G_JAC *in, size_t n) {
    IN(batch_to_affine)(out, in, n);
}

#undef IN
#undef EX
