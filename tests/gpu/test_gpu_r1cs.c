/*
 * The device-resident R1CS (cuzk/gpu.h, cz_bls12381_gpu_r1cs_upload and cz_gpu_r1cs_eval)
 * against the CPU's cz_r1cs_eval with CZ_R1CS_EVAL_INPUT_ROWS: random BLS12-381 systems (rows of
 * 0 to 300 terms; coefficients +1, -1, 0, small integers, powers of two and random elements;
 * witnesses mostly 0 and 1 with -1 and random values), every element of a, b and c compared
 * after the output was filled with 0xff bytes, padding rows included; two witnesses through one
 * upload; more than 65536 coefficients (u32 indices); vectors of exactly the rows needed; no
 * constraints at all. Compact witnesses (booleans as bits, the rest in order) expanded on the
 * device against the witness they were made of, and against cz_r1cs_witness_expand. Refusals:
 * indices out of range (the message names matrix, row and kind), decreasing row pointers, too many
 * terms, too many inputs, short or missing vectors. Exits 77 without a GPU.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/field.h"
#include "cuzk/gpu.h"
#include "cuzk/r1cs.h"
#include "gpu_test_util.h"
#include "test.h"

#define FR_BYTES 32

static uint32_t rnd(uint32_t bound) {
    return (uint32_t)(gpu_prng_next() % bound);
}

/* A row length: a fifth empty, most short, a few long, 1 % exactly 300. */
static uint32_t random_row_len(void) {
    uint32_t r = rnd(100);
    if (r < 20)
        return 0;
    if (r < 75)
        return 1 + rnd(4);
    if (r < 95)
        return 5 + rnd(16);
    if (r < 99)
        return 21 + rnd(280);
    return 300;
}

/* Coefficient table: 1, -1, 2, -2, 3, 0, 2^100, 2^254, then small integers, powers of two and
 * random elements in turn. */
static void fill_coefs(cz_r1cs *cs) {
    static const int64_t fixed[] = {1, -1, 2, -2, 3, 0};
    for (uint32_t i = 0; i < cs->ncoefs; i++) {
        uint64_t std[4];
        if (i < 6) {
            cz_r1cs_coef_set_i64(cs, i, fixed[i]);
        } else if (i == 6 || i == 7) {
            cz_r1cs_coef_set_pow2(cs, i, i == 6 ? 100 : 254);
        } else if (i % 3 == 0) {
            cz_r1cs_coef_set_i64(cs, i, (int64_t)rnd(2000) - 1000);
        } else if (i % 3 == 1) {
            cz_r1cs_coef_set_pow2(cs, i, rnd(256));
        } else {
            gpu_random_fr_limbs(std);
            CZ_ASSERT(cz_r1cs_coef_set(cs, i, std) == CZ_OK);
        }
    }
}

/* A coefficient index: mostly +1 and -1, then the first few (small values, powers of two), then
 * any of the table (indices above 65535 when it is that large). */
static uint32_t random_coef(const cz_r1cs *cs) {
    uint32_t r = rnd(100);
    if (r < 40 || cs->ncoefs < 2)
        return 0;
    if (r < 55)
        return 1;
    if (r < 75)
        return rnd(cs->ncoefs < 64 ? cs->ncoefs : 64);
    return rnd(cs->ncoefs);
}

/* A variable: ONE, a public input or any variable. */
static uint32_t random_var(const cz_r1cs *cs) {
    uint32_t r = rnd(100);
    if (r < 10)
        return 0;
    if (r < 20)
        return rnd(cs->npublic + 1);
    return rnd(cs->nvars);
}

/* w[0] = 1; the rest 45 % zero, 40 % one, 5 % minus one, 10 % random. */
static void fill_witness(cz_r1cs *cs) {
    cz_bls12381_fr one, minus_one;
    cz_bls12381_fr_one(&one);
    cz_bls12381_fr_neg(&minus_one, &one);
    memcpy(cs->w[0], one.l, FR_BYTES);
    for (uint32_t v = 1; v < cs->nvars; v++) {
        uint32_t r = rnd(100);
        if (r < 45)
            memset(cs->w[v], 0, FR_BYTES);
        else if (r < 85)
            memcpy(cs->w[v], one.l, FR_BYTES);
        else if (r < 90)
            memcpy(cs->w[v], minus_one.l, FR_BYTES);
        else
            gpu_random_fr_limbs(cs->w[v]);
    }
}

/* A random system with a random witness; rows of row_len terms each, or random lengths when
 * row_len is negative. */
