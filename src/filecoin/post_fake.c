/*
 * Fake PoSt sectors (post_fake.h): random values at the challenged leaves, their tree from the
 * opened paths only (merkle.h's cz__fake_tree), a random comm_c.
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/merkle.h"
#include "filecoin/post_fake.h"
#include "gadgets/poseidon.h"

typedef cz_bls12381_fr fr;

int cz__post_fake_sector(cz__post_vanilla *out, const cz__post_shape *shape, uint64_t sector_id,
                         const uint8_t randomness[32], uint64_t index_base, unsigned nproofs,
                         uint64_t seed, cz_errinfo *ei) {
    const unsigned nl = shape->nlevels;
    uint64_t s = seed ^ (sector_id * UINT64_C(0xd1b54a32d192ed03)), *pos = NULL;
    unsigned arities[CZ__TREE_MAX_LEVELS];
    cz__tree_path *paths = NULL;
    fr *leaves = NULL, two[2];
    int rc = CZ_OK;
    memset(out, 0, sizeof *out);
    if (nl == 0 || nl > CZ__POST_MAX_LEVELS ||
        cz__fake_tree_arities(arities, &shape->tree, shape->nleaves) != nl)
        return cz_fail(ei, CZ_EINVAL, "fake sector: a tree of %u levels", nl);
    out->proofs = calloc(nproofs ? nproofs : 1, sizeof *out->proofs);
    pos = calloc(nproofs ? nproofs : 1, sizeof *pos);
    leaves = calloc(nproofs ? nproofs : 1, sizeof *leaves);
    paths = calloc(nproofs ? nproofs : 1, sizeof *paths);
    if (out->proofs == NULL || pos == NULL || leaves == NULL || paths == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "fake sector: %u paths", nproofs);
        goto out;
    }
    out->sector_id = sector_id;
    out->nproofs = nproofs;
    for (unsigned n = 0; n < nproofs; n++) { /* the opened leaves, one value per leaf */
        pos[n] = cz__post_leaf_challenge(randomness, sector_id, index_base + n, shape->nleaves);
        cz__fake_fr(&leaves[n], &s);
        for (unsigned m = 0; m < n; m++)
            if (pos[m] == pos[n])
                leaves[n] = leaves[m];
    }
    if ((rc = cz__fake_tree(&out->comm_r_last, paths, pos, leaves, nproofs, arities, nl,
                            CZ__TREE_POSEIDON, &s, ei)) != CZ_OK)
        goto out;
    for (unsigned n = 0; n < nproofs; n++) {
        cz__post_inclusion *inc = &out->proofs[n];
        inc->leaf_index = pos[n];
        inc->nlevels = nl;
        inc->leaf = leaves[n];
        inc->root = out->comm_r_last;
        for (unsigned l = 0; l < nl; l++) {
            inc->levels[l] = paths[n].levels[l];
            inc->levels[l].siblings = inc->sib[l];
            memcpy(inc->sib[l], paths[n].sib[l], sizeof inc->sib[l]);
        }
    }
    cz__fake_fr(&out->comm_c, &s);
    two[0] = out->comm_c;
    two[1] = out->comm_r_last;
    rc = cz__poseidon_merkle(&out->comm_r, two, 2, ei);
out:
    free(pos);
    free(leaves);
    free(paths);
    if (rc != CZ_OK)
        cz__post_vanilla_free(out);
    return rc;
}
