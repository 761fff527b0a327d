/*
 * The constraint system under synthesis (cs.h): allocation, values, enforce in the three modes,
 * the coefficient table of RECORD, the densities of PROVE. Every array grows by doubling; a
 * failed allocation is the system's sticky error.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hugepages.h"
#include "cs/cs.h"
#include "cs/cs_internal.h"

int cz__cs_fail(cz__cs *cs, int code, const char *fmt, ...) {
    va_list ap;
    char msg[CZ_ERRINFO_MSG_MAX];
    if (cs->err.code != CZ_OK)
        return cs->err.code;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cz_fail(&cs->err, code, "cs: %s", msg);
}

int cz__cs_grow(cz__cs *cs, void **p, size_t *cap, size_t need, size_t elem, const char *what) {
    size_t c = *cap ? *cap : 16;
    void *q;
    if (need <= *cap)
        return 1;
    if (cs->external && (p == (void **)&cs->aux || p == (void **)&cs->a || p == (void **)&cs->b ||
                         p == (void **)&cs->c))
        return cz__cs_fail(cs, CZ_ERANGE, "%s: the caller's buffer of %zu entries is full", what,
                           *cap),
               0;
    while (c < need) {
        if (c > SIZE_MAX / 2 / elem)
            return cz__cs_fail(cs, CZ_ENOMEM, "%s: %zu entries do not fit", what, need), 0;
        c *= 2;
    }
    if ((q = realloc(*p, c * elem)) == NULL)
        return cz__cs_fail(cs, CZ_ENOMEM, "cannot grow %s to %zu entries", what, c), 0;
    cz__huge_pages_advise(q, c * elem);
    *p = q;
    *cap = c;
    return 1;
}

int cz__cs_grow3(cz__cs *cs, void **p0, void **p1, void **p2, size_t *cap, size_t need, size_t elem,
                 const char *what) {
    size_t c0 = *cap, c1 = *cap, c2 = *cap;
    if (need <= *cap)
        return 1;
    if (!cz__cs_grow(cs, p0, &c0, need, elem, what) || !cz__cs_grow(cs, p1, &c1, c0, elem, what) ||
        !cz__cs_grow(cs, p2, &c2, c0, elem, what))
        return 0;
    *cap = c0;
    return 1;
}

int cz__cs_bits_grow(cz__cs *cs, cz__cs_bits *b, size_t nbits) {
    size_t need = (nbits + 63) / 64, cap = b->nwords, old = b->nwords;
    if (need <= old)
        return 1;
    if (!cz__cs_grow(cs, (void **)&b->w, &cap, need, sizeof *b->w, "a density"))
        return 0;
    memset(b->w + old, 0, (cap - old) * sizeof *b->w);
    b->nwords = cap;
    return 1;
}

int cz__cs_init(cz__cs *cs, cz__cs_mode mode, unsigned flags, cz_errinfo *ei) {
    cz_bls12381_fr one;
    memset(cs, 0, sizeof *cs);
    if ((unsigned)mode > CZ__CS_PROVE)
        return cz_fail(ei, CZ_EINVAL, "cs: unknown mode %d", (int)mode);
    cs->mode = mode;
    cs->values = mode != CZ__CS_RECORD || (flags & CZ__CS_VALUES) != 0;
    cs->densities = mode == CZ__CS_PROVE && (flags & CZ__CS_NO_DENSITY) == 0;
    if (mode == CZ__CS_RECORD) {
        if (!cz__cs_grow_rows(cs, 1)) {
            int rc = cz__cs_status(cs, ei);
            cz__cs_free(cs);
            return rc;
        }
        for (int k = 0; k < 3; k++)
            cs->m[k].row_ptr[0] = 0;
    }
    cz_bls12381_fr_one(&one);
    cz__cs_alloc_input(cs, &one);
    return cz__cs_status(cs, ei);
}

int cz__cs_use_buffers(cz__cs *cs, cz_bls12381_fr *aux, size_t aux_cap, cz_bls12381_fr *a,
                       cz_bls12381_fr *b, cz_bls12381_fr *c, size_t abc_cap, cz_errinfo *ei) {
    if (cs->err.code != CZ_OK)
        return cz__cs_status(cs, ei);
    if (cs->naux != 0 || cs->nrows != 0 || cs->external ||
        (cs->mode != CZ__CS_WITNESS && cs->mode != CZ__CS_PROVE) ||
        (cs->mode == CZ__CS_PROVE) != (a != NULL && b != NULL && c != NULL))
        return cz_fail(ei, CZ_EINVAL, "cs: buffers for a fresh WITNESS or PROVE system only");
    free(cs->aux);
    cs->aux = aux;
    cs->aux_cap = aux_cap;
    if (cs->mode == CZ__CS_PROVE) {
        free(cs->a);
        free(cs->b);
        free(cs->c);
        cs->a = a;
        cs->b = b;
        cs->c = c;
        cs->abc_cap = abc_cap;
    }
    cs->external = 1;
    return CZ_OK;
}

int cz__cs_use_compact(cz__cs *cs, uint64_t *bits, size_t bit_at, size_t aux_cap,
                       cz_bls12381_fr *vals, size_t vals_cap, cz_errinfo *ei) {
    if (cs->err.code != CZ_OK)
        return cz__cs_status(cs, ei);
    if (cs->naux != 0 || cs->nrows != 0 || cs->external || cs->compact ||
        cs->mode != CZ__CS_WITNESS)
        return cz_fail(ei, CZ_EINVAL, "cs: compact buffers for a fresh WITNESS system only");
    if (bits == NULL || (vals == NULL && vals_cap != 0) || bit_at > SIZE_MAX - aux_cap)
        return cz_fail(ei, CZ_EINVAL, "cs: compact buffers: no bits, no values or a bad range");
    free(cs->aux);
    cs->aux = NULL;
    cs->aux_cap = aux_cap;
    cs->compact = 1;
    cs->cbits = bits;
    cs->cbit_at = bit_at;
    cs->cword_lo = bit_at / 64;
    cs->cword_hi = aux_cap != 0 ? (bit_at + aux_cap - 1) / 64 : bit_at / 64;
    cs->cvals = vals;
    cs->cvals_cap = vals_cap;
    cs->nvals = 0;
    return CZ_OK;
}

void cz__cs_free(cz__cs *cs) {
    if (cs == NULL)
        return;
    if (cs->external) { /* the caller's */
        cs->aux = NULL;
        cs->a = cs->b = cs->c = NULL;
    }
    free(cs->input);
    free(cs->aux);
    for (int k = 0; k < 3; k++) {
        free(cs->m[k].row_ptr);
        free(cs->m[k].var);
        free(cs->m[k].coef);
    }
    free(cs->coefs);
    free(cs->slots);
    free(cs->a);
    free(cs->b);
    free(cs->c);
    free(cs->a_aux.w);
    free(cs->b_input.w);
    free(cs->b_aux.w);
    free(cs->aux_bool.w);
    memset(cs, 0, sizeof *cs);
}