static void make_system(cz_r1cs *cs, uint32_t npublic, uint32_t naux, uint32_t nrows,
                        uint32_t ncoefs, int row_len) {
    uint32_t *len[3];
    uint64_t nnz[3];
    cz_errinfo ei;
    for (int k = 0; k < 3; k++) {
        len[k] = malloc(nrows ? nrows * sizeof(uint32_t) : 1);
        CZ_ASSERT(len[k] != NULL);
        nnz[k] = 0;
        for (uint32_t i = 0; i < nrows; i++) {
            len[k][i] = row_len < 0 ? random_row_len() : (uint32_t)row_len;
            nnz[k] += len[k][i];
        }
    }
    CZ_ASSERT(cz_r1cs_alloc(cs, CZ_CURVE_BLS12381, npublic, naux, nrows, nnz, ncoefs, &ei) ==
              CZ_OK);
    fill_coefs(cs);
    cz_r1cs_mat *mats[3] = {&cs->a, &cs->b, &cs->c};
    for (int k = 0; k < 3; k++) {
        cz_r1cs_mat *mt = mats[k];
        for (uint32_t i = 0; i < nrows; i++) {
            mt->row_ptr[i + 1] = mt->row_ptr[i] + len[k][i];
            for (uint64_t t = mt->row_ptr[i]; t < mt->row_ptr[i + 1]; t++) {
                mt->var[t] = random_var(cs);
                mt->coef[t] = random_coef(cs);
            }
        }
        free(len[k]);
    }
    fill_witness(cs);
}

/* The device-layer view of cs. */
static cz_gpu_r1cs_host host_of(const cz_r1cs *cs) {
    cz_gpu_r1cs_host h;
    cz_r1cs_gpu_view(&h, cs);
    return h;
}

/* The device bytes of docs/gpu.md's layout: u32 row pointers, u32 variable and u16 (u32 above
 * 65536 coefficients) coefficient indices, the table and a kind byte per coefficient, and with
 * booleans a word and a u32 rank per 64 variables. */
static size_t layout_bytes(const cz_r1cs *cs) {
    size_t idx = cs->ncoefs > 65536 ? 4 : 2;
    size_t terms =
        (size_t)(cs->a.row_ptr[cs->nrows] + cs->b.row_ptr[cs->nrows] + cs->c.row_ptr[cs->nrows]);
    size_t bools = cs->booleans != NULL ? cz_r1cs_bool_words(cs->nvars) * 12 : 0;
    return 3 * ((size_t)cs->nrows + 1) * 4 + terms * (4 + idx) + (size_t)cs->ncoefs * 33 + bools;
}

/* Uploads cs, then for two witnesses (cs's, then a new one) compares the device's a, b, c in
 * vectors of n elements with the CPU's, every element. */
static void check_eval(cz_r1cs *cs, size_t n) {
    const size_t bytes = n * FR_BYTES;
    cz_gpu_r1cs_host h = host_of(cs);
    cz_gpu_r1cs *m = NULL;
    void *d_w = NULL, *d_abc = NULL;
    uint64_t(*want)[4] = malloc(3 * bytes), (*got)[4] = malloc(3 * bytes);
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CZ_ASSERT(want != NULL && got != NULL);
    if (!CHECK_ERR(cz_bls12381_gpu_r1cs_upload(&m, &h, 0, &ei), CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        goto out;
    }
    CHECK_EQ_SIZE(cz_gpu_r1cs_bytes(m), layout_bytes(cs));
    CHECK_EQ_INT(cz_gpu_r1cs_device(m), 0);
    CZ_ASSERT(cz_gpu_alloc(&d_w, (size_t)cs->nvars * FR_BYTES, 0, &ei) == CZ_OK);
    CZ_ASSERT(cz_gpu_alloc(&d_abc, 3 * bytes, 0, &ei) == CZ_OK);
    for (int round = 0; round < 2; round++) {
        if (round == 1)
            fill_witness(cs);
        CHECK_ERR(
            cz_r1cs_eval(want, want + n, want + 2 * n, cs, n, CZ_R1CS_EVAL_INPUT_ROWS, NULL, &ei),
            CZ_OK);
        memset(got, 0xff, 3 * bytes); /* the device must overwrite every element */
        CZ_ASSERT(cz_gpu_upload(d_abc, got, 3 * bytes, 0, &ei) == CZ_OK);
        CZ_ASSERT(cz_gpu_upload(d_w, cs->w, (size_t)cs->nvars * FR_BYTES, 0, &ei) == CZ_OK);
        if (!CHECK_ERR(cz_gpu_r1cs_eval(m, d_abc, n, d_w, &ei), CZ_OK)) {
            fprintf(stderr, "  %s\n", ei.msg);
            continue;
        }
        CZ_ASSERT(cz_gpu_download(got, d_abc, 3 * bytes, 0, &ei) == CZ_OK);
        CHECK_EQ_MEM(got, want, bytes);                 /* a */
        CHECK_EQ_MEM(got + n, want + n, bytes);         /* b */
        CHECK_EQ_MEM(got + 2 * n, want + 2 * n, bytes); /* c */
    }
out:
    cz_gpu_free(d_w, 0);
    cz_gpu_free(d_abc, 0);
    cz_gpu_r1cs_free(m);
    free(want);
    free(got);
}

/* The smallest power of two above the rows needed: padding rows follow. */
static size_t padded(const cz_r1cs *cs) {
    size_t need = (size_t)cs->nrows + cs->npublic + 1, n = 1;
    while (n <= need)
        n <<= 1;
    return n;
}

static int setup(void) {
    return gpu_have_device() != 0 ? TEST_SKIP : 0;
}

/* random systems of a few shapes, padded to a power of two */
static void test_random(void) {
    static const uint32_t shapes[][4] = {
        /* npublic, naux, nrows, ncoefs */
        {0, 50, 100, 8},
        {3, 1000, 3000, 64},
        {10, 20000, 50000, 300},
        {1, 5, 2000, 20},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        cz_r1cs cs;
        make_system(&cs, shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], -1);
        check_eval(&cs, padded(&cs));
        cz_r1cs_free(&cs);
    }
}

