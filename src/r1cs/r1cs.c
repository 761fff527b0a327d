/*
 * The in-memory constraint system (cuzk/r1cs.h): allocation, the coefficient table, structural
 * validation, A·w / B·w / C·w evaluation and the satisfaction check. The arithmetic is in
 * r1cs_impl.h, instantiated once per curve; this file dispatches on cs->curve once per call.
 *
 * Threading: rows are cut into chunks of R1CS_CHUNK (a few milliseconds of work each) and handed
 * to the pool; every task writes only its own rows, so no locking is needed. The check records
 * the first failing row of each chunk and reports the lowest.
 */
#include "cuzk/r1cs.h"
#include "cuzk/gpu.h"

#include <stdlib.h>
#include <string.h>

#include "core/hugepages.h"
#include "cuzk/threadpool.h"
#include "field/field.h"

#define R1CS_CHUNK 16384

struct eval_ctx {
    const cz_r1cs *cs;
    uint64_t (*a)[4], (*b)[4], (*c)[4];
    size_t domain, chunk;
    int input_rows;
    const uint8_t *kind; /* per coefficient: 1 = +1, 2 = -1, 0 = other */
    uint32_t *bad;       /* check: first failing row per task, or UINT32_MAX */
};

#define CURVE bn254
#include "r1cs/r1cs_impl.h"
#undef CURVE
#define CURVE bls12381
#include "r1cs/r1cs_impl.h"
#undef CURVE

int cz_r1cs_alloc(cz_r1cs *cs, cz_curve_id curve, uint32_t npublic, uint32_t naux, uint32_t nrows,
                  const uint64_t nnz[3], uint32_t ncoefs, cz_errinfo *ei) {
    memset(cs, 0, sizeof *cs);
    uint64_t nvars = 1 + (uint64_t)npublic + naux;
    if (nvars > UINT32_MAX)
        return cz_fail(ei, CZ_EINVAL, "r1cs: 1 + %u public + %u aux variables exceed 2^32 - 1",
                       npublic, naux);
    if (curve != CZ_CURVE_BN254 && curve != CZ_CURVE_BLS12381)
        return cz_fail(ei, CZ_EINVAL, "r1cs: unknown curve id %d", (int)curve);
    cs->curve = curve;
    cs->npublic = npublic;
    cs->naux = naux;
    cs->nvars = (uint32_t)nvars;
    cs->nrows = nrows;
    cs->ncoefs = ncoefs;
    cz_r1cs_mat *mats[3] = {&cs->a, &cs->b, &cs->c};
    int ok = 1;
    for (int m = 0; m < 3; m++) {
        mats[m]->nnz = nnz[m];
        mats[m]->row_ptr = calloc((size_t)nrows + 1, sizeof(uint64_t));
        mats[m]->var = malloc(nnz[m] ? nnz[m] * sizeof(uint32_t) : 1);
        mats[m]->coef = malloc(nnz[m] ? nnz[m] * sizeof(uint32_t) : 1);
        ok = ok && mats[m]->row_ptr && mats[m]->var && mats[m]->coef;
        if (ok) {
            cz__huge_pages_advise(mats[m]->row_ptr, ((size_t)nrows + 1) * sizeof(uint64_t));
            cz__huge_pages_advise(mats[m]->var, nnz[m] * sizeof(uint32_t));
            cz__huge_pages_advise(mats[m]->coef, nnz[m] * sizeof(uint32_t));
        }
    }
    cs->coefs = calloc(ncoefs ? ncoefs : 1, sizeof *cs->coefs);
    cs->w = calloc(nvars, sizeof *cs->w);
    cz__huge_pages_advise(cs->w, nvars * sizeof *cs->w);
    if (!ok || cs->coefs == NULL || cs->w == NULL) {
        cz_r1cs_free(cs);
        return cz_fail(ei, CZ_ENOMEM,
                       "r1cs: out of memory for %u rows, %llu + %llu + %llu terms, %llu variables",
                       nrows, (unsigned long long)nnz[0], (unsigned long long)nnz[1],
                       (unsigned long long)nnz[2], (unsigned long long)nvars);
    }
    cz_r1cs_fr_from_u64(cs->w[0], curve, 1);
    return CZ_OK;
}

void cz_r1cs_free(cz_r1cs *cs) {
    if (cs == NULL)
        return;
    cz_r1cs_mat *mats[3] = {&cs->a, &cs->b, &cs->c};
    for (int m = 0; m < 3; m++) {
        free(mats[m]->row_ptr);
        free(mats[m]->var);
        free(mats[m]->coef);
    }
    free(cs->coefs);
    free(cs->w);
    free(cs->booleans);
    memset(cs, 0, sizeof *cs);
}