int cz__cs_status(const cz__cs *cs, cz_errinfo *ei) {
    if (cs->err.code == CZ_OK)
        return CZ_OK;
    return cz_fail(ei, cs->err.code, "%s", cs->err.msg);
}

/* Compact: whether the caller's range has room for n more aux variables (else the system's
 * error). */
static int compact_room(cz__cs *cs, size_t n) {
    if (n <= cs->aux_cap - cs->naux)
        return 1;
    return cz__cs_fail(cs, CZ_ERANGE, "the caller's range of %zu aux variables is full",
                       cs->aux_cap),
           0;
}

/* Compact: a new aux variable that is not a boolean, its value appended to the caller's. */
static cz__var compact_alloc(cz__cs *cs, const cz_bls12381_fr *value) {
    if (!compact_room(cs, 1))
        return cz__var_aux(0);
    if (cs->nvals >= cs->cvals_cap)
        return cz__cs_fail(cs, CZ_ERANGE, "the caller's %zu values are full", cs->cvals_cap),
               cz__var_aux(0);
    if (value != NULL)
        cs->cvals[cs->nvals++] = *value;
    else
        cz_bls12381_fr_zero(&cs->cvals[cs->nvals++]);
    return cz__var_aux((uint32_t)cs->naux++);
}

/* Appends a variable of one space: its value when values are kept, its density slots. */
static cz__var cs_alloc(cz__cs *cs, int input, const cz_bls12381_fr *value) {
    size_t *n = input ? &cs->ninput : &cs->naux;
    cz_bls12381_fr **vals = input ? &cs->input : &cs->aux;
    size_t *cap = input ? &cs->input_cap : &cs->aux_cap;
    if (cs->err.code != CZ_OK)
        return input ? CZ__VAR_ONE : cz__var_aux(0);
    if (*n >= CZ__VAR_INPUT)
        return cz__cs_fail(cs, CZ_ERANGE, "more than 2^31 %s variables", input ? "input" : "aux"),
               CZ__VAR_ONE;
    if (input && cs->inputs_closed)
        return cz__cs_fail(cs, CZ_EINVAL, "alloc_input after the input constraints"), CZ__VAR_ONE;
    if (!input && cs->compact)
        return compact_alloc(cs, value);
    if (cs->values) {
        if (!cz__cs_grow(cs, (void **)vals, cap, *n + 1, sizeof **vals,
                         input ? "the inputs" : "the aux values"))
            return CZ__VAR_ONE;
        if (value != NULL)
            (*vals)[*n] = *value;
        else
            cz_bls12381_fr_zero(&(*vals)[*n]);
    }
    if (cs->densities) {
        if (!cz__cs_bits_grow(cs, input ? &cs->b_input : &cs->a_aux, *n + 1) ||
            (!input && !cz__cs_bits_grow(cs, &cs->b_aux, *n + 1)))
            return CZ__VAR_ONE;
    }
    (*n)++;
    return input ? cz__var_input((uint32_t)(*n - 1)) : cz__var_aux((uint32_t)(*n - 1));
}