/* more than 65536 coefficients: u32 coefficient indices */
static void test_wide_coefs(void) {
    cz_r1cs cs;
    make_system(&cs, 4, 10000, 20000, 70000, -1);
    check_eval(&cs, padded(&cs) + 5);
    cz_r1cs_free(&cs);
}

/* vectors of exactly nrows + ninput elements; at 65536 coefficients u16 indices still reach */
static void test_exact_n(void) {
    cz_r1cs cs;
    make_system(&cs, 7, 3000, 4093, 65536, -1);
    check_eval(&cs, (size_t)cs.nrows + cs.npublic + 1);
    cz_r1cs_free(&cs);
}

/* no constraints (input rows only), and rows of one term each */
static void test_edges(void) {
    cz_r1cs cs;
    make_system(&cs, 2, 10, 0, 4, -1);
    check_eval(&cs, 8);
    check_eval(&cs, 3);
    cz_r1cs_free(&cs);
    make_system(&cs, 0, 300, 1000, 12, 1);
    check_eval(&cs, 1001);
    cz_r1cs_free(&cs);
}

/* An upload of h must fail with code, leave *out NULL and name each of the words in ei. */
static void check_refused(const cz_gpu_r1cs_host *h, int code, const char *w1, const char *w2) {
    cz_errinfo ei;
    cz_gpu_r1cs *const unset = (cz_gpu_r1cs *)(void *)&ei, *m = unset;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_bls12381_gpu_r1cs_upload(&m, h, 0, &ei), code);
    CHECK(m == NULL);
    if (!CHECK(strstr(ei.msg, w1) != NULL && strstr(ei.msg, w2) != NULL))
        fprintf(stderr, "  message \"%s\" lacks \"%s\" or \"%s\"\n", ei.msg, w1, w2);
    if (m != unset)
        cz_gpu_r1cs_free(m);
}

