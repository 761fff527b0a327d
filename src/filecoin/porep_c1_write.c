/*
 * Writing PoRep C1 files (porep_c1.h): the JSON serde_json makes of a SealCommitPhase1Output, in
 * its member order, and Curio's envelope around it. The text grows in one heap buffer; the
 * envelope base64-encodes it into a second one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep_c1.h"

typedef struct text {
    char *p;
    size_t len, cap;
    int failed;
} text;

static void put(text *t, const char *s, size_t n) {
    if (t->failed)
        return;
    if (n > t->cap - t->len) {
        size_t cap = t->cap ? t->cap : 1 << 16;
        while (n > cap - t->len)
            cap *= 2;
        char *p = realloc(t->p, cap);
        if (p == NULL) {
            t->failed = 1;
            return;
        }
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
}

static void puts_(text *t, const char *s) {
    put(t, s, strlen(s));
}

static void put_u64(text *t, uint64_t v) {
    char b[24];
    put(t, b, (size_t)snprintf(b, sizeof b, "%llu", (unsigned long long)v));
}

/* [b0,b1,...]: the bulk of a C1's text. */
static void put_bytes(text *t, const uint8_t *b, size_t n) {
    char s[4 * 256 + 2], *o = s; /* n ≤ 256: at most "255," each */
    *o++ = '[';
    for (size_t i = 0; i < n; i++) {
        const unsigned v = b[i];
        if (i)
            *o++ = ',';
        if (v >= 100)
            *o++ = (char)('0' + v / 100);
        if (v >= 10)
            *o++ = (char)('0' + v / 10 % 10);
        *o++ = (char)('0' + v % 10);
    }
    *o++ = ']';
    put(t, s, (size_t)(o - s));
}

static void put_fr(text *t, const cz_bls12381_fr *v) {
    uint8_t b[32];
    cz_bls12381_fr_to_bytes_le(b, v);
    put_bytes(t, b, sizeof b);
}

/* {"path": [...]} of levels lo..lo+n-1. */
static void put_path(text *t, const cz__tree_path *p, unsigned lo, unsigned n) {
    puts_(t, "{\"path\":[");
    for (unsigned l = lo; l < lo + n; l++) {
        puts_(t, l > lo ? ",{\"hashes\":[" : "{\"hashes\":[");
        for (unsigned s = 0; s + 1 < p->levels[l].arity; s++) {
            if (s)
                put(t, ",", 1);
            put_fr(t, &p->levels[l].siblings[s]);
        }
        puts_(t, "],\"index\":");
        put_u64(t, p->levels[l].index);
        put(t, "}", 1);
    }
    puts_(t, "]}");
}

static void put_merkle(text *t, const cz__merkle_proof *m, const cz__tree_shape *tree) {
    const unsigned nsub = tree != NULL && tree->sub > 0, ntop = tree != NULL && tree->top > 0;
    const unsigned nbase = m->path.nlevels - nsub - ntop;
    puts_(t, ntop   ? "{\"data\":{\"Top\":{"
             : nsub ? "{\"data\":{\"Sub\":{"
                    : "{\"data\":{\"Single\":{");
    if (nsub || ntop) {
        puts_(t, "\"base_proof\":");
        put_path(t, &m->path, 0, nbase);
        puts_(t, ",\"sub_proof\":");
        put_path(t, &m->path, nbase, 1);
        if (ntop) {
            puts_(t, ",\"top_proof\":");
            put_path(t, &m->path, nbase + 1, 1);
        }
        puts_(t, ",\"root\":");
        put_fr(t, &m->root);
        puts_(t, ",\"leaf\":");
        put_fr(t, &m->leaf);
    } else {
        puts_(t, "\"root\":");
        put_fr(t, &m->root);
        puts_(t, ",\"leaf\":");
        put_fr(t, &m->leaf);
        puts_(t, ",\"path\":");
        put_path(t, &m->path, 0, nbase);
    }
    puts_(t, "}}}");
}

static void put_column(text *t, const cz__porep_column_proof *c, unsigned layers,
                       const cz__tree_shape *tree) {
    puts_(t, "{\"column\":{\"index\":");
    put_u64(t, c->index);
    puts_(t, ",\"rows\":[");
    for (unsigned l = 0; l < layers; l++) {
        if (l)
            put(t, ",", 1);
        put_fr(t, &c->rows[l]);
    }
    puts_(t, "],\"_h\":null},\"inclusion_proof\":");
    put_merkle(t, &c->inclusion, tree);
    put(t, "}", 1);
}

static void put_label(text *t, const cz__porep_label_proof *lp) {
    puts_(t, "{\"parents\":[");
    for (unsigned p = 0; p < CZ__POREP_PARENTS; p++) {
        if (p)
            put(t, ",", 1);
        put_fr(t, &lp->parents[p]);
    }
    puts_(t, "],\"layer_index\":");
    put_u64(t, lp->layer);
    puts_(t, ",\"node\":");
    put_u64(t, lp->node);
    put(t, "}", 1);
}

