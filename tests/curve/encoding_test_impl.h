/*
 * Encoding checks for one group, instantiated by test_encoding.c after curve_test_groups.h with the
 * T_* parameters of curve_test_impl.h plus:
 *   T_LEM (LEM byte length), T_N8 (bytes of one Fp), T_P (the Fp modulus limbs), T_PDEC (p in
 *   decimal, a published constant), T_ZCASH (1 for BLS12-381), T_NOSUB (1 if the curve has points
 *   outside the subgroup).
 */
#include "cuzk/encoding.h"
#include "field/cz_macros.h"

#define T(name)  CZ_CAT3(T_G, _t_, name)
#define G(name)  CZ_CAT3(T_G, _, name)
#define FF(name) CZ_CAT3(T_F, _, name)
#define BB(name) CZ_CAT3(T_B, _, name)

#if T_DEG == 1
#define T_PART(a, i) (a)
#else
#define T_PART(a, i) ((i) == 0 ? &(a)->c0 : &(a)->c1)
#endif
#define T_CB (T_DEG * T_N8)

static inline void T(bump_y)(T_AFF *p) {
    T_F_T one;
    FF(one)(&one);
    FF(add)(&p->y, &p->y, &one);
}

/* x with x³ + b not a square (found by counting), so no point has it. */
static inline void T(nonsquare_x)(T_F_T *x) {
    T_AFF g;
    T_F_T y2, b;
    G(generator)(&g);
    /* b = y² - x³ at the generator */
    FF(sqr)(&b, &g.y);
    FF(sqr)(&y2, &g.x);
    FF(mul)(&y2, &y2, &g.x);
    FF(sub)(&b, &b, &y2);
    FF(one)(x);
    for (int i = 0; i < 1000; i++) {
        FF(sqr)(&y2, x);
        FF(mul)(&y2, &y2, x);
        FF(add)(&y2, &y2, &b);
        if (FF(legendre)(&y2) == -1)
            return;
        FF(add)(x, x, &g.x);
    }
    CHECK(!"no non-square x found");
}

/* LEM and decimal round trips of a valid point, and their malformed variants. */
static inline void T(enc_valid)(const T_AFF *P, char **noble_dec) {
    uint8_t lem[T_LEM], bad[T_LEM];
    char dec[3 * T_DEG][CZ_FIELD_DEC_MAX];
    const char *dp[3 * T_DEG];
    T_AFF Q, off;
    cz_errinfo ei;

    G(to_lem)(lem, P);
    for (int i = 0; i < T_DEG; i++) {
        uint8_t want[T_N8];
        BB(to_mont_bytes_le)(want, T_PART(&P->x, i));
        CHECK_EQ_MEM(lem + i * T_N8, want, T_N8);
    }
    memset(&Q, 0xa5, sizeof Q);
    CHECK_ERR(G(from_lem)(&Q, lem, sizeof lem, CZ_ENC_CHECK_SUBGROUP, &ei), CZ_OK);
    CHECK(G(affine_eq)(&Q, P));
    CHECK_ERR(G(from_lem)(&Q, lem, sizeof lem, 0, NULL), CZ_OK);
    CHECK(G(affine_eq)(&Q, P));
    CHECK_ERR(G(from_lem)(&Q, lem, sizeof lem - 1, 0, &ei), CZ_EFORMAT);
    CHECK_ERR(G(from_lem)(&Q, lem, sizeof lem + 1, 0, &ei), CZ_EFORMAT);
    off = *P;
    T(bump_y)(&off);
    G(to_lem)(bad, &off);
    cz_errinfo_clear(&ei);
    CHECK_ERR(G(from_lem)(&Q, bad, sizeof bad, 0, &ei), CZ_ENOTONCURVE);
    CHECK(ei.code == CZ_ENOTONCURVE && ei.msg[0] != '\0');
    memcpy(bad, lem, sizeof bad);
    for (int i = 0; i < T_N8; i++) /* x.c0 (Montgomery value) = p */
        bad[i] = (uint8_t)(T_P[i / 8] >> (8 * (i % 8)));
    CHECK_ERR(G(from_lem)(&Q, bad, sizeof bad, 0, &ei), CZ_ENONCANON);
    memcpy(bad, lem, sizeof bad);
    memset(bad + T_LEM - T_N8, 0xff, T_N8); /* last y element all ones */
    CHECK_ERR(G(from_lem)(&Q, bad, sizeof bad, 0, &ei), CZ_ENONCANON);
    CHECK(G(affine_eq)(&Q, P)); /* untouched by the failures */

    G(to_dec)(dec, P);
    for (int i = 0; i < 3 * T_DEG; i++)
        dp[i] = dec[i];
    if (noble_dec) /* noble's decimal coordinates, in the same order */
        for (int i = 0; i < 2 * T_DEG; i++)
            CHECK_EQ_STR(dec[i], noble_dec[i]);
    CHECK_EQ_STR(dec[2 * T_DEG], "1");
    CHECK_ERR(G(from_dec)(&Q, dp, &ei), CZ_OK);
    CHECK(G(affine_eq)(&Q, P));
    dp[2 * T_DEG] = "2";
    CHECK_ERR(G(from_dec)(&Q, dp, &ei), CZ_EFORMAT);
    dp[2 * T_DEG] = "01";
    CHECK_ERR(G(from_dec)(&Q, dp, &ei), CZ_EFORMAT);
    dp[2 * T_DEG] = "";
    CHECK_ERR(G(from_dec)(&Q, dp, &ei), CZ_EFORMAT);
    dp[2 * T_DEG] = "1";
    if (T_DEG == 2) {
        dp[3 * T_DEG - 1] = "1";
        CHECK_ERR(G(from_dec)(&Q, dp, &ei), CZ_EFORMAT);
        dp[3 * T_DEG - 1] = dec[3 * T_DEG - 1];
    }
    dp[0] = "12x4";
    CHECK_ERR(G(from_dec)(&Q, dp, &ei), CZ_EFORMAT);
    dp[0] = "";
    CHECK_ERR(G(from_dec)(&Q, dp, &ei), CZ_EFORMAT);
    dp[0] = T_PDEC;
    CHECK_ERR(G(from_dec)(&Q, dp, &ei), CZ_ENONCANON);
    dp[0] = "9999999999999999999999999999999999999999999999999999999999999999999999999999999999"
            "999999999999999999999999999999999999999999999";
    CHECK_ERR(G(from_dec)(&Q, dp, &ei), CZ_ENONCANON);
    dp[0] = dec[0];
    G(to_dec)(dec, &off);
    CHECK_ERR(G(from_dec)(&Q, dp, &ei), CZ_ENOTONCURVE);
}

