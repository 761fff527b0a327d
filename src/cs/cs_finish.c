/*
 * Joining and handing over systems (cs.h): cz__cs_extend (bellperson's extend: the other
 * system's ONE is this one's, its other inputs, aux and rows follow this one's) and the proving
 * assignment of PROVE, with bellperson's input constraints appended.
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs_internal.h"

/* Sets bit off + i of dst for every bit i >= from set among the first n of src (those past its
 * words are clear). */
static void bits_append(cz__cs_bits *dst, const cz__cs_bits *src, size_t n, size_t from,
                        size_t off) {
    for (size_t i = from; i < n && i / 64 < src->nwords; i++)
        if ((src->w[i / 64] >> (i % 64)) & 1u)
            dst->w[(off + i) / 64] |= UINT64_C(1) << ((off + i) % 64);
}

/* Appends src's values: inputs 1.. and aux. */
static int extend_values(cz__cs *dst, const cz__cs *src) {
    if (!dst->values)
        return 1;
    if (!cz__cs_grow(dst, (void **)&dst->input, &dst->input_cap, dst->ninput + src->ninput - 1,
                     sizeof *dst->input, "the inputs") ||
        !cz__cs_grow(dst, (void **)&dst->aux, &dst->aux_cap, dst->naux + src->naux,
                     sizeof *dst->aux, "the aux values"))
        return 0;
    cz__cs_copy(dst->input + dst->ninput, src->input + 1, (src->ninput - 1) * sizeof *dst->input);
    cz__cs_copy(dst->aux + dst->naux, src->aux, src->naux * sizeof *dst->aux);
    return 1;
}

/* RECORD: appends src's rows, variables and coefficients remapped into dst. */
static int extend_rows(cz__cs *dst, const cz__cs *src) {
    uint32_t *cmap = NULL;
    const size_t in_off = dst->ninput - 1, aux_off = dst->naux;
    int ok = 1;
    if (src->ncoefs > 0 && (cmap = malloc(src->ncoefs * sizeof *cmap)) == NULL)
        return cz__cs_fail(dst, CZ_ENOMEM, "extend: cannot map %u coefficients", src->ncoefs), 0;
    for (uint32_t i = 0; ok && i < src->ncoefs; i++)
        ok =
            (cmap[i] = cz__cs_coef_index(dst, (const cz_bls12381_fr *)src->coefs[i])) != UINT32_MAX;
    ok = ok && cz__cs_grow_rows(dst, dst->nrows + src->nrows + 1);
    for (int k = 0; ok && k < 3; k++) {
        cz__cs_mat *dm = &dst->m[k];
        const cz__cs_mat *sm = &src->m[k];
        size_t vcap = dm->cap, ccap = dm->cap;
        if (!cz__cs_grow(dst, (void **)&dm->var, &vcap, dm->nnz + sm->nnz, sizeof *dm->var,
                         "the terms") ||
            !cz__cs_grow(dst, (void **)&dm->coef, &ccap, vcap, sizeof *dm->coef, "the terms")) {
            ok = 0;
            break;
        }
        dm->cap = vcap;
        for (uint64_t t = 0; t < sm->nnz; t++) {
            const cz__var v = sm->var[t];
            const uint32_t i = cz__var_index(v);
            dm->var[dm->nnz + t] = cz__var_is_input(v)
                                       ? cz__var_input(i == 0 ? 0 : (uint32_t)(in_off + i))
                                       : cz__var_aux((uint32_t)(aux_off + i));
            dm->coef[dm->nnz + t] = cmap[sm->coef[t]];
        }
        for (size_t r = 1; r <= src->nrows; r++)
            dm->row_ptr[dst->nrows + r] = dm->nnz + sm->row_ptr[r];
        dm->nnz += sm->nnz;
    }
    free(cmap);
    return ok;
}

