/*
 * Reading and writing PoRep C1 files in bincode (porep_c1_bincode.h).
 *
 * The reader walks the bytes once, front to back, with the shape of the caller's registered proof
 * telling it every count, tag and arity to expect; each read checks the bytes left first
 * (`n > len - at`), so a truncation anywhere is a format error at the byte where it was met. The
 * proofs are allocated once, when the partition count has been read and found right. Where the
 * reader is (partition, proof, member, the part of a column, the path and its level) is kept in
 * the reader and written into the message only when something fails.
 *
 * The writer makes two passes over the same code: the first, without a buffer, counts the bytes;
 * the second writes them into one allocation of that size.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/bincode.h"
#include "filecoin/porep_c1_bincode.h"

typedef cz_bls12381_fr fr;

/* ---- reading ---- */

typedef struct reader {
    const uint8_t *p;
    size_t len, at;
    const cz__porep_shape *shape;
    long k, i;          /* the partition and proof being read (-1: none) */
    const char *member; /* the member of the C1 or of the proof */
    int q;              /* the member's element (a parent's column, a layer; -1: none) */
    const char *part;   /* "column" or "inclusion_proof" of a column (NULL: none) */
    const char *path;   /* the path of a Merkle proof being read (NULL: none) */
    int level;          /* its level (-1: none) */
    cz_errinfo *ei;
    int rc;
} reader;

