/*
 * Reading PoRep C1 files (porep_c1.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_read.h"
#include "filecoin/porep_c1.h"
#include "filecoin/porep_c1_bincode.h"

typedef cz_bls12381_fr fr;

/* The required members of the C1, as bits. */
enum {
    HAVE_REGISTERED = 1,
    HAVE_VANILLA = 2,
    HAVE_COMM_R = 4,
    HAVE_COMM_D = 8,
    HAVE_REPLICA_ID = 16,
    HAVE_SEED = 32,
    HAVE_TICKET = 64,
    HAVE_ALL = 127
};

typedef struct reader {
    cz__jr jr;
    int code;         /* the error code when not CZ_EFORMAT (CZ_ENONCANON, CZ_EINVAL) */
    long k, i;        /* the partition and proof being read (-1: none) */
    const char *what; /* the member being read */
    cz__porep_c1 *c1;
    size_t cap; /* proofs allocated */
    cz__porep_shape shape;
    int have_shape;
    uint64_t key_size; /* the size of the vanilla_proofs enum key */
    cz__porep_config cfg;
    unsigned have;
} reader;

static int fail_code(reader *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Records an error of the C1's content (code when it is not a format error); -1. */
static int fail_code(reader *r, int code, const char *fmt, ...) {
    char msg[160];
    va_list ap;
    if (r->jr.rc != CZ_OK)
        return -1;
    r->code = code;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cz__jr_fail(&r->jr, "%s", msg);
}

/* A 32-byte domain value, a field element below r. */
static int read_fr(reader *r, fr *out) {
    uint8_t b[32];
    if (cz__jr_bytes(&r->jr, b, sizeof b) != 0)
        return -1;
    if (cz_bls12381_fr_from_bytes_le(out, b) != CZ_OK)
        return fail_code(r, CZ_ENONCANON, "%s: a value not below r", r->what);
    return 0;
}

/* {"path": [{"hashes": [arity - 1 values], "index": i} × n]} into levels lo.. of p. */
static int read_path(reader *r, cz__tree_path *p, unsigned lo, unsigned n, unsigned arity) {
    char key[32];
    unsigned got = 0;
    int m, e;
    if (cz__jr_object(&r->jr) != 0)
        return -1;
    while ((m = cz__jr_member(&r->jr, key, sizeof key)) == 1) {
        if (strcmp(key, "path") != 0) {
            if (cz__jr_skip(&r->jr) != 0)
                return -1;
            continue;
        }
        if (cz__jr_array(&r->jr) != 0)
            return -1;
        while ((e = cz__jr_next(&r->jr)) == 1) {
            cz__path_level *lv = &p->levels[lo + got];
            unsigned nh = 0, have = 0;
            if (got == n)
                return fail_code(r, CZ_EFORMAT, "%s: more path levels than the tree has", r->what);
            lv->arity = arity;
            if (cz__jr_object(&r->jr) != 0)
                return -1;
            while ((m = cz__jr_member(&r->jr, key, sizeof key)) == 1) {
                uint64_t idx;
                if (strcmp(key, "hashes") == 0) {
                    if (cz__jr_array(&r->jr) != 0)
                        return -1;
                    while ((e = cz__jr_next(&r->jr)) == 1) {
                        if (nh == arity - 1)
                            return fail_code(r, CZ_EFORMAT,
                                             "%s: a level with more siblings than "
                                             "its arity allows",
                                             r->what);
                        if (read_fr(r, &p->sib[lo + got][nh++]) != 0)
                            return -1;
                    }
                    if (e < 0)
                        return -1;
                    have |= 1;
                } else if (strcmp(key, "index") == 0) {
                    if (cz__jr_u64(&r->jr, &idx, arity - 1) != 0)
                        return -1;
                    lv->index = (uint32_t)idx;
                    have |= 2;
                } else if (cz__jr_skip(&r->jr) != 0) {
                    return -1;
                }
            }
            if (m < 0)
                return -1;
            if (have != 3 || nh != arity - 1)
                return fail_code(r, CZ_EFORMAT,
                                 "%s: a path level without its index or all its "
                                 "siblings",
                                 r->what);
            got++;
        }
        if (e < 0)
            return -1;
    }
    if (m < 0)
        return -1;
    if (got != n)
        return fail_code(r, CZ_EFORMAT, "%s: fewer path levels than the tree has", r->what);
    return 0;
}

/* A MerkleProof of tree D (sha 1: binary) or of trees C and R (the shape's arities). */
static int read_merkle(reader *r, cz__merkle_proof *mp, int sha) {
    const cz__porep_shape *sh = &r->shape;
    const unsigned nsub = !sha && sh->tree.sub > 0, ntop = !sha && sh->tree.top > 0;
    const unsigned nlev = sha ? sh->levels_d : sh->levels_rc, nbase = nlev - nsub - ntop;
    const char *variant = ntop ? "Top" : nsub ? "Sub" : "Single";
    char key[32];
    unsigned have = 0, want = 3 | (nbase ? 4 : 0) | (nsub ? 8 : 0) | (ntop ? 16 : 0);
    int m, m2;
    mp->path.nlevels = nlev;
    if (cz__jr_object(&r->jr) != 0)
        return -1;
    while ((m = cz__jr_member(&r->jr, key, sizeof key)) == 1) {
        if (strcmp(key, "data") != 0) {
            if (cz__jr_skip(&r->jr) != 0)
                return -1;
            continue;
        }
        if (cz__jr_object(&r->jr) != 0)
            return -1;
        if ((m2 = cz__jr_member(&r->jr, key, sizeof key)) != 1)
            return m2 < 0 ? -1 : fail_code(r, CZ_EFORMAT, "%s: an empty proof", r->what);
        if (strcmp(key, variant) != 0)
            return fail_code(r, CZ_EFORMAT, "%s: a proof of another tree shape (expected %s)",
                             r->what, variant);
        if (cz__jr_object(&r->jr) != 0)
            return -1;
        while ((m2 = cz__jr_member(&r->jr, key, sizeof key)) == 1) {
            int rc = 0;
            if (strcmp(key, "root") == 0)
                rc = read_fr(r, &mp->root), have |= 1;
            else if (strcmp(key, "leaf") == 0)
                rc = read_fr(r, &mp->leaf), have |= 2;
            else if (strcmp(key, ntop || nsub ? "base_proof" : "path") == 0)
                rc = read_path(r, &mp->path, 0, nbase, sha ? 2 : sh->tree.base), have |= 4;
            else if (nsub && strcmp(key, "sub_proof") == 0)
                rc = read_path(r, &mp->path, nbase, 1, sh->tree.sub), have |= 8;
            else if (ntop && strcmp(key, "top_proof") == 0)
                rc = read_path(r, &mp->path, nbase + nsub, 1, sh->tree.top), have |= 16;
            else
                rc = cz__jr_skip(&r->jr);
            if (rc != 0)
                return -1;
        }
        if (m2 < 0 || cz__jr_member(&r->jr, key, sizeof key) != 0)
            return m2 < 0 || r->jr.rc != CZ_OK
                       ? -1
                       : fail_code(r, CZ_EFORMAT, "%s: a proof with two variants", r->what);
    }
    if (m < 0)
        return -1;
    if ((have & want) != want)
        return fail_code(r, CZ_EFORMAT, "%s: a proof without its root, leaf or paths", r->what);
    return 0;
}

/* {"column": {"index", "rows", "_h"}, "inclusion_proof"}. */
static int read_column(reader *r, cz__porep_column_proof *cp, const char *what) {
    char key[32];
    unsigned have = 0, nrows = 0;
    int m, m2, e;
    r->what = what;
    if (cz__jr_object(&r->jr) != 0)
        return -1;
    while ((m = cz__jr_member(&r->jr, key, sizeof key)) == 1) {
        if (strcmp(key, "inclusion_proof") == 0) {
            if (read_merkle(r, &cp->inclusion, 0) != 0)
                return -1;
            have |= 1;
        } else if (strcmp(key, "column") == 0) {
            if (cz__jr_object(&r->jr) != 0)
                return -1;
            while ((m2 = cz__jr_member(&r->jr, key, sizeof key)) == 1) {
                uint64_t idx;
                if (strcmp(key, "index") == 0) {
                    if (cz__jr_u64(&r->jr, &idx, r->shape.nodes - 1) != 0)
                        return -1;
                    cp->index = (uint32_t)idx;
                    have |= 2;
                } else if (strcmp(key, "rows") == 0) {
                    if (cz__jr_array(&r->jr) != 0)
                        return -1;
                    while ((e = cz__jr_next(&r->jr)) == 1) {
                        if (nrows == r->shape.layers)
                            return fail_code(r, CZ_EFORMAT, "%s: more rows than layers", what);
                        if (read_fr(r, &cp->rows[nrows++]) != 0)
                            return -1;
                    }
                    if (e < 0)
                        return -1;
                    have |= 4;
                } else if (cz__jr_skip(&r->jr) != 0) {
                    return -1;
                }
            }
            if (m2 < 0)
                return -1;
        } else if (cz__jr_skip(&r->jr) != 0) {
            return -1;
        }
    }
    if (m < 0)
        return -1;
    if (have != 7 || nrows != r->shape.layers)
        return fail_code(r, CZ_EFORMAT,
                         "%s: a column without its index, its rows (one per "
                         "layer) or its inclusion proof",
                         what);
    return 0;
}

/* [n columns]. */
static int read_columns(reader *r, cz__porep_column_proof *cp, unsigned n, const char *what) {
    unsigned got = 0;
    int e;
    if (cz__jr_array(&r->jr) != 0)
        return -1;
    while ((e = cz__jr_next(&r->jr)) == 1) {
        if (got == n)
            return fail_code(r, CZ_EFORMAT, "%s: more columns than parents", what);
        if (read_column(r, &cp[got++], what) != 0)
            return -1;
    }
    if (e < 0)
        return -1;
    return got == n ? 0 : fail_code(r, CZ_EFORMAT, "%s: fewer columns than parents", what);
}

/* {"parents": [37], "layer_index", "node"}. */
static int read_label(reader *r, cz__porep_label_proof *lp, const char *what) {
    char key[32];
    unsigned have = 0, np = 0;
    uint64_t v;
    int m, e;
    r->what = what;
    if (cz__jr_object(&r->jr) != 0)
        return -1;
    while ((m = cz__jr_member(&r->jr, key, sizeof key)) == 1) {
        if (strcmp(key, "parents") == 0) {
            if (cz__jr_array(&r->jr) != 0)
                return -1;
            while ((e = cz__jr_next(&r->jr)) == 1) {
                if (np == CZ__POREP_PARENTS)
                    return fail_code(r, CZ_EFORMAT, "%s: more than 37 parents", what);
                if (read_fr(r, &lp->parents[np++]) != 0)
                    return -1;
            }
            if (e < 0)
                return -1;
            have |= 1;
        } else if (strcmp(key, "layer_index") == 0) {
            if (cz__jr_u64(&r->jr, &v, UINT32_MAX) != 0)
                return -1;
            lp->layer = (uint32_t)v;
            have |= 2;
        } else if (strcmp(key, "node") == 0) {
            if (cz__jr_u64(&r->jr, &lp->node, UINT64_MAX) != 0)
                return -1;
            have |= 4;
        } else if (cz__jr_skip(&r->jr) != 0) {
            return -1;
        }
    }
    if (m < 0)
        return -1;
    if (have != 7 || np != CZ__POREP_PARENTS)
        return fail_code(r, CZ_EFORMAT, "%s: a proof without its layer, node or 37 parents", what);
    return 0;
}

/* {"c_x", "drg_parents", "exp_parents"}. */
static int read_replica_columns(reader *r, cz__porep_vanilla *v) {
    char key[32];
    unsigned have = 0;
    int m, rc;
    if (cz__jr_object(&r->jr) != 0)
        return -1;
    while ((m = cz__jr_member(&r->jr, key, sizeof key)) == 1) {
        if (strcmp(key, "c_x") == 0)
            rc = read_column(r, &v->c_x, "c_x"), have |= 1;
        else if (strcmp(key, "drg_parents") == 0)
            rc = read_columns(r, v->drg, CZ__POREP_DRG_PARENTS, "drg_parents"), have |= 2;
        else if (strcmp(key, "exp_parents") == 0)
            rc = read_columns(r, v->exp, CZ__POREP_EXP_PARENTS, "exp_parents"), have |= 4;
        else
            rc = cz__jr_skip(&r->jr);
        if (rc != 0)
            return -1;
    }
    if (m < 0)
        return -1;
    return have == 7 ? 0
                     : fail_code(r, CZ_EFORMAT, "%s: c_x, drg_parents or exp_parents missing",
                                 "replica_column_proofs");
}

/* One stacked::Proof. */
static int read_proof(reader *r, cz__porep_vanilla *v) {
    char key[32];
    unsigned have = 0, nl = 0;
    int m, e, rc;
    if (cz__jr_object(&r->jr) != 0)
        return -1;
    while ((m = cz__jr_member(&r->jr, key, sizeof key)) == 1) {
        rc = 0;
        if (strcmp(key, "comm_d_proofs") == 0) {
            r->what = "comm_d_proofs";
            rc = read_merkle(r, &v->comm_d_proof, 1), have |= 1;
        } else if (strcmp(key, "comm_r_last_proof") == 0) {
            r->what = "comm_r_last_proof";
            rc = read_merkle(r, &v->comm_r_last_proof, 0), have |= 2;
        } else if (strcmp(key, "replica_column_proofs") == 0) {
            r->what = "replica_column_proofs";
            rc = read_replica_columns(r, v), have |= 4;
        } else if (strcmp(key, "labeling_proofs") == 0) {
            if (cz__jr_array(&r->jr) != 0)
                return -1;
            while ((e = cz__jr_next(&r->jr)) == 1) {
                if (nl == r->shape.layers)
                    return fail_code(r, CZ_EFORMAT, "%s: more than one per layer",
                                     "labeling_proofs");
                if (read_label(r, &v->labels[nl++], "labeling_proofs") != 0)
                    return -1;
            }
            rc = e < 0 ? -1 : 0;
            have |= 8;
        } else if (strcmp(key, "encoding_proof") == 0) {
            rc = read_label(r, &v->encoding, "encoding_proof"), have |= 16;
        } else {
            rc = cz__jr_skip(&r->jr);
        }
        if (rc != 0)
            return -1;
    }
    if (m < 0)
        return -1;
    r->what = "the proof";
    if (have != 31)
        return fail_code(r, CZ_EFORMAT,
                         "%s: a member is missing (comm_d_proofs, "
                         "comm_r_last_proof, replica_column_proofs, "
                         "labeling_proofs, encoding_proof)",
                         r->what);
    if (nl != r->shape.layers)
        return fail_code(r, CZ_EFORMAT, "%s: not one labeling proof per layer", r->what);
    return 0;
}

/* The size of an enum key "StackedDrg<size>V1" (the name of the size's V1 seal proof); 0 when it
 * is none. */
static uint64_t key_size(const char *key) {
    cz__porep_config cfg;
    if (cz__porep_config_by_name(&cfg, key, NULL) != CZ_OK || cfg.kind != CZ__POREP_INTERACTIVE ||
        cfg.api_minor != 0)
        return 0;
    return cfg.sector_size;
}

/* Room for one more proof. */
static int grow(reader *r) {
    cz__porep_c1 *c1 = r->c1;
    const size_t n = (size_t)c1->npartitions * c1->per + (size_t)r->i;
    if (n < r->cap)
        return 0;
    size_t cap = r->cap ? 2 * r->cap : 32;
    cz__porep_vanilla *p = realloc(c1->proofs, cap * sizeof *p);
    if (p == NULL)
        return fail_code(r, CZ_ENOMEM, "%s: out of memory", "vanilla_proofs");
    memset(p + r->cap, 0, (cap - r->cap) * sizeof *p);
    c1->proofs = p;
    r->cap = cap;
    return 0;
}

/* {"StackedDrg<size>V1": [[Proof × per] × partitions]}. */
static int read_vanilla(reader *r) {
    cz__porep_c1 *c1 = r->c1;
    char key[64];
    int m, e, e2;
    cz_errinfo se;
    if (cz__jr_object(&r->jr) != 0)
        return -1;
    if ((m = cz__jr_member(&r->jr, key, sizeof key)) != 1)
        return m < 0 ? -1 : fail_code(r, CZ_EFORMAT, "%s: no proofs", "vanilla_proofs");
    if ((r->key_size = key_size(key)) == 0)
        return fail_code(r, CZ_EFORMAT, "vanilla_proofs: \"%s\" is no StackedDrg<size>V1", key);
    cz_errinfo_clear(&se);
    if (cz__porep_shape_get(&r->shape, r->key_size, &se) != CZ_OK)
        return fail_code(r, CZ_EINVAL, "vanilla_proofs: %s", se.msg);
    r->have_shape = 1;
    if (cz__jr_array(&r->jr) != 0)
        return -1;
    while ((e = cz__jr_next(&r->jr)) == 1) {
        r->i = 0;
        r->k = c1->npartitions;
        if (cz__jr_array(&r->jr) != 0)
            return -1;
        while ((e2 = cz__jr_next(&r->jr)) == 1) {
            if (grow(r) != 0 ||
                read_proof(r, &c1->proofs[(size_t)c1->npartitions * c1->per + (size_t)r->i]) != 0)
                return -1;
            r->i++;
        }
        if (e2 < 0)
            return -1;
        if (c1->npartitions > 0 && (unsigned)r->i != c1->per)
            return fail_code(r, CZ_EFORMAT, "%s: partitions of different sizes", "vanilla_proofs");
        c1->per = (unsigned)r->i;
        c1->npartitions++;
    }
    r->k = r->i = -1;
    if (e < 0)
        return -1;
    if (cz__jr_member(&r->jr, key, sizeof key) != 0)
        return r->jr.rc != CZ_OK ? -1
                                 : fail_code(r, CZ_EFORMAT, "%s: two proof sets", "vanilla_proofs");
    return 0;
}

/* One member of the C1 object, its key read. */
static int read_c1_member(reader *r, const char *key) {
    cz__porep_c1 *c1 = r->c1;
    char name[80];
    cz_errinfo se;
    r->what = key;
    if (strcmp(key, "registered_proof") == 0) {
        if (cz__jr_string(&r->jr, name, sizeof name) != 0)
            return -1;
        cz_errinfo_clear(&se);
        if (cz__porep_config_by_name(&r->cfg, name, &se) != CZ_OK)
            return fail_code(r, CZ_EINVAL, "registered_proof: \"%s\" is no PoRep proof", name);
        c1->registered_proof = r->cfg.registered_proof;
        r->have |= HAVE_REGISTERED;
        return 0;
    }
    if (strcmp(key, "vanilla_proofs") == 0)
        return r->have |= HAVE_VANILLA, read_vanilla(r);
    if (strcmp(key, "comm_r") == 0)
        return r->have |= HAVE_COMM_R, read_fr(r, &c1->comm_r);
    if (strcmp(key, "comm_d") == 0)
        return r->have |= HAVE_COMM_D, read_fr(r, &c1->comm_d);
    if (strcmp(key, "replica_id") == 0)
        return r->have |= HAVE_REPLICA_ID, read_fr(r, &c1->replica_id);
    if (strcmp(key, "seed") == 0)
        return r->have |= HAVE_SEED, cz__jr_bytes(&r->jr, c1->seed, 32);
    if (strcmp(key, "ticket") == 0)
        return r->have |= HAVE_TICKET, cz__jr_bytes(&r->jr, c1->ticket, 32);
    return cz__jr_skip(&r->jr);
}

/* The members of a C1 object whose first key is read, to its end. */
static int read_c1_rest(reader *r, char *key, size_t cap) {
    int m = 1;
    while (m == 1) {
        if (read_c1_member(r, key) != 0)
            return -1;
        m = cz__jr_member(&r->jr, key, cap);
    }
    r->what = "the C1";
    return m < 0 ? -1 : cz__jr_end(&r->jr);
}

/* What the whole C1 must agree on, once read. */
static int check_c1(reader *r, const cz__porep_envelope *env, cz_errinfo *ei) {
    const cz__porep_c1 *c1 = r->c1;
    static const char *const names[] = {"registered_proof", "vanilla_proofs", "comm_r", "comm_d",
                                        "replica_id",       "seed",           "ticket"};
    for (unsigned b = 0; b < 7; b++)
        if (!(r->have & (1u << b)))
            return cz_fail(ei, CZ_EFORMAT, "porep c1: no %s", names[b]);
    if (r->cfg.sector_size != r->key_size)
        return cz_fail(ei, CZ_EINVAL,
                       "porep c1: registered_proof %s is of %llu-byte sectors, its vanilla proofs "
                       "of %llu",
                       r->cfg.name, (unsigned long long)r->cfg.sector_size,
                       (unsigned long long)r->key_size);
    if (env != NULL && env->enveloped && env->sector_size != r->cfg.sector_size)
        return cz_fail(
            ei, CZ_EINVAL, "porep c1: the envelope's SectorSize %llu is not the C1's %llu",
            (unsigned long long)env->sector_size, (unsigned long long)r->cfg.sector_size);
    if (c1->npartitions != r->cfg.partitions || c1->per != r->cfg.challenges)
        return cz_fail(ei, CZ_EFORMAT, "porep c1: %u partitions of %u proofs; %s has %u of %u",
                       c1->npartitions, c1->per, r->cfg.name, r->cfg.partitions, r->cfg.challenges);
    return CZ_OK;
}

/* The reader's error with where it was met. */
static int read_error(const reader *r, const char *doc, cz_errinfo *ei) {
    cz_errinfo je;
    char where[96] = "";
    cz_errinfo_clear(&je);
    cz__jr_status(&r->jr, doc, &je);
    if (r->k >= 0)
        snprintf(where, sizeof where, "partition %ld, proof %ld: ", r->k, r->i);
    return cz_fail(ei, r->code != CZ_OK ? r->code : CZ_EFORMAT, "porep c1: %s%s", where, je.msg);
}

int cz__porep_c1_read(cz__porep_c1 *c1, cz__porep_envelope *env, const uint8_t *data, size_t len,
                      cz_errinfo *ei) {
    reader *r = calloc(1, sizeof *r);
    cz__porep_envelope e = {0};
    const uint8_t *b64 = NULL;
    size_t b64_len = 0;
    char key[64];
    const char *doc = "the document";
    int m, rc = CZ_OK;
    memset(c1, 0, sizeof *c1);
    if (r == NULL)
        return cz_fail(ei, CZ_ENOMEM, "porep c1: reader");
    r->c1 = c1;
    r->k = r->i = -1;
    cz__jr_init(&r->jr, data, len, 0);
    if (cz__jr_object(&r->jr) != 0 || (m = cz__jr_member(&r->jr, key, sizeof key)) < 0)
        goto fail;
    if (m == 0) {
        rc = cz_fail(ei, CZ_EFORMAT, "porep c1: an empty object");
        goto out;
    }
    if (strcmp(key, "SectorNum") == 0 || strcmp(key, "SectorSize") == 0 ||
        strcmp(key, "Phase1Out") == 0) {
        e.enveloped = 1;
        for (; m == 1; m = cz__jr_member(&r->jr, key, sizeof key)) {
            int x = strcmp(key, "SectorNum") == 0    ? cz__jr_u64(&r->jr, &e.sector_num, INT64_MAX)
                    : strcmp(key, "SectorSize") == 0 ? cz__jr_u64(&r->jr, &e.sector_size, INT64_MAX)
                    : strcmp(key, "Phase1Out") == 0  ? cz__jr_string_span(&r->jr, &b64, &b64_len)
                                                     : cz__jr_skip(&r->jr);
            if (x != 0)
                goto fail;
        }
        if (m < 0 || cz__jr_end(&r->jr) != 0)
            goto fail;
        if (b64 == NULL || e.sector_size == 0) {
            rc = cz_fail(ei, CZ_EFORMAT, "porep c1: the envelope has no %s",
                         b64 == NULL ? "Phase1Out" : "SectorSize");
            goto out;
        }
        cz__jr_init(&r->jr, b64, b64_len, 1);
        doc = "Phase1Out";
        if (cz__jr_object(&r->jr) != 0 || (m = cz__jr_member(&r->jr, key, sizeof key)) < 0)
            goto fail;
        if (m == 0) {
            rc = cz_fail(ei, CZ_EFORMAT, "porep c1: Phase1Out is an empty object");
            goto out;
        }
    }
    if (read_c1_rest(r, key, sizeof key) != 0)
        goto fail;
    if ((rc = check_c1(r, &e, ei)) == CZ_OK)
        cz__porep_c1_fix_paths(c1);
    goto out;
fail:
    rc = read_error(r, doc, ei);
out:
    if (env != NULL)
        *env = e;
    free(r);
    return rc;
}

int cz__porep_c1_read_any(cz__porep_c1 *c1, cz__porep_envelope *env, const uint8_t *data,
                          size_t len, uint64_t registered, cz_errinfo *ei) {
    size_t i = 0;
    while (i < len && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t'))
        i++;
    if (i < len && data[i] == '{')
        return cz__porep_c1_read(c1, env, data, len, ei);
    if (env != NULL)
        memset(env, 0, sizeof *env);
    if (registered == UINT64_MAX) {
        memset(c1, 0, sizeof *c1);
        return cz_fail(ei, CZ_EINVAL,
                       "porep c1: not JSON, so bincode, which does not name its registered proof: "
                       "give it");
    }
    return cz__porep_c1_read_bincode(c1, data, len, registered, ei);
}
