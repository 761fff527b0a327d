/*
 * .r1cs version 1 writer from an in-memory system (cuzk/r1cs_io.h). One streaming pass: the
 * section sizes are computed from the CSR row pointers first, so nothing is held back. The
 * distinct-variable rule is checked per LC (pairwise for short LCs, by sorting a copy for long
 * ones; only a handful of rows are long).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/r1cs_io.h"
#include "formats/bufwrite.h"
#include "formats/fmt_curve.h"

enum { SECT_HEADER = 1, SECT_CONSTRAINTS = 2, SECT_LABELS = 3 };
#define R1CS_N8 32

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* 1 when var[0..n) holds a repeated value; scratch has room for n values. */
static int has_duplicate(const uint32_t *var, uint64_t n, uint32_t *scratch) {
    if (n <= 16) {
        for (uint64_t i = 0; i < n; i++)
            for (uint64_t j = i + 1; j < n; j++)
                if (var[i] == var[j])
                    return 1;
        return 0;
    }
    memcpy(scratch, var, n * sizeof *var);
    qsort(scratch, n, sizeof *scratch, cmp_u32);
    for (uint64_t i = 1; i < n; i++)
        if (scratch[i] == scratch[i - 1])
            return 1;
    return 0;
}

int cz_r1cs_write(const char *path, const cz_r1cs *cs, cz_errinfo *ei) {
    static const char names[3] = {'A', 'B', 'C'};
    const cz__curve_info *ci = cz__curve_info_of(cs->curve);
    const cz_r1cs_mat *mats[3] = {&cs->a, &cs->b, &cs->c};
    uint8_t(*coefs)[R1CS_N8] = NULL;
    uint32_t *scratch = NULL;
    cz__bw *bw = NULL;
    int rc = CZ_OK;
    if (ci == NULL)
        return cz_fail(ei, CZ_EINVAL, "%s: unknown curve id %d", path, (int)cs->curve);
    if ((rc = cz_r1cs_validate(cs, ei)) != CZ_OK)
        return rc;
    uint64_t maxrow = 0, nterms = 0;
    for (int m = 0; m < 3; m++) {
        nterms += mats[m]->row_ptr[cs->nrows];
        for (uint32_t i = 0; i < cs->nrows; i++) {
            uint64_t n = mats[m]->row_ptr[i + 1] - mats[m]->row_ptr[i];
            maxrow = n > maxrow ? n : maxrow;
        }
    }
    if (maxrow > UINT32_MAX)
        return cz_fail(ei, CZ_ERANGE, "%s: a row has %llu terms (at most 2^32 - 1)", path,
                       (unsigned long long)maxrow);
    coefs = malloc((cs->ncoefs ? cs->ncoefs : 1) * sizeof *coefs);
    scratch = malloc((maxrow ? maxrow : 1) * sizeof *scratch);
    bw = malloc(sizeof *bw);
    if (coefs == NULL || scratch == NULL || bw == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "%s: out of memory", path);
        goto out;
    }
    for (uint32_t k = 0; k < cs->ncoefs; k++) {
        uint64_t std[4];
        cz_r1cs_fr_to_std(std, cs->curve, cs->coefs[k]);
        for (int l = 0; l < 4; l++)
            for (int b = 0; b < 8; b++)
                coefs[k][8 * l + b] = (uint8_t)(std[l] >> (8 * b));
    }
    if ((rc = cz__bw_open(bw, path, "r1cs", 1, 3, ei)) != CZ_OK)
        goto out;
    cz__bw_section(bw, SECT_HEADER, 4 + R1CS_N8 + 4 * 4 + 8 + 4);
    cz__bw_u32(bw, R1CS_N8);
    for (int l = 0; l < 4; l++)
        cz__bw_u64(bw, ci->r[l]);
    cz__bw_u32(bw, cs->nvars);
    cz__bw_u32(bw, 0);           /* nPubOut */
    cz__bw_u32(bw, cs->npublic); /* nPubIn */
    cz__bw_u32(bw, 0);           /* nPrvIn */
    cz__bw_u64(bw, cs->nvars);   /* nLabels */
    cz__bw_u32(bw, cs->nrows);
    cz__bw_section(bw, SECT_CONSTRAINTS, (uint64_t)cs->nrows * 12 + nterms * (4 + R1CS_N8));
    for (uint32_t i = 0; i < cs->nrows; i++) {
        for (int m = 0; m < 3; m++) {
            const cz_r1cs_mat *mt = mats[m];
            uint64_t lo = mt->row_ptr[i], hi = mt->row_ptr[i + 1];
            if (has_duplicate(mt->var + lo, hi - lo, scratch)) {
                fclose(bw->f);
                unlink(path);
                rc = cz_fail(ei, CZ_EFORMAT, "%s: row %u, LC %c names a variable twice", path, i,
                             names[m]);
                goto out;
            }
            cz__bw_u32(bw, (uint32_t)(hi - lo));
            for (uint64_t k = lo; k < hi; k++) {
                cz__bw_u32(bw, mt->var[k]);
                cz__bw_bytes(bw, coefs[mt->coef[k]], R1CS_N8);
            }
        }
    }
    cz__bw_section(bw, SECT_LABELS, (uint64_t)cs->nvars * 8);
    for (uint32_t v = 0; v < cs->nvars; v++)
        cz__bw_u64(bw, v);
    rc = cz__bw_finish(bw, path, ei);
out:
    free(bw);
    free(scratch);
    free(coefs);
    return rc;
}
