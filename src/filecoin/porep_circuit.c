/*
 * The StackedDrg partition circuit (porep_circuit.h).
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep_circuit.h"
#include "filecoin/porep_label.h"
#include "gadgets/poseidon_circuit.h"

static const struct {
    uint64_t size;
    unsigned layers, challenges, partitions;
    cz__tree_shape tree;
} shapes[] = {
    {UINT64_C(1) << 11, 2, 2, 1, {8, 0, 0}},    {UINT64_C(1) << 23, 2, 2, 1, {8, 0, 0}},
    {UINT64_C(1) << 29, 2, 2, 1, {8, 0, 0}},    {UINT64_C(1) << 35, 11, 18, 10, {8, 8, 0}},
    {UINT64_C(1) << 36, 11, 18, 10, {8, 8, 2}},
};

int cz__porep_shape_get(cz__porep_shape *shape, uint64_t sector_size, cz_errinfo *ei) {
    memset(shape, 0, sizeof *shape);
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        if (shapes[i].size != sector_size)
            continue;
        shape->sector_size = sector_size;
        shape->nodes = sector_size / 32;
        shape->layers = shapes[i].layers;
        shape->challenges = shapes[i].challenges;
        shape->partitions = shapes[i].partitions;
        shape->tree = shapes[i].tree;
        shape->levels_rc = cz__tree_path_levels(&shape->tree, shape->nodes);
        for (uint64_t n = shape->nodes; n > 1; n /= 2)
            shape->levels_d++;
        return CZ_OK;
    }
    return cz_fail(ei, CZ_EINVAL, "porep: no PoRep for a sector size of %llu bytes",
                   (unsigned long long)sector_size);
}

/* The value bits of a number as a label preimage takes them: to_bits_le, renumbered. */
static void value_bits(cz__cs *cs, cz__bool out[256], const cz__num *n) {
    cz__bool le[255];
    cz__num_to_bits_le(cs, le, n);
    cz__bool_reverse_bytes(out, le, 255);
}

/* constraint::add: a new number a + b and (a + b)·ONE = it (encode). */
static cz__num add(cz__cs *cs, const cz__num *a, const cz__num *b) {
    cz__num r;
    cz__lc s, one, c;
    cz_bls12381_fr v;
    cz_bls12381_fr_add(&v, &a->value, &b->value);
    r = cz__num_alloc(cs, &v);
    cz__lc_init(&s);
    cz__lc_init(&one);
    cz__lc_init(&c);
    cz__lc_add(&s, a->var, NULL);
    cz__lc_add(&s, b->var, NULL);
    cz__lc_add(&one, CZ__VAR_ONE, NULL);
    cz__lc_add(&c, r.var, NULL);
    cz__cs_enforce(cs, &s, &one, &c);
    cz__lc_free(&s);
    cz__lc_free(&one);
    cz__lc_free(&c);
    return r;
}

/* The per-challenge state the labels need: the parents' allocated columns. */
typedef struct {
    cz__num col[CZ__POREP_COL_PARENTS][CZ__POREP_MAX_LAYERS];
    cz__bool bits[CZ__POREP_COL_PARENTS][256];
} challenge_state;

static void challenge_circuit(cz__cs *cs, const cz__porep_shape *shape,
                              const cz__porep_challenge *ch, const cz__porep_top *top,
                              challenge_state *st) {
    const unsigned L = shape->layers;
    cz__num data_leaf = cz__num_alloc(cs, &ch->data_leaf), labels[CZ__POREP_MAX_LAYERS];
    cz__bool node[64];
    cz__por_circuit(cs, CZ__TREE_SHA256, &data_leaf, ch->path_d, shape->levels_d, &top->comm_d, 1);
    for (int i = 0; i < CZ__POREP_COL_PARENTS; i++) {
        cz__num h;
        for (unsigned l = 0; l < L; l++)
            st->col[i][l] = cz__num_alloc(cs, &ch->parents[i].rows[l]);
        h = cz__poseidon_merkle_circuit(cs, st->col[i], L);
        cz__por_circuit(cs, CZ__TREE_POSEIDON, &h, ch->parents[i].path, shape->levels_rc,
                        &top->comm_c, 1);
    }
    cz__u64_into_bits_le(cs, node, ch->node);
    cz__pack_into_inputs(cs, node, 64);
    for (unsigned layer = 1; layer <= L; layer++) {
        const cz__bool *expanded[CZ__POREP_PARENTS];
        int n = 0;
        for (int i = 0; i < CZ__POREP_DRG_PARENTS; i++)
            value_bits(cs, st->bits[n++], &st->col[i][layer - 1]);
        if (layer > 1)
            for (int i = CZ__POREP_DRG_PARENTS; i < CZ__POREP_COL_PARENTS; i++)
                value_bits(cs, st->bits[n++], &st->col[i][layer - 2]);
        /* layer 1: the 6 DRG values six times, then the first; later: the 14 twice, then the
         * first 9 */
        for (int k = 0; k < CZ__POREP_PARENTS; k++)
            expanded[k] = st->bits[k % n];
        labels[layer - 1] = cz__porep_label_circuit(cs, top->id_bits, 256, layer, node, expanded);
    }
    {
        cz__num encoded = add(cs, &labels[L - 1], &data_leaf);
        cz__por_circuit(cs, CZ__TREE_POSEIDON, &encoded, ch->path_r, shape->levels_rc,
                        &top->comm_r_last, 1);
    }
    {
        cz__num cx = cz__poseidon_merkle_circuit(cs, labels, L);
        cz__por_circuit(cs, CZ__TREE_POSEIDON, &cx, ch->path_c, shape->levels_rc, &top->comm_c, 1);
    }
}

