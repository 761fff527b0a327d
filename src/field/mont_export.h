/*
 * Exports one instantiated field as the public cz_<field>_* functions of cuzk/field.h.
 * Parameters: F_PREFIX (internal prefix, e.g. bn254_fr) and F_T. Included by fields.c only.
 */
#include "cuzk/rand.h"
#include "field/cz_macros.h"

#define IN(name) CZ_CAT3(F_PREFIX, _, name)
#define EX(name) CZ_CAT3(CZ_CAT(cz_, F_PREFIX), _, name)

void EX(zero)(F_T *ret) {
    IN(set_zero)(ret);
}
void EX(one)(F_T *ret) {
    IN(set_one)(ret);
}
void EX(from_u64)(F_T *ret, uint64_t v) {
    IN(from_u64)(ret, v);
}
int EX(is_zero)(const F_T *a) {
    return IN(is_zero)(a);
}
int EX(eq)(const F_T *a, const F_T *b) {
    return IN(eq)(a, b);
}
void EX(add)(F_T *ret, const F_T *a, const F_T *b) {
    IN(add)(ret, a, b);
}
void EX(sub)(F_T *ret, const F_T *a, const F_T *b) {
    IN(sub)(ret, a, b);
}
void EX(neg)(F_T *ret, const F_T *a) {
    IN(neg)(ret, a);
}
void EX(dbl)(F_T *ret, const F_T *a) {
    IN(dbl)(ret, a);
}
void EX(mul)(F_T *ret, const F_T *a, const F_T *b) {
    IN(mul)(ret, a, b);
}
void EX(sqr)(F_T *ret, const F_T *a) {
    IN(sqr)(ret, a);
}
void EX(inv)(F_T *ret, const F_T *a) {
    IN(inv)(ret, a);
}
void EX(pow)(F_T *ret, const F_T *a, const uint64_t *e, size_t nlimbs) {
    IN(pow_limbs)(ret, a, e, nlimbs);
}
int EX(legendre)(const F_T *a) {
    return IN(legendre)(a);
}
int EX(from_bytes_le)(F_T *ret, const uint8_t *in) {
    return IN(from_bytes_le)(ret, in);
}
int EX(from_bytes_be)(F_T *ret, const uint8_t *in) {
    return IN(from_bytes_be)(ret, in, sizeof ret->l);
}
void EX(to_bytes_le)(uint8_t *out, const F_T *a) {
    IN(to_bytes_le)(out, a);
}
void EX(to_bytes_be)(uint8_t *out, const F_T *a) {
    IN(to_bytes_be)(out, sizeof a->l, a);
}
int EX(from_mont_bytes_le)(F_T *ret, const uint8_t *in) {
    return IN(from_mont_bytes_le)(ret, in);
}
void EX(to_mont_bytes_le)(uint8_t *out, const F_T *a) {
    IN(to_mont_bytes_le)(out, a);
}
int EX(from_dec)(F_T *ret, const char *s) {
    return IN(from_dec)(ret, s);
}
size_t EX(to_dec)(char *out, const F_T *a) {
    return IN(to_dec)(out, a);
}

/* Rejection sampling: draw canonical limbs with the modulus' bit length until one is below p. */
int EX(random)(F_T *ret) {
    for (;;) {
        uint64_t a[sizeof ret->l / 8];
        int rc = cz_random_bytes(a, sizeof a);
        if (rc != CZ_OK)
            return rc;
        a[sizeof a / 8 - 1] &= IN(top_limb_mask)();
        if (IN(from_limbs)(ret, a) == CZ_OK)
            return CZ_OK;
    }
}

#undef IN
#undef EX
