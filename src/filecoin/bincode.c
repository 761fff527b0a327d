/*
 * bincode pieces (bincode.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "filecoin/bincode.h"

typedef cz_bls12381_fr fr;

/* ---- reading ---- */

void cz__bincode_reader_init(cz__bincode_reader *r, const uint8_t *p, size_t len, const char *name,
                             cz_errinfo *ei) {
    memset(r, 0, sizeof *r);
    r->p = p;
    r->len = len;
    r->name = name;
    r->ei = ei;
    r->rc = CZ_OK;
}

int cz__bincode_fail(cz__bincode_reader *r, int code, size_t at, const char *fmt, ...) {
    char what[160];
    va_list ap;
    if (r->rc != CZ_OK)
        return -1;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    r->rc = cz_fail(r->ei, code, "%s: %s%s%s at byte %zu", r->name, r->where,
                    r->where[0] ? ": " : "", what, at);
    return -1;
}

/* nbytes more bytes are there for item. */
static int need(cz__bincode_reader *r, size_t nbytes, const char *item) {
    if (r->rc != CZ_OK)
        return -1;
    if (nbytes > r->len - r->at)
        return cz__bincode_fail(r, CZ_EFORMAT, r->at,
                                "%s: the input ends (%zu bytes left, %zu needed)", item,
                                r->len - r->at, nbytes);
    return 0;
}

int cz__bincode_u64(cz__bincode_reader *r, uint64_t *v, const char *item) {
    if (need(r, 8, item) != 0)
        return -1;
    *v = 0;
    for (int b = 7; b >= 0; b--)
        *v = *v << 8 | r->p[r->at + (size_t)b];
    r->at += 8;
    return 0;
}

int cz__bincode_u32(cz__bincode_reader *r, uint32_t *v, const char *item) {
    uint64_t x = 0;
    if (need(r, 4, item) != 0)
        return -1;
    for (int b = 3; b >= 0; b--)
        x = x << 8 | r->p[r->at + (size_t)b];
    *v = (uint32_t)x;
    r->at += 4;
    return 0;
}

int cz__bincode_count(cz__bincode_reader *r, uint64_t want, const char *item) {
    uint64_t v;
    if (cz__bincode_u64(r, &v, item) != 0)
        return -1;
    if (v != want)
        return cz__bincode_fail(r, CZ_EFORMAT, r->at - 8, "%s is %llu, not %llu", item,
                                (unsigned long long)v, (unsigned long long)want);
    return 0;
}

int cz__bincode_fr(cz__bincode_reader *r, fr *v, const char *item) {
    if (need(r, 32, item) != 0)
        return -1;
    if (cz_bls12381_fr_from_bytes_le(v, r->p + r->at) != CZ_OK)
        return cz__bincode_fail(r, CZ_ENONCANON, r->at, "%s: a value not below r", item);
    r->at += 32;
    return 0;
}

/* An InclusionPath of n levels of arity into levels lo.. of p. */
static int path(cz__bincode_reader *r, cz__tree_path *p, unsigned lo, unsigned n, unsigned arity,
                const char *name) {
    char item[64];
    snprintf(item, sizeof item, "%s: the number of levels", name);
    if (cz__bincode_count(r, n, item) != 0)
        return -1;
    for (unsigned l = 0; l < n; l++) {
        cz__path_level *lv = &p->levels[lo + l];
        uint64_t index;
        snprintf(item, sizeof item, "%s level %u: the number of siblings", name, l);
        if (cz__bincode_count(r, arity - 1, item) != 0)
            return -1;
        for (unsigned s = 0; s + 1 < arity; s++) {
            snprintf(item, sizeof item, "%s level %u: sibling %u", name, l, s);
            if (cz__bincode_fr(r, &p->sib[lo + l][s], item) != 0)
                return -1;
        }
        snprintf(item, sizeof item, "%s level %u: the index", name, l);
        if (cz__bincode_u64(r, &index, item) != 0)
            return -1;
        if (index >= arity)
            return cz__bincode_fail(r, CZ_EFORMAT, r->at - 8, "%s level %u: index %llu of arity %u",
                                    name, l, (unsigned long long)index, arity);
        lv->arity = arity;
        lv->index = (uint32_t)index;
        lv->siblings = p->sib[lo + l];
    }
    return 0;
}

