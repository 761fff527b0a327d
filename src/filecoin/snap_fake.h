/*
 * A sector update made natively: the source of SnapDeals vanilla proofs for tests and for
 * `cuzk filecoin fake-update`, without Rust, at any size.
 *
 * From a seed (SplitMix64, merkle.h): random new data (tree D, SHA-256 nodes, comm_d_new; in the
 * Poseidon variant a Poseidon tree of tree R's shape), a random old replica (tree R old, Poseidon,
 * the shape's arities) and comm_c; comm_r_old = Poseidon-2(comm_c, root_r_old); phi; the new
 * replica old + data·rho(the node's h high bits) (tree R new, comm_r_new).
 *
 * The challenges come from comm_r_new, the root of the whole new replica, so no partial tree can
 * be made before them: every tree is built whole. What keeps a large one cheap is repetition: the
 * nodes of one rho (a chunk of nodes >> h) repeat with a period, node i of chunk c being the
 * chunk's node i mod period. Up to CZ__SNAP_FAKE_DISTINCT_NODES nodes (512 MiB) the period is the
 * chunk (every leaf its own random value); above, the sector keeps CZ__SNAP_FAKE_LARGE_DISTINCT
 * (2^20 >> h a chunk: a 32 GiB update's 16 partitions in seconds, paths with distinct siblings
 * on their lowest levels). A tree keeps each level once per distinct node: a node spanning at
 * most a chunk is kept per chunk and per position within the period (one a chunk when it spans
 * the period), a node spanning more chunks is kept itself. Up to 16 MiB this takes a second or
 * so and 3·1.15·32 bytes a node; 512 MiB minutes.
 */
#ifndef CUZK_FILECOIN_SNAP_FAKE_H
#define CUZK_FILECOIN_SNAP_FAKE_H

#include "filecoin/snap_vanilla.h"

#define CZ__SNAP_FAKE_DISTINCT_NODES (UINT64_C(1) << 24) /* every leaf distinct up to 512 MiB */
#define CZ__SNAP_FAKE_LARGE_DISTINCT (UINT64_C(1) << 20) /* the distinct leaves above */

/* A tree of nodes leaves, its levels kept by distinct node (see the file comment): level 0 the
 * leaves, level nlevels the root. */
typedef struct cz__snap_tree {
    unsigned nlevels;
    unsigned arity[CZ__TREE_MAX_LEVELS];
    uint64_t nodes, chunk, period;
    cz_bls12381_fr *level[CZ__TREE_MAX_LEVELS + 1];
    cz__tree_hash hash;
} cz__snap_tree;

/* Node j of level l of t. */
const cz_bls12381_fr *cz__snap_tree_node(const cz__snap_tree *t, unsigned l, uint64_t j);

typedef struct cz__snap_fake {
    cz__snap_shape s;
    unsigned h;
    cz_bls12381_fr comm_c, comm_r_old, comm_d_new, comm_r_new;
    cz__snap_tree d, r_old, r_new;
} cz__snap_fake;

/* The update of a sector of sector_size in variant with h (one of the shape's hs) from seed, with
 * at most distinct distinct leaves (a power of two, at least 2^h; 0: the default of the file
 * comment). CZ_EINVAL (a size without updates, h, distinct), CZ_ENOMEM. Free with
 * cz__snap_fake_free (also after an error). */
int cz__snap_fake_make(cz__snap_fake *f, uint64_t sector_size, cz__snap_variant variant, unsigned h,
                       uint64_t seed, uint64_t distinct, cz_errinfo *ei);
void cz__snap_fake_free(cz__snap_fake *f);
/* Partition k's vanilla proof and public inputs. CZ_EINVAL (k), CZ_ENOMEM. */
int cz__snap_fake_partition(cz__snap_vanilla *v, cz__snap_public *pub, const cz__snap_fake *f,
                            uint32_t k, cz_errinfo *ei);

#endif
