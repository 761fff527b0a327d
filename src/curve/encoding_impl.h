/*
 * Point encodings (cuzk/encoding.h) of one group, written once and instantiated by encoding.c
 * after defining:
 *
 *   E_G        the group's internal prefix (bls12381_g1), instantiated by curve/ec.h
 *   E_EX       the public prefix (cz_bls12381_g1)
 *   E_F, E_F_T the coordinate field's internal prefix and type (Fp, or Fp2 for G2)
 *   E_B, E_B_T the base field Fp's internal prefix and type
 *   E_DEG      1 for G1 (coordinates in Fp), 2 for G2 (coordinates in Fp2 = c0 + c1·u)
 *   E_N8       bytes of one Fp element (48 for BLS12-381, 32 for BN254)
 *   E_AFF      the affine point type
 *   E_NAME     "bls12381 g1", for error messages
 *   E_ZCASH    1 to also emit the zcash/bellman functions (BLS12-381)
 *   E_HALF     (p - 1)/2 as limbs, for the zcash sign bit (only with E_ZCASH)
 *
 * A coordinate is read and written one Fp element at a time (c0 and c1 for Fp2); only the order
 * of the elements and the byte order differ between the formats. Decoders build the point in a
 * local and store it to *ret only on success.
 */
#include <string.h>

#include "field/cz_macros.h"

#define G(name)  CZ_CAT3(E_G, _, name)
#define F(name)  CZ_CAT3(E_F, _, name)
#define B(name)  CZ_CAT3(E_B, _, name)
#define EX(name) CZ_CAT3(E_EX, _, name)
#define L(name)  CZ_CAT3(E_G, _enc_, name)

#define E_COORD_BYTES (E_DEG * E_N8)

/* The Fp elements of a coordinate in c0, c1 order. */
static inline E_B_T *L(part)(E_F_T *a, int i) {
#if E_DEG == 1
    (void)i;
    return a;
#else
    return i == 0 ? &a->c0 : &a->c1;
#endif
}

static inline const E_B_T *L(cpart)(const E_F_T *a, int i) {
    return L(part)((E_F_T *)a, i);
}

static int L(check_point)(const E_AFF *p, int check_subgroup, const char *what, cz_errinfo *ei) {
    if (!G(affine_on_curve)(p))
        return cz_fail(ei, CZ_ENOTONCURVE, "%s %s: point is not on the curve", E_NAME, what);
    if (check_subgroup && !G(affine_in_subgroup)(p))
        return cz_fail(ei, CZ_ENOTINSUBGROUP, "%s %s: point is not in the prime-order subgroup",
                       E_NAME, what);
    return CZ_OK;
}

/* ---- snarkjs LEM -------------------------------------------------------------------------- */

void EX(to_lem)(uint8_t *out, const E_AFF *p) {
    for (int i = 0; i < E_DEG; i++) {
        B(to_mont_bytes_le)(out + i * E_N8, L(cpart)(&p->x, i));
        B(to_mont_bytes_le)(out + E_COORD_BYTES + i * E_N8, L(cpart)(&p->y, i));
    }
}

int EX(from_lem)(E_AFF *ret, const uint8_t *in, size_t len, unsigned flags, cz_errinfo *ei) {
    E_AFF p;
    if (len != 2 * E_COORD_BYTES)
        return cz_fail(ei, CZ_EFORMAT, "%s LEM: expected %d bytes, got %zu", E_NAME,
                       2 * E_COORD_BYTES, len);
    for (int i = 0; i < E_DEG; i++) {
        if (B(from_mont_bytes_le)(L(part)(&p.x, i), in + i * E_N8) != CZ_OK ||
            B(from_mont_bytes_le)(L(part)(&p.y, i), in + E_COORD_BYTES + i * E_N8) != CZ_OK)
            return cz_fail(ei, CZ_ENONCANON, "%s LEM: coordinate is not below p", E_NAME);
    }
    /* All zero bytes decode to (0, 0), the affine infinity, which on_curve accepts. */
    int rc = L(check_point)(&p, (flags & CZ_ENC_CHECK_SUBGROUP) != 0, "LEM", ei);
    if (rc == CZ_OK)
        *ret = p;
    return rc;
}

/* ---- decimal triples ---------------------------------------------------------------------- */

static int L(coord_from_dec)(E_F_T *r, const char *const *s, const char *name, cz_errinfo *ei) {
    for (int i = 0; i < E_DEG; i++) {
        int rc = B(from_dec)(L(part)(r, i), s[i]);
        if (rc == CZ_ERANGE)
            return cz_fail(ei, CZ_ENONCANON, "%s decimal: %s is not below p", E_NAME, name);
        if (rc != CZ_OK)
            return cz_fail(ei, CZ_EFORMAT, "%s decimal: %s is not a decimal number", E_NAME, name);
    }
    return CZ_OK;
}

