/*
 * A partition synthesized in chunks (synth_chunks.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/synth_chunks.h"

typedef cz_bls12381_fr fr;

/* A partition's synthesis: where it writes, and the counts of the top and of each chunk. */
typedef struct synth_job {
    uint64_t (*out)[4];    /* the witness, or a compact one's values */
    uint64_t (*abc[3])[4]; /* NULL: the witness alone */
    uint64_t *bits;        /* a compact witness's bits; NULL: a witness in full */
    const cz_r1cs *r;      /* the recording (its booleans) */
    const cz__synth_chunks *sc;
    unsigned k;
    size_t ninput, top_aux, top_in, top_rows, per_aux, per_in, per_rows;
    pthread_mutex_t lock;
    int rc;
    cz_errinfo ei;
} synth_job;

/* A fresh system for a chunk whose aux start at aux_at and rows at rows_at. */
static int chunk_init(cz__cs *cs, const synth_job *sj, size_t aux_at, size_t naux, size_t rows_at,
                      size_t nrows, cz_errinfo *ei) {
    int rc = sj->abc[0] != NULL ? cz__cs_init(cs, CZ__CS_PROVE, CZ__CS_NO_DENSITY, ei)
                                : cz__cs_init(cs, CZ__CS_WITNESS, 0, ei);
    if (rc != CZ_OK)
        return rc;
    if (sj->bits != NULL) {
        const size_t g0 = sj->ninput + aux_at, v0 = cz_r1cs_vals_before(sj->r, g0);
        rc = cz__cs_use_compact(cs, sj->bits, g0, naux, (fr *)(sj->out + v0),
                                cz_r1cs_vals_before(sj->r, g0 + naux) - v0, ei);
    } else {
        rc = cz__cs_use_buffers(cs, (fr *)(sj->out + sj->ninput + aux_at), naux,
                                sj->abc[0] ? (fr *)(sj->abc[0] + rows_at) : NULL,
                                sj->abc[1] ? (fr *)(sj->abc[1] + rows_at) : NULL,
                                sj->abc[2] ? (fr *)(sj->abc[2] + rows_at) : NULL, nrows, ei);
    }
    if (rc != CZ_OK)
        cz__cs_free(cs);
    return rc;
}

/* A compact chunk filled its share of the values (the recording's booleans in its range are the
 * ones it allocated as bits, by count). */
static int vals_check(const cz__cs *cs, const synth_job *sj, size_t i, cz_errinfo *ei) {
    if (!cs->compact || cs->nvals == cs->cvals_cap)
        return CZ_OK;
    return cz_fail(ei, CZ_EINTERNAL,
                   "%s: partition %u: chunk %zu synthesized %zu values that are not bits, the "
                   "recording %zu",
                   sj->sc->name, sj->k, i, cs->nvals, cs->cvals_cap);
}

static void synth_chunk(void *arg, size_t i) {
    synth_job *sj = arg;
    cz__cs cs;
    cz_errinfo ei;
    int rc;
    cz_errinfo_clear(&ei);
    if ((rc = chunk_init(&cs, sj, sj->top_aux + i * sj->per_aux, sj->per_aux,
                         sj->top_rows + i * sj->per_rows, sj->per_rows, &ei)) == CZ_OK) {
        sj->sc->chunk(&cs, sj->sc->ctx, i);
        if ((rc = cz__cs_status(&cs, &ei)) == CZ_OK &&
            (cs.naux != sj->per_aux || cs.ninput != 1 + sj->per_in || cs.nrows != sj->per_rows))
            rc = cz_fail(&ei, CZ_EINTERNAL,
                         "%s: partition %u: chunk %zu synthesized %zu aux, %zu inputs and %zu "
                         "rows, the recording %zu, %zu and %zu",
                         sj->sc->name, sj->k, i, cs.naux, cs.ninput - 1, cs.nrows, sj->per_aux,
                         sj->per_in, sj->per_rows);
        if (rc == CZ_OK)
            rc = vals_check(&cs, sj, i, &ei);
        if (rc == CZ_OK)
            memcpy(sj->out + 1 + sj->top_in + i * sj->per_in, cs.input + 1,
                   sj->per_in * sizeof *sj->out);
        cz__cs_free(&cs);
    }
    if (rc != CZ_OK) {
        pthread_mutex_lock(&sj->lock);
        if (sj->rc == CZ_OK) {
            sj->rc = rc;
            sj->ei = ei;
        }
        pthread_mutex_unlock(&sj->lock);
    }
}

