/*
 * RECORD mode (cs.h): the rows as three growing CSR matrices whose terms keep their cz__var, the
 * coefficients interned in one table (open addressing on the four limbs, kept at most half
 * full), and the conversion to a cz_r1cs, where the variables take cuzk/r1cs.h's order.
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs_internal.h"
#include "cuzk/threadpool.h"

int cz__cs_grow_rows(cz__cs *cs, size_t need) {
    return cz__cs_grow3(cs, (void **)&cs->m[0].row_ptr, (void **)&cs->m[1].row_ptr,
                        (void **)&cs->m[2].row_ptr, &cs->rows_cap, need, sizeof(uint64_t),
                        "the rows");
}

static uint32_t coef_hash(const cz_bls12381_fr *k, uint32_t mask) {
    uint64_t h = k->l[0] * UINT64_C(0x9e3779b97f4a7c15);
    h ^= (k->l[1] + (h >> 29)) * UINT64_C(0xbf58476d1ce4e5b9);
    h ^= (k->l[2] + (h >> 31)) * UINT64_C(0x94d049bb133111eb);
    h ^= k->l[3] + (h >> 27);
    return (uint32_t)(h ^ (h >> 32)) & mask;
}

/* Rebuilds the slot table at twice its size. */
static int coef_rehash(cz__cs *cs) {
    uint32_t n = cs->nslots ? 2 * cs->nslots : 64, *slots;
    if (n < cs->nslots || (slots = calloc(n, sizeof *slots)) == NULL)
        return cz__cs_fail(cs, CZ_ENOMEM, "cannot grow the coefficient table"), 0;
    for (uint32_t i = 0; i < cs->ncoefs; i++) {
        uint32_t h = coef_hash((const cz_bls12381_fr *)cs->coefs[i], n - 1);
        while (slots[h] != 0)
            h = (h + 1) & (n - 1);
        slots[h] = i + 1;
    }
    free(cs->slots);
    cs->slots = slots;
    cs->nslots = n;
    return 1;
}

uint32_t cz__cs_coef_index(cz__cs *cs, const cz_bls12381_fr *k) {
    uint32_t h;
    size_t cap = cs->coefs_cap;
    if ((uint64_t)(cs->ncoefs + 1) * 2 > cs->nslots && !coef_rehash(cs))
        return UINT32_MAX;
    for (h = coef_hash(k, cs->nslots - 1); cs->slots[h] != 0; h = (h + 1) & (cs->nslots - 1))
        if (memcmp(cs->coefs[cs->slots[h] - 1], k->l, sizeof k->l) == 0)
            return cs->slots[h] - 1;
    if (!cz__cs_grow(cs, (void **)&cs->coefs, &cap, (size_t)cs->ncoefs + 1, sizeof *cs->coefs,
                     "the coefficients"))
        return UINT32_MAX;
    cs->coefs_cap = (uint32_t)cap;
    memcpy(cs->coefs[cs->ncoefs], k->l, sizeof k->l);
    cs->slots[h] = ++cs->ncoefs;
    return cs->ncoefs - 1;
}

/* Appends lc's terms with non-zero coefficients to matrix m and closes its row. */
static int record_lc(cz__cs *cs, cz__cs_mat *m, const cz__lc *lc) {
    for (uint32_t i = 0; i < lc->n; i++) {
        const cz__lc_term *e = &lc->t[i];
        size_t vcap = m->cap, ccap = m->cap;
        uint32_t ci;
        if (cz_bls12381_fr_is_zero(&e->coeff))
            continue;
        if (m->nnz == m->cap &&
            (!cz__cs_grow(cs, (void **)&m->var, &vcap, m->nnz + 1, sizeof *m->var, "the terms") ||
             !cz__cs_grow(cs, (void **)&m->coef, &ccap, vcap, sizeof *m->coef, "the terms")))
            return 0;
        m->cap = vcap;
        if ((ci = cz__cs_coef_index(cs, &e->coeff)) == UINT32_MAX)
            return 0;
        m->var[m->nnz] = e->var;
        m->coef[m->nnz] = ci;
        m->nnz++;
    }
    m->row_ptr[cs->nrows + 1] = m->nnz;
    return 1;
}

void cz__cs_record_row(cz__cs *cs, const cz__lc *a, const cz__lc *b, const cz__lc *c) {
    if (!cz__cs_grow_rows(cs, cs->nrows + 2))
        return;
    if (record_lc(cs, &cs->m[0], a) && record_lc(cs, &cs->m[1], b) && record_lc(cs, &cs->m[2], c))
        cs->nrows++;
}

