/*
 * A sector update made natively, every tree in full: the source of SnapDeals vanilla proofs for
 * tests and for `cuzk filecoin fake-update`, without Rust.
 *
 * From a seed (SplitMix64, merkle.h): random new data (tree D, SHA-256 nodes, comm_d_new), a
 * random old replica (tree R old, Poseidon, the shape's arities) and comm_c; comm_r_old =
 * Poseidon-2(comm_c, root_r_old); phi; the new replica old + data·rho(the node's h high bits)
 * (tree R new, comm_r_new). The trees are kept as arrays of levels (32 bytes a node), so a
 * sector of n nodes takes about 3·1.15·32·n bytes and n SHA-256 and n/7 Poseidon hashes a tree
 * R: up to 16 MiB sectors in a second or so, 512 MiB in minutes; larger sizes are refused.
 * In the Poseidon variant tree D is a Poseidon tree of tree R's shape over random values.
 */
#ifndef CUZK_FILECOIN_SNAP_FAKE_H
#define CUZK_FILECOIN_SNAP_FAKE_H

#include "filecoin/snap_vanilla.h"

#define CZ__SNAP_FAKE_MAX_NODES (UINT64_C(1) << 24) /* 512 MiB */

/* A tree as its levels: level 0 the leaves, level nlevels the root. */
typedef struct cz__full_tree {
    unsigned nlevels;
    unsigned arity[CZ__TREE_MAX_LEVELS];
    cz_bls12381_fr *level[CZ__TREE_MAX_LEVELS + 1];
    cz__tree_hash hash;
} cz__full_tree;

typedef struct cz__snap_fake {
    cz__snap_shape s;
    unsigned h;
    cz_bls12381_fr comm_c, comm_r_old, comm_d_new, comm_r_new;
    cz__full_tree d, r_old, r_new;
} cz__snap_fake;

/* The update of a sector of sector_size in variant with h (one of the shape's hs) from seed.
 * CZ_EINVAL (a size without updates or above CZ__SNAP_FAKE_MAX_NODES nodes, h), CZ_ENOMEM. Free
 * with cz__snap_fake_free (also after an error). */
int cz__snap_fake_make(cz__snap_fake *f, uint64_t sector_size, cz__snap_variant variant, unsigned h,
                       uint64_t seed, cz_errinfo *ei);
void cz__snap_fake_free(cz__snap_fake *f);
/* Partition k's vanilla proof and public inputs. CZ_EINVAL (k), CZ_ENOMEM. */
int cz__snap_fake_partition(cz__snap_vanilla *v, cz__snap_public *pub, const cz__snap_fake *f,
                            uint32_t k, cz_errinfo *ei);

#endif
