/*
 * Compact witnesses (cuzk/r1cs.h): booleans as bits, the other values in order, and their
 * expansion into w on the host, in blocks of variables, each block's first value found from the
 * popcounts of the blocks before it.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"

/* Variables per task of an expansion (a multiple of 64). */
#define EXPAND_BLOCK_VARS ((size_t)1 << 18)

/* Word i of cs->booleans, without the bits past nvars. */
static uint64_t bool_word(const cz_r1cs *cs, size_t i) {
    const size_t words = cz_r1cs_bool_words(cs->nvars);
    uint64_t w = cs->booleans[i];
    if (i == words - 1 && cs->nvars % 64 != 0)
        w &= (UINT64_C(1) << (cs->nvars % 64)) - 1;
    return w;
}

size_t cz_r1cs_vals_before(const cz_r1cs *cs, size_t v) {
    size_t nbool = 0;
    if (cs->booleans == NULL)
        return v;
    for (size_t i = 0; i < v / 64; i++)
        nbool += (size_t)__builtin_popcountll(cs->booleans[i]);
    if (v % 64 != 0)
        nbool +=
            (size_t)__builtin_popcountll(bool_word(cs, v / 64) & ((UINT64_C(1) << (v % 64)) - 1));
    return v - nbool;
}

uint32_t cz_r1cs_nvals(const cz_r1cs *cs) {
    return (uint32_t)cz_r1cs_vals_before(cs, cs->nvars);
}

typedef struct expand_job {
    uint64_t (*w)[4];
    const cz_r1cs *cs;
    const uint64_t *bits;
    const uint64_t (*vals)[4];
    const size_t *first; /* per block: the index in vals of its first value */
    uint64_t one[4], zero[4];
    size_t bad; /* the first variable whose bit is set though not a boolean; SIZE_MAX: none */
} expand_job;

static void expand_block(void *arg, size_t blk) {
    expand_job *j = arg;
    const cz_r1cs *cs = j->cs;
    const size_t v0 = blk * EXPAND_BLOCK_VARS;
    const size_t v1 = v0 + EXPAND_BLOCK_VARS < cs->nvars ? v0 + EXPAND_BLOCK_VARS : cs->nvars;
    size_t k = j->first[blk];
    for (size_t v = v0; v < v1; v += 64) {
        const uint64_t bw = bool_word(cs, v / 64), xw = j->bits[v / 64];
        const size_t n = v1 - v < 64 ? v1 - v : 64;
        const uint64_t stray = xw & ~bw & (n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1);
        if (stray != 0) {
            const size_t at = v + (size_t)__builtin_ctzll(stray);
            size_t seen = __atomic_load_n(&j->bad, __ATOMIC_RELAXED);
            while (at < seen && !__atomic_compare_exchange_n(&j->bad, &seen, at, 0,
                                                             __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                ;
        }
        for (size_t b = 0; b < n; b++) {
            if ((bw >> b) & 1u)
                memcpy(j->w[v + b], ((xw >> b) & 1u) ? j->one : j->zero, 32);
            else
                memcpy(j->w[v + b], j->vals[k++], 32);
        }
    }
}

int cz_r1cs_witness_expand(uint64_t (*w)[4], const cz_r1cs *cs, const uint64_t *bits,
                           const uint64_t (*vals)[4], cz_threadpool *pool, cz_errinfo *ei) {
    const size_t nblocks = ((size_t)cs->nvars + EXPAND_BLOCK_VARS - 1) / EXPAND_BLOCK_VARS;
    expand_job j;
    size_t *first, k = 0;
    if (cs->booleans == NULL)
        return cz_fail(ei, CZ_EINVAL, "r1cs: a compact witness needs the system's booleans");
    if (w == NULL || bits == NULL || (vals == NULL && cz_r1cs_nvals(cs) != 0))
        return cz_fail(ei, CZ_EINVAL, "r1cs: expand: no %s",
                       w == NULL      ? "output"
                       : bits == NULL ? "bits"
                                      : "values");
    for (uint32_t v = 0; v <= cs->npublic && v < cs->nvars; v++)
        if ((cs->booleans[v / 64] >> (v % 64)) & 1u)
            return cz_fail(ei, CZ_EINVAL, "r1cs: variable %u is an input but marked boolean", v);
    if ((first = malloc((nblocks ? nblocks : 1) * sizeof *first)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "r1cs: expand: %zu blocks", nblocks);
    for (size_t b = 0; b < nblocks; b++) {
        const size_t v0 = b * EXPAND_BLOCK_VARS;
        const size_t v1 = v0 + EXPAND_BLOCK_VARS < cs->nvars ? v0 + EXPAND_BLOCK_VARS : cs->nvars;
        first[b] = k;
        for (size_t v = v0; v < v1; v += 64) {
            const size_t n = v1 - v < 64 ? v1 - v : 64;
            k += n - (size_t)__builtin_popcountll(
                         bool_word(cs, v / 64) & (n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1));
        }
    }
    memset(&j, 0, sizeof j);
    j.w = w;
    j.cs = cs;
    j.bits = bits;
    j.vals = vals;
    j.first = first;
    j.bad = SIZE_MAX;
    cz_r1cs_fr_from_u64(j.one, cs->curve, 1);
    cz_r1cs_fr_from_u64(j.zero, cs->curve, 0);
    cz_threadpool_run(pool, expand_block, &j, nblocks);
    free(first);
    if (j.bad != SIZE_MAX)
        return cz_fail(ei, CZ_EFORMAT,
                       "r1cs: compact witness: the bit of variable %zu is set, but it is not a "
                       "boolean",
                       j.bad);
    return CZ_OK;
}
