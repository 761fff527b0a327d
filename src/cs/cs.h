/*
 * Synthesis with bellpepper's semantics: the constraint system the Filecoin circuits are written
 * against (bellpepper-core's ConstraintSystem and LinearCombination, bellperson's
 * ProvingAssignment), over BLS12-381's Fr.
 *
 * Variables. Inputs and aux are two index spaces, each numbered in allocation order; input 0 is
 * ONE, allocated by cz__cs_init. A cz__var holds the space in bit 31 and the index below it.
 *
 * Linear combinations (cz__lc) merge on insertion: adding a term for a variable that is there
 * already adds the coefficients, and an entry whose sum is 0 stays in the combination but counts
 * for nothing, neither in a value nor in a density (bellperson evaluates through
 * eval_with_trackers, which skips zero coefficients). An LC is sorted by cz__var and remembers
 * the last position it wrote, so the common append of consecutive variables costs no search
 * (bellpepper's Indexer does the same). It owns its terms (heap); a failed allocation marks it
 * failed, and an enforce that uses it fails the system.
 *
 * Modes, over one gadget code:
 *   CZ__CS_RECORD   the structure: each enforce appends its three rows (the terms with non-zero
 *                   coefficients, coefficients interned in one table) to growing CSR matrices;
 *                   values are kept too when CZ__CS_VALUES is set;
 *   CZ__CS_WITNESS  values only: enforce counts the row and does nothing else; with
 *                   cz__cs_use_compact the aux values go out compact (booleans as bits, the
 *                   others in order: cuzk/r1cs.h's compact witness);
 *   CZ__CS_PROVE    bellperson's ProvingAssignment: values, a/b/c of each row evaluated as it is
 *                   enforced, and the three densities (unless CZ__CS_NO_DENSITY: a circuit
 *                   whose densities are known from its recording).
 *
 * Results. cz__cs_to_r1cs (RECORD) gives the system in cuzk/r1cs.h's variable order (input i is
 * variable i, aux j is variable ninput + j: the remap happens at the end, because inputs are
 * allocated in the middle of a circuit), with its witness when values were kept; the input
 * constraints (input_i · 0 = 0) are not rows there: cz_r1cs_eval (CZ_R1CS_EVAL_INPUT_ROWS) and
 * cz_r1cs_assignment_make add them as bellperson's prover does. cz__cs_assignment (PROVE)
 * appends them and gives the proving assignment. cz__cs_extend appends a system synthesized on
 * its own (its input 0 is its own ONE, which becomes the target's), as bellperson's extend does
 * for chunks synthesized in parallel.
 *
 * Booleans. A variable allocated with cz__cs_alloc_bit is boolean by construction (its value is
 * 0 or 1 in every witness, whatever the inputs): RECORD remembers which aux variables are, and
 * the cz_r1cs it gives carries them (cz_r1cs.booleans), the layout of the compact witness. The
 * gadgets allocate every bit they make this way.
 *
 * Errors are sticky: the first failure (memory, a variable that does not exist, a mode that
 * cannot do what is asked) is kept with its message in the system, every later call does
 * nothing, and cz__cs_status reports it. So gadget code needs no error path of its own.
 */
#ifndef CUZK_CS_CS_H
#define CUZK_CS_CS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/assignment.h"
#include "cuzk/err.h"
#include "cuzk/field.h"
#include "cuzk/r1cs.h"

typedef uint32_t cz__var;
#define CZ__VAR_INPUT 0x80000000u
#define CZ__VAR_ONE   CZ__VAR_INPUT /* input 0 */

static inline cz__var cz__var_input(uint32_t i) {
    return CZ__VAR_INPUT | i;
}
static inline cz__var cz__var_aux(uint32_t j) {
    return j;
}
static inline int cz__var_is_input(cz__var v) {
    return (v & CZ__VAR_INPUT) != 0;
}
static inline uint32_t cz__var_index(cz__var v) {
    return v & ~CZ__VAR_INPUT;
}

typedef struct cz__lc_term {
    cz_bls12381_fr coeff;
    cz__var var;
} cz__lc_term;

typedef struct cz__lc {
    cz__lc_term *t; /* n terms sorted by var, distinct vars */
    uint32_t n, cap;
    uint32_t last; /* position of the last term written (the append fast path) */
    int failed;    /* an allocation failed: the LC is incomplete */
} cz__lc;