static void put_proof(text *t, const cz__porep_vanilla *v, const cz__porep_shape *sh) {
    puts_(t, "{\"comm_d_proofs\":");
    put_merkle(t, &v->comm_d_proof, NULL);
    puts_(t, ",\"comm_r_last_proof\":");
    put_merkle(t, &v->comm_r_last_proof, &sh->tree);
    puts_(t, ",\"replica_column_proofs\":{\"c_x\":");
    put_column(t, &v->c_x, sh->layers, &sh->tree);
    puts_(t, ",\"drg_parents\":[");
    for (int q = 0; q < CZ__POREP_DRG_PARENTS; q++) {
        if (q)
            put(t, ",", 1);
        put_column(t, &v->drg[q], sh->layers, &sh->tree);
    }
    puts_(t, "],\"exp_parents\":[");
    for (int q = 0; q < CZ__POREP_EXP_PARENTS; q++) {
        if (q)
            put(t, ",", 1);
        put_column(t, &v->exp[q], sh->layers, &sh->tree);
    }
    puts_(t, "]},\"labeling_proofs\":[");
    for (unsigned l = 0; l < sh->layers; l++) {
        if (l)
            put(t, ",", 1);
        put_label(t, &v->labels[l]);
    }
    puts_(t, "],\"encoding_proof\":");
    put_label(t, &v->encoding);
    put(t, "}", 1);
}

static int write_text(text *t, const cz__porep_c1 *c1, cz_errinfo *ei) {
    cz__porep_config cfg, v1; /* v1: the size's V1 proof, whose name keys the vanilla proofs */
    cz__porep_shape sh;
    int rc;
    if ((rc = cz__porep_config_get(&cfg, c1->registered_proof, ei)) != CZ_OK ||
        (rc = cz__porep_config_find(&v1, cfg.sector_size, CZ__POREP_INTERACTIVE, 0, ei)) != CZ_OK ||
        (rc = cz__porep_shape_get(&sh, cfg.sector_size, ei)) != CZ_OK)
        return rc;
    puts_(t, "{\"registered_proof\":\"");
    puts_(t, cfg.name);
    puts_(t, "\",\"vanilla_proofs\":{\"");
    puts_(t, v1.name);
    puts_(t, "\":[");
    for (unsigned k = 0; k < c1->npartitions; k++) {
        puts_(t, k ? ",[" : "[");
        for (unsigned i = 0; i < c1->per; i++) {
            if (i)
                put(t, ",", 1);
            put_proof(t, &c1->proofs[(size_t)k * c1->per + i], &sh);
        }
        put(t, "]", 1);
    }
    puts_(t, "]},\"comm_r\":");
    put_fr(t, &c1->comm_r);
    puts_(t, ",\"comm_d\":");
    put_fr(t, &c1->comm_d);
    puts_(t, ",\"replica_id\":");
    put_fr(t, &c1->replica_id);
    puts_(t, ",\"seed\":");
    put_bytes(t, c1->seed, 32);
    puts_(t, ",\"ticket\":");
    put_bytes(t, c1->ticket, 32);
    put(t, "}", 1);
    if (t->failed)
        return cz_fail(ei, CZ_ENOMEM, "porep c1: the JSON text");
    return CZ_OK;
}

int cz__porep_c1_write(uint8_t **out, size_t *len, const cz__porep_c1 *c1, cz_errinfo *ei) {
    text t = {0};
    int rc = write_text(&t, c1, ei);
    if (rc != CZ_OK) {
        free(t.p);
        return rc;
    }
    *out = (uint8_t *)t.p;
    *len = t.len;
    return CZ_OK;
}

int cz__porep_c1_write_envelope(uint8_t **out, size_t *len, const cz__porep_c1 *c1,
                                uint64_t sector_num, cz_errinfo *ei) {
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    cz__porep_config cfg;
    text j = {0}, t = {0};
    int rc;
    if ((rc = cz__porep_config_get(&cfg, c1->registered_proof, ei)) != CZ_OK ||
        (rc = write_text(&j, c1, ei)) != CZ_OK) {
        free(j.p);
        return rc;
    }
    puts_(&t, "{\"SectorNum\":");
    put_u64(&t, sector_num);
    puts_(&t, ",\"Phase1Out\":\"");
    for (size_t i = 0; i < j.len; i += 3) {
        const uint8_t *s = (const uint8_t *)j.p + i;
        const size_t n = j.len - i < 3 ? j.len - i : 3;
        const uint32_t v =
            (uint32_t)s[0] << 16 | (n > 1 ? (uint32_t)s[1] << 8 : 0) | (n > 2 ? (uint32_t)s[2] : 0);
        char q[4] = {alphabet[v >> 18], alphabet[v >> 12 & 63], n > 1 ? alphabet[v >> 6 & 63] : '=',
                     n > 2 ? alphabet[v & 63] : '='};
        put(&t, q, 4);
    }
    free(j.p);
    puts_(&t, "\",\"SectorSize\":");
    put_u64(&t, cfg.sector_size);
    put(&t, "}", 1);
    if (t.failed) {
        free(t.p);
        return cz_fail(ei, CZ_ENOMEM, "porep c1: the envelope");
    }
    *out = (uint8_t *)t.p;
    *len = t.len;
    return CZ_OK;
}
