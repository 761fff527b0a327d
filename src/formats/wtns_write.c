/*
 * .wtns version 2 writer for the witness of an in-memory system (cuzk/r1cs_io.h). The values are
 * kept in Montgomery form, so each batch of WTNS_BATCH values is converted to standard form in
 * parallel (one Montgomery product per value) into a staging buffer, then written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/r1cs_io.h"
#include "cuzk/threadpool.h"
#include "formats/bufwrite.h"
#include "formats/fmt_curve.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the wtns writer writes limbs as bytes: little-endian hosts only"
#endif

enum { SECT_HEADER = 1, SECT_VALUES = 2 };
#define WTNS_N8    32
#define WTNS_BATCH (1u << 18)
#define WTNS_TASK  (1u << 13)

struct conv_ctx {
    const cz_r1cs *cs;
    uint64_t (*out)[4];
    size_t first, n;
};

static void conv_task(void *arg, size_t task) {
    struct conv_ctx *x = arg;
    size_t lo = task * WTNS_TASK, hi = lo + WTNS_TASK < x->n ? lo + WTNS_TASK : x->n;
    for (size_t i = lo; i < hi; i++)
        cz_r1cs_fr_to_std(x->out[i], x->cs->curve, x->cs->w[x->first + i]);
}

int cz_r1cs_write_wtns(const char *path, const cz_r1cs *cs, cz_threadpool *pool, cz_errinfo *ei) {
    const cz__curve_info *ci = cz__curve_info_of(cs->curve);
    if (ci == NULL)
        return cz_fail(ei, CZ_EINVAL, "%s: unknown curve id %d", path, (int)cs->curve);
    uint64_t(*stage)[4] = malloc(WTNS_BATCH * sizeof *stage);
    cz__bw *bw = malloc(sizeof *bw);
    int rc = CZ_OK;
    if (stage == NULL || bw == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "%s: out of memory", path);
        goto out;
    }
    if ((rc = cz__bw_open(bw, path, "wtns", 2, 2, ei)) != CZ_OK)
        goto out;
    cz__bw_section(bw, SECT_HEADER, 4 + WTNS_N8 + 4);
    cz__bw_u32(bw, WTNS_N8);
    for (int l = 0; l < 4; l++)
        cz__bw_u64(bw, ci->r[l]);
    cz__bw_u32(bw, cs->nvars);
    cz__bw_section(bw, SECT_VALUES, (uint64_t)cs->nvars * WTNS_N8);
    for (size_t first = 0; first < cs->nvars; first += WTNS_BATCH) {
        size_t n = cs->nvars - first < WTNS_BATCH ? cs->nvars - first : WTNS_BATCH;
        struct conv_ctx x = {cs, stage, first, n};
        cz_threadpool_run(pool, conv_task, &x, (n + WTNS_TASK - 1) / WTNS_TASK);
        cz__bw_bytes(bw, stage, n * WTNS_N8);
    }
    rc = cz__bw_finish(bw, path, ei);
out:
    free(bw);
    free(stage);
    return rc;
}