void cz__cs_mark_get(cz__cs_mark *out, const cz__cs *cs) {
    out->nrows = cs->nrows;
    out->ninput = cs->ninput;
    out->naux = cs->naux;
    for (int k = 0; k < 3; k++)
        out->nnz[k] = cs->m[k].nnz;
}

/* The conversion of a prefix and copies of the body after it (cz__cs_to_r1cs_repeat): the body's
 * counts, the whole system's, and a task per copy. */
typedef struct repeat_job {
    cz_r1cs *out;
    const cz__cs *cs;
    cz__cs_mark pre, body;
    size_t ninput; /* of the whole system */
    const cz__cs_copy_vars *vars;
    uint32_t *slot; /* per prefix aux: k where it is vars->from[k], else UINT32_MAX; NULL: none */
} repeat_job;

/* Copy c of the body (copy 0 also writes the prefix): its rows' pointers and terms, its own
 * inputs and aux renumbered after the copies before it, the prefix's variables as they are but
 * for those of j->vars. */
static void repeat_copy(void *arg, size_t c) {
    const repeat_job *j = arg;
    const cz__cs *cs = j->cs;
    for (int k = 0; k < 3; k++) {
        cz_r1cs_mat *dm = k == 0 ? &j->out->a : k == 1 ? &j->out->b : &j->out->c;
        const cz__cs_mat *sm = &cs->m[k];
        const uint64_t t0 = c == 0 ? 0 : j->pre.nnz[k], t1 = j->pre.nnz[k] + j->body.nnz[k];
        const uint64_t shift = c * j->body.nnz[k];
        const size_t r0 = c == 0 ? 0 : j->pre.nrows, r1 = j->pre.nrows + j->body.nrows;
        const size_t rshift = c * j->body.nrows;
        for (size_t r = r0; r < r1; r++)
            dm->row_ptr[r + 1 + rshift] = sm->row_ptr[r + 1] + shift;
        cz__cs_copy(dm->coef + t0 + shift, sm->coef + t0, (t1 - t0) * sizeof *dm->coef);
        for (uint64_t t = t0; t < t1; t++) {
            const cz__var v = sm->var[t];
            uint32_t i = cz__var_index(v);
            if (cz__var_is_input(v))
                dm->var[t + shift] = i < j->pre.ninput ? i : i + (uint32_t)(c * j->body.ninput);
            else if (i >= j->pre.naux)
                dm->var[t + shift] = (uint32_t)j->ninput + i + (uint32_t)(c * j->body.naux);
            else if (j->slot != NULL && t >= j->pre.nnz[k] && j->slot[i] != UINT32_MAX)
                dm->var[t + shift] = (uint32_t)j->ninput + j->vars->to[c * j->vars->n + j->slot[i]];
            else
                dm->var[t + shift] = (uint32_t)j->ninput + i;
        }
    }
}

/* n bits of src from bit s (src holds src_words words; bits past them read as 0), ORed into dst
 * from bit d (room for them there). */
static void bits_or_range(uint64_t *dst, size_t d, const uint64_t *src, size_t src_words, size_t s,
                          size_t n) {
    for (size_t i = 0; i < n; i += 64) {
        const size_t p = s + i, pw = p / 64, po = p % 64, k = n - i < 64 ? n - i : 64;
        const size_t q = d + i, qw = q / 64, qo = q % 64;
        uint64_t x = pw < src_words ? src[pw] >> po : 0;
        if (po != 0 && pw + 1 < src_words)
            x |= src[pw + 1] << (64 - po);
        if (k < 64)
            x &= (UINT64_C(1) << k) - 1;
        dst[qw] |= x << qo;
        if (qo != 0 && (x >> (64 - qo)) != 0)
            dst[qw + 1] |= x >> (64 - qo);
    }
}

/* out->booleans: the prefix's aux booleans, then the body's, once per copy (see repeat_copy's
 * numbering). */
