/*
 * One group's checks for fuzz_point.c, included once per group with:
 *   FP_G     the group's prefix (cz_bls12381_g1)     FP_AFF  its affine type
 *   FP_LEM   its LEM length in bytes                  FP_NDEC its number of decimal strings
 *   FP_ZCASH 1 for the BLS12-381 groups, with FP_COMPRESSED / FP_UNCOMPRESSED their zcash lengths
 * Defines FP_G##_fuzz_lem, FP_G##_fuzz_dec and, with FP_ZCASH, FP_G##_fuzz_compressed and
 * FP_G##_fuzz_uncompressed; undefines the parameters at the end.
 */
#define FP_CAT_(a, b) a##b
#define FP_CAT(a, b)  FP_CAT_(a, b)
#define FP(name)      FP_CAT(FP_G, _##name)

static void FP(check_point)(const FP_AFF *p, int subgroup_checked) {
    if (!FP(on_curve)(p) || (subgroup_checked && !FP(in_subgroup)(p)))
        __builtin_trap();
}

/* The checked and unchecked results of one input: urc/unchecked must be a refusal or a point
 * that encodes back to the input (back, NBYTES bytes); rc/checked must agree with it. */
static void FP(check_pair)(int rc, const FP_AFF *checked, int urc, const FP_AFF *unchecked,
                           const cz_errinfo *uei, const uint8_t *back, size_t nbytes,
                           const uint8_t *in, size_t len) {
    if (urc != CZ_OK) {
        check_refusal(urc, uei, unchecked, sizeof *unchecked);
        if (rc != urc)
            __builtin_trap();
        return;
    }
    FP(check_point)(unchecked, 0);
    if (len != nbytes || memcmp(back, in, nbytes) != 0)
        __builtin_trap();
    if (rc == CZ_OK) {
        FP(check_point)(checked, 1);
        if (!FP(affine_eq)(checked, unchecked))
            __builtin_trap();
    } else if (rc != CZ_ENOTINSUBGROUP || FP(in_subgroup)(unchecked)) {
        __builtin_trap();
    }
}

/* One byte encoding: its checked and unchecked decoders and its encoder (nbytes bytes). */
static void FP(fuzz_form)(const uint8_t *in, size_t len,
                          int (*decode)(FP_AFF *, const uint8_t *, size_t, cz_errinfo *),
                          int (*decode_unchecked)(FP_AFF *, const uint8_t *, size_t, cz_errinfo *),
                          void (*encode)(uint8_t *, const FP_AFF *), size_t nbytes) {
    FP_AFF checked, unchecked;
    cz_errinfo ei;
    uint8_t back[192]; /* the longest encoding: BLS12-381 G2 uncompressed or LEM */
    if (nbytes > sizeof back)
        abort();
    memset(&checked, SENTINEL, sizeof checked);
    memset(&unchecked, SENTINEL, sizeof unchecked);
    cz_errinfo_clear(&ei);
    int rc = decode(&checked, in, len, &ei);
    cz_errinfo_clear(&ei);
    int urc = decode_unchecked(&unchecked, in, len, &ei);
    if (urc == CZ_OK)
        encode(back, &unchecked);
    FP(check_pair)(rc, &checked, urc, &unchecked, &ei, back, nbytes, in, len);
}

static int FP(lem_checked)(FP_AFF *ret, const uint8_t *in, size_t len, cz_errinfo *ei) {
    return FP(from_lem)(ret, in, len, CZ_ENC_CHECK_SUBGROUP, ei);
}

static int FP(lem_unchecked)(FP_AFF *ret, const uint8_t *in, size_t len, cz_errinfo *ei) {
    return FP(from_lem)(ret, in, len, 0, ei);
}

static void FP(fuzz_lem)(const uint8_t *in, size_t len) {
    FP(fuzz_form)(in, len, FP(lem_checked), FP(lem_unchecked), FP(to_lem), FP_LEM);
}

#if FP_ZCASH
static void FP(fuzz_compressed)(const uint8_t *in, size_t len) {
    FP(fuzz_form)
    (in, len, FP(from_compressed), FP(from_compressed_unchecked), FP(to_compressed), FP_COMPRESSED);
}

static void FP(fuzz_uncompressed)(const uint8_t *in, size_t len) {
    FP(fuzz_form)
    (in, len, FP(from_uncompressed), FP(from_uncompressed_unchecked), FP(to_uncompressed),
     FP_UNCOMPRESSED);
}
#endif

/* s: FP_NDEC strings. An accepted point decodes again from its own decimals. */
static void FP(fuzz_dec)(const char *const *s) {
    FP_AFF p, q;
    cz_errinfo ei;
    char out[FP_NDEC][CZ_FIELD_DEC_MAX];
    const char *outp[FP_NDEC];
    memset(&p, SENTINEL, sizeof p);
    cz_errinfo_clear(&ei);
    int rc = FP(from_dec)(&p, s, &ei);
    if (rc != CZ_OK) {
        check_refusal(rc, &ei, &p, sizeof p);
        return;
    }
    FP(check_point)(&p, 1);
    FP(to_dec)(out, &p);
    for (int i = 0; i < FP_NDEC; i++)
        outp[i] = out[i];
    if (FP(from_dec)(&q, outp, &ei) != CZ_OK || !FP(affine_eq)(&p, &q))
        __builtin_trap();
}

#undef FP
#undef FP_CAT
#undef FP_CAT_
#undef FP_G
#undef FP_AFF
#undef FP_LEM
#undef FP_NDEC
#undef FP_ZCASH
#undef FP_COMPRESSED
#undef FP_UNCOMPRESSED
