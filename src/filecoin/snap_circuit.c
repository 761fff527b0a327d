/*
 * The EmptySectorUpdate partition circuit (snap_circuit.h).
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/snap_circuit.h"
#include "gadgets/insertion.h"
#include "gadgets/poseidon_circuit.h"
#include "gadgets/sha256.h"

typedef cz_bls12381_fr fr;

#define KIB               (UINT64_C(1) << 10)
#define MIB               (UINT64_C(1) << 20)
#define GIB               (UINT64_C(1) << 30)
#define CUSTOM_TAG_ID     1 /* HashType::Custom(CType::Arbitrary(1)): the tag 2^40 */
#define MAX_APEX_LEAVES   CZ__SNAP_MAX_APEX /* and the most siblings a blank path needs */
#define MAX_CHALLENGE_LEN 64

/* Sector sizes and their tree R shapes (constants.rs validate_tree_r_shape). */
static const struct {
    uint64_t size;
    cz__tree_shape tree_r;
} sizes[] = {
    {1 * KIB, {8, 4, 0}},   {2 * KIB, {8, 0, 0}},  {4 * KIB, {8, 2, 0}},  {8 * KIB, {8, 4, 0}},
    {16 * KIB, {8, 8, 0}},  {32 * KIB, {8, 8, 2}}, {8 * MIB, {8, 0, 0}},  {16 * MIB, {8, 2, 0}},
    {512 * MIB, {8, 0, 0}}, {32 * GIB, {8, 8, 0}}, {64 * GIB, {8, 8, 2}},
};

static unsigned log2_u64(uint64_t v) {
    unsigned k = 0;
    while ((UINT64_C(1) << k) < v)
        k++;
    return k;
}

int cz__snap_shape_get(cz__snap_shape *shape, uint64_t sector_size, cz__snap_variant variant,
                       cz_errinfo *ei) {
    memset(shape, 0, sizeof *shape);
    if (variant != CZ__SNAP_SHA256 && variant != CZ__SNAP_POSEIDON)
        return cz_fail(ei, CZ_EINVAL, "snap: no update variant %d", (int)variant);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const uint64_t size = sizes[i].size;
        if (size != sector_size)
            continue;
        shape->sector_size = size;
        shape->nodes = size / 32;
        shape->partitions = size <= 8 * KIB ? 1 : size <= 32 * KIB ? 2 : size <= 16 * MIB ? 4 : 16;
        shape->challenges = size <= 16 * MIB ? 10 : 86;
        shape->apex_leaves = size <= 8 * KIB ? 8 : 128;
        for (unsigned k = 0; k < CZ__SNAP_HS; k++)
            shape->hs[k] = size <= 32 * KIB ? 1 : 7 + k;
        shape->tree_r = sizes[i].tree_r;
        shape->challenge_bits = log2_u64(shape->nodes);
        shape->partition_bits = log2_u64(shape->partitions);
        shape->apex_bits = log2_u64(shape->apex_leaves);
        shape->levels_r = cz__tree_path_levels(&shape->tree_r, shape->nodes);
        shape->levels_to_apex = shape->challenge_bits - shape->partition_bits - shape->apex_bits;
        if (variant == CZ__SNAP_POSEIDON) {
            /* one partition of every challenge, tree D in tree R's shape (no apex) */
            shape->challenges *= shape->partitions;
            shape->partitions = 1;
            shape->apex_leaves = shape->partition_bits = shape->apex_bits = 0;
            shape->levels_to_apex = 0;
        }
        shape->variant = variant;
        return CZ_OK;
    }
    return cz_fail(ei, CZ_EINVAL, "snap: no sector update for a sector size of %llu bytes",
                   (unsigned long long)sector_size);
}

const char *cz__snap_variant_name(cz__snap_variant variant) {
    return variant == CZ__SNAP_POSEIDON ? "empty-sector-update-poseidon" : "empty-sector-update";
}

int cz__snap_h_index(const cz__snap_shape *shape, unsigned h) {
    for (int k = 0; k < CZ__SNAP_HS; k++)
        if (shape->hs[k] == h)
            return k;
    return -1;
}

/* Poseidon-2 of (a, b) under the custom tag of the update's randomness (phi, rho, digests). */
static cz__num poseidon_custom(cz__cs *cs, const cz__num *a, const cz__num *b) {
    const cz__poseidon *p;
    cz__num in[2] = {*a, *b};
    cz_errinfo ei;
    fr tag;
    cz_errinfo_clear(&ei);
    if (cz__poseidon_get(&p, 2, &ei) != CZ_OK) {
        cz__cs_fail(cs, CZ_ENOMEM, "snap: %s", ei.msg);
        return *a;
    }
    cz__poseidon_tag_custom(&tag, CUSTOM_TAG_ID);
    return cz__poseidon_circuit(cs, p, &tag, in);
}