static int repeat_booleans(cz_r1cs *out, const cz__cs *cs, const cz__cs_mark *pre,
                           const cz__cs_mark *body, size_t copies, size_t ninput, cz_errinfo *ei) {
    const uint64_t *src = cs->aux_bool.w;
    const size_t sw = cs->aux_bool.nwords;
    if ((out->booleans = calloc(cz_r1cs_bool_words(out->nvars), sizeof *out->booleans)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "cs: to_r1cs: the booleans of %u variables", out->nvars);
    if (src == NULL)
        return CZ_OK;
    bits_or_range(out->booleans, ninput, src, sw, 0, pre->naux);
    for (size_t c = 0; c < copies; c++)
        bits_or_range(out->booleans, ninput + pre->naux + c * body->naux, src, sw, pre->naux,
                      body->naux);
    return CZ_OK;
}

/* j->slot from j->vars (see repeat_job), every index checked. CZ_EINVAL, CZ_ENOMEM. */
static int repeat_slots(repeat_job *j, size_t copies, cz_errinfo *ei) {
    const cz__cs_copy_vars *v = j->vars;
    if (v == NULL || v->n == 0)
        return CZ_OK;
    if (v->from == NULL || v->to == NULL)
        return cz_fail(ei, CZ_EINVAL, "cs: to_r1cs: copy variables without their indices");
    if ((j->slot = malloc((j->pre.naux ? j->pre.naux : 1) * sizeof *j->slot)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "cs: to_r1cs: %zu prefix slots", j->pre.naux);
    memset(j->slot, 0xff, j->pre.naux * sizeof *j->slot);
    for (size_t k = 0; k < v->n; k++) {
        if (v->from[k] >= j->pre.naux || j->slot[v->from[k]] != UINT32_MAX)
            return cz_fail(ei, CZ_EINVAL,
                           "cs: to_r1cs: copy variable %zu (aux %u) is outside the prefix's %zu "
                           "aux or named twice",
                           k, v->from[k], j->pre.naux);
        j->slot[v->from[k]] = (uint32_t)k;
    }
    for (size_t t = 0; t < copies * v->n; t++)
        if (v->to[t] >= j->pre.naux)
            return cz_fail(ei, CZ_EINVAL,
                           "cs: to_r1cs: copy %zu's variable %zu (aux %u) is outside the prefix's "
                           "%zu aux",
                           t / v->n, t % v->n, v->to[t], j->pre.naux);
    return CZ_OK;
}

int cz__cs_to_r1cs_repeat(cz_r1cs *out, const cz__cs *cs, const cz__cs_mark *prefix, size_t copies,
                          const cz__cs_copy_vars *vars, cz_threadpool *pool, cz_errinfo *ei) {
    static const cz__cs_mark none;
    repeat_job j;
    uint64_t nnz[3], ninput, naux, nrows;
    int rc;
    memset(out, 0, sizeof *out);
    if ((rc = cz__cs_status(cs, ei)) != CZ_OK)
        return rc;
    if (cs->mode != CZ__CS_RECORD)
        return cz_fail(ei, CZ_EINVAL, "cs: to_r1cs needs a recording system");
    memset(&j, 0, sizeof j);
    j.out = out;
    j.cs = cs;
    j.pre = prefix != NULL ? *prefix : none;
    cz__cs_mark_get(&j.body, cs);
    if (j.pre.nrows > j.body.nrows || j.pre.ninput > j.body.ninput || j.pre.naux > j.body.naux ||
        j.pre.nnz[0] > j.body.nnz[0] || j.pre.nnz[1] > j.body.nnz[1] ||
        j.pre.nnz[2] > j.body.nnz[2] || copies == 0)
        return cz_fail(ei, CZ_EINVAL, "cs: to_r1cs: a prefix beyond the system, or no copy");
    if (copies > 1 && cs->values)
        return cz_fail(ei, CZ_EINVAL, "cs: to_r1cs: copies of a body that keeps values");
    j.body.nrows -= j.pre.nrows;
    j.body.ninput -= j.pre.ninput;
    j.body.naux -= j.pre.naux;
    for (int k = 0; k < 3; k++) {
        j.body.nnz[k] -= j.pre.nnz[k];
        nnz[k] = j.pre.nnz[k] + copies * j.body.nnz[k];
    }
    ninput = j.pre.ninput + copies * (uint64_t)j.body.ninput;
    naux = j.pre.naux + copies * (uint64_t)j.body.naux;
    nrows = j.pre.nrows + copies * (uint64_t)j.body.nrows;
    if (ninput + naux > UINT32_MAX || nrows > UINT32_MAX)
        return cz_fail(
            ei, CZ_ERANGE, "cs: %llu inputs, %llu aux and %llu rows do not fit a cz_r1cs",
            (unsigned long long)ninput, (unsigned long long)naux, (unsigned long long)nrows);
    j.ninput = (size_t)ninput;
    j.vars = vars;
    if ((rc = repeat_slots(&j, copies, ei)) != CZ_OK ||
        (rc = cz_r1cs_alloc(out, CZ_CURVE_BLS12381, (uint32_t)(ninput - 1), (uint32_t)naux,
                            (uint32_t)nrows, nnz, cs->ncoefs ? cs->ncoefs : 1, ei)) != CZ_OK) {
        free(j.slot);
        return rc;
    }
    cz__cs_copy(out->coefs, cs->coefs, (size_t)cs->ncoefs * sizeof *cs->coefs);
    out->a.row_ptr[0] = out->b.row_ptr[0] = out->c.row_ptr[0] = 0;
    cz_threadpool_run(pool, repeat_copy, &j, copies);
    free(j.slot);
    if ((rc = repeat_booleans(out, cs, &j.pre, &j.body, copies, j.ninput, ei)) != CZ_OK) {
        cz_r1cs_free(out);
        return rc;
    }
    if (cs->values) {
        cz__cs_copy(out->w, cs->input, cs->ninput * sizeof *out->w);
        cz__cs_copy(out->w + cs->ninput, cs->aux, cs->naux * sizeof *out->w);
    }
    return CZ_OK;
}

int cz__cs_to_r1cs(cz_r1cs *out, const cz__cs *cs, cz_errinfo *ei) {
    return cz__cs_to_r1cs_repeat(out, cs, NULL, 1, NULL, NULL, ei);
}

/* Counts the distinct variables of matrix m whose space is input (or aux), among n of them. */
static int count_vars(size_t *out, const cz__cs_mat *m, int input, size_t n) {
    uint64_t *seen = calloc((n + 63) / 64 ? (n + 63) / 64 : 1, sizeof *seen);
    size_t c = 0;
    if (seen == NULL)
        return 0;
    for (uint64_t t = 0; t < m->nnz; t++) {
        const cz__var v = m->var[t];
        const uint32_t i = cz__var_index(v);
        if (cz__var_is_input(v) != input || i >= n)
            continue;
        if (!((seen[i / 64] >> (i % 64)) & 1u)) {
            seen[i / 64] |= UINT64_C(1) << (i % 64);
            c++;
        }
    }
    free(seen);
    *out = c;
    return 1;
}

int cz__cs_info_get(cz__cs_info *out, const cz__cs *cs, cz_errinfo *ei) {
    int rc;
    memset(out, 0, sizeof *out);
    if ((rc = cz__cs_status(cs, ei)) != CZ_OK)
        return rc;
    if (cs->mode != CZ__CS_RECORD)
        return cz_fail(ei, CZ_EINVAL, "cs: info needs a recording system");
    out->nrows = cs->nrows;
    out->ninput = cs->ninput;
    out->naux = cs->naux;
    for (int k = 0; k < 3; k++)
        out->nnz[k] = cs->m[k].nnz;
    if (!count_vars(&out->a_aux, &cs->m[0], 0, cs->naux) ||
        !count_vars(&out->b_input, &cs->m[1], 1, cs->ninput) ||
        !count_vars(&out->b_aux, &cs->m[1], 0, cs->naux))
        return cz_fail(ei, CZ_ENOMEM, "cs: info: the density bitmaps");
    for (size_t i = 0; i < cs->aux_bool.nwords; i++)
        out->booleans += (size_t)__builtin_popcountll(cs->aux_bool.w[i]);
    return CZ_OK;
}

int cz__cs_values_to_r1cs(cz_r1cs *shape, const cz__cs *witness, cz_errinfo *ei) {
    int rc;
    if ((rc = cz__cs_status(witness, ei)) != CZ_OK)
        return rc;
    if (!witness->values || witness->compact)
        return cz_fail(ei, CZ_EINVAL, "cs: the witness system keeps no values%s",
                       witness->compact ? " (compact)" : "");
    if (witness->ninput != (size_t)shape->npublic + 1 || witness->naux != shape->naux ||
        witness->nrows != shape->nrows)
        return cz_fail(ei, CZ_EFORMAT,
                       "cs: the witness has %zu inputs, %zu aux and %zu rows, the recorded "
                       "circuit %u, %u and %u",
                       witness->ninput, witness->naux, witness->nrows, shape->npublic + 1,
                       shape->naux, shape->nrows);
    cz__cs_copy(shape->w, witness->input, witness->ninput * sizeof *shape->w);
    cz__cs_copy(shape->w + witness->ninput, witness->aux, witness->naux * sizeof *shape->w);
    return CZ_OK;
}
