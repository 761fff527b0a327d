/*
 * The 0/1 split in front of the GLV + Pippenger MSM (msm_impl.h), and the public entry points
 * M_EXPORT_msm and M_EXPORT_msm_bytes. Included by msm.c right after msm_impl.h, with the same
 * parameters (M_G, M_AFF, ...), once per group.
 *
 * Why. Groth16 witnesses are mostly bits: in a PoRep-like circuit ~99 % of the scalars are 0 or 1,
 * and most B2 bases (variables that never appear in B) are the point at infinity. Pippenger pays
 * per point and window whatever the scalar, and the GLV pass doubles and copies every base, so a
 * zero scalar costs as much as a random one. The split removes those points before any of that.
 *
 * How. One threaded pass over chunks of MSM_CONV_CHUNK points counts the points that need
 * Pippenger; a point is
 *   skipped   when its scalar is 0 or its base is infinity (the base is not even read for a zero
 *             scalar),
 *   a "one"   when its scalar is 1 (Montgomery one for Fr scalars, the integer 1 for bytes),
 *   the rest  otherwise (including unreduced byte scalars such as r + 1: they stay correct).
 * If the split is on, a second pass writes, per chunk at the chunk's prefix-sum offset, the index
 * of every rest point (so the rest keeps the input order) and adds the chunk's ones into one XYZZ
 * partial sum by mixed additions (8M + 2S each). The result is Σ partial sums + GLV/Pippenger over
 * the rest, which convert_and_run reads through the index array (no copy of bases or scalars
 * beyond the one GLV makes anyway).
 *
 * Costs. The count pass reads n scalars and the bases of the non-zero scalars; the second pass
 * reads them again, plus one mixed addition per one (BLS12-381 G2: ~30 Fp multiplications, against
 * ~2 · nwin batch-affine bucket additions of ~7 Fp2 multiplications each for a point in
 * Pippenger), plus 8 bytes of index per rest point. With all scalars random the count pass is the
 * only overhead (≈ one read of the scalars).
 *
 * When. Automatic: the split runs when the skipped points and ones together are at least n/8
 * (MSM_SPLIT_MIN); the environment variable CZ_MSM_SPLIT=0/1 forces it off/on (for benchmarks),
 * and the internal entry points cz__<group>_msm_split / _msm_bytes_split (msm.h) take the mode as
 * an argument (for tests).
 */
#include <stdlib.h>
#include <string.h>

#include "field/cz_macros.h"

#define M(name)  CZ_CAT3(M_G, _msm_, name)
#define G(name)  CZ_CAT3(M_G, _, name)
#define EX(name) CZ_CAT3(M_EXPORT, _, name)

typedef struct {
    const M_AFF *bases;
    const M_FR_T *fr;
    const uint8_t *bytes;
    size_t n;
    M_FR_T one;    /* Montgomery one, for Fr scalars */
    size_t *nrest; /* per chunk: the count of rest points, then (exclusive prefix) their offset */
    size_t *idx;   /* the rest points' indices */
    M_XYZZ *ones;  /* per chunk: the sum of the bases with scalar 1 */
} M(split);

/* 0: skipped (scalar 0 or base infinity), 1: scalar 1, 2: anything else. */
static inline int M(classify)(const M(split) * sp, size_t i) {
    int one;
    if (sp->fr != NULL) {
        const M_FR_T *s = &sp->fr[i];
        uint64_t acc = 0;
        for (int l = 0; l < MSM_NLIMBS; l++)
            acc |= s->l[l];
        if (acc == 0)
            return 0;
        one = memcmp(s, &sp->one, sizeof *s) == 0;
    } else {
        uint64_t k[MSM_NLIMBS];
        msm_bytes_limbs(k, sp->bytes + 8 * MSM_NLIMBS * i);
        if ((k[0] | k[1] | k[2] | k[3]) == 0)
            return 0;
        one = k[0] == 1 && (k[1] | k[2] | k[3]) == 0;
    }
    if (G(affine_is_infinity)(&sp->bases[i]))
        return 0;
    return one ? 1 : 2;
}

static void M(split_count)(void *arg, size_t t) {
    M(split) *sp = arg;
    size_t lo = t * MSM_CONV_CHUNK, hi = lo + MSM_CONV_CHUNK, cnt = 0;
    if (hi > sp->n)
        hi = sp->n;
    for (size_t i = lo; i < hi; i++)
        cnt += M(classify)(sp, i) == 2;
    sp->nrest[t] = cnt;
}