/* (Σ terms)·ONE = x: the rows that sum allocated numbers (c_high_selected, label_r_new,
 * digest_index with its constant). coeffs NULL: all 1; k a constant term (k·ONE). */
static void enforce_sum(cz__cs *cs, const cz__num *terms, const fr *coeffs, size_t n, const fr *k,
                        const cz__num *x) {
    cz__lc s, one, c;
    fr one_v;
    cz_bls12381_fr_one(&one_v);
    if (!cz__cs_needs_lcs(cs)) {
        cz__cs_enforce_values(cs, &x->value, &one_v, &x->value);
        return;
    }
    cz__lc_init(&s);
    cz__lc_init(&one);
    cz__lc_init(&c);
    for (size_t i = 0; i < n; i++)
        cz__lc_add(&s, terms[i].var, coeffs != NULL ? &coeffs[i] : NULL);
    if (k != NULL)
        cz__lc_add(&s, CZ__VAR_ONE, k);
    cz__lc_add(&one, CZ__VAR_ONE, NULL);
    cz__lc_add(&c, x->var, NULL);
    cz__cs_enforce(cs, &s, &one, &c);
    cz__lc_free(&s);
    cz__lc_free(&one);
    cz__lc_free(&c);
}

void cz__snap_apex_por(cz__cs *cs, const cz__num *leaves, size_t nleaves, const cz__bool *bits,
                       unsigned nbits, const cz__num *path, const cz__num *comm_d) {
    const cz__tree_shape binary = {2, 0, 0};
    cz__num *row = malloc(nleaves * sizeof *row);
    if (row == NULL) {
        cz__cs_fail(cs, CZ_ENOMEM, "snap: the apex tree of %zu leaves", nleaves);
        return;
    }
    memcpy(row, leaves, nleaves * sizeof *row);
    for (size_t n = nleaves; n > 1; n /= 2)
        for (size_t i = 0; i < n / 2; i++)
            row[i] = cz__sha256_node_circuit(cs, &row[2 * i], 2);
    cz__por_no_challenge_input(cs, CZ__TREE_SHA256, &binary, nbits, bits, &row[0], path, comm_d);
    free(row);
}

void cz__snap_gen_challenge_bits(cz__cs *cs, cz__bool *out, const cz__num *comm_r_new,
                                 const cz__num *partition, unsigned nchallenges,
                                 unsigned bits_per_challenge) {
    const unsigned per_digest = 254 / bits_per_challenge;
    const unsigned digests = (nchallenges + per_digest - 1) / per_digest;
    unsigned made = 0;
    fr dpp;
    cz_bls12381_fr_from_u64(&dpp, digests);
    for (unsigned j = 0; j < digests; j++) {
        cz__num index, digest;
        cz__bit bits[255];
        fr jv;
        unsigned take = j + 1 == digests ? nchallenges - made : per_digest;
        /* digest_index = k·digests + j, with its row (digests·k + j·ONE)·ONE = digest_index */
        cz_bls12381_fr_from_u64(&jv, j);
        cz_bls12381_fr_mul(&index.value, &partition->value, &dpp);
        cz_bls12381_fr_add(&index.value, &index.value, &jv);
        index.var = cz__cs_alloc(cs, &index.value);
        enforce_sum(cs, partition, &dpp, 1, &jv, &index);
        digest = poseidon_custom(cs, comm_r_new, &index);
        cz__num_into_bits(cs, bits, &digest, 255);
        for (unsigned c = 0; c < take; c++, made++)
            for (unsigned b = 0; b < bits_per_challenge; b++)
                out[(size_t)made * bits_per_challenge + b] =
                    cz__bool_is(bits[c * bits_per_challenge + b]);
    }
}

/* get_challenge_high_bits: the high h bits of the challenge (nbits, least significant first)
 * packed for each h of hs, each times its h-select bit, summed. */
