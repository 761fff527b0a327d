/*
 * The fallback PoSt circuit (post_circuit.h).
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/post_circuit.h"
#include "gadgets/poseidon_circuit.h"

static void sector_circuit(cz__cs *cs, const cz__post_sector *s) {
    cz__num comm_r_last = cz__num_alloc(cs, &s->comm_r_last), comm_c, comm_r, h, pre[2];
    comm_c = cz__num_alloc(cs, &s->comm_c);
    comm_r = cz__num_alloc(cs, &s->comm_r);
    cz__num_inputize(cs, &comm_r);
    pre[0] = comm_c;
    pre[1] = comm_r_last;
    h = cz__poseidon_merkle_circuit(cs, pre, 2);
    cz__num_enforce_equal(cs, &comm_r, &h);
    for (unsigned c = 0; c < s->nchallenges; c++) {
        cz__num leaf = cz__num_alloc(cs, &s->leaves[c]);
        cz__por_circuit(cs, CZ__TREE_POSEIDON, &leaf, &s->paths[(size_t)c * s->nlevels], s->nlevels,
                        &comm_r_last, 1);
    }
}

void cz__post_circuit(cz__cs *cs, const cz__post_sector *sectors, size_t nsectors) {
    for (size_t i = 0; i < nsectors; i++)
        sector_circuit(cs, &sectors[i]);
}

int cz__post_circuit_blank(cz__cs *cs, const cz__tree_shape *shape, uint64_t nleaves,
                           size_t nsectors, unsigned nchallenges, cz_errinfo *ei) {
    const unsigned nlevels = cz__tree_path_levels(shape, nleaves);
    static const cz_bls12381_fr zeros[16];
    cz__path_level *path;
    cz_bls12381_fr *leaves;
    cz__post_sector s;
    if (nlevels == 0)
        return cz_fail(ei, CZ_EINVAL, "post: a tree of %u-%u-%u has no %llu leaves", shape->base,
                       shape->sub, shape->top, (unsigned long long)nleaves);
    path = calloc((size_t)nchallenges * nlevels, sizeof *path);
    leaves = calloc(nchallenges ? nchallenges : 1, sizeof *leaves);
    if (path == NULL || leaves == NULL) {
        free(path);
        free(leaves);
        return cz_fail(ei, CZ_ENOMEM, "post: the blank paths");
    }
    for (unsigned c = 0; c < nchallenges; c++)
        cz__tree_blank_path(&path[(size_t)c * nlevels], shape, nlevels, zeros);
    memset(&s, 0, sizeof s);
    s.nchallenges = nchallenges;
    s.nlevels = nlevels;
    s.leaves = leaves;
    s.paths = path;
    for (size_t i = 0; i < nsectors; i++)
        sector_circuit(cs, &s);
    free(path);
    free(leaves);
    return cz__cs_status(cs, ei);
}