/* The top, on this thread: its counts into sj, and the chunks' shares of the recording. */
static int synth_top(synth_job *sj, cz_errinfo *ei) {
    const cz_r1cs *r = sj->r;
    const size_t n = sj->sc->nchunks;
    cz__cs cs;
    int rc;
    if ((rc = chunk_init(&cs, sj, 0, r->naux, 0, r->nrows, ei)) != CZ_OK)
        return rc;
    sj->sc->top(&cs, sj->sc->ctx);
    if ((rc = cz__cs_status(&cs, ei)) == CZ_OK) {
        sj->top_aux = cs.naux;
        sj->top_in = cs.ninput - 1;
        sj->top_rows = cs.nrows;
        memcpy(sj->out, cs.input, cs.ninput * sizeof *sj->out); /* ONE and the top's inputs */
        if (n == 0 || (r->naux - sj->top_aux) % n != 0 || (r->npublic - sj->top_in) % n != 0 ||
            (r->nrows - sj->top_rows) % n != 0)
            rc = cz_fail(ei, CZ_EINTERNAL,
                         "%s: partition %u: the recording's counts past the top are not %zu "
                         "equal chunks",
                         sj->sc->name, sj->k, n);
        if (rc == CZ_OK && cs.compact &&
            cs.nvals != cz_r1cs_vals_before(r, sj->ninput + sj->top_aux) - sj->ninput)
            rc = cz_fail(ei, CZ_EINTERNAL,
                         "%s: partition %u: the top synthesized %zu values that are not bits, "
                         "the recording %zu",
                         sj->sc->name, sj->k, cs.nvals,
                         cz_r1cs_vals_before(r, sj->ninput + sj->top_aux) - sj->ninput);
        if (rc == CZ_OK) {
            sj->per_aux = (r->naux - sj->top_aux) / n;
            sj->per_in = (r->npublic - sj->top_in) / n;
            sj->per_rows = (r->nrows - sj->top_rows) / n;
        }
    }
    cz__cs_free(&cs);
    return rc;
}

/* The top, then the chunks on pool, into sj's buffers (out, abc or bits set by the caller). */
static int synthesize(synth_job *sj, const cz__synth_chunks *sc, unsigned k, const cz_r1cs *r,
                      cz_threadpool *pool, cz_errinfo *ei) {
    int rc;
    sj->sc = sc;
    sj->k = k;
    sj->r = r;
    sj->ninput = (size_t)r->npublic + 1;
    if ((rc = synth_top(sj, ei)) == CZ_OK) {
        pthread_mutex_init(&sj->lock, NULL);
        cz_threadpool_run(pool, synth_chunk, sj, sc->nchunks);
        pthread_mutex_destroy(&sj->lock);
        if ((rc = sj->rc) != CZ_OK && ei != NULL)
            *ei = sj->ei;
    }
    return rc;
}

/* The witness compact: bits cleared first, vals the values that are not bits. */
static int compact(uint64_t *bits, uint64_t (*vals)[4], const cz__synth_chunks *sc, unsigned k,
                   const cz_r1cs *r, cz_threadpool *pool, cz_errinfo *ei) {
    const size_t words = cz_r1cs_bool_words(r->nvars);
    synth_job sj;
    int rc;
    if (r->booleans == NULL)
        return cz_fail(ei, CZ_EINVAL, "%s: a compact witness needs the recording's booleans",
                       sc->name);
    memset(bits, 0, words * sizeof *bits);
    memset(&sj, 0, sizeof sj);
    sj.out = vals;
    sj.bits = bits;
    if ((rc = synthesize(&sj, sc, k, r, pool, ei)) != CZ_OK)
        return rc;
    for (size_t i = 0; i < words; i++) /* a bit where the recording has no boolean */
        if ((bits[i] & ~r->booleans[i]) != 0)
            return cz_fail(ei, CZ_EINTERNAL,
                           "%s: partition %u: variable %zu was synthesized as a bit, the "
                           "recording has a value there",
                           sc->name, k,
                           i * 64 + (size_t)__builtin_ctzll(bits[i] & ~r->booleans[i]));
    return CZ_OK;
}

int cz__synth_chunks_run(uint64_t (*out)[4], uint64_t (*a)[4], uint64_t (*b)[4], uint64_t (*c)[4],
                         uint64_t *bits, const cz__synth_chunks *sc, unsigned k, const cz_r1cs *r,
                         cz_threadpool *pool, cz_errinfo *ei) {
    synth_job sj;
    int rc;
    if ((a == NULL) != (b == NULL) || (a == NULL) != (c == NULL) || (bits != NULL && a != NULL))
        return cz_fail(ei, CZ_EINVAL,
                       "%s: a, b and c, or none of them (none with a compact witness)", sc->name);
    if (bits != NULL)
        return compact(bits, out, sc, k, r, pool, ei);
    memset(&sj, 0, sizeof sj);
    sj.out = out;
    sj.abc[0] = a;
    sj.abc[1] = b;
    sj.abc[2] = c;
    rc = synthesize(&sj, sc, k, r, pool, ei);
    if (rc == CZ_OK && a != NULL) /* bellperson's input constraints: input_i · 0 = 0 */
        for (size_t i = 0; i < sj.ninput; i++) {
            memcpy(a[r->nrows + i], out[i], sizeof *a);
            memset(b[r->nrows + i], 0, sizeof *b);
            memset(c[r->nrows + i], 0, sizeof *c);
        }
    return rc;
}