static cz__num challenge_high(cz__cs *cs, const cz__bool *c_bits, unsigned nbits,
                              const cz__bool *h_select, const unsigned *hs) {
    cz__num scaled[CZ__SNAP_HS], sum;
    cz_bls12381_fr_zero(&sum.value);
    for (unsigned k = 0; k < CZ__SNAP_HS; k++) {
        cz__num high = cz__pack_bits(cs, &c_bits[nbits - hs[k]], hs[k]);
        fr zero;
        cz_bls12381_fr_zero(&zero);
        scaled[k] = cz__num_alloc(cs, cz__bool_value(&h_select[k]) ? &high.value : &zero);
        if (!cz__cs_needs_lcs(cs)) {
            fr b;
            cz_bls12381_fr_from_u64(&b, (uint64_t)cz__bool_value(&h_select[k]));
            cz__cs_enforce_values(cs, &high.value, &b, &scaled[k].value);
        } else {
            cz__lc la, lb, lc;
            cz__lc_init(&la);
            cz__lc_init(&lb);
            cz__lc_init(&lc);
            cz__lc_add(&la, high.var, NULL);
            cz__bool_lc_add(&lb, &h_select[k], NULL);
            cz__lc_add(&lc, scaled[k].var, NULL);
            cz__cs_enforce(cs, &la, &lb, &lc); /* c_high·h_select_bit = c_high_or_zero */
            cz__lc_free(&la);
            cz__lc_free(&lb);
            cz__lc_free(&lc);
        }
        cz_bls12381_fr_add(&sum.value, &sum.value, &scaled[k].value);
    }
    sum.var = cz__cs_alloc(cs, &sum.value);
    enforce_sum(cs, scaled, NULL, CZ__SNAP_HS, NULL, &sum);
    return sum;
}

/* label_r_new = label_r_old + label_d_new·rho. */
static cz__num label_r_new(cz__cs *cs, const cz__num *old, const cz__num *d_new,
                           const cz__num *rho) {
    cz__num t[2], r;
    t[0] = *old;
    t[1] = cz__num_mul(cs, d_new, rho);
    cz_bls12381_fr_add(&r.value, &old->value, &t[1].value);
    r.var = cz__cs_alloc(cs, &r.value);
    enforce_sum(cs, t, NULL, 2, NULL, &r);
    return r;
}

/* n new numbers of the values v into out. */
static void alloc_all(cz__cs *cs, cz__num *out, const fr *v, size_t n) {
    for (size_t i = 0; i < n; i++)
        out[i] = cz__num_alloc(cs, &v[i]);
}

void cz__snap_circuit_challenge(cz__cs *cs, const cz__snap_shape *s, const cz__snap_challenge *ch,
                                const cz__snap_top *top, size_t c) {
    const unsigned nbits = s->challenge_bits, rand_bits = cz__snap_rand_bits(s);
    const cz__bool *gen_bits = top->gen + c * rand_bits;
    const unsigned r_sibs =
        (s->levels_r - (s->tree_r.sub != 0) - (s->tree_r.top != 0)) * (s->tree_r.base - 1) +
        (s->tree_r.sub ? s->tree_r.sub - 1 : 0) + (s->tree_r.top ? s->tree_r.top - 1 : 0);
    cz__bool c_bits[MAX_CHALLENGE_LEN];
    cz__num c_high, rho, leaf_r_old, leaf_d_new, leaf_r_new, apex_leaf;
    cz__num *sib = malloc((r_sibs > s->levels_to_apex ? r_sibs : s->levels_to_apex) * sizeof *sib);
    if (sib == NULL) {
        cz__cs_fail(cs, CZ_ENOMEM, "snap: a challenge's path");
        return;
    }
    memcpy(c_bits, gen_bits, rand_bits * sizeof *c_bits);
    memcpy(c_bits + rand_bits, top->k_bits, s->partition_bits * sizeof *c_bits);
    c_high = challenge_high(cs, c_bits, nbits, top->h_select, s->hs);
    rho = poseidon_custom(cs, &top->phi, &c_high);
    leaf_r_old = cz__num_alloc(cs, &ch->leaf_r_old);
    leaf_d_new = cz__num_alloc(cs, &ch->leaf_d_new);
    leaf_r_new = label_r_new(cs, &leaf_r_old, &leaf_d_new, &rho);
    alloc_all(cs, sib, ch->path_r_old, r_sibs);
    cz__por_no_challenge_input(cs, CZ__TREE_POSEIDON, &s->tree_r, s->levels_r, c_bits, &leaf_r_old,
                               sib, &top->root_r_old);
    alloc_all(cs, sib, ch->path_r_new, r_sibs);
    cz__por_no_challenge_input(cs, CZ__TREE_POSEIDON, &s->tree_r, s->levels_r, c_bits, &leaf_r_new,
                               sib, &top->root_r_new);
    if (s->variant == CZ__SNAP_POSEIDON) {
        alloc_all(cs, sib, ch->path_d, r_sibs);
        cz__por_no_challenge_input(cs, CZ__TREE_POSEIDON, &s->tree_r, s->levels_r, c_bits,
                                   &leaf_d_new, sib, &top->comm_d_new);
        free(sib);
        return;
    }
    apex_leaf = cz__select(cs, top->apex, &c_bits[s->levels_to_apex], s->apex_bits);
    {
        const cz__tree_shape binary = {2, 0, 0};
        alloc_all(cs, sib, ch->path_d, s->levels_to_apex);
        cz__por_no_challenge_input(cs, CZ__TREE_SHA256, &binary, s->levels_to_apex, c_bits,
                                   &leaf_d_new, sib, &apex_leaf);
    }
    free(sib);
}

