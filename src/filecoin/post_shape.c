/*
 * The PoSt shapes table (post_shape.h).
 */
#include <string.h>

#include "filecoin/post_shape.h"

static const struct {
    uint64_t size;
    cz__tree_shape tree;
    size_t window_sectors;
} sizes[] = {
    {UINT64_C(1) << 11, {8, 0, 0}, 2},    {UINT64_C(1) << 12, {8, 2, 0}, 2},
    {UINT64_C(1) << 14, {8, 8, 0}, 2},    {UINT64_C(1) << 15, {8, 8, 2}, 2},
    {UINT64_C(1) << 23, {8, 0, 0}, 2},    {UINT64_C(1) << 24, {8, 2, 0}, 2},
    {UINT64_C(1) << 29, {8, 0, 0}, 2},    {UINT64_C(1) << 30, {8, 2, 0}, 2},
    {UINT64_C(1) << 35, {8, 8, 0}, 2349}, {UINT64_C(1) << 36, {8, 8, 2}, 2300},
};

int cz__post_shape_get(cz__post_shape *out, cz__post_kind kind, uint64_t sector_size,
                       cz_errinfo *ei) {
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (sizes[i].size != sector_size)
            continue;
        out->kind = kind;
        out->sector_size = sector_size;
        out->nleaves = sector_size / 32;
        out->tree = sizes[i].tree;
        out->nlevels = cz__tree_path_levels(&out->tree, out->nleaves);
        out->sectors = kind == CZ__POST_WINNING ? 66 : sizes[i].window_sectors;
        out->challenges = kind == CZ__POST_WINNING ? 1 : 10;
        return CZ_OK;
    }
    return cz_fail(ei, CZ_EINVAL, "post: no PoSt for a sector size of %llu bytes",
                   (unsigned long long)sector_size);
}