/* An empty LC (no allocation). */
void cz__lc_init(cz__lc *lc);
void cz__lc_free(cz__lc *lc);
/* Empties lc, keeping its memory. */
void cz__lc_clear(cz__lc *lc);
/* lc += coeff·v (coeff NULL: 1), merged. */
void cz__lc_add(cz__lc *lc, cz__var v, const cz_bls12381_fr *coeff);
/* lc -= coeff·v (coeff NULL: 1). */
void cz__lc_sub(cz__lc *lc, cz__var v, const cz_bls12381_fr *coeff);
/* lc += c·v for a small integer c (negative: r - |c|). */
void cz__lc_add_i64(cz__lc *lc, cz__var v, int64_t c);
/* lc += scale·other (scale NULL: 1), term by term, merged; other may not be lc. */
void cz__lc_add_lc(cz__lc *lc, const cz__lc *other, const cz_bls12381_fr *scale);
/* lc -= scale·other (scale NULL: 1). */
void cz__lc_sub_lc(cz__lc *lc, const cz__lc *other, const cz_bls12381_fr *scale);
/* lc = a copy of other. */
void cz__lc_copy(cz__lc *lc, const cz__lc *other);

typedef enum { CZ__CS_RECORD, CZ__CS_WITNESS, CZ__CS_PROVE } cz__cs_mode;
enum {
    CZ__CS_VALUES = 1,    /* RECORD: keep the values too */
    CZ__CS_NO_DENSITY = 2 /* PROVE: no densities (the assignment's are NULL) */
};

/* A growing CSR matrix of the recorded rows (terms keep their cz__var until the remap). */
typedef struct cz__cs_mat {
    uint64_t *row_ptr; /* nrows + 1 */
    cz__var *var;
    uint32_t *coef;
    uint64_t nnz, cap;
} cz__cs_mat;

/* A bit per variable, growing with the allocations. */
typedef struct cz__cs_bits {
    uint64_t *w;
    size_t nwords;
} cz__cs_bits;

typedef struct cz__cs {
    cz__cs_mode mode;
    int values; /* values are kept (WITNESS, PROVE, RECORD with CZ__CS_VALUES) */
    cz_errinfo err;
    size_t ninput, naux, nrows;
    cz_bls12381_fr *input, *aux; /* values, when kept */
    size_t input_cap, aux_cap;
    /* RECORD */
    cz__cs_mat m[3];
    size_t rows_cap;
    uint64_t (*coefs)[4]; /* interned coefficients, Montgomery form */
    uint32_t ncoefs, coefs_cap;
    uint32_t *slots; /* open-addressing table of coefficient index + 1 */
    uint32_t nslots;
    /* PROVE */
    cz_bls12381_fr *a, *b, *c;
    size_t abc_cap;
    cz__cs_bits a_aux, b_input, b_aux;
    int inputs_closed; /* PROVE: the input constraints were appended */
    int densities;     /* PROVE without CZ__CS_NO_DENSITY */
    int external;      /* aux (and a, b, c) are the caller's (cz__cs_use_buffers) */
    /* RECORD: the aux variables allocated as booleans (cz__cs_alloc_bit) */
    cz__cs_bits aux_bool;
    /* WITNESS with cz__cs_use_compact: the caller's bit array, the bit of aux 0 there and the
     * bits [cbit_at, cbit_at + aux_cap) the system writes; the non-boolean values, nvals of
     * cvals_cap so far */
    int compact;
    uint64_t *cbits;
    size_t cbit_at;
    size_t cword_lo, cword_hi; /* the first and last word of the range: maybe shared */
    cz_bls12381_fr *cvals;
    size_t nvals, cvals_cap;
} cz__cs;

/* A system in mode with ONE allocated (value 1). flags: CZ__CS_VALUES. CZ_ENOMEM, CZ_EINVAL. */
int cz__cs_init(cz__cs *cs, cz__cs_mode mode, unsigned flags, cz_errinfo *ei);
void cz__cs_free(cz__cs *cs);
/* Makes a fresh WITNESS or PROVE system put its aux values into aux (aux_cap entries) and, PROVE,
 * its rows' a, b, c into a, b, c (abc_cap entries each; NULL in WITNESS): memory of the caller's,
 * where the values are wanted, never grown or freed by the system; more aux or rows than the
 * capacity is the system's error (CZ_ERANGE). CZ_EINVAL for a system in use or another mode. */
int cz__cs_use_buffers(cz__cs *cs, cz_bls12381_fr *aux, size_t aux_cap, cz_bls12381_fr *a,
                       cz_bls12381_fr *b, cz_bls12381_fr *c, size_t abc_cap, cz_errinfo *ei);