void cz__snap_circuit_top(cz__cs *cs, const cz__snap_shape *s, const cz__snap_partition *p,
                          cz__snap_top *top) {
    const unsigned nsel = s->partition_bits + CZ__SNAP_HS;
    cz__num k_and_h, partition, comm_r_old, comm_d_new, comm_r_new, comm_c, path[8], calc;
    cz__bit bits[8 + CZ__SNAP_HS];
    fr v;
    memset(top, 0, sizeof *top);
    if (p->k >= s->partitions || p->h_index >= CZ__SNAP_HS) {
        cz__cs_fail(cs, CZ_EINVAL, "snap: partition %u of %u, h index %u of %d", p->k,
                    s->partitions, p->h_index, CZ__SNAP_HS);
        return;
    }
    if (s->challenge_bits > MAX_CHALLENGE_LEN || s->partition_bits > 8 ||
        s->apex_leaves > MAX_APEX_LEAVES) {
        cz__cs_fail(cs, CZ_EINVAL, "snap: shape out of range");
        return;
    }
    if ((top->gen = calloc((size_t)s->challenges * cz__snap_rand_bits(s), sizeof *top->gen)) ==
        NULL) {
        cz__cs_fail(cs, CZ_ENOMEM, "snap: the challenges' bits");
        return;
    }
    cz_bls12381_fr_from_u64(&v, (uint64_t)p->k | (UINT64_C(1) << p->h_index) << s->partition_bits);
    k_and_h = cz__num_alloc(cs, &v);
    cz__num_inputize(cs, &k_and_h);
    cz__num_into_bits(cs, bits, &k_and_h, nsel);
    for (unsigned i = 0; i < s->partition_bits; i++)
        top->k_bits[i] = cz__bool_is(bits[i]);
    for (unsigned i = 0; i < CZ__SNAP_HS; i++)
        top->h_select[i] = cz__bool_is(bits[s->partition_bits + i]);
    if (s->variant == CZ__SNAP_SHA256)
        partition = cz__pack_bits(cs, top->k_bits, s->partition_bits);
    comm_r_old = cz__num_alloc(cs, &p->comm_r_old);
    cz__num_inputize(cs, &comm_r_old);
    comm_d_new = cz__num_alloc(cs, &p->comm_d_new);
    cz__num_inputize(cs, &comm_d_new);
    comm_r_new = cz__num_alloc(cs, &p->comm_r_new);
    cz__num_inputize(cs, &comm_r_new);
    top->comm_d_new = comm_d_new;
    top->phi = poseidon_custom(cs, &comm_d_new, &comm_r_old);
    comm_c = cz__num_alloc(cs, &p->comm_c);
    top->root_r_old = cz__num_alloc(cs, &p->root_r_old);
    top->root_r_new = cz__num_alloc(cs, &p->root_r_new);
    alloc_all(cs, top->apex, p->apex_leaves, s->apex_leaves);
    alloc_all(cs, path, p->partition_path, s->partition_bits);
    {
        cz__num two[2] = {comm_c, top->root_r_old};
        calc = cz__poseidon_merkle_circuit(cs, two, 2);
        cz__num_enforce_equal(cs, &calc, &comm_r_old);
        two[1] = top->root_r_new;
        calc = cz__poseidon_merkle_circuit(cs, two, 2);
        cz__num_enforce_equal(cs, &calc, &comm_r_new);
    }
    if (s->variant == CZ__SNAP_SHA256) {
        cz__snap_apex_por(cs, top->apex, s->apex_leaves, top->k_bits, s->partition_bits, path,
                          &comm_d_new);
    } else {
        fr zero; /* the partition, allocated and not constrained */
        cz_bls12381_fr_zero(&zero);
        partition = cz__num_alloc(cs, &zero);
    }
    cz__snap_gen_challenge_bits(cs, top->gen, &comm_r_new, &partition, s->challenges,
                                cz__snap_rand_bits(s));
}