void cz_r1cs_fr_from_u64(uint64_t out[4], cz_curve_id curve, uint64_t v) {
    if (curve == CZ_CURVE_BN254) {
        cz_bn254_fr t;
        bn254_fr_from_u64(&t, v);
        memcpy(out, t.l, 32);
    } else {
        cz_bls12381_fr t;
        bls12381_fr_from_u64(&t, v);
        memcpy(out, t.l, 32);
    }
}

int cz_r1cs_fr_from_std(uint64_t out[4], cz_curve_id curve, const uint64_t std_limbs[4]) {
    int rc;
    if (curve == CZ_CURVE_BN254) {
        cz_bn254_fr t;
        rc = bn254_fr_from_limbs(&t, std_limbs);
        memcpy(out, t.l, 32);
    } else {
        cz_bls12381_fr t;
        rc = bls12381_fr_from_limbs(&t, std_limbs);
        memcpy(out, t.l, 32);
    }
    return rc;
}

void cz_r1cs_fr_to_std(uint64_t out[4], cz_curve_id curve, const uint64_t mont[4]) {
    if (curve == CZ_CURVE_BN254) {
        cz_bn254_fr t;
        memcpy(t.l, mont, 32);
        bn254_fr_from_mont(out, &t);
    } else {
        cz_bls12381_fr t;
        memcpy(t.l, mont, 32);
        bls12381_fr_from_mont(out, &t);
    }
}

void cz_r1cs_coef_set_i64(cz_r1cs *cs, uint32_t idx, int64_t v) {
    CZ_ASSERT(idx < cs->ncoefs);
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    if (cs->curve == CZ_CURVE_BN254) {
        cz_bn254_fr t;
        bn254_fr_from_u64(&t, mag);
        if (v < 0)
            bn254_fr_neg(&t, &t);
        memcpy(cs->coefs[idx], t.l, 32);
    } else {
        cz_bls12381_fr t;
        bls12381_fr_from_u64(&t, mag);
        if (v < 0)
            bls12381_fr_neg(&t, &t);
        memcpy(cs->coefs[idx], t.l, 32);
    }
}

void cz_r1cs_coef_set_pow2(cz_r1cs *cs, uint32_t idx, unsigned k) {
    CZ_ASSERT(idx < cs->ncoefs && k < 256);
    uint64_t limbs[4] = {0};
    limbs[k / 64] = (uint64_t)1 << (k % 64);
    /* 2^k for k < 254 is below both moduli; 2^254 and 2^255 are reduced by the field code. */
    if (cz_r1cs_coef_set(cs, idx, limbs) == CZ_OK)
        return;
    cz_r1cs_coef_set_pow2(cs, idx, k - 1);
    if (cs->curve == CZ_CURVE_BN254) {
        cz_bn254_fr t;
        memcpy(t.l, cs->coefs[idx], 32);
        bn254_fr_dbl(&t, &t);
        memcpy(cs->coefs[idx], t.l, 32);
    } else {
        cz_bls12381_fr t;
        memcpy(t.l, cs->coefs[idx], 32);
        bls12381_fr_dbl(&t, &t);
        memcpy(cs->coefs[idx], t.l, 32);
    }
}

int cz_r1cs_coef_set(cz_r1cs *cs, uint32_t idx, const uint64_t std_limbs[4]) {
    CZ_ASSERT(idx < cs->ncoefs);
    uint64_t t[4];
    if (cz_r1cs_fr_from_std(t, cs->curve, std_limbs) != CZ_OK)
        return CZ_ENONCANON;
    memcpy(cs->coefs[idx], t, 32);
    return CZ_OK;
}

int cz_r1cs_validate(const cz_r1cs *cs, cz_errinfo *ei) {
    static const char names[3] = {'A', 'B', 'C'};
    const cz_r1cs_mat *mats[3] = {&cs->a, &cs->b, &cs->c};
    for (int m = 0; m < 3; m++) {
        const cz_r1cs_mat *mt = mats[m];
        if (mt->row_ptr[0] != 0)
            return cz_fail(ei, CZ_EFORMAT, "r1cs: %c row 0 starts at term %llu, not 0", names[m],
                           (unsigned long long)mt->row_ptr[0]);
        for (uint32_t i = 0; i < cs->nrows; i++) {
            uint64_t lo = mt->row_ptr[i], hi = mt->row_ptr[i + 1];
            if (hi < lo || hi > mt->nnz)
                return cz_fail(ei, CZ_EFORMAT,
                               "r1cs: %c row %u spans terms %llu..%llu (capacity %llu)", names[m],
                               i, (unsigned long long)lo, (unsigned long long)hi,
                               (unsigned long long)mt->nnz);
            for (uint64_t k = lo; k < hi; k++) {
                if (mt->var[k] >= cs->nvars || mt->coef[k] >= cs->ncoefs)
                    return cz_fail(ei, CZ_EFORMAT,
                                   "r1cs: %c row %u term %llu: variable %u (of %u) or "
                                   "coefficient %u (of %u) out of range",
                                   names[m], i, (unsigned long long)(k - lo), mt->var[k], cs->nvars,
                                   mt->coef[k], cs->ncoefs);
            }
        }
    }
    return CZ_OK;
}