/* inconsistent systems and short or missing vectors are refused */
static void test_refusals(void) {
    static const uint64_t huge_rows[2] = {0, (uint64_t)1 << 32};
    cz_r1cs cs;
    cz_gpu_r1cs_host h;
    cz_gpu_r1cs *m = NULL;
    void *d_w = NULL, *d_abc = NULL;
    uint64_t saved;
    uint32_t saved32;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    make_system(&cs, 2, 20, 6, 5, 2); /* two terms a row: row 3's terms are 6 and 7 */
    h = host_of(&cs);

    saved32 = cs.b.var[7];
    cs.b.var[7] = cs.nvars;
    check_refused(&h, CZ_EINVAL, "B row 3 term 1", "variable");
    cs.b.var[7] = saved32;

    saved32 = cs.c.coef[0];
    cs.c.coef[0] = cs.ncoefs;
    check_refused(&h, CZ_EINVAL, "C row 0 term 0", "coefficient");
    cs.c.coef[0] = saved32;

    saved = cs.a.row_ptr[4];
    cs.a.row_ptr[4] = 5; /* row 3 ends at 5, before its start 6 */
    check_refused(&h, CZ_EINVAL, "A row 3", "before");
    cs.a.row_ptr[4] = saved;

    saved = cs.c.row_ptr[0];
    cs.c.row_ptr[0] = 1;
    check_refused(&h, CZ_EINVAL, "C row 0", "not 0");
    cs.c.row_ptr[0] = saved;

    h.ninput = cs.nvars + 1;
    check_refused(&h, CZ_EINVAL, "input", "variables");
    h = host_of(&cs);

    {
        cz_gpu_r1cs_host big = h; /* one B row of 2^32 terms: refused before its terms are read */
        big.nrows = 1;
        big.row_ptr[1] = huge_rows;
        check_refused(&big, CZ_ERANGE, "B has 4294967296 terms", "2^32");
    }

    CHECK_ERR(cz_bls12381_gpu_r1cs_upload(&m, NULL, 0, &ei), CZ_EINVAL);
    CHECK(m == NULL);

    /* evaluation: the system is fine, the vectors are not */
    if (!CHECK_ERR(cz_bls12381_gpu_r1cs_upload(&m, &h, 0, &ei), CZ_OK))
        goto out;
    CZ_ASSERT(cz_gpu_alloc(&d_w, (size_t)cs.nvars * FR_BYTES, 0, &ei) == CZ_OK);
    CZ_ASSERT(cz_gpu_alloc(&d_abc, 3 * 16 * FR_BYTES, 0, &ei) == CZ_OK);
    CHECK_ERR(cz_gpu_r1cs_eval(m, d_abc, cs.nrows + cs.npublic, d_w, &ei), CZ_ERANGE);
    CHECK(strstr(ei.msg, "6 rows and 3 input rows") != NULL);
    CHECK_ERR(cz_gpu_r1cs_eval(m, d_abc, 16, NULL, &ei), CZ_EINVAL);
    CHECK_ERR(cz_gpu_r1cs_eval(m, NULL, 16, d_w, &ei), CZ_EINVAL);
    CHECK_ERR(cz_gpu_r1cs_eval(m, (char *)d_abc + 8, 15, d_w, &ei), CZ_EINVAL);
    CHECK_ERR(cz_gpu_r1cs_eval(NULL, d_abc, 16, d_w, &ei), CZ_EINVAL);
    CHECK_ERR(cz_gpu_r1cs_eval(m, d_abc, 16, d_w, &ei), CZ_OK); /* and it still works */
out:
    cz_gpu_free(d_w, 0);
    cz_gpu_free(d_abc, 0);
    cz_gpu_r1cs_free(m);
    cz_gpu_r1cs_free(NULL);
    cz_r1cs_free(&cs);
}

/* cs's witness compact: one aux in three (and a run of 70) made a boolean of value 0 or 1, the
 * booleans' bits, the others' values in order (written out here, the oracle of both expansions). */
static uint64_t *make_compact(cz_r1cs *cs, uint64_t (**vals)[4], uint32_t *nvals) {
    const size_t words = cz_r1cs_bool_words(cs->nvars);
    uint64_t *bits = calloc(words, sizeof *bits);
    cz_bls12381_fr one;
    uint32_t k = 0;
    cz_bls12381_fr_one(&one);
    cs->booleans = calloc(words, sizeof *cs->booleans);
    *vals = malloc((size_t)cs->nvars * FR_BYTES);
    CZ_ASSERT(bits != NULL && cs->booleans != NULL && *vals != NULL);
    for (uint32_t v = cs->npublic + 1; v < cs->nvars; v++) {
        if (rnd(3) != 0 && !(v >= 200 && v < 270))
            continue;
        const int b = (int)rnd(2);
        cs->booleans[v / 64] |= UINT64_C(1) << (v % 64);
        if (b) {
            memcpy(cs->w[v], one.l, FR_BYTES);
            bits[v / 64] |= UINT64_C(1) << (v % 64);
        } else {
            memset(cs->w[v], 0, FR_BYTES);
        }
    }
    for (uint32_t v = 0; v < cs->nvars; v++)
        if (!((cs->booleans[v / 64] >> (v % 64)) & 1u))
            memcpy((*vals)[k++], cs->w[v], FR_BYTES);
    *nvals = k;
    return bits;
}

/* A compact witness expanded on the device (output filled with 0xff first) is the witness, and
 * a, b, c of it are the CPU's; nvals counts the non-booleans; the host's expansion agrees. */