cz__var cz__cs_alloc(cz__cs *cs, const cz_bls12381_fr *value) {
    return cs_alloc(cs, 0, value);
}

cz__var cz__cs_alloc_bit_any(cz__cs *cs, int v) {
    cz_bls12381_fr val;
    cz__var r;
    if (cs->compact)
        return cz__cs_alloc_bits(cs, v != 0, 1);
    if (v)
        cz_bls12381_fr_one(&val);
    else
        cz_bls12381_fr_zero(&val);
    r = cs_alloc(cs, 0, &val);
    if (cs->mode == CZ__CS_RECORD && cs->err.code == CZ_OK &&
        cz__cs_bits_grow(cs, &cs->aux_bool, cs->naux))
        cs->aux_bool.w[r / 64] |= UINT64_C(1) << (r % 64);
    return r;
}

cz__var cz__cs_alloc_bits(cz__cs *cs, uint64_t v, unsigned n) {
    const cz__var first = cz__var_aux((uint32_t)cs->naux);
    if (n > 64) {
        cz__cs_fail(cs, CZ_EINVAL, "alloc_bits: %u bits at once (64 at most)", n);
        return first;
    }
    if (n < 64)
        v &= (UINT64_C(1) << n) - 1;
    if (cs->compact) {
        const size_t g = cs->cbit_at + cs->naux, w = g / 64, off = g % 64;
        if (cs->err.code != CZ_OK || !compact_room(cs, n))
            return first;
        cz__cs_compact_or(cs, w, v << off);
        if (off != 0)
            cz__cs_compact_or(cs, w + 1, v >> (64 - off));
        cs->naux += n;
        return first;
    }
    for (unsigned i = 0; i < n; i++)
        cz__cs_alloc_bit_any(cs, (int)((v >> i) & 1u));
    return first;
}

