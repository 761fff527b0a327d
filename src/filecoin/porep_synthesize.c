/*
 * The synthesis of one PoRep partition (porep_prove.h: cz__porep_synthesize and its compact form)
 * in chunks (synth_chunks.h): the top, then a chunk per challenge.
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep_prove.h"
#include "filecoin/synth_chunks.h"

typedef struct porep_chunks {
    const cz__porep_loaded *ld;
    const cz__porep_partition *p;
    const cz__porep_challenge *w;
    cz__porep_top top;
} porep_chunks;

static void porep_top(cz__cs *cs, void *ctx) {
    porep_chunks *pc = ctx;
    cz__porep_circuit_top(cs, &pc->ld->shape, pc->p, &pc->top);
}

static void porep_challenge(cz__cs *cs, void *ctx, size_t i) {
    const porep_chunks *pc = ctx;
    cz__porep_circuit_challenge(cs, &pc->ld->shape, &pc->w[i], &pc->top);
}

/* Partition k in full (bits NULL) or compact, as the two entry points take it. */
static int synthesize(uint64_t (*out)[4], uint64_t (*a)[4], uint64_t (*b)[4], uint64_t (*c)[4],
                      uint64_t *bits, const cz__porep_loaded *ld, unsigned k, const cz_r1cs *r,
                      cz_threadpool *pool, cz_errinfo *ei) {
    cz__porep_challenge *w = calloc(ld->c1.per ? ld->c1.per : 1, sizeof *w);
    cz__porep_partition p;
    porep_chunks pc;
    cz__synth_chunks sc = {"porep", ld->c1.per, &pc, porep_top, porep_challenge};
    int rc;
    if (w == NULL)
        return cz_fail(ei, CZ_ENOMEM, "porep: %u challenges", ld->c1.per);
    memset(&pc, 0, sizeof pc);
    pc.ld = ld;
    pc.p = &p;
    pc.w = w;
    cz__porep_vanilla_witness(&p, w, &ld->c1, k);
    rc = cz__synth_chunks_run(out, a, b, c, bits, &sc, k, r, pool, ei);
    free(w);
    return rc;
}

int cz__porep_synthesize(uint64_t (*out)[4], uint64_t (*a)[4], uint64_t (*b)[4], uint64_t (*c)[4],
                         const cz__porep_loaded *ld, unsigned k, const cz_r1cs *r,
                         cz_threadpool *pool, cz_errinfo *ei) {
    return synthesize(out, a, b, c, NULL, ld, k, r, pool, ei);
}

int cz__porep_synthesize_compact(uint64_t *bits, uint64_t (*vals)[4], const cz__porep_loaded *ld,
                                 unsigned k, const cz_r1cs *r, cz_threadpool *pool,
                                 cz_errinfo *ei) {
    return synthesize(vals, NULL, NULL, NULL, bits, ld, k, r, pool, ei);
}