static void M(split_fill)(void *arg, size_t t) {
    M(split) *sp = arg;
    size_t lo = t * MSM_CONV_CHUNK, hi = lo + MSM_CONV_CHUNK, o = sp->nrest[t];
    M_XYZZ acc;
    G(xyzz_set_infinity)(&acc);
    if (hi > sp->n)
        hi = sp->n;
    for (size_t i = lo; i < hi; i++) {
        int cl = M(classify)(sp, i);
        if (cl == 1)
            G(xyzz_add_mixed)(&acc, &acc, &sp->bases[i]);
        else if (cl == 2)
            sp->idx[o++] = i;
    }
    sp->ones[t] = acc;
}

/* MSM_SPLIT_AUTO decides by the counts (and CZ_MSM_SPLIT); MSM_SPLIT_OFF / _ON force it. */
static int M(split_run)(M_JAC *ret, const M_AFF *bases, const M_FR_T *fr, const uint8_t *bytes,
                        size_t n, cz_threadpool *pool, int mode) {
    M(split) sp;
    size_t nchunk = (n + MSM_CONV_CHUNK - 1) / MSM_CONV_CHUNK, nrest = 0;
    M_XYZZ acc;
    M_JAC ones;
    int rc;

    if (mode == MSM_SPLIT_AUTO)
        mode = msm_split_env();
    if (mode == MSM_SPLIT_OFF || n == 0)
        return M(convert_and_run)(ret, bases, fr, bytes, NULL, n, pool);
    memset(&sp, 0, sizeof sp);
    sp.bases = bases;
    sp.fr = fr;
    sp.bytes = bytes;
    sp.n = n;
    CZ_CAT(M_FR, _set_one)(&sp.one);
    sp.nrest = malloc(nchunk * sizeof *sp.nrest);
    sp.ones = malloc(nchunk * sizeof *sp.ones);
    if (sp.nrest == NULL || sp.ones == NULL) {
        rc = CZ_ENOMEM;
        goto out;
    }
    cz_threadpool_run(pool, M(split_count), &sp, nchunk);
    for (size_t t = 0; t < nchunk; t++) {
        size_t c = sp.nrest[t];
        sp.nrest[t] = nrest;
        nrest += c;
    }
    if (mode == MSM_SPLIT_AUTO && n - nrest < (n + MSM_SPLIT_MIN - 1) / MSM_SPLIT_MIN) {
        rc = M(convert_and_run)(ret, bases, fr, bytes, NULL, n, pool);
        goto out;
    }
    sp.idx = malloc((nrest > 0 ? nrest : 1) * sizeof *sp.idx);
    if (sp.idx == NULL) {
        rc = CZ_ENOMEM;
        goto out;
    }
    cz_threadpool_run(pool, M(split_fill), &sp, nchunk);
    rc = M(convert_and_run)(ret, bases, fr, bytes, sp.idx, nrest, pool);
    if (rc != CZ_OK)
        goto out;
    G(xyzz_set_infinity)(&acc);
    for (size_t t = 0; t < nchunk; t++)
        G(xyzz_add)(&acc, &acc, &sp.ones[t]);
    G(xyzz_to_jacobian)(&ones, &acc);
    G(add)(ret, ret, &ones);
out:
    free(sp.idx);
    free(sp.ones);
    free(sp.nrest);
    return rc;
}

int CZ_CAT3(cz__, M_G, _msm_split)(M_JAC *ret, const M_AFF *bases, const M_FR_T *scalars, size_t n,
                                   cz_threadpool *pool, int mode) {
    return M(split_run)(ret, bases, scalars, NULL, n, pool, mode);
}

int CZ_CAT3(cz__, M_G, _msm_bytes_split)(M_JAC *ret, const M_AFF *bases, const uint8_t *scalars,
                                         size_t n, cz_threadpool *pool, int mode) {
    return M(split_run)(ret, bases, NULL, scalars, n, pool, mode);
}

int EX(msm)(M_JAC *ret, const M_AFF *bases, const M_FR_T *scalars, size_t n, cz_threadpool *pool) {
    return M(split_run)(ret, bases, scalars, NULL, n, pool, MSM_SPLIT_AUTO);
}

int EX(msm_bytes)(M_JAC *ret, const M_AFF *bases, const uint8_t *scalars, size_t n,
                  cz_threadpool *pool) {
    return M(split_run)(ret, bases, NULL, scalars, n, pool, MSM_SPLIT_AUTO);
}

#undef MSM_CONV_CHUNK
#undef M
#undef G
#undef EX