int EX(from_dec)(E_AFF *ret, const char *const xyz[3 * E_DEG], cz_errinfo *ei) {
    E_AFF p;
    int rc, inf;
    if ((rc = L(coord_from_dec)(&p.x, xyz, "x", ei)) != CZ_OK ||
        (rc = L(coord_from_dec)(&p.y, xyz + E_DEG, "y", ei)) != CZ_OK)
        return rc;
    /* z is exactly "1" or "0" (its c1 exactly "0" for G2): the files hold affine points only. */
    if (strcmp(xyz[2 * E_DEG], "1") == 0)
        inf = 0;
    else if (strcmp(xyz[2 * E_DEG], "0") == 0)
        inf = 1;
    else
        return cz_fail(ei, CZ_EFORMAT, "%s decimal: z must be \"1\" or \"0\"", E_NAME);
    if (E_DEG == 2 && strcmp(xyz[3 * E_DEG - 1], "0") != 0)
        return cz_fail(ei, CZ_EFORMAT, "%s decimal: z.c1 must be \"0\"", E_NAME);
    if (inf) {
        G(affine_set_infinity)(ret);
        return CZ_OK;
    }
    /* A finite point at (0, 0) would read back as infinity; it is not on these curves anyway. */
    rc = L(check_point)(&p, 1, "decimal", ei);
    if (rc == CZ_OK)
        *ret = p;
    return rc;
}

void EX(to_dec)(char out[3 * E_DEG][CZ_FIELD_DEC_MAX], const E_AFF *p) {
    if (G(affine_is_infinity)(p)) {
        /* snarkjs' infinity: (0, 1, 0). */
        for (int i = 0; i < 3 * E_DEG; i++)
            strcpy(out[i], i == E_DEG ? "1" : "0");
        return;
    }
    for (int i = 0; i < E_DEG; i++) {
        B(to_dec)(out[i], L(cpart)(&p->x, i));
        B(to_dec)(out[E_DEG + i], L(cpart)(&p->y, i));
        strcpy(out[2 * E_DEG + i], i == 0 ? "1" : "0");
    }
}

/* ---- zcash/bellman ------------------------------------------------------------------------ */
#if E_ZCASH

#define ZC_COMPRESSED 0x80u
#define ZC_INFINITY   0x40u
#define ZC_SIGN       0x20u

/* Big-endian coordinate: c1 first for Fp2 (element index E_DEG - 1 - i at offset i·n8). */
static void L(coord_to_be)(uint8_t *out, const E_F_T *a) {
    for (int i = 0; i < E_DEG; i++)
        B(to_bytes_be)(out + i * E_N8, E_N8, L(cpart)(a, E_DEG - 1 - i));
}

static int L(coord_from_be)(E_F_T *r, const uint8_t *in) {
    for (int i = 0; i < E_DEG; i++)
        if (B(from_bytes_be)(L(part)(r, E_DEG - 1 - i), in + i * E_N8, E_N8) != CZ_OK)
            return CZ_ENONCANON;
    return CZ_OK;
}

/* 1 when a > (p - 1)/2, i.e. a is the larger of a and -a (as integers). */
static int L(fp_is_larger)(const E_B_T *a) {
    uint64_t v[sizeof a->l / 8], t[sizeof a->l / 8];
    B(from_mont)(v, a);
    return (int)B(limbs_sub)(t, E_HALF, v); /* borrow: half < v */
}

/* The zcash sign of y: for Fp2, c1 decides unless it is zero, then c0. */
static int L(sign)(const E_F_T *y) {
    for (int i = E_DEG - 1; i >= 0; i--)
        if (!B(is_zero)(L(cpart)(y, i)) || i == 0)
            return L(fp_is_larger)(L(cpart)(y, i));
    return 0;
}

void EX(to_compressed)(uint8_t out[E_COORD_BYTES], const E_AFF *p) {
    if (G(affine_is_infinity)(p)) {
        memset(out, 0, E_COORD_BYTES);
        out[0] = ZC_COMPRESSED | ZC_INFINITY;
        return;
    }
    L(coord_to_be)(out, &p->x);
    out[0] |= ZC_COMPRESSED | (L(sign)(&p->y) ? ZC_SIGN : 0);
}

void EX(to_uncompressed)(uint8_t out[2 * E_COORD_BYTES], const E_AFF *p) {
    if (G(affine_is_infinity)(p)) {
        memset(out, 0, 2 * E_COORD_BYTES);
        out[0] = ZC_INFINITY;
        return;
    }
    L(coord_to_be)(out, &p->x);
    L(coord_to_be)(out + E_COORD_BYTES, &p->y);
}

