/*
 * Fake PoSt sectors (`cuzk filecoin fake-vanilla`): vanilla proofs that satisfy every check of a
 * real sector's without a sector. The challenged leaves get random values, every sibling on their
 * paths a random value, and the tree is computed from those nodes only, so a 32 GiB shape costs
 * what its paths cost (a few hundred Poseidon hashes), not 2^30 leaves. comm_c is random, comm_r =
 * Poseidon-2(comm_c, comm_r_last). The values come from seed alone: the same seed, the same
 * sector.
 */
#ifndef CUZK_FILECOIN_POST_FAKE_H
#define CUZK_FILECOIN_POST_FAKE_H

#include "filecoin/post_vanilla.h"

/* The vanilla proof of sector sector_id opened at challenges index_base .. index_base + n - 1
 * under randomness (n = nproofs: 66 WinningPoSt, 10 WindowPoSt). CZ_ENOMEM, CZ_EINVAL (no
 * Poseidon of a level's arity). Free with cz__post_vanilla_free. */
int cz__post_fake_sector(cz__post_vanilla *out, const cz__post_shape *shape, uint64_t sector_id,
                         const uint8_t randomness[32], uint64_t index_base, unsigned nproofs,
                         uint64_t seed, cz_errinfo *ei);

#endif