static inline void T(enc_misc)(void) {
    uint8_t lem[T_LEM];
    char dec[3 * T_DEG][CZ_FIELD_DEC_MAX], pm1[CZ_FIELD_DEC_MAX];
    const char *dp[3 * T_DEG];
    T_AFF O, Q, g;
    T_F_T x;
    cz_errinfo ei;
    memset(&O, 0, sizeof O);
    G(generator)(&g);

    /* infinity: LEM all zeros, decimal (0, 1, 0) */
    G(to_lem)(lem, &O);
    for (int i = 0; i < T_LEM; i++)
        CHECK_EQ_INT(lem[i], 0);
    Q = g;
    CHECK_ERR(G(from_lem)(&Q, lem, sizeof lem, CZ_ENC_CHECK_SUBGROUP, &ei), CZ_OK);
    CHECK(G(is_infinity)(&Q));
    G(to_dec)(dec, &O);
    for (int i = 0; i < 3 * T_DEG; i++) {
        CHECK_EQ_STR(dec[i], i == T_DEG ? "1" : "0");
        dp[i] = dec[i];
    }
    Q = g;
    CHECK_ERR(G(from_dec)(&Q, dp, &ei), CZ_OK);
    CHECK(G(is_infinity)(&Q));
    dp[2 * T_DEG] = "00";
    CHECK_ERR(G(from_dec)(&Q, dp, &ei), CZ_EFORMAT);

    /* the published p is rejected, p - 1 (last digit minus one; p ends in 3 or 7) is accepted */
    strcpy(pm1, T_PDEC);
    pm1[strlen(pm1) - 1]--;
    CHECK_ERR(BB(from_dec)(T_PART(&x, 0), pm1), CZ_OK);
    CHECK(BB(from_dec)(T_PART(&x, 0), T_PDEC) != CZ_OK);

    /* a non-square x has no point: off the curve in every format */
    T(nonsquare_x)(&x);
    Q = g;
    Q.x = x;
    G(to_lem)(lem, &Q);
    CHECK_ERR(G(from_lem)(&Q, lem, sizeof lem, 0, &ei), CZ_ENOTONCURVE);
#if T_ZCASH
    {
        uint8_t c[T_CB];
        G(to_compressed)(c, &Q);
        CHECK_ERR(G(from_compressed)(&Q, c, sizeof c, &ei), CZ_ENOTONCURVE);
        CHECK_ERR(G(from_compressed_unchecked)(&Q, c, sizeof c, &ei), CZ_ENOTONCURVE);
    }
#endif
}