/* Infinity must be the flag byte followed by zeros only. */
static int L(check_infinity)(const uint8_t *in, size_t len, unsigned flags, const char *what,
                             cz_errinfo *ei) {
    if (flags & ZC_SIGN)
        return cz_fail(ei, CZ_EFLAGS, "%s %s: sign flag set on infinity", E_NAME, what);
    uint8_t acc = in[0] & 0x1f;
    for (size_t i = 1; i < len; i++)
        acc |= in[i];
    if (acc != 0)
        return cz_fail(ei, CZ_EFLAGS, "%s %s: infinity flag with non-zero bytes", E_NAME, what);
    return CZ_OK;
}

static int L(decompress)(E_AFF *ret, const uint8_t *in, size_t len, int check_subgroup,
                         cz_errinfo *ei) {
    uint8_t buf[E_COORD_BYTES];
    E_AFF p;
    E_F_T y2, b;
    if (len != E_COORD_BYTES)
        return cz_fail(ei, CZ_EFORMAT, "%s compressed: expected %d bytes, got %zu", E_NAME,
                       E_COORD_BYTES, len);
    unsigned flags = in[0] & 0xe0u;
    if (!(flags & ZC_COMPRESSED))
        return cz_fail(ei, CZ_EFLAGS, "%s compressed: compression flag not set", E_NAME);
    if (flags & ZC_INFINITY) {
        int rc = L(check_infinity)(in, len, flags, "compressed", ei);
        if (rc == CZ_OK)
            G(affine_set_infinity)(ret);
        return rc;
    }
    memcpy(buf, in, sizeof buf);
    buf[0] &= 0x1f;
    if (L(coord_from_be)(&p.x, buf) != CZ_OK)
        return cz_fail(ei, CZ_ENONCANON, "%s compressed: x is not below p", E_NAME);
    F(sqr)(&y2, &p.x);
    F(mul)(&y2, &y2, &p.x);
    G(load_b)(&b);
    F(add)(&y2, &y2, &b);
    if (F(sqrt)(&p.y, &y2) != CZ_OK)
        return cz_fail(ei, CZ_ENOTONCURVE, "%s compressed: no point with this x", E_NAME);
    if (L(sign)(&p.y) != ((flags & ZC_SIGN) != 0))
        F(neg)(&p.y, &p.y);
    int rc = L(check_point)(&p, check_subgroup, "compressed", ei);
    if (rc == CZ_OK)
        *ret = p;
    return rc;
}

static int L(uncompress)(E_AFF *ret, const uint8_t *in, size_t len, int check_subgroup,
                         cz_errinfo *ei) {
    uint8_t buf[E_COORD_BYTES];
    E_AFF p;
    if (len != 2 * E_COORD_BYTES)
        return cz_fail(ei, CZ_EFORMAT, "%s uncompressed: expected %d bytes, got %zu", E_NAME,
                       2 * E_COORD_BYTES, len);
    unsigned flags = in[0] & 0xe0u;
    if (flags & ZC_COMPRESSED)
        return cz_fail(ei, CZ_EFLAGS, "%s uncompressed: compression flag set", E_NAME);
    if (flags & ZC_INFINITY) {
        int rc = L(check_infinity)(in, len, flags, "uncompressed", ei);
        if (rc == CZ_OK)
            G(affine_set_infinity)(ret);
        return rc;
    }
    if (flags & ZC_SIGN)
        return cz_fail(ei, CZ_EFLAGS, "%s uncompressed: sign flag set", E_NAME);
    memcpy(buf, in, sizeof buf);
    if (L(coord_from_be)(&p.x, buf) != CZ_OK || L(coord_from_be)(&p.y, in + E_COORD_BYTES))
        return cz_fail(ei, CZ_ENONCANON, "%s uncompressed: coordinate is not below p", E_NAME);
    /* (0, 0) without the infinity flag is rejected: it is not on the curve. */
    if (G(affine_is_infinity)(&p))
        return cz_fail(ei, CZ_ENOTONCURVE, "%s uncompressed: point is not on the curve", E_NAME);
    int rc = L(check_point)(&p, check_subgroup, "uncompressed", ei);
    if (rc == CZ_OK)
        *ret = p;
    return rc;
}

int EX(from_compressed)(E_AFF *ret, const uint8_t *in, size_t len, cz_errinfo *ei) {
    return L(decompress)(ret, in, len, 1, ei);
}
int EX(from_compressed_unchecked)(E_AFF *ret, const uint8_t *in, size_t len, cz_errinfo *ei) {
    return L(decompress)(ret, in, len, 0, ei);
}
int EX(from_uncompressed)(E_AFF *ret, const uint8_t *in, size_t len, cz_errinfo *ei) {
    return L(uncompress)(ret, in, len, 1, ei);
}
int EX(from_uncompressed_unchecked)(E_AFF *ret, const uint8_t *in, size_t len, cz_errinfo *ei) {
    return L(uncompress)(ret, in, len, 0, ei);
}

#undef ZC_COMPRESSED
#undef ZC_INFINITY
#undef ZC_SIGN
#endif

#undef E_COORD_BYTES
#undef G
#undef F
#undef B
#undef EX
#undef L