int cz__bincode_merkle(cz__bincode_reader *r, cz__merkle_proof *mp, const cz__tree_shape *shape,
                       unsigned nlevels) {
    static const char *const variants[] = {"Single", "Sub", "Top"};
    const unsigned nsub = shape->sub > 0, ntop = shape->top > 0;
    const uint32_t want = ntop ? 2 : nsub ? 1 : 0;
    uint32_t tag;
    if (nlevels > CZ__TREE_MAX_LEVELS || nlevels < nsub + ntop)
        return cz__bincode_fail(r, CZ_EINVAL, r->at, "a tree of %u levels", nlevels);
    if (cz__bincode_u32(r, &tag, "the proof variant") != 0)
        return -1;
    if (tag != want)
        return cz__bincode_fail(r, CZ_EFORMAT, r->at - 4,
                                "a proof of variant %lu (%s); this tree's proofs are %s (%u)",
                                (unsigned long)tag, tag < 3 ? variants[tag] : "unknown",
                                variants[want], (unsigned)want);
    mp->path.nlevels = nlevels;
    if (tag == 0)
        return cz__bincode_fr(r, &mp->root, "root") != 0 ||
                       cz__bincode_fr(r, &mp->leaf, "leaf") != 0 ||
                       path(r, &mp->path, 0, nlevels, shape->base, "path") != 0
                   ? -1
                   : 0;
    if (path(r, &mp->path, 0, nlevels - nsub - ntop, shape->base, "base_proof") != 0 ||
        path(r, &mp->path, nlevels - nsub - ntop, 1, shape->sub, "sub_proof") != 0 ||
        (ntop && path(r, &mp->path, nlevels - 1, 1, shape->top, "top_proof") != 0))
        return -1;
    return cz__bincode_fr(r, &mp->root, "root") != 0 || cz__bincode_fr(r, &mp->leaf, "leaf") != 0
               ? -1
               : 0;
}

int cz__bincode_end(cz__bincode_reader *r) {
    if (r->rc != CZ_OK)
        return -1;
    if (r->at != r->len)
        return cz__bincode_fail(r, CZ_EFORMAT, r->at, "%zu bytes left over", r->len - r->at);
    return 0;
}

/* ---- writing ---- */

void cz__bincode_put_bytes(cz__bincode_writer *w, const void *b, size_t n) {
    if (w->p != NULL)
        memcpy(w->p + w->at, b, n);
    w->at += n;
}

void cz__bincode_put_u64(cz__bincode_writer *w, uint64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    cz__bincode_put_bytes(w, b, sizeof b);
}

void cz__bincode_put_u32(cz__bincode_writer *w, uint32_t v) {
    uint8_t b[4];
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    cz__bincode_put_bytes(w, b, sizeof b);
}

void cz__bincode_put_fr(cz__bincode_writer *w, const fr *v) {
    if (w->p != NULL)
        cz_bls12381_fr_to_bytes_le(w->p + w->at, v);
    w->at += 32;
}

/* The levels lo..lo+n-1 of p as one InclusionPath. */
static void put_path(cz__bincode_writer *w, const cz__tree_path *p, unsigned lo, unsigned n) {
    cz__bincode_put_u64(w, n);
    for (unsigned l = lo; l < lo + n; l++) {
        const cz__path_level *lv = &p->levels[l];
        cz__bincode_put_u64(w, lv->arity - 1);
        for (unsigned s = 0; s + 1 < lv->arity; s++)
            cz__bincode_put_fr(w, &lv->siblings[s]);
        cz__bincode_put_u64(w, lv->index);
    }
}

void cz__bincode_put_merkle(cz__bincode_writer *w, const cz__merkle_proof *m,
                            const cz__tree_shape *shape) {
    const unsigned nsub = shape != NULL && shape->sub > 0, ntop = shape != NULL && shape->top > 0;
    const unsigned nbase = m->path.nlevels - nsub - ntop;
    cz__bincode_put_u32(w, ntop ? 2 : nsub ? 1 : 0);
    if (!nsub && !ntop) {
        cz__bincode_put_fr(w, &m->root);
        cz__bincode_put_fr(w, &m->leaf);
        put_path(w, &m->path, 0, nbase);
        return;
    }
    put_path(w, &m->path, 0, nbase);
    put_path(w, &m->path, nbase, 1);
    if (ntop)
        put_path(w, &m->path, nbase + 1, 1);
    cz__bincode_put_fr(w, &m->root);
    cz__bincode_put_fr(w, &m->leaf);
}