/* PROVE: appends src's a, b, c and densities (when kept). */
static int extend_prove(cz__cs *dst, const cz__cs *src) {
    const size_t in_off = dst->ninput - 1, aux_off = dst->naux;
    if (!cz__cs_grow3(dst, (void **)&dst->a, (void **)&dst->b, (void **)&dst->c, &dst->abc_cap,
                      dst->nrows + src->nrows, sizeof *dst->a, "a, b, c"))
        return 0;
    cz__cs_copy(dst->a + dst->nrows, src->a, src->nrows * sizeof *dst->a);
    cz__cs_copy(dst->b + dst->nrows, src->b, src->nrows * sizeof *dst->b);
    cz__cs_copy(dst->c + dst->nrows, src->c, src->nrows * sizeof *dst->c);
    if (!dst->densities)
        return 1;
    if (!cz__cs_bits_grow(dst, &dst->a_aux, aux_off + src->naux) ||
        !cz__cs_bits_grow(dst, &dst->b_aux, aux_off + src->naux) ||
        !cz__cs_bits_grow(dst, &dst->b_input, in_off + src->ninput))
        return 0;
    bits_append(&dst->a_aux, &src->a_aux, src->naux, 0, aux_off);
    bits_append(&dst->b_aux, &src->b_aux, src->naux, 0, aux_off);
    bits_append(&dst->b_input, &src->b_input, src->ninput, 1, in_off);
    if (src->b_input.w[0] & 1u) /* src's ONE is dst's */
        dst->b_input.w[0] |= 1u;
    return 1;
}

int cz__cs_extend(cz__cs *dst, const cz__cs *src, cz_errinfo *ei) {
    int ok;
    if (dst->err.code == CZ_OK && src->err.code != CZ_OK)
        cz__cs_fail(dst, src->err.code, "extend: %s", src->err.msg);
    else if (src->mode != dst->mode || src->values != dst->values ||
             src->densities != dst->densities)
        cz__cs_fail(dst, CZ_EINVAL, "extend: systems of different modes");
    else if (dst->compact || src->compact)
        cz__cs_fail(dst, CZ_EINVAL, "extend: a compact system");
    else if (dst->inputs_closed || src->inputs_closed)
        cz__cs_fail(dst, CZ_EINVAL, "extend: the input constraints were appended already");
    if (dst->err.code != CZ_OK)
        return cz__cs_status(dst, ei);
    ok = extend_values(dst, src);
    if (ok && dst->mode == CZ__CS_RECORD)
        ok = extend_rows(dst, src);
    if (ok && dst->mode == CZ__CS_RECORD && src->aux_bool.nwords != 0 &&
        (ok = cz__cs_bits_grow(dst, &dst->aux_bool, dst->naux + src->naux)) != 0)
        bits_append(&dst->aux_bool, &src->aux_bool, src->naux, 0, dst->naux);
    if (ok && dst->mode == CZ__CS_PROVE)
        ok = extend_prove(dst, src);
    if (ok) {
        dst->ninput += src->ninput - 1;
        dst->naux += src->naux;
        dst->nrows += src->nrows;
    }
    return cz__cs_status(dst, ei);
}

int cz__cs_assignment(cz_assignment *out, cz__cs *cs, cz_errinfo *ei) {
    memset(out, 0, sizeof *out);
    if (cs->err.code == CZ_OK && cs->mode != CZ__CS_PROVE)
        cz__cs_fail(cs, CZ_EINVAL, "assignment: needs a proving system");
    if (cs->err.code == CZ_OK && !cs->inputs_closed &&
        cz__cs_grow3(cs, (void **)&cs->a, (void **)&cs->b, (void **)&cs->c, &cs->abc_cap,
                     cs->nrows + cs->ninput, sizeof *cs->a, "a, b, c")) {
        /* bellperson's input constraints: input_i · 0 = 0, ONE included */
        for (size_t i = 0; i < cs->ninput; i++) {
            cs->a[cs->nrows + i] = cs->input[i];
            cz_bls12381_fr_zero(&cs->b[cs->nrows + i]);
            cz_bls12381_fr_zero(&cs->c[cs->nrows + i]);
        }
        cs->inputs_closed = 1;
    }
    if (cs->err.code != CZ_OK)
        return cz__cs_status(cs, ei);
    out->a = cs->a;
    out->b = cs->b;
    out->c = cs->c;
    out->abc_size = cs->nrows + cs->ninput;
    out->input = cs->input;
    out->ninput = cs->ninput;
    out->aux = cs->aux;
    out->naux = cs->naux;
    out->a_aux_density = cs->a_aux.w;
    out->b_input_density = cs->b_input.w;
    out->b_aux_density = cs->b_aux.w;
    return CZ_OK;
}
