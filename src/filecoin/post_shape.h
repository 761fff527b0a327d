/*
 * The shapes of the PoSt circuits by sector size, as filecoin-proofs' constants.rs sets them:
 * the tree R shape (8-0-0 for 2 KiB, 8 MiB, 512 MiB; 8-2-0 for 4 KiB, 16 MiB, 1 GiB; 8-8-0 for
 * 16 KiB and 32 GiB; 8-8-2 for 32 KiB and 64 GiB), sector_size / 32 leaves, and the circuit's
 * sectors and challenges: WinningPoSt 66 challenges of one sector, synthesized as 66 "sectors"
 * of one challenge; WindowPoSt 10 challenges per sector and WINDOW_POST_SECTOR_COUNT sectors per
 * partition (2, but 2349 for 32 GiB and 2300 for 64 GiB).
 */
#ifndef CUZK_FILECOIN_POST_SHAPE_H
#define CUZK_FILECOIN_POST_SHAPE_H

#include "cuzk/err.h"
#include "gadgets/por.h"

typedef enum { CZ__POST_WINNING, CZ__POST_WINDOW } cz__post_kind;

typedef struct cz__post_shape {
    cz__post_kind kind;
    uint64_t sector_size, nleaves;
    cz__tree_shape tree;
    unsigned nlevels;
    size_t sectors;      /* circuit sectors per partition */
    unsigned challenges; /* per circuit sector */
} cz__post_shape;

/* The shape of kind at sector_size (bytes); CZ_EINVAL naming the size when Filecoin has none. */
int cz__post_shape_get(cz__post_shape *out, cz__post_kind kind, uint64_t sector_size,
                       cz_errinfo *ei);

#endif