#if T_ZCASH
/* zcash bytes of a valid point against noble's, and every malformed variant. */
static inline void T(enc_zcash)(const T_AFF *P, const char *chex, const char *uhex) {
    uint8_t c[T_CB], u[2 * T_CB], nc[T_CB + 1], nu[2 * T_CB + 1], bad[2 * T_CB];
    T_AFF Q, nP;
    cz_errinfo ei;
    int inf = G(is_infinity)(P);
    CHECK_EQ_INT(test_unhex(nc, sizeof nc, chex), T_CB);
    CHECK_EQ_INT(test_unhex(nu, sizeof nu, uhex), 2 * T_CB);
    G(to_compressed)(c, P);
    G(to_uncompressed)(u, P);
    CHECK_EQ_MEM(c, nc, T_CB);
    CHECK_EQ_MEM(u, nu, 2 * T_CB);
    memset(&Q, 0x5a, sizeof Q);
    CHECK_ERR(G(from_compressed)(&Q, nc, T_CB, &ei), CZ_OK);
    CHECK(G(affine_eq)(&Q, P));
    memset(&Q, 0x5a, sizeof Q);
    CHECK_ERR(G(from_uncompressed)(&Q, nu, 2 * T_CB, &ei), CZ_OK);
    CHECK(G(affine_eq)(&Q, P));
    CHECK_ERR(G(from_compressed_unchecked)(&Q, nc, T_CB, &ei), CZ_OK);
    CHECK(G(affine_eq)(&Q, P));
    CHECK_ERR(G(from_uncompressed_unchecked)(&Q, nu, 2 * T_CB, &ei), CZ_OK);
    CHECK(G(affine_eq)(&Q, P));

    /* lengths */
    CHECK_ERR(G(from_compressed)(&Q, nc, T_CB - 1, &ei), CZ_EFORMAT);
    CHECK_ERR(G(from_compressed)(&Q, nu, 2 * T_CB, &ei), CZ_EFORMAT);
    CHECK_ERR(G(from_uncompressed)(&Q, nu, 2 * T_CB - 1, &ei), CZ_EFORMAT);
    CHECK_ERR(G(from_uncompressed)(&Q, nc, T_CB, &ei), CZ_EFORMAT);
    CHECK_ERR(G(from_uncompressed)(&Q, nc, 0, &ei), CZ_EFORMAT);

    /* compression bit: missing in compressed, present in uncompressed */
    memcpy(bad, c, T_CB);
    bad[0] &= 0x7f;
    CHECK_ERR(G(from_compressed)(&Q, bad, T_CB, &ei), CZ_EFLAGS);
    memcpy(bad, u, 2 * T_CB);
    bad[0] |= 0x80;
    CHECK_ERR(G(from_uncompressed)(&Q, bad, 2 * T_CB, &ei), CZ_EFLAGS);
    /* sign bit in uncompressed */
    memcpy(bad, u, 2 * T_CB);
    bad[0] |= 0x20;
    CHECK_ERR(G(from_uncompressed)(&Q, bad, 2 * T_CB, &ei), CZ_EFLAGS);

    if (inf) {
        /* sign flag on infinity; infinity with a non-zero byte (first, last) */
        memcpy(bad, c, T_CB);
        bad[0] |= 0x20;
        CHECK_ERR(G(from_compressed)(&Q, bad, T_CB, &ei), CZ_EFLAGS);
        memcpy(bad, u, 2 * T_CB);
        bad[0] |= 0x20;
        CHECK_ERR(G(from_uncompressed)(&Q, bad, 2 * T_CB, &ei), CZ_EFLAGS);
        for (int pos = 0; pos < 2; pos++) {
            memcpy(bad, c, T_CB);
            bad[pos ? T_CB - 1 : 0] |= 1;
            CHECK_ERR(G(from_compressed)(&Q, bad, T_CB, &ei), CZ_EFLAGS);
            memcpy(bad, u, 2 * T_CB);
            bad[pos ? 2 * T_CB - 1 : 0] |= 1;
            CHECK_ERR(G(from_uncompressed)(&Q, bad, 2 * T_CB, &ei), CZ_EFLAGS);
        }
        /* all zeros without the infinity flag is not a point */
        memset(bad, 0, sizeof bad);
        CHECK_ERR(G(from_uncompressed)(&Q, bad, 2 * T_CB, &ei), CZ_ENOTONCURVE);
        return;
    }

    /* infinity flag on a finite point's bytes */
    memcpy(bad, c, T_CB);
    bad[0] |= 0x40;
    CHECK_ERR(G(from_compressed)(&Q, bad, T_CB, &ei), CZ_EFLAGS);
    memcpy(bad, u, 2 * T_CB);
    bad[0] |= 0x40;
    CHECK_ERR(G(from_uncompressed)(&Q, bad, 2 * T_CB, &ei), CZ_EFLAGS);
    /* the other sign decodes to -P */
    memcpy(bad, c, T_CB);
    bad[0] ^= 0x20;
    CHECK_ERR(G(from_compressed)(&Q, bad, T_CB, &ei), CZ_OK);
    G(affine_neg)(&nP, P);
    CHECK(G(affine_eq)(&Q, &nP));
    /* x >= p (the first big-endian element is c1 for G2, c0 for G1): x = p, x = all ones */
    for (int variant = 0; variant < 2; variant++) {
        uint8_t pb[T_N8];
        for (int i = 0; i < T_N8; i++)
            pb[T_N8 - 1 - i] = variant ? 0xff : (uint8_t)(T_P[i / 8] >> (8 * (i % 8)));
        memcpy(bad, c, T_CB);
        memcpy(bad, pb, T_N8);
        bad[0] = (uint8_t)((bad[0] & 0x1f) | (c[0] & 0xe0));
        CHECK_ERR(G(from_compressed)(&Q, bad, T_CB, &ei), CZ_ENONCANON);
        memcpy(bad, u, 2 * T_CB);
        memcpy(bad + 2 * T_CB - T_N8, pb, T_N8); /* last y element */
        bad[0] = u[0];
        if (variant == 0)
            CHECK_ERR(G(from_uncompressed)(&Q, bad, 2 * T_CB, &ei), CZ_ENONCANON);
    }
    /* off the curve (uncompressed y + 1) */
    Q = *P;
    T(bump_y)(&Q);
    G(to_uncompressed)(bad, &Q);
    CHECK_ERR(G(from_uncompressed)(&Q, bad, 2 * T_CB, &ei), CZ_ENOTONCURVE);
    CHECK_ERR(G(from_uncompressed_unchecked)(&Q, bad, 2 * T_CB, &ei), CZ_ENOTONCURVE);
}
#endif