void cz__porep_circuit_top(cz__cs *cs, const cz__porep_shape *shape, const cz__porep_partition *p,
                           cz__porep_top *top) {
    cz__num replica_id = cz__num_alloc(cs, &p->replica_id), comm_r;
    cz__bool le[255];
    memset(top, 0, sizeof *top);
    if (shape->layers != 2 && shape->layers != 11) {
        cz__cs_fail(cs, CZ_EINVAL, "porep: %u layers (2 or 11)", shape->layers);
        return;
    }
    cz__num_inputize(cs, &replica_id);
    cz__num_to_bits_le(cs, le, &replica_id);
    cz__bool_reverse_bytes(top->id_bits, le, 255);
    top->comm_d = cz__num_alloc(cs, &p->comm_d);
    cz__num_inputize(cs, &top->comm_d);
    comm_r = cz__num_alloc(cs, &p->comm_r);
    cz__num_inputize(cs, &comm_r);
    top->comm_r_last = cz__num_alloc(cs, &p->comm_r_last);
    top->comm_c = cz__num_alloc(cs, &p->comm_c);
    {
        cz__num two[2] = {top->comm_c, top->comm_r_last},
                h = cz__poseidon_merkle_circuit(cs, two, 2);
        cz__num_enforce_equal(cs, &comm_r, &h);
    }
}

void cz__porep_circuit_challenge(cz__cs *cs, const cz__porep_shape *shape,
                                 const cz__porep_challenge *ch, const cz__porep_top *top) {
    challenge_state *st = malloc(sizeof *st);
    if (st == NULL) {
        cz__cs_fail(cs, CZ_ENOMEM, "porep: challenge state");
        return;
    }
    challenge_circuit(cs, shape, ch, top, st);
    free(st);
}

/* The partition circuit of p into cs; mark (NULL: not wanted) is where cs stands after the top. */
static void circuit_marked(cz__cs *cs, const cz__porep_shape *shape, const cz__porep_partition *p,
                           cz__cs_mark *mark) {
    cz__porep_top top;
    cz__porep_circuit_top(cs, shape, p, &top);
    if (mark != NULL)
        cz__cs_mark_get(mark, cs);
    for (size_t i = 0; i < p->nchallenges && cz__cs_status(cs, NULL) == CZ_OK; i++)
        cz__porep_circuit_challenge(cs, shape, &p->challenges[i], &top);
}

void cz__porep_circuit(cz__cs *cs, const cz__porep_shape *shape, const cz__porep_partition *p) {
    circuit_marked(cs, shape, p, NULL);
}

int cz__porep_circuit_blank(cz__cs *cs, const cz__porep_shape *shape, size_t nchallenges,
                            cz__cs_mark *top, cz_errinfo *ei) {
    static const cz_bls12381_fr zeros[8];
    const cz__tree_shape binary = {2, 0, 0};
    const size_t n = nchallenges ? nchallenges : shape->challenges;
    cz__path_level *paths = calloc(shape->levels_d + (size_t)shape->levels_rc, sizeof *paths);
    cz__porep_challenge *ch = calloc(n, sizeof *ch);
    cz__porep_partition p;
    if (paths == NULL || ch == NULL) {
        free(paths);
        free(ch);
        return cz_fail(ei, CZ_ENOMEM, "porep: %zu blank challenges", n);
    }
    cz__tree_blank_path(paths, &binary, shape->levels_d, zeros);
    cz__tree_blank_path(paths + shape->levels_d, &shape->tree, shape->levels_rc, zeros);
    for (size_t c = 0; c < n; c++) {
        ch[c].path_d = paths;
        ch[c].path_r = ch[c].path_c = paths + shape->levels_d;
        for (int i = 0; i < CZ__POREP_COL_PARENTS; i++)
            ch[c].parents[i].path = paths + shape->levels_d;
    }
    memset(&p, 0, sizeof p);
    p.challenges = ch;
    p.nchallenges = n;
    circuit_marked(cs, shape, &p, top);
    free(paths);
    free(ch);
    return cz__cs_status(cs, ei);
}
