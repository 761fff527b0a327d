/*
 * Exports one instantiated Fp2 as the public cz_<curve>_fp2_* functions of cuzk/field.h.
 * Parameters: E2_PREFIX, E2_T, E2_BASE_T. Included by fields.c only.
 */
#include "field/cz_macros.h"

#define IN(name) CZ_CAT3(E2_PREFIX, _, name)
#define EX(name) CZ_CAT3(CZ_CAT(cz_, E2_PREFIX), _, name)

void EX(zero)(E2_T *ret) {
    IN(set_zero)(ret);
}
void EX(one)(E2_T *ret) {
    IN(set_one)(ret);
}
int EX(is_zero)(const E2_T *a) {
    return IN(is_zero)(a);
}
int EX(eq)(const E2_T *a, const E2_T *b) {
    return IN(eq)(a, b);
}
void EX(add)(E2_T *ret, const E2_T *a, const E2_T *b) {
    IN(add)(ret, a, b);
}
void EX(sub)(E2_T *ret, const E2_T *a, const E2_T *b) {
    IN(sub)(ret, a, b);
}
void EX(neg)(E2_T *ret, const E2_T *a) {
    IN(neg)(ret, a);
}
void EX(dbl)(E2_T *ret, const E2_T *a) {
    IN(dbl)(ret, a);
}
void EX(mul)(E2_T *ret, const E2_T *a, const E2_T *b) {
    IN(mul)(ret, a, b);
}
void EX(sqr)(E2_T *ret, const E2_T *a) {
    IN(sqr)(ret, a);
}
void EX(mul_fp)(E2_T *ret, const E2_T *a, const E2_BASE_T *b) {
    IN(mul_fp)(ret, a, b);
}
void EX(conj)(E2_T *ret, const E2_T *a) {
    IN(conj)(ret, a);
}
void EX(inv)(E2_T *ret, const E2_T *a) {
    IN(inv)(ret, a);
}
void EX(pow)(E2_T *ret, const E2_T *a, const uint64_t *e, size_t nlimbs) {
    IN(pow_limbs)(ret, a, e, nlimbs);
}
int EX(legendre)(const E2_T *a) {
    return IN(legendre)(a);
}
int EX(sqrt)(E2_T *ret, const E2_T *a) {
    return IN(sqrt)(ret, a);
}

#undef IN
#undef EX
