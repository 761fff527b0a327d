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

static void FP(fuzz_lem)(const uint8_t *in, size_t len) {
    FP_AFF checked, unchecked;
    cz_errinfo ei;
    uint8_t back[FP_LEM];
    memset(&checked, SENTINEL, sizeof checked);
    memset(&unchecked, SENTINEL, sizeof unchecked);
    cz_errinfo_clear(&ei);
    int rc = FP(from_lem)(&checked, in, len, CZ_ENC_CHECK_SUBGROUP, &ei);
    cz_errinfo_clear(&ei);
    int urc = FP(from_lem)(&unchecked, in, len, 0, &ei);
    if (urc == CZ_OK)
        FP(to_lem)(back, &unchecked);
    FP(check_pair)(rc, &checked, urc, &unchecked, &ei, back, FP_LEM, in, len);
}

#if FP_ZCASH
static void FP(fuzz_compressed)(const uint8_t *in, size_t len) {
    FP_AFF checked, unchecked;
    cz_errinfo ei;
    uint8_t back[FP_COMPRESSED];
    memset(&checked, SENTINEL, sizeof checked);
    memset(&unchecked, SENTINEL, sizeof unchecked);
    cz_errinfo_clear(&ei);
    int rc = FP(from_compressed)(&checked, in, len, &ei);
    cz_errinfo_clear(&ei);
    int urc = FP(from_compressed_unchecked)(&unchecked, in, len, &ei);
    if (urc == CZ_OK)
        FP(to_compressed)(back, &unchecked);
    FP(check_pair)(rc, &checked, urc, &unchecked, &ei, back, FP_COMPRESSED, in, len);
}

static void FP(fuzz_uncompressed)(const uint8_t *in, size_t len) {
    FP_AFF checked, unchecked;
    cz_errinfo ei;
    uint8_t back[FP_UNCOMPRESSED];
    memset(&checked, SENTINEL, sizeof checked);
    memset(&unchecked, SENTINEL, sizeof unchecked);
    cz_errinfo_clear(&ei);
    int rc = FP(from_uncompressed)(&checked, in, len, &ei);
    cz_errinfo_clear(&ei);
    int urc = FP(from_uncompressed_unchecked)(&unchecked, in, len, &ei);
    if (urc == CZ_OK)
        FP(to_uncompressed)(back, &unchecked);
    FP(check_pair)(rc, &checked, urc, &unchecked, &ei, back, FP_UNCOMPRESSED, in, len);
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