/* A point on the curve outside the subgroup: every checked decoder says so, unchecked accept. */
static inline void T(enc_nosub)(const T_AFF *P) {
    uint8_t lem[T_LEM];
    char dec[3 * T_DEG][CZ_FIELD_DEC_MAX];
    const char *dp[3 * T_DEG];
    T_AFF Q;
    cz_errinfo ei;
    G(to_lem)(lem, P);
    cz_errinfo_clear(&ei);
    CHECK_ERR(G(from_lem)(&Q, lem, sizeof lem, CZ_ENC_CHECK_SUBGROUP, &ei), CZ_ENOTINSUBGROUP);
    CHECK(strstr(ei.msg, "subgroup") != NULL);
    CHECK_ERR(G(from_lem)(&Q, lem, sizeof lem, 0, &ei), CZ_OK);
    CHECK(G(affine_eq)(&Q, P));
    G(to_dec)(dec, P);
    for (int i = 0; i < 3 * T_DEG; i++)
        dp[i] = dec[i];
    CHECK_ERR(G(from_dec)(&Q, dp, &ei), CZ_ENOTINSUBGROUP);
#if T_ZCASH
    {
        uint8_t c[T_CB], u[2 * T_CB];
        G(to_compressed)(c, P);
        G(to_uncompressed)(u, P);
        CHECK_ERR(G(from_compressed)(&Q, c, T_CB, &ei), CZ_ENOTINSUBGROUP);
        CHECK_ERR(G(from_uncompressed)(&Q, u, 2 * T_CB, &ei), CZ_ENOTINSUBGROUP);
        memset(&Q, 0, sizeof Q);
        CHECK_ERR(G(from_compressed_unchecked)(&Q, c, T_CB, &ei), CZ_OK);
        CHECK(G(affine_eq)(&Q, P));
        memset(&Q, 0, sizeof Q);
        CHECK_ERR(G(from_uncompressed_unchecked)(&Q, u, 2 * T_CB, &ei), CZ_OK);
        CHECK(G(affine_eq)(&Q, P));
    }
#endif
}

/* Handles one vector record of this group: gmul (a valid point), zc, nosub. */
static inline void T(enc_record)(char **f, int nf, int fi) {
    T_AFF P;
    char buf[1024], *parts[4], *save = NULL;
    const char *pt = f[fi];
    (void)nf;
    if (!CHECK(T(parse_point)(&P, pt)))
        return;
    if (strcmp(f[0], "gmul") == 0) {
        int n = 0;
        if (strcmp(pt, "inf") == 0 || strlen(pt) >= sizeof buf)
            return;
        strcpy(buf, pt);
        for (char *t = strtok_r(buf, ",", &save); t && n < 4; t = strtok_r(NULL, ",", &save))
            parts[n++] = t;
        CHECK_EQ_INT(n, 2 * T_DEG);
        T(enc_valid)(&P, parts);
    } else if (strcmp(f[0], "nosub") == 0) {
        T(enc_nosub)(&P);
#if T_ZCASH
    } else if (strcmp(f[0], "zc") == 0 && nf == 5) {
        T(enc_zcash)(&P, f[3], f[4]);
#endif
    }
}

#undef T_PART
#undef T_CB
#undef T
#undef G
#undef FF
#undef BB