/* Makes a fresh WITNESS system write its aux values compact, into memory of the caller's: aux
 * j allocated by cz__cs_alloc_bit sets bit bit_at + j of bits when its value is 1 (the caller
 * clears the bits first; a bit of 0 and the other aux variables write nothing there), and the
 * other aux variables' values go to vals in allocation order. At most aux_cap aux variables and
 * vals_cap values (CZ_ERANGE, the system's error); cs->nvals counts the values. The system writes
 * only the bits [bit_at, bit_at + aux_cap), those of a 64-bit word it shares with another range
 * atomically, so systems of adjacent ranges may fill one array from several threads. Inputs are
 * kept as in any WITNESS system; cz__cs_value of an aux variable gives 0. CZ_EINVAL for a system
 * in use or of another mode. */
int cz__cs_use_compact(cz__cs *cs, uint64_t *bits, size_t bit_at, size_t aux_cap,
                       cz_bls12381_fr *vals, size_t vals_cap, cz_errinfo *ei);
/* CZ_OK, or the system's first error (its message copied into ei). */
int cz__cs_status(const cz__cs *cs, cz_errinfo *ei);
/* Records the system's first error ("cs: " and the message; later ones are dropped) and returns
 * its code: how gadgets report what cannot be synthesized. */
int cz__cs_fail(cz__cs *cs, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Whether the system keeps values (gadgets may skip computing them when it does not). */
static inline int cz__cs_has_values(const cz__cs *cs) {
    return cs->values;
}

/* Whether the system needs the rows' linear combinations (RECORD: the matrices; PROVE with
 * densities: the variables they touch). Otherwise (WITNESS, PROVE with CZ__CS_NO_DENSITY) a gadget
 * that knows the values of a row's three combinations may skip building them and call
 * cz__cs_enforce_values. */
static inline int cz__cs_needs_lcs(const cz__cs *cs) {
    return cs->mode == CZ__CS_RECORD || (cs->mode == CZ__CS_PROVE && cs->densities);
}

/* A new aux variable (value NULL: 0); a new input variable. */
cz__var cz__cs_alloc(cz__cs *cs, const cz_bls12381_fr *value);
cz__var cz__cs_alloc_input(cz__cs *cs, const cz_bls12381_fr *value);
/* A new aux variable of value v (0 or 1: v != 0) that is boolean by construction (see
 * Booleans). Inline for a compact system, where it is most of the synthesis's work. */
cz__var cz__cs_alloc_bit_any(cz__cs *cs, int v);
/* Compact: bits m into word w of the caller's array, atomically where a neighbour's range shares
 * the word. */
static inline void cz__cs_compact_or(cz__cs *cs, size_t w, uint64_t m) {
    if (m == 0)
        return;
    if (w == cs->cword_lo || w == cs->cword_hi)
        __atomic_fetch_or(&cs->cbits[w], m, __ATOMIC_RELAXED);
    else
        cs->cbits[w] |= m;
}
static inline cz__var cz__cs_alloc_bit(cz__cs *cs, int v) {
    if (cs->compact && cs->err.code == CZ_OK && cs->naux < cs->aux_cap) {
        const size_t g = cs->cbit_at + cs->naux;
        cz__cs_compact_or(cs, g / 64, (uint64_t)(v != 0) << (g % 64));
        return cz__var_aux((uint32_t)cs->naux++);
    }
    return cz__cs_alloc_bit_any(cs, v);
}
/* n ≤ 64 new aux variables in a row, booleans of values the bits of v (least significant
 * first); the first of them. The word-wide gadgets' way in WITNESS mode. */
cz__var cz__cs_alloc_bits(cz__cs *cs, uint64_t v, unsigned n);
/* The value of v (0 when values are not kept, v does not exist, or v is aux of a compact
 * system). */
void cz__cs_value(cz_bls12381_fr *out, const cz__cs *cs, cz__var v);
/* The value of lc: Σ coeff·value over its non-zero coefficients. */
void cz__cs_eval(cz_bls12381_fr *out, const cz__cs *cs, const cz__lc *lc);

/* Adds the constraint a · b = c. */
void cz__cs_enforce(cz__cs *cs, const cz__lc *a, const cz__lc *b, const cz__lc *c);
/* Adds a row by the values of its combinations (the caller's: what cz__cs_eval of each would
 * give), for a system that does not need them (cz__cs_needs_lcs false): WITNESS counts the row
 * (a, b, c are not read and may be NULL), PROVE stores a, b, c. CZ_EINVAL (sticky) in a system
 * that needs the combinations. */
void cz__cs_enforce_values(cz__cs *cs, const cz_bls12381_fr *a, const cz_bls12381_fr *b,
                           const cz_bls12381_fr *c);

/* WITNESS: n more rows, counted (their values are not needed); CZ_EINVAL (sticky) in another
 * mode. */
void cz__cs_count_rows(cz__cs *cs, size_t n);

/* cz__cs_enforce_values of three small integers (|v| ≤ 4): the rows of the bit gadgets, whose
 * combinations' values are sums of a few bits. WITNESS counts the row without building them
 * (inline). */
void cz__cs_enforce_small_any(cz__cs *cs, int a, int b, int c);
static inline void cz__cs_enforce_small(cz__cs *cs, int a, int b, int c) {
    if (cs->mode == CZ__CS_WITNESS && cs->err.code == CZ_OK && cs->nrows < UINT32_MAX)
        cs->nrows++;
    else
        cz__cs_enforce_small_any(cs, a, b, c);
}

/* Appends src (same mode; synthesized on its own, its input 0 its own ONE) to dst: src's aux
 * follow dst's, its inputs 1.. follow dst's, its rows follow dst's. CZ_EINVAL on a mode mismatch
 * or an errored src; dst takes the error. */
int cz__cs_extend(cz__cs *dst, const cz__cs *src, cz_errinfo *ei);

/* RECORD: the system as a cz_r1cs over BLS12-381 (npublic = ninput - 1), variables remapped, the
 * witness w filled when values were kept (else w[0] = 1, the rest 0), its booleans. out is the
 * caller's to free (cz_r1cs_free). CZ_EINVAL in another mode, CZ_ENOMEM, or the system's error. */
int cz__cs_to_r1cs(cz_r1cs *out, const cz__cs *cs, cz_errinfo *ei);

/* Where a RECORD system stands: its rows, inputs (ONE included), aux and terms per matrix. */
typedef struct cz__cs_mark {
    size_t nrows, ninput, naux;
    uint64_t nnz[3];
} cz__cs_mark;
void cz__cs_mark_get(cz__cs_mark *out, const cz__cs *cs);

/* Prefix aux variables that each copy of a body reads in a place of its own (SnapDeals: a
 * challenge's bits, all generated in the prefix): where the recorded body (copy 0) reads prefix
 * aux from[k], copy c reads to[c·n + k] (aux indices, as cz__var_index gives them). */
typedef struct cz__cs_copy_vars {
    const uint32_t *from, *to;
    size_t n;
} cz__cs_copy_vars;

/* RECORD, a circuit made of a prefix and copies of one body whose shape does not depend on which
 * copy it is (PoRep's and SnapDeals' challenges): cs holds the prefix (up to the mark, NULL:
 * empty) and the body once; out is the prefix followed by copies bodies, as recording them all
 * would give it: each copy's own inputs, aux and rows after the previous copy's, its terms on the
 * prefix's variables unchanged but for those of vars (NULL: none). A task per copy on pool (NULL:
 * this thread). CZ_EINVAL for a mark beyond cs, no copy, copies > 1 of a system that keeps
 * values, or vars naming an aux outside the prefix or one twice; CZ_ERANGE, CZ_ENOMEM, the
 * system's error. */
int cz__cs_to_r1cs_repeat(cz_r1cs *out, const cz__cs *cs, const cz__cs_mark *prefix, size_t copies,
                          const cz__cs_copy_vars *vars, cz_threadpool *pool, cz_errinfo *ei);

/* Puts the values of a WITNESS (or PROVE) system into the witness of shape, the cz_r1cs of a
 * recording of the same circuit (the same inputs, aux and rows): the witness-only synthesis of a
 * circuit whose matrices were recorded once. CZ_EFORMAT naming the count that differs,
 * CZ_EINVAL for a system without values, or the system's error. */
int cz__cs_values_to_r1cs(cz_r1cs *shape, const cz__cs *witness, cz_errinfo *ei);

/* The shape of a RECORD system: rows (the input constraints not counted), inputs (ONE
 * included), aux, terms per matrix, and the densities as counts: aux variables in A, inputs and
 * aux variables in B (a variable counts once a term of it has a non-zero coefficient). */
typedef struct cz__cs_info {
    size_t nrows, ninput, naux;
    uint64_t nnz[3];
    size_t a_aux, b_input, b_aux;
    size_t booleans; /* aux variables allocated as booleans (cz__cs_alloc_bit) */
} cz__cs_info;

/* CZ_EINVAL in another mode, CZ_ENOMEM, or the system's error. */
int cz__cs_info_get(cz__cs_info *out, const cz__cs *cs, cz_errinfo *ei);

/* PROVE: appends the input constraints (once) and points out at the system's arrays (a, b, c,
 * input, aux, densities: NULL with CZ__CS_NO_DENSITY): a view, valid while cs lives and nothing
 * more is allocated. */
int cz__cs_assignment(cz_assignment *out, cz__cs *cs, cz_errinfo *ei);

#endif