void cz__snap_top_free(cz__snap_top *top) {
    free(top->gen);
    top->gen = NULL;
}

/* What cz__snap_circuit_blank_first gives out: the mark after the top, the generated bits' aux. */
typedef struct top_out {
    cz__cs_mark *end;
    uint32_t *gen_aux; /* challenges × bits */
} top_out;

/* The aux index of every generated bit into out->gen_aux; CZ_EFORMAT on cs for one that is not an
 * allocated bit (a recording from blank values has none). */
static void top_report(cz__cs *cs, const cz__snap_shape *s, const cz__snap_top *top, top_out *out) {
    const size_t nbits = (size_t)s->challenges * cz__snap_rand_bits(s);
    cz__cs_mark_get(out->end, cs);
    for (size_t i = 0; i < nbits; i++) {
        if (top->gen[i].kind != CZ__BOOL_IS || cz__var_is_input(top->gen[i].bit.var)) {
            cz__cs_fail(cs, CZ_EFORMAT, "snap: generated bit %zu is not an allocated bit", i);
            return;
        }
        out->gen_aux[i] = cz__var_index(top->gen[i].bit.var);
    }
}

/* The circuit with nchallenges of p's challenges; out (NULL: none) reported after the top. */
static void circuit_n(cz__cs *cs, const cz__snap_shape *s, const cz__snap_partition *p,
                      size_t nchallenges, top_out *out) {
    cz__snap_top *top = calloc(1, sizeof *top);
    if (top == NULL) {
        cz__cs_fail(cs, CZ_ENOMEM, "snap: the top of the circuit");
        return;
    }
    cz__snap_circuit_top(cs, s, p, top);
    if (out != NULL && cz__cs_status(cs, NULL) == CZ_OK)
        top_report(cs, s, top, out);
    for (size_t c = 0; c < nchallenges && cz__cs_status(cs, NULL) == CZ_OK; c++)
        cz__snap_circuit_challenge(cs, s, &p->challenges[c], top, c);
    cz__snap_top_free(top);
    free(top);
}

void cz__snap_circuit(cz__cs *cs, const cz__snap_shape *shape, const cz__snap_partition *p) {
    circuit_n(cs, shape, p, shape->challenges, NULL);
}

/* cz__snap_circuit_blank, and cz__snap_circuit_blank_first with out. */
static int circuit_blank(cz__cs *cs, const cz__snap_shape *shape, size_t nchallenges, top_out *out,
                         cz_errinfo *ei) {
    static const fr zeros[MAX_APEX_LEAVES];
    const size_t n = nchallenges ? nchallenges : shape->challenges;
    cz__snap_challenge *ch = calloc(n, sizeof *ch);
    cz__snap_partition p;
    if (ch == NULL)
        return cz_fail(ei, CZ_ENOMEM, "snap: %zu blank challenges", n);
    if (shape->levels_r * 7 > MAX_APEX_LEAVES) {
        free(ch);
        return cz_fail(ei, CZ_EINVAL, "snap: %u levels of tree R", shape->levels_r);
    }
    for (size_t c = 0; c < n; c++)
        ch[c].path_r_old = ch[c].path_r_new = ch[c].path_d = zeros;
    memset(&p, 0, sizeof p);
    p.apex_leaves = p.partition_path = zeros;
    p.challenges = ch;
    circuit_n(cs, shape, &p, n < shape->challenges ? n : shape->challenges, out);
    free(ch);
    return cz__cs_status(cs, ei);
}

int cz__snap_circuit_blank(cz__cs *cs, const cz__snap_shape *shape, size_t nchallenges,
                           cz_errinfo *ei) {
    return circuit_blank(cs, shape, nchallenges, NULL, ei);
}

int cz__snap_circuit_blank_first(cz__cs *cs, const cz__snap_shape *shape, cz__cs_mark *top_end,
                                 uint32_t **gen_aux, cz_errinfo *ei) {
    top_out out = {top_end, NULL};
    const size_t nbits = (size_t)shape->challenges * cz__snap_rand_bits(shape);
    int rc;
    *gen_aux = NULL;
    if ((out.gen_aux = malloc((nbits ? nbits : 1) * sizeof *out.gen_aux)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "snap: the aux of %zu generated bits", nbits);
    if ((rc = circuit_blank(cs, shape, 1, &out, ei)) != CZ_OK) {
        free(out.gen_aux);
        return rc;
    }
    *gen_aux = out.gen_aux;
    return CZ_OK;
}