static int fail(reader *r, int code, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Records the first error, with where it was met; -1. */
static int fail(reader *r, int code, size_t at, const char *fmt, ...) {
    char proof[64] = "", member[48] = "", part[24] = "", path[40] = "", what[160];
    va_list ap;
    if (r->rc != CZ_OK)
        return -1;
    if (r->k >= 0 && r->i >= 0)
        snprintf(proof, sizeof proof, "partition %ld, proof %ld: ", r->k, r->i);
    else if (r->k >= 0)
        snprintf(proof, sizeof proof, "partition %ld: ", r->k);
    if (r->member != NULL && r->q >= 0)
        snprintf(member, sizeof member, "%s %d: ", r->member, r->q);
    else if (r->member != NULL)
        snprintf(member, sizeof member, "%s: ", r->member);
    if (r->part != NULL)
        snprintf(part, sizeof part, "%s: ", r->part);
    if (r->path != NULL && r->level >= 0)
        snprintf(path, sizeof path, "%s level %d: ", r->path, r->level);
    else if (r->path != NULL)
        snprintf(path, sizeof path, "%s: ", r->path);
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    r->rc = cz_fail(r->ei, code, "porep c1 bincode: %s%s%s%s%s at byte %zu", proof, member, part,
                    path, what, at);
    return -1;
}

/* Fails with problem about item n (n < 0: item alone). */
static int fail_item(reader *r, int code, size_t at, const char *item, int n, const char *problem) {
    if (n >= 0)
        return fail(r, code, at, "%s %d: %s", item, n, problem);
    return fail(r, code, at, "%s: %s", item, problem);
}

/* nbytes more bytes are there for item n. */
static int need(reader *r, size_t nbytes, const char *item, int n) {
    char problem[80];
    if (nbytes > r->len - r->at) {
        snprintf(problem, sizeof problem, "the file ends (%zu bytes left, %zu needed)",
                 r->len - r->at, nbytes);
        return fail_item(r, CZ_EFORMAT, r->at, item, n, problem);
    }
    return 0;
}

static int read_u64(reader *r, uint64_t *v, const char *item) {
    if (need(r, 8, item, -1) != 0)
        return -1;
    *v = 0;
    for (int b = 7; b >= 0; b--)
        *v = *v << 8 | r->p[r->at + (size_t)b];
    r->at += 8;
    return 0;
}

static int read_u32(reader *r, uint32_t *v, const char *item) {
    if (need(r, 4, item, -1) != 0)
        return -1;
    *v = (uint32_t)r->p[r->at] | (uint32_t)r->p[r->at + 1] << 8 | (uint32_t)r->p[r->at + 2] << 16 |
         (uint32_t)r->p[r->at + 3] << 24;
    r->at += 4;
    return 0;
}

/* A Vec's length, which must be want. */
static int read_count(reader *r, uint64_t want, const char *item) {
    uint64_t v;
    if (read_u64(r, &v, item) != 0)
        return -1;
    if (v != want)
        return fail(r, CZ_EFORMAT, r->at - 8, "%s is %llu, not %llu", item, (unsigned long long)v,
                    (unsigned long long)want);
    return 0;
}

/* A 32-byte domain value, a field element below r: item n (n < 0: item alone). */
static int read_fr(reader *r, fr *v, const char *item, int n) {
    if (need(r, 32, item, n) != 0)
        return -1;
    if (cz_bls12381_fr_from_bytes_le(v, r->p + r->at) != CZ_OK)
        return fail_item(r, CZ_ENONCANON, r->at, item, n, "a value not below r");
    r->at += 32;
    return 0;
}

/* A path (InclusionPath) of n levels of arity into levels lo.. of p. */
static int read_path(reader *r, cz__tree_path *p, unsigned lo, unsigned n, unsigned arity,
                     const char *name) {
    r->path = name;
    r->level = -1;
    if (read_count(r, n, "the number of levels") != 0)
        return -1;
    for (unsigned l = 0; l < n; l++) {
        cz__path_level *lv = &p->levels[lo + l];
        uint64_t index;
        r->level = (int)l;
        if (read_count(r, arity - 1, "the number of siblings") != 0)
            return -1;
        for (unsigned s = 0; s + 1 < arity; s++)
            if (read_fr(r, &p->sib[lo + l][s], "sibling", (int)s) != 0)
                return -1;
        if (read_u64(r, &index, "the index") != 0)
            return -1;
        if (index >= arity)
            return fail(r, CZ_EFORMAT, r->at - 8, "index %llu of a level of arity %u",
                        (unsigned long long)index, arity);
        lv->arity = arity;
        lv->index = (uint32_t)index;
    }
    r->path = NULL;
    r->level = -1;
    return 0;
}

/* A MerkleProof of tree D (sha 1: Single, binary) or of trees C and R (the shape's). */
static int read_merkle(reader *r, cz__merkle_proof *mp, int sha) {
    static const char *const variants[] = {"Single", "Sub", "Top"};
    const cz__porep_shape *sh = r->shape;
    const unsigned nsub = !sha && sh->tree.sub > 0, ntop = !sha && sh->tree.top > 0;
    const unsigned nlev = sha ? sh->levels_d : sh->levels_rc, nbase = nlev - nsub - ntop;
    const unsigned base = sha ? 2 : sh->tree.base;
    const uint32_t want = ntop ? 2 : nsub ? 1 : 0;
    uint32_t tag;
    if (read_u32(r, &tag, "the proof variant") != 0)
        return -1;
    if (tag != want)
        return fail(r, CZ_EFORMAT, r->at - 4,
                    "a proof of variant %lu (%s); this tree's proofs are %s (%u)",
                    (unsigned long)tag, tag < 3 ? variants[tag] : "unknown", variants[want],
                    (unsigned)want);
    mp->path.nlevels = nlev;
    if (tag == 0)
        return read_fr(r, &mp->root, "root", -1) != 0 || read_fr(r, &mp->leaf, "leaf", -1) != 0 ||
                       read_path(r, &mp->path, 0, nbase, base, "path") != 0
                   ? -1
                   : 0;
    if (read_path(r, &mp->path, 0, nbase, base, "base_proof") != 0 ||
        read_path(r, &mp->path, nbase, 1, sh->tree.sub, "sub_proof") != 0 ||
        (ntop && read_path(r, &mp->path, nbase + 1, 1, sh->tree.top, "top_proof") != 0))
        return -1;
    return read_fr(r, &mp->root, "root", -1) != 0 || read_fr(r, &mp->leaf, "leaf", -1) != 0 ? -1
                                                                                            : 0;
}

/* A ColumnProof: the column (index, one row per layer) and its inclusion proof in tree C. */
static int read_column(reader *r, cz__porep_column_proof *cp, const char *member, int q) {
    uint32_t index;
    r->member = member;
    r->q = q;
    r->part = "column";
    if (read_u32(r, &index, "the index") != 0)
        return -1;
    if (index >= r->shape->nodes)
        return fail(r, CZ_EFORMAT, r->at - 4, "index %lu of a sector of %llu nodes",
                    (unsigned long)index, (unsigned long long)r->shape->nodes);
    cp->index = index;
    if (read_count(r, r->shape->layers, "the number of rows (one per layer)") != 0)
        return -1;
    for (unsigned l = 0; l < r->shape->layers; l++)
        if (read_fr(r, &cp->rows[l], "row", (int)l) != 0)
            return -1;
    r->part = "inclusion_proof";
    if (read_merkle(r, &cp->inclusion, 0) != 0)
        return -1;
    r->part = NULL;
    return 0;
}

/* A LabelingProof or the EncodingProof: 37 parents, the layer, the node. */
static int read_label(reader *r, cz__porep_label_proof *lp, const char *member, int q) {
    uint64_t node;
    uint32_t layer;
    r->member = member;
    r->q = q;
    if (read_count(r, CZ__POREP_PARENTS, "the number of parents") != 0)
        return -1;
    for (int p = 0; p < CZ__POREP_PARENTS; p++)
        if (read_fr(r, &lp->parents[p], "parent", p) != 0)
            return -1;
    if (read_u32(r, &layer, "layer_index") != 0 || read_u64(r, &node, "node") != 0)
        return -1;
    lp->layer = layer;
    lp->node = node;
    return 0;
}

/* One stacked::Proof. */
static int read_proof(reader *r, cz__porep_vanilla *v) {
    r->q = -1;
    r->member = "comm_d_proofs";
    if (read_merkle(r, &v->comm_d_proof, 1) != 0)
        return -1;
    r->member = "comm_r_last_proof";
    if (read_merkle(r, &v->comm_r_last_proof, 0) != 0)
        return -1;
    if (read_column(r, &v->c_x, "c_x", -1) != 0)
        return -1;
    r->member = "replica_column_proofs";
    r->q = -1;
    if (read_count(r, CZ__POREP_DRG_PARENTS, "the number of drg_parents") != 0)
        return -1;
    for (int q = 0; q < CZ__POREP_DRG_PARENTS; q++)
        if (read_column(r, &v->drg[q], "drg_parents", q) != 0)
            return -1;
    r->member = "replica_column_proofs";
    r->q = -1;
    if (read_count(r, CZ__POREP_EXP_PARENTS, "the number of exp_parents") != 0)
        return -1;
    for (int q = 0; q < CZ__POREP_EXP_PARENTS; q++)
        if (read_column(r, &v->exp[q], "exp_parents", q) != 0)
            return -1;
    r->member = "labeling_proofs";
    r->q = -1;
    if (read_count(r, r->shape->layers, "the number of proofs (one per layer)") != 0)
        return -1;
    for (unsigned l = 0; l < r->shape->layers; l++)
        if (read_label(r, &v->labels[l], "labeling_proofs", (int)l) != 0)
            return -1;
    return read_label(r, &v->encoding, "encoding_proof", -1);
}

/* A partition or proof count, which must be the registered proof's. */
static int read_partitioning(reader *r, uint64_t want, const char *what,
                             const cz__porep_config *cfg) {
    uint64_t v;
    if (read_u64(r, &v, what) != 0)
        return -1;
    if (v != want)
        return fail(r, CZ_EFORMAT, r->at - 8, "%llu %s; %s has %llu", (unsigned long long)v, what,
                    cfg->name, (unsigned long long)want);
    return 0;
}

/* The whole C1 into c1. */
static int read_c1(reader *r, cz__porep_c1 *c1, const cz__porep_config *cfg) {
    r->member = "vanilla_proofs";
    if (read_partitioning(r, cfg->partitions, "partitions", cfg) != 0)
        return -1;
    c1->proofs = calloc((size_t)cfg->partitions * cfg->challenges, sizeof *c1->proofs);
    if (c1->proofs == NULL)
        return fail(r, CZ_ENOMEM, r->at, "%u × %u proofs: out of memory", cfg->partitions,
                    cfg->challenges);
    c1->npartitions = cfg->partitions;
    c1->per = cfg->challenges;
    for (unsigned k = 0; k < c1->npartitions; k++) {
        r->k = k;
        r->i = -1;
        r->member = "vanilla_proofs";
        if (read_partitioning(r, cfg->challenges, "proofs in the partition", cfg) != 0)
            return -1;
        for (unsigned i = 0; i < c1->per; i++) {
            r->i = i;
            if (read_proof(r, &c1->proofs[(size_t)k * c1->per + i]) != 0)
                return -1;
        }
    }
    r->k = r->i = -1;
    r->q = -1;
    r->member = NULL;
    if (read_fr(r, &c1->comm_r, "comm_r", -1) != 0 || read_fr(r, &c1->comm_d, "comm_d", -1) != 0 ||
        read_fr(r, &c1->replica_id, "replica_id", -1) != 0 || need(r, 32, "seed", -1) != 0)
        return -1;
    memcpy(c1->seed, r->p + r->at, 32);
    r->at += 32;
    if (need(r, 32, "ticket", -1) != 0)
        return -1;
    memcpy(c1->ticket, r->p + r->at, 32);
    r->at += 32;
    if (r->at != r->len)
        return fail(r, CZ_EFORMAT, r->at, "%zu bytes after the C1", r->len - r->at);
    return 0;
}

/* Points every path's levels at its own siblings. */
int cz__porep_c1_read_bincode(cz__porep_c1 *c1, const uint8_t *data, size_t len,
                              uint64_t registered_proof, cz_errinfo *ei) {
    cz__porep_config cfg;
    cz__porep_shape shape;
    reader r = {0};
    int rc;
    memset(c1, 0, sizeof *c1);
    if ((rc = cz__porep_config_get(&cfg, registered_proof, ei)) != CZ_OK ||
        (rc = cz__porep_shape_get(&shape, cfg.sector_size, ei)) != CZ_OK)
        return cz_fail(ei, rc, "porep c1 bincode");
    c1->registered_proof = registered_proof;
    r.p = data;
    r.len = len;
    r.shape = &shape;
    r.k = r.i = -1;
    r.q = r.level = -1;
    r.ei = ei;
    r.rc = CZ_OK;
    if (read_c1(&r, c1, &cfg) != 0) {
        cz__porep_c1_free(c1);
        return r.rc;
    }
    cz__porep_c1_fix_paths(c1);
    return CZ_OK;
}

/* ---- writing ---- */

typedef cz__bincode_writer writer;

static void put_column(writer *w, const cz__porep_column_proof *c, const cz__porep_shape *sh) {
    cz__bincode_put_u32(w, c->index);
    cz__bincode_put_u64(w, sh->layers);
    for (unsigned l = 0; l < sh->layers; l++)
        cz__bincode_put_fr(w, &c->rows[l]);
    cz__bincode_put_merkle(w, &c->inclusion, &sh->tree);
}

static void put_label(writer *w, const cz__porep_label_proof *lp) {
    cz__bincode_put_u64(w, CZ__POREP_PARENTS);
    for (int p = 0; p < CZ__POREP_PARENTS; p++)
        cz__bincode_put_fr(w, &lp->parents[p]);
    cz__bincode_put_u32(w, lp->layer);
    cz__bincode_put_u64(w, lp->node);
}

static void put_proof(writer *w, const cz__porep_vanilla *v, const cz__porep_shape *sh) {
    cz__bincode_put_merkle(w, &v->comm_d_proof, NULL);
    cz__bincode_put_merkle(w, &v->comm_r_last_proof, &sh->tree);
    put_column(w, &v->c_x, sh);
    cz__bincode_put_u64(w, CZ__POREP_DRG_PARENTS);
    for (int q = 0; q < CZ__POREP_DRG_PARENTS; q++)
        put_column(w, &v->drg[q], sh);
    cz__bincode_put_u64(w, CZ__POREP_EXP_PARENTS);
    for (int q = 0; q < CZ__POREP_EXP_PARENTS; q++)
        put_column(w, &v->exp[q], sh);
    cz__bincode_put_u64(w, sh->layers);
    for (unsigned l = 0; l < sh->layers; l++)
        put_label(w, &v->labels[l]);
    put_label(w, &v->encoding);
}

static void put_c1(writer *w, const cz__porep_c1 *c1, const cz__porep_shape *sh) {
    cz__bincode_put_u64(w, c1->npartitions);
    for (unsigned k = 0; k < c1->npartitions; k++) {
        cz__bincode_put_u64(w, c1->per);
        for (unsigned i = 0; i < c1->per; i++)
            put_proof(w, &c1->proofs[(size_t)k * c1->per + i], sh);
    }
    cz__bincode_put_fr(w, &c1->comm_r);
    cz__bincode_put_fr(w, &c1->comm_d);
    cz__bincode_put_fr(w, &c1->replica_id);
    cz__bincode_put_bytes(w, c1->seed, 32);
    cz__bincode_put_bytes(w, c1->ticket, 32);
}

int cz__porep_c1_write_bincode(uint8_t **out, size_t *len, const cz__porep_c1 *c1, cz_errinfo *ei) {
    cz__porep_config cfg;
    cz__porep_shape sh;
    writer count = {NULL, 0}, w;
    int rc;
    if ((rc = cz__porep_config_get(&cfg, c1->registered_proof, ei)) != CZ_OK ||
        (rc = cz__porep_shape_get(&sh, cfg.sector_size, ei)) != CZ_OK)
        return cz_fail(ei, rc, "porep c1 bincode");
    put_c1(&count, c1, &sh);
    if ((w.p = malloc(count.at)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "porep c1 bincode: %zu bytes", count.at);
    w.at = 0;
    put_c1(&w, c1, &sh);
    CZ_ASSERT(w.at == count.at);
    *out = w.p;
    *len = w.at;
    return CZ_OK;
}