/* Classifies the coefficients: 1 for +1, 2 for -1, 0 for anything else. */
static uint8_t *classify_coefs(const cz_r1cs *cs) {
    uint8_t *kind = calloc(cs->ncoefs ? cs->ncoefs : 1, 1);
    if (kind == NULL)
        return NULL;
    uint64_t one[4], minus_one[4];
    cz_r1cs_fr_from_u64(one, cs->curve, 1);
    if (cs->curve == CZ_CURVE_BN254) {
        cz_bn254_fr t;
        memcpy(t.l, one, 32);
        bn254_fr_neg(&t, &t);
        memcpy(minus_one, t.l, 32);
    } else {
        cz_bls12381_fr t;
        memcpy(t.l, one, 32);
        bls12381_fr_neg(&t, &t);
        memcpy(minus_one, t.l, 32);
    }
    for (uint32_t i = 0; i < cs->ncoefs; i++)
        kind[i] = memcmp(cs->coefs[i], one, 32) == 0         ? 1
                  : memcmp(cs->coefs[i], minus_one, 32) == 0 ? 2
                                                             : 0;
    return kind;
}

int cz_r1cs_eval(uint64_t (*out_a)[4], uint64_t (*out_b)[4], uint64_t (*out_c)[4],
                 const cz_r1cs *cs, size_t domain_size, unsigned flags, cz_threadpool *pool,
                 cz_errinfo *ei) {
    int input_rows = (flags & CZ_R1CS_EVAL_INPUT_ROWS) != 0;
    size_t need = (size_t)cs->nrows + (input_rows ? (size_t)cs->npublic + 1 : 0);
    if (domain_size < need)
        return cz_fail(ei, CZ_ERANGE, "r1cs: domain of %zu rows is smaller than the %zu rows",
                       domain_size, need);
    uint8_t *kind = classify_coefs(cs);
    if (kind == NULL)
        return cz_fail(ei, CZ_ENOMEM, "r1cs: out of memory");
    struct eval_ctx x = {cs, out_a, out_b, out_c, domain_size, R1CS_CHUNK, input_rows, kind, NULL};
    size_t ntasks = (domain_size + R1CS_CHUNK - 1) / R1CS_CHUNK;
    cz_threadpool_run(pool,
                      cs->curve == CZ_CURVE_BN254 ? bn254_r1cs_eval_task : bls12381_r1cs_eval_task,
                      &x, ntasks);
    free(kind);
    return CZ_OK;
}

int cz_r1cs_check(const cz_r1cs *cs, cz_threadpool *pool, uint32_t *bad_row, cz_errinfo *ei) {
    uint64_t one[4];
    cz_r1cs_fr_from_u64(one, cs->curve, 1);
    if (memcmp(cs->w[0], one, 32) != 0)
        return cz_fail(ei, CZ_EVERIFY, "r1cs: witness value 0 is not 1");
    size_t ntasks = ((size_t)cs->nrows + R1CS_CHUNK - 1) / R1CS_CHUNK;
    uint8_t *kind = classify_coefs(cs);
    uint32_t *bad = malloc((ntasks ? ntasks : 1) * sizeof *bad);
    if (kind == NULL || bad == NULL) {
        free(kind);
        free(bad);
        return cz_fail(ei, CZ_ENOMEM, "r1cs: out of memory");
    }
    for (size_t t = 0; t < ntasks; t++)
        bad[t] = UINT32_MAX;
    struct eval_ctx x = {cs, NULL, NULL, NULL, 0, R1CS_CHUNK, 0, kind, bad};
    cz_threadpool_run(
        pool, cs->curve == CZ_CURVE_BN254 ? bn254_r1cs_check_task : bls12381_r1cs_check_task, &x,
        ntasks);
    uint32_t first = UINT32_MAX;
    for (size_t t = 0; t < ntasks && first == UINT32_MAX; t++)
        first = bad[t];
    free(kind);
    free(bad);
    if (first == UINT32_MAX)
        return CZ_OK;
    if (bad_row != NULL)
        *bad_row = first;
    return cz_fail(ei, CZ_EVERIFY, "r1cs: row %u is not satisfied (A·w · B·w != C·w)", first);
}

void cz_r1cs_gpu_view(cz_gpu_r1cs_host *out, const cz_r1cs *cs) {
    *out = (cz_gpu_r1cs_host){cs->nrows,
                              cs->nvars,
                              cs->npublic + 1,
                              {cs->a.row_ptr, cs->b.row_ptr, cs->c.row_ptr},
                              {cs->a.var, cs->b.var, cs->c.var},
                              {cs->a.coef, cs->b.coef, cs->c.coef},
                              (const cz_bls12381_fr *)cs->coefs,
                              cs->ncoefs,
                              cs->booleans};
}