void cz__cs_count_rows(cz__cs *cs, size_t n) {
    if (cs->err.code != CZ_OK)
        return;
    if (cs->mode != CZ__CS_WITNESS)
        cz__cs_fail(cs, CZ_EINVAL, "row %zu: rows counted in a system that needs them", cs->nrows);
    else if (n > UINT32_MAX - cs->nrows)
        cz__cs_fail(cs, CZ_ERANGE, "more than 2^32 - 1 rows");
    else
        cs->nrows += n;
}

cz__var cz__cs_alloc_input(cz__cs *cs, const cz_bls12381_fr *value) {
    return cs_alloc(cs, 1, value);
}

int cz__cs_var_exists(const cz__cs *cs, cz__var v) {
    return cz__var_is_input(v) ? cz__var_index(v) < cs->ninput : cz__var_index(v) < cs->naux;
}

void cz__cs_value(cz_bls12381_fr *out, const cz__cs *cs, cz__var v) {
    if (!cs->values || !cz__cs_var_exists(cs, v) || (cs->compact && !cz__var_is_input(v)))
        cz_bls12381_fr_zero(out);
    else
        *out = cz__var_is_input(v) ? cs->input[cz__var_index(v)] : cs->aux[cz__var_index(v)];
}

/* Σ coeff·value over the non-zero coefficients, marking the variables in the densities given
 * (inputs in din, aux in daux; NULL: not tracked). */
static void cs_eval_track(cz_bls12381_fr *out, const cz__cs *cs, const cz__lc *lc, cz__cs_bits *din,
                          cz__cs_bits *daux) {
    cz_bls12381_fr acc, one, t;
    cz_bls12381_fr_zero(&acc);
    cz_bls12381_fr_one(&one);
    for (uint32_t i = 0; i < lc->n; i++) {
        const cz__lc_term *e = &lc->t[i];
        const uint32_t k = cz__var_index(e->var);
        cz__cs_bits *d = cz__var_is_input(e->var) ? din : daux;
        if (cz_bls12381_fr_is_zero(&e->coeff))
            continue;
        cz__cs_value(&t, cs, e->var);
        if (!cz_bls12381_fr_eq(&e->coeff, &one))
            cz_bls12381_fr_mul(&t, &t, &e->coeff);
        cz_bls12381_fr_add(&acc, &acc, &t);
        if (d != NULL)
            d->w[k / 64] |= UINT64_C(1) << (k % 64);
    }
    *out = acc;
}

void cz__cs_eval(cz_bls12381_fr *out, const cz__cs *cs, const cz__lc *lc) {
    cs_eval_track(out, cs, lc, NULL, NULL);
}

/* Whether every variable of lc exists; names the first one that does not. */
static int lc_check(cz__cs *cs, const cz__lc *lc, const char *which) {
    if (lc->failed)
        return cz__cs_fail(cs, CZ_ENOMEM, "row %zu: the %s combination is incomplete (memory)",
                           cs->nrows, which),
               0;
    for (uint32_t i = 0; i < lc->n; i++)
        if (!cz__cs_var_exists(cs, lc->t[i].var))
            return cz__cs_fail(cs, CZ_EINVAL, "row %zu: %s %s variable %u does not exist (%zu)",
                               cs->nrows, which, cz__var_is_input(lc->t[i].var) ? "input" : "aux",
                               cz__var_index(lc->t[i].var),
                               cz__var_is_input(lc->t[i].var) ? cs->ninput : cs->naux),
                   0;
    return 1;
}

