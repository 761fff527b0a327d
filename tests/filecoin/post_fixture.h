/*
 * Real 2 KiB PoSt sectors for the tests of tests/filecoin/: a tree R of 64 leaves (arity 8, two
 * levels) built with the native Poseidon (whose constants and digests tests/gadgets/
 * test_poseidon.c checks against supra_seal and neptune), comm_c, comm_r = Poseidon-2(comm_c,
 * comm_r_last), and challenged leaves with their paths.
 */
#ifndef CUZK_TESTS_FILECOIN_POST_FIXTURE_H
#define CUZK_TESTS_FILECOIN_POST_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "filecoin/post_circuit.h"
#include "filecoin/post_vanilla.h"
#include "gadgets/poseidon.h"

#define PF_MAX_CHALLENGES 16

typedef struct {
    cz_bls12381_fr leaf[64], mid[8];
    cz_bls12381_fr sib[PF_MAX_CHALLENGES][2][7], leaves[PF_MAX_CHALLENGES];
    cz__path_level lv[PF_MAX_CHALLENGES][2];
    unsigned index[PF_MAX_CHALLENGES];
    cz__post_sector s;
} pf_sector;

static inline void pf_hash2(cz_bls12381_fr *out, uint64_t a, uint64_t b) {
    const cz__poseidon *p2;
    cz_bls12381_fr tag, two[2];
    cz__poseidon_get(&p2, 2, NULL);
    cz__poseidon_tag_merkle(&tag, 2);
    cz_bls12381_fr_from_u64(&two[0], a);
    cz_bls12381_fr_from_u64(&two[1], b);
    cz__poseidon_hash(out, p2, &tag, two);
}

/* Sector seed with challenges at index[0..n) (each below 64). */
static inline void pf_sector_make(pf_sector *x, unsigned seed, const unsigned *index, unsigned n) {
    const cz__poseidon *p8, *p2;
    cz_bls12381_fr tag, two[2];
    memset(x, 0, sizeof *x);
    cz__poseidon_get(&p8, 8, NULL);
    cz__poseidon_get(&p2, 2, NULL);
    for (unsigned i = 0; i < 64; i++)
        pf_hash2(&x->leaf[i], seed, i);
    cz__poseidon_tag_merkle(&tag, 8);
    for (unsigned g = 0; g < 8; g++)
        cz__poseidon_hash(&x->mid[g], p8, &tag, &x->leaf[8 * g]);
    cz__poseidon_hash(&x->s.comm_r_last, p8, &tag, x->mid);
    pf_hash2(&x->s.comm_c, seed, 1000);
    cz__poseidon_tag_merkle(&tag, 2);
    two[0] = x->s.comm_c;
    two[1] = x->s.comm_r_last;
    cz__poseidon_hash(&x->s.comm_r, p2, &tag, two);
    for (unsigned c = 0; c < n; c++) {
        const unsigned i = index[c];
        for (unsigned k = 0, m = 0; k < 8; k++)
            if (k != i % 8)
                x->sib[c][0][m++] = x->leaf[8 * (i / 8) + k];
        for (unsigned k = 0, m = 0; k < 8; k++)
            if (k != i / 8)
                x->sib[c][1][m++] = x->mid[k];
        x->lv[c][0].arity = x->lv[c][1].arity = 8;
        x->lv[c][0].index = i % 8;
        x->lv[c][1].index = i / 8;
        x->lv[c][0].siblings = x->sib[c][0];
        x->lv[c][1].siblings = x->sib[c][1];
        x->leaves[c] = x->leaf[i];
        x->index[c] = i;
    }
    x->s.nchallenges = n;
    x->s.nlevels = 2;
    x->s.leaves = x->leaves;
    x->s.paths = &x->lv[0][0];
}

/* The vanilla proof of x as sector sector_id (proofs malloc'd: free with cz__post_vanilla_free). */
static inline int pf_vanilla(cz__post_vanilla *v, const pf_sector *x, uint64_t sector_id) {
    memset(v, 0, sizeof *v);
    v->proofs = calloc(x->s.nchallenges, sizeof *v->proofs);
    if (v->proofs == NULL)
        return 0;
    v->sector_id = sector_id;
    v->comm_r = x->s.comm_r;
    v->comm_c = x->s.comm_c;
    v->comm_r_last = x->s.comm_r_last;
    v->nproofs = x->s.nchallenges;
    for (unsigned c = 0; c < v->nproofs; c++) {
        cz__post_inclusion *inc = &v->proofs[c];
        inc->root = x->s.comm_r_last;
        inc->leaf = x->leaves[c];
        inc->nlevels = 2;
        for (unsigned l = 0; l < 2; l++) {
            memcpy(inc->sib[l], x->sib[c][l], sizeof inc->sib[l]);
            inc->levels[l] = x->lv[c][l];
            inc->levels[l].siblings = inc->sib[l];
        }
        inc->leaf_index = x->index[c];
    }
    return 1;
}

#endif