static void check_expand(uint32_t npublic, uint32_t naux, uint32_t nrows) {
    cz_r1cs cs;
    cz_gpu_r1cs_host h;
    cz_gpu_r1cs *m = NULL;
    uint64_t(*vals)[4] = NULL, (*got)[4], *bits;
    void *d_w = NULL, *d_bits = NULL, *d_vals = NULL;
    uint32_t nvals = 0;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    make_system(&cs, npublic, naux, nrows, 40, -1);
    bits = make_compact(&cs, &vals, &nvals);
    const size_t wbytes = (size_t)cs.nvars * FR_BYTES, words = cz_r1cs_bool_words(cs.nvars);
    got = malloc(wbytes);
    CZ_ASSERT(got != NULL);
    h = host_of(&cs);
    if (!CHECK_ERR(cz_bls12381_gpu_r1cs_upload(&m, &h, 0, &ei), CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        goto out;
    }
    CHECK_EQ_INT(cz_gpu_r1cs_nvals(m), nvals);
    CHECK_EQ_INT(cz_r1cs_nvals(&cs), nvals);
    CHECK_EQ_SIZE(cz_gpu_r1cs_bytes(m), layout_bytes(&cs));
    CZ_ASSERT(cz_gpu_alloc(&d_w, wbytes, 0, &ei) == CZ_OK);
    CZ_ASSERT(cz_gpu_alloc(&d_bits, words * 8, 0, &ei) == CZ_OK);
    CZ_ASSERT(cz_gpu_alloc(&d_vals, (size_t)nvals * FR_BYTES + 1, 0, &ei) == CZ_OK);
    CZ_ASSERT(cz_gpu_upload(d_bits, bits, words * 8, 0, &ei) == CZ_OK);
    CZ_ASSERT(cz_gpu_upload(d_vals, vals, (size_t)nvals * FR_BYTES, 0, &ei) == CZ_OK);
    memset(got, 0xff, wbytes);
    CZ_ASSERT(cz_gpu_upload(d_w, got, wbytes, 0, &ei) == CZ_OK);
    if (CHECK_ERR(cz_gpu_r1cs_expand(m, d_w, d_bits, d_vals, &ei), CZ_OK)) {
        CZ_ASSERT(cz_gpu_download(got, d_w, wbytes, 0, &ei) == CZ_OK);
        CHECK_EQ_MEM(got, cs.w, wbytes);
    }
    memset(got, 0xff, wbytes);
    CHECK_ERR(cz_r1cs_witness_expand(got, &cs, bits, (const uint64_t(*)[4])vals, NULL, &ei), CZ_OK);
    CHECK_EQ_MEM(got, cs.w, wbytes);
    CHECK_ERR(cz_gpu_r1cs_expand(m, d_w, (char *)d_bits + 4, d_vals, &ei), CZ_EINVAL);
    CHECK_ERR(cz_gpu_r1cs_expand(m, NULL, d_bits, d_vals, &ei), CZ_EINVAL);
    cz_gpu_r1cs_free(m);
    m = NULL;
    check_eval(&cs, padded(&cs)); /* a, b, c of the expanded witness's values */
out:
    cz_gpu_free(d_w, 0);
    cz_gpu_free(d_bits, 0);
    cz_gpu_free(d_vals, 0);
    cz_gpu_r1cs_free(m);
    free(bits);
    free(vals);
    free(got);
    cz_r1cs_free(&cs);
}

/* compact witnesses: a system of a few words, one whose variables end mid-word, one large; the
 * refusals of booleans on inputs and of an expansion without booleans */
static void test_expand(void) {
    cz_r1cs cs;
    cz_gpu_r1cs_host h;
    cz_gpu_r1cs *m = NULL;
    cz_errinfo ei;
    uint64_t word = 0;
    check_expand(2, 300, 200);
    check_expand(5, 20011, 30000);
    check_expand(40, 300000, 100000);
    make_system(&cs, 3, 100, 50, 8, -1);
    h = host_of(&cs);
    h.booleans = &word;
    word = 1u << 2; /* input 2 */
    check_refused(&h, CZ_EINVAL, "input variable 2", "boolean");
    h.booleans = NULL;
    if (CHECK_ERR(cz_bls12381_gpu_r1cs_upload(&m, &h, 0, &ei), CZ_OK)) {
        CHECK_EQ_INT(cz_gpu_r1cs_nvals(m), cs.nvars);
        CHECK_ERR(cz_gpu_r1cs_expand(m, NULL, NULL, NULL, &ei), CZ_EINVAL);
        CHECK(strstr(ei.msg, "no booleans") != NULL);
    }
    cz_gpu_r1cs_free(m);
    cz_r1cs_free(&cs);
}

static const test_case cases[] = {{"random", test_random},     {"wide_coefs", test_wide_coefs},
                                  {"exact_n", test_exact_n},   {"edges", test_edges},
                                  {"refusals", test_refusals}, {"expand", test_expand}};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, NULL);
}
