/*
 * The synthesis of one partition of a recorded circuit in chunks, for circuits made of a top and
 * n alike chunks (PoRep's and SnapDeals' challenges): the top on the calling thread, then a task
 * per chunk on the pool, each in a system of its own (WITNESS, or PROVE without densities, whose
 * gadgets read values, never the variables behind them, so a chunk may use the top's) whose aux
 * and rows land where the whole circuit has them (after the top's and the chunks' before it) and
 * whose inputs are copied after theirs. The recording's counts past the top must split into n
 * equal shares and each chunk must synthesize exactly its share: CZ_EINTERNAL naming the circuit,
 * the partition and the chunk otherwise.
 */
#ifndef CUZK_FILECOIN_SYNTH_CHUNKS_H
#define CUZK_FILECOIN_SYNTH_CHUNKS_H

#include "cs/cs.h"
#include "cuzk/r1cs.h"
#include "cuzk/threadpool.h"

typedef struct cz__synth_chunks {
    const char *name; /* the circuit, for messages ("porep") */
    size_t nchunks;   /* at least 1 */
    void *ctx;
    void (*top)(cz__cs *cs, void *ctx);             /* the top into cs */
    void (*chunk)(cz__cs *cs, void *ctx, size_t i); /* chunk i into cs, after the top (threads) */
} cz__synth_chunks;

/* Partition k (for messages) of sc in the variable order of r. bits NULL: out[0..r->nvars) the
 * witness in Montgomery limbs (input i at i, aux j at ninput + j); with a, b, c (all or none;
 * r->nrows + ninput entries each) each row's evaluations and bellperson's input constraints after
 * them. bits given (a, b, c NULL): the same witness compact (cuzk/r1cs.h; r->booleans required),
 * bits cz_r1cs_bool_words(nvars) words, cleared here first, and out the cz_r1cs_nvals(r) values,
 * the inputs first; each chunk writes its own range of both, and CZ_EINTERNAL too when a chunk's
 * values or bits are not where the recording's booleans put them. */
int cz__synth_chunks_run(uint64_t (*out)[4], uint64_t (*a)[4], uint64_t (*b)[4], uint64_t (*c)[4],
                         uint64_t *bits, const cz__synth_chunks *sc, unsigned k, const cz_r1cs *r,
                         cz_threadpool *pool, cz_errinfo *ei);

#endif
