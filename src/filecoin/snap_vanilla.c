/*
 * SnapDeals vanilla proofs (snap_vanilla.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/bincode.h"
#include "filecoin/snap_vanilla.h"
#include "gadgets/poseidon.h"

typedef cz_bls12381_fr fr;

static const cz__tree_shape binary = {2, 0, 0};

/* Tree D's shape, hash and path length: binary SHA-256, or tree R's in the Poseidon variant. */
static const cz__tree_shape *tree_d(const cz__snap_shape *s) {
    return s->variant == CZ__SNAP_POSEIDON ? &s->tree_r : &binary;
}

static cz__tree_hash tree_d_hash(const cz__snap_shape *s) {
    return s->variant == CZ__SNAP_POSEIDON ? CZ__TREE_POSEIDON : CZ__TREE_SHA256;
}

static unsigned tree_d_levels(const cz__snap_shape *s) {
    return s->variant == CZ__SNAP_POSEIDON ? s->levels_r : s->challenge_bits;
}

/* ---- bytes ---- */

static const char *const proof_names[3] = {"proof_r_old", "proof_d_new", "proof_r_new"};

int cz__snap_vanilla_decode(cz__snap_vanilla *out, const cz__snap_shape *s, const uint8_t *data,
                            size_t len, uint32_t k, cz_errinfo *ei) {
    cz__bincode_reader r;
    char name[48];
    memset(out, 0, sizeof *out);
    snprintf(name, sizeof name, "snap vanilla proof of partition %u", k);
    cz__bincode_reader_init(&r, data, len, name, ei);
    if (s->apex_leaves > CZ__SNAP_MAX_APEX || s->challenges > CZ__SNAP_MAX_CHALLENGES)
        return cz_fail(ei, CZ_EINVAL, "snap: shape out of range");
    if (cz__bincode_fr(&r, &out->comm_c, "comm_c") != 0)
        return r.rc;
    if (s->variant == CZ__SNAP_SHA256 &&
        cz__bincode_count(&r, s->apex_leaves, "the number of apex leaves") != 0)
        return r.rc;
    out->napex = s->apex_leaves;
    for (unsigned a = 0; a < s->apex_leaves; a++) {
        snprintf(r.where, sizeof r.where, "apex leaf %u", a);
        if (cz__bincode_fr(&r, &out->apex[a], "value") != 0)
            return r.rc;
    }
    r.where[0] = 0;
    if (cz__bincode_count(&r, s->challenges, "the number of challenge proofs") != 0)
        return r.rc;
    if ((out->ch = calloc(s->challenges, sizeof *out->ch)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "snap: %u challenge proofs", s->challenges);
    out->nchallenges = s->challenges;
    for (unsigned c = 0; c < s->challenges; c++) {
        cz__merkle_proof *m[3] = {&out->ch[c].r_old, &out->ch[c].d_new, &out->ch[c].r_new};
        for (int q = 0; q < 3; q++) {
            snprintf(r.where, sizeof r.where, "challenge %u: %s", c, proof_names[q]);
            if (cz__bincode_merkle(&r, m[q], q == 1 ? tree_d(s) : &s->tree_r,
                                   q == 1 ? tree_d_levels(s) : s->levels_r) != 0)
                return r.rc;
        }
    }
    r.where[0] = 0;
    return cz__bincode_end(&r) != 0 ? r.rc : CZ_OK;
}

void cz__snap_vanilla_free(cz__snap_vanilla *v) {
    free(v->ch);
    memset(v, 0, sizeof *v);
}

/* Writes v through w (counting only when w->p is NULL). */
static void put_vanilla(cz__bincode_writer *w, const cz__snap_vanilla *v, const cz__snap_shape *s) {
    cz__bincode_put_fr(w, &v->comm_c);
    if (s->variant == CZ__SNAP_SHA256) {
        cz__bincode_put_u64(w, v->napex);
        for (unsigned a = 0; a < v->napex; a++)
            cz__bincode_put_fr(w, &v->apex[a]);
    }
    cz__bincode_put_u64(w, v->nchallenges);
    for (unsigned c = 0; c < v->nchallenges; c++) {
        cz__bincode_put_merkle(w, &v->ch[c].r_old, &s->tree_r);
        cz__bincode_put_merkle(w, &v->ch[c].d_new, tree_d(s));
        cz__bincode_put_merkle(w, &v->ch[c].r_new, &s->tree_r);
    }
}

int cz__snap_vanilla_encode(uint8_t **out, size_t *len, const cz__snap_vanilla *v,
                            const cz__snap_shape *s, cz_errinfo *ei) {
    cz__bincode_writer w = {NULL, 0};
    put_vanilla(&w, v, s);
    *len = w.at;
    if ((*out = malloc(w.at)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "snap: %zu bytes of vanilla proof", w.at);
    w.p = *out;
    w.at = 0;
    put_vanilla(&w, v, s);
    return CZ_OK;
}

/* ---- randomness ---- */

static void hash_custom(fr *out, const fr *a, const fr *b) {
    const cz__poseidon *p;
    fr tag, in[2] = {*a, *b};
    /* arity 2 always has constants: only a failed allocation at first use can fail, and the
     * process cannot hash anything then */
    CZ_ASSERT(cz__poseidon_get(&p, 2, NULL) == CZ_OK);
    cz__poseidon_tag_custom(&tag, 1);
    cz__poseidon_hash(out, p, &tag, in);
}

void cz__snap_phi(fr *phi, const fr *comm_d_new, const fr *comm_r_old) {
    hash_custom(phi, comm_d_new, comm_r_old);
}

void cz__snap_rho(fr *rho, const fr *phi, uint64_t high) {
    fr h;
    cz_bls12381_fr_from_u64(&h, high);
    hash_custom(rho, phi, &h);
}

void cz__snap_challenges(uint32_t *out, const cz__snap_shape *s, const fr *comm_r_new, uint32_t k) {
    const unsigned rand_bits = cz__snap_rand_bits(s), per = 254 / rand_bits;
    const unsigned digests = (s->challenges + per - 1) / per;
    uint8_t le[32];
    for (unsigned c = 0; c < s->challenges; c++) {
        uint32_t v = 0;
        if (c % per == 0) {
            fr index, digest;
            cz_bls12381_fr_from_u64(&index, (uint64_t)k * digests + c / per);
            hash_custom(&digest, comm_r_new, &index);
            cz_bls12381_fr_to_bytes_le(le, &digest);
        }
        for (unsigned b = 0; b < rand_bits; b++) {
            const unsigned at = (c % per) * rand_bits + b;
            v |= (uint32_t)((le[at / 8] >> (at % 8)) & 1) << b;
        }
        out[c] = v | k << rand_bits;
    }
}

/* ---- the check ---- */

/* Tree D's node at the apex level on the path of proof d (its first levels_to_apex levels). */
static int apex_node(fr *out, const cz__merkle_proof *d, const cz__snap_shape *s) {
    return cz__tree_path_root(out, &d->leaf, d->path.levels, s->levels_to_apex, CZ__TREE_SHA256,
                              NULL);
}

/* The apex tree's root from the leaves, then up the partition path (ch[0]'s tree D levels above
 * the apex tree) to comm_d. */
static int partition_root(fr *root, const cz__snap_vanilla *v, const cz__snap_shape *s) {
    const unsigned top = s->levels_to_apex + s->apex_bits;
    fr row[CZ__SNAP_MAX_APEX];
    cz__path_level lv = {2, 0, NULL};
    memcpy(row, v->apex, s->apex_leaves * sizeof *row);
    for (unsigned n = s->apex_leaves; n > 1; n /= 2)
        for (unsigned i = 0; i < n / 2; i++) {
            lv.siblings = &row[2 * i + 1];
            if (cz__tree_path_root(&row[i], &row[2 * i], &lv, 1, CZ__TREE_SHA256, NULL) != CZ_OK)
                return CZ_EINVAL;
        }
    return cz__tree_path_root(root, &row[0], v->ch[0].d_new.path.levels + top,
                              s->challenge_bits - top, CZ__TREE_SHA256, NULL);
}

/* Whether levels from..to of two tree D paths have the same siblings and indexes. */
static int same_levels(const cz__tree_path *a, const cz__tree_path *b, unsigned from, unsigned to) {
    for (unsigned l = from; l < to; l++)
        if (a->levels[l].index != b->levels[l].index ||
            !cz_bls12381_fr_eq(&a->levels[l].siblings[0], &b->levels[l].siblings[0]))
            return 0;
    return 1;
}

/* One challenge's proofs (see the file comment). */
static int check_challenge(const cz__snap_vanilla *v, const cz__snap_shape *s,
                           const cz__snap_public *pub, const fr *phi, unsigned i, uint32_t c,
                           cz_errinfo *ei) {
    const cz__snap_challenge_proof *cp = &v->ch[i];
    const cz__merkle_proof *m[3] = {&cp->r_old, &cp->d_new, &cp->r_new};
    const fr *roots[3] = {&v->ch[0].r_old.root, &pub->comm_d_new, &v->ch[0].r_new.root};
    const unsigned top = s->levels_to_apex + s->apex_bits;
    fr t, rho, apex;
    for (int q = 0; q < 3; q++) {
        const cz__tree_path *p = &m[q]->path;
        if (cz__tree_path_node(p->levels, p->nlevels) != c)
            return cz_fail(ei, CZ_EVERIFY,
                           "snap: partition %u, challenge %u: %s opens node %llu, "
                           "not the challenge %u",
                           pub->k, i, proof_names[q],
                           (unsigned long long)cz__tree_path_node(p->levels, p->nlevels), c);
        if (!cz_bls12381_fr_eq(&m[q]->root, roots[q]))
            return cz_fail(ei, CZ_EVERIFY,
                           "snap: partition %u, challenge %u: %s has another root "
                           "than %s",
                           pub->k, i, proof_names[q],
                           q == 1 ? "comm_d_new" : "the first challenge's");
        if (cz__tree_path_root(&t, &m[q]->leaf, p->levels, p->nlevels,
                               q == 1 ? tree_d_hash(s) : CZ__TREE_POSEIDON, NULL) != CZ_OK ||
            !cz_bls12381_fr_eq(&t, &m[q]->root))
            return cz_fail(ei, CZ_EVERIFY,
                           "snap: partition %u, challenge %u: %s does not lead "
                           "from its leaf to its root",
                           pub->k, i, proof_names[q]);
    }
    cz__snap_rho(&rho, phi, c >> (s->challenge_bits - pub->h));
    cz_bls12381_fr_mul(&t, &cp->d_new.leaf, &rho);
    cz_bls12381_fr_add(&t, &t, &cp->r_old.leaf);
    if (!cz_bls12381_fr_eq(&t, &cp->r_new.leaf))
        return cz_fail(ei, CZ_EVERIFY,
                       "snap: partition %u, challenge %u: leaf_r_new is not "
                       "leaf_r_old + leaf_d_new·rho",
                       pub->k, i);
    if (s->variant == CZ__SNAP_POSEIDON)
        return CZ_OK; /* tree D's path ends at comm_d_new itself */
    if (apex_node(&apex, &cp->d_new, s) != CZ_OK ||
        !cz_bls12381_fr_eq(&apex, &v->apex[(c >> s->levels_to_apex) & (s->apex_leaves - 1)]))
        return cz_fail(ei, CZ_EVERIFY,
                       "snap: partition %u, challenge %u: its tree D path does "
                       "not pass through its apex leaf",
                       pub->k, i);
    if (!same_levels(&cp->d_new.path, &v->ch[0].d_new.path, top, s->challenge_bits))
        return cz_fail(ei, CZ_EVERIFY,
                       "snap: partition %u, challenge %u: its partition path is "
                       "not the first challenge's",
                       pub->k, i);
    return CZ_OK;
}

int cz__snap_vanilla_check(const cz__snap_vanilla *v, const cz__snap_shape *s,
                           const cz__snap_public *pub, cz_errinfo *ei) {
    uint32_t ch[CZ__SNAP_MAX_CHALLENGES];
    fr two[2], t, phi;
    int rc;
    if (s->challenges > CZ__SNAP_MAX_CHALLENGES)
        return cz_fail(ei, CZ_EINVAL, "snap: shape out of range");
    if (pub->k >= s->partitions)
        return cz_fail(ei, CZ_EINVAL, "snap: partition %u of %u", pub->k, s->partitions);
    if (cz__snap_h_index(s, pub->h) < 0)
        return cz_fail(ei, CZ_EINVAL, "snap: h = %u is not one of this sector size's (%u..%u)",
                       pub->h, s->hs[0], s->hs[CZ__SNAP_HS - 1]);
    if (v->napex != s->apex_leaves || v->nchallenges != s->challenges || v->ch == NULL)
        return cz_fail(ei, CZ_EINVAL, "snap: partition %u: a proof of another shape", pub->k);
    two[0] = v->comm_c;
    for (int q = 0; q < 2; q++) {
        two[1] = q ? v->ch[0].r_new.root : v->ch[0].r_old.root;
        if ((rc = cz__poseidon_merkle(&t, two, 2, ei)) != CZ_OK)
            return rc;
        if (!cz_bls12381_fr_eq(&t, q ? &pub->comm_r_new : &pub->comm_r_old))
            return cz_fail(ei, CZ_EVERIFY,
                           "snap: partition %u: Poseidon(comm_c, root_r_%s) is not "
                           "comm_r_%s",
                           pub->k, q ? "new" : "old", q ? "new" : "old");
    }
    if (s->variant == CZ__SNAP_SHA256 &&
        (partition_root(&t, v, s) != CZ_OK || !cz_bls12381_fr_eq(&t, &pub->comm_d_new)))
        return cz_fail(ei, CZ_EVERIFY,
                       "snap: partition %u: the apex leaves and the partition "
                       "path do not lead to comm_d_new",
                       pub->k);
    cz__snap_phi(&phi, &pub->comm_d_new, &pub->comm_r_old);
    cz__snap_challenges(ch, s, &pub->comm_r_new, pub->k);
    for (unsigned i = 0; i < s->challenges; i++)
        if ((rc = check_challenge(v, s, pub, &phi, i, ch[i], ei)) != CZ_OK)
            return rc;
    return CZ_OK;
}

/* ---- the witness ---- */

/* The siblings of levels from..to of p, level after level, into out; how many. */
static size_t flat_path(fr *out, const cz__tree_path *p, unsigned from, unsigned to) {
    size_t m = 0;
    for (unsigned l = from; l < to; l++)
        for (unsigned j = 0; j + 1 < p->levels[l].arity; j++)
            out[m++] = p->levels[l].siblings[j];
    return m;
}

int cz__snap_witness_make(cz__snap_witness *w, const cz__snap_vanilla *v, const cz__snap_shape *s,
                          const cz__snap_public *pub, cz_errinfo *ei) {
    const int poseidon = s->variant == CZ__SNAP_POSEIDON;
    const size_t per = (poseidon ? 3 : 2) * (size_t)s->levels_r * 7 + s->levels_to_apex;
    const unsigned top = s->levels_to_apex + s->apex_bits;
    int hi = cz__snap_h_index(s, pub->h);
    memset(w, 0, sizeof *w);
    if (hi < 0 || v->nchallenges != s->challenges || v->nchallenges > CZ__SNAP_MAX_CHALLENGES)
        return cz_fail(ei, CZ_EINVAL, "snap: witness of a proof of another shape");
    if ((w->paths = calloc(per * s->challenges, sizeof *w->paths)) == NULL ||
        (w->ch = calloc(s->challenges, sizeof *w->ch)) == NULL) {
        cz__snap_witness_free(w);
        return cz_fail(ei, CZ_ENOMEM, "snap: the witness's paths");
    }
    for (unsigned i = 0; i < s->challenges; i++) {
        const cz__snap_challenge_proof *cp = &v->ch[i];
        fr *at = w->paths + per * i;
        w->ch[i].leaf_r_old = cp->r_old.leaf;
        w->ch[i].leaf_d_new = cp->d_new.leaf;
        w->ch[i].path_r_old = at;
        at += flat_path(at, &cp->r_old.path, 0, s->levels_r);
        w->ch[i].path_r_new = at;
        at += flat_path(at, &cp->r_new.path, 0, s->levels_r);
        w->ch[i].path_d = at;
        flat_path(at, &cp->d_new.path, 0, poseidon ? s->levels_r : s->levels_to_apex);
    }
    if (!poseidon)
        flat_path(w->part, &v->ch[0].d_new.path, top, s->challenge_bits);
    w->p.k = pub->k;
    w->p.h_index = (unsigned)hi;
    w->p.comm_r_old = pub->comm_r_old;
    w->p.comm_d_new = pub->comm_d_new;
    w->p.comm_r_new = pub->comm_r_new;
    w->p.comm_c = v->comm_c;
    w->p.root_r_old = v->ch[0].r_old.root;
    w->p.root_r_new = v->ch[0].r_new.root;
    w->p.apex_leaves = v->apex;
    w->p.partition_path = w->part;
    w->p.challenges = w->ch;
    return CZ_OK;
}

void cz__snap_witness_free(cz__snap_witness *w) {
    free(w->paths);
    free(w->ch);
    w->paths = NULL;
    w->ch = NULL;
}

void cz__snap_public_inputs(fr out[4], const cz__snap_shape *s, const cz__snap_public *pub) {
    const int hi = cz__snap_h_index(s, pub->h);
    cz_bls12381_fr_from_u64(&out[0], (uint64_t)pub->k | (UINT64_C(1) << (hi < 0 ? 0 : hi))
                                                            << s->partition_bits);
    out[1] = pub->comm_r_old;
    out[2] = pub->comm_d_new;
    out[3] = pub->comm_r_new;
}