/* PROVE: room for one more row's a, b, c (none after the input constraints). */
static int prove_row_room(cz__cs *cs) {
    if (cs->inputs_closed)
        return cz__cs_fail(cs, CZ_EINVAL, "enforce after the input constraints"), 0;
    return cz__cs_grow3(cs, (void **)&cs->a, (void **)&cs->b, (void **)&cs->c, &cs->abc_cap,
                        cs->nrows + 1, sizeof *cs->a, "a, b, c");
}

void cz__cs_enforce(cz__cs *cs, const cz__lc *a, const cz__lc *b, const cz__lc *c) {
    if (cs->err.code != CZ_OK)
        return;
    if (cs->nrows >= UINT32_MAX) {
        cz__cs_fail(cs, CZ_ERANGE, "more than 2^32 - 1 rows");
        return;
    }
    if (cs->mode == CZ__CS_WITNESS) {
        cs->nrows++;
        return;
    }
    if (!lc_check(cs, a, "A") || !lc_check(cs, b, "B") || !lc_check(cs, c, "C"))
        return;
    if (cs->mode == CZ__CS_RECORD) {
        cz__cs_record_row(cs, a, b, c);
        return;
    }
    if (!prove_row_room(cs))
        return;
    cs_eval_track(&cs->a[cs->nrows], cs, a, NULL, cs->densities ? &cs->a_aux : NULL);
    cs_eval_track(&cs->b[cs->nrows], cs, b, cs->densities ? &cs->b_input : NULL,
                  cs->densities ? &cs->b_aux : NULL);
    cs_eval_track(&cs->c[cs->nrows], cs, c, NULL, NULL);
    cs->nrows++;
}

/* small[v + SMALL_MAX] = v as a field element, made once. */
#define SMALL_MAX 4
static cz_bls12381_fr small[2 * SMALL_MAX + 1];
static pthread_once_t small_once = PTHREAD_ONCE_INIT;

static void small_init(void) {
    for (int v = -SMALL_MAX; v <= SMALL_MAX; v++) {
        cz_bls12381_fr_from_u64(&small[v + SMALL_MAX], (uint64_t)(v < 0 ? -v : v));
        if (v < 0)
            cz_bls12381_fr_neg(&small[v + SMALL_MAX], &small[v + SMALL_MAX]);
    }
}

void cz__cs_enforce_small_any(cz__cs *cs, int a, int b, int c) {
    if (cs->mode != CZ__CS_PROVE) { /* the values are not read */
        cz__cs_enforce_values(cs, NULL, NULL, NULL);
        return;
    }
    if (a < -SMALL_MAX || a > SMALL_MAX || b < -SMALL_MAX || b > SMALL_MAX || c < -SMALL_MAX ||
        c > SMALL_MAX) {
        cz__cs_fail(cs, CZ_EINVAL, "row %zu: a small value out of range", cs->nrows);
        return;
    }
    pthread_once(&small_once, small_init);
    cz__cs_enforce_values(cs, &small[a + SMALL_MAX], &small[b + SMALL_MAX], &small[c + SMALL_MAX]);
}

void cz__cs_enforce_values(cz__cs *cs, const cz_bls12381_fr *a, const cz_bls12381_fr *b,
                           const cz_bls12381_fr *c) {
    if (cs->err.code != CZ_OK)
        return;
    if (cz__cs_needs_lcs(cs)) {
        cz__cs_fail(cs, CZ_EINVAL, "row %zu: this system needs the row's combinations", cs->nrows);
        return;
    }
    if (cs->nrows >= UINT32_MAX) {
        cz__cs_fail(cs, CZ_ERANGE, "more than 2^32 - 1 rows");
        return;
    }
    if (cs->mode == CZ__CS_PROVE) {
        if (!prove_row_room(cs))
            return;
        cs->a[cs->nrows] = *a;
        cs->b[cs->nrows] = *b;
        cs->c[cs->nrows] = *c;
    }
    cs->nrows++;
}
