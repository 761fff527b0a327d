/*
 * The synthetic PoRep-shaped circuit (cuzk/porep_synth.h). Design (docs/circuits.md has the
 * numbers):
 *
 * Variables: 0 = ONE, 1..327 public, then aux: 3 free field elements (the values of the first
 * three public inputs, like replica_id / comm_d / comm_r), the blocks' aux, the fill bits.
 * Rows: the blocks, then the fill rows, then 327 input rows.
 *
 * A block of n "additions" (n = 6 for big blocks, 1 for small ones at the end) is a fixed program
 * of gadget rows over its own contiguous aux range, so every block of a given n has the same
 * counts of rows, aux and terms and all blocks are generated in parallel at known offsets:
 *   1. 32n booleanity rows x·(1 - x) = 0 written (1 - x)·x = 0 (A = {ONE, -x}, B = {x}): fresh
 *      input bits, random in the witness.
 *   2. 151n XOR rows (2a)·b = a + b - c and 56n Ch rows (a - d)·b = ch - d, interleaved evenly:
 *      'a' is the oldest unconsumed output once LAG outputs are pending (else a fresh bit), so
 *      every output but the last few reaches A; 'b' is a fresh bit (B touches only fresh bits,
 *      results and field elements: the 25.4 % B density); 'd' is any earlier bit.
 *   3. One free field element z0 and (7n+1)/2 Poseidon-like rows (z + k)·z = z' (random
 *      full-width values: the 1.3 % of non-bit aux).
 *   4. 35n booleanity rows for the result bits of the additions, then ceil(n/2) MultiEq-like rows
 *      (Σ_j 2^(35j) Σ_words Σ_i 2^i·bit)·ONE = Σ_j 2^(35j) Σ_i 2^i·result_j,i with up to two
 *      additions of 8 words of 32 bits per row (7 words in small blocks, which have fewer
 *      distinct bits): 512-term A rows, 70-term C rows, like bellperson's batched MultiEq. The
 *      word bits are the pending outputs first, then distinct random bits of the block, DANGLE
 *      outputs stay unconsumed (the 0.3 % of aux that never occur in A).
 * The fill rows (fewer than a small block) are booleanity rows; input row s is
 * in_s·ONE = value: a free field element for s <= 3, else a packing of nb fresh bits of one block
 * (nb = 31 at k = 27, fewer at small k so the input rows do not dominate small circuits).
 *
 * Randomness: operand choices come from a SplitMix64 stream seeded by the block index only (the
 * shape), witness values from a stream seeded by (seed, partition, block). The same function
 * makes both, in two modes, so the witness always follows the shape. No allocation per row:
 * a block's scratch (bit values, marks, queue: ~17 KB) lives on the task's stack.
 */
#include "cuzk/porep_synth.h"

#include <string.h>

#include "cuzk/field.h"
#include "cuzk/r1cs_io.h"
#include "cuzk/threadpool.h"

#define NFRESH(n) (32u * (n))
#define NXOR(n)   (151u * (n))
#define NCH(n)    (56u * (n))
#define NFIELD(n) ((7u * (n) + 1) / 2)
#define NRES(n)   (35u * (n))
#define NME(n)    (((n) + 1) / 2)
#define RESW      35u /* result bits per addition (8 words of 32 bits: < 2^35) */
#define BIG       6u
#define SMALL     1u
#define LAG       16u
#define DANGLE    4u
#define MAXLOC    2048u
#define MAXSEL    1536u
#define NINFR     3u /* public inputs that are free field elements */
#define PER_TASK  4u /* blocks per pool task */

enum { C_ONE, C_MINUS_ONE, C_TWO, C_SMALL0, C_POW2 = C_SMALL0 + 7, NCOEFS = C_POW2 + 256 };

typedef struct block_counts {
    uint32_t rows, aux;
    uint64_t nnz[3];
} block_counts;

/* Words per addition in an ME row of na additions in a block of n. */
static unsigned me_words(unsigned n, unsigned na) {
    unsigned avail = NFRESH(n) + NXOR(n) + NCH(n), w = avail / (32 * na);
    return w < 8 ? w : 8;
}

static block_counts block_shape(unsigned n) {
    block_counts b;
    b.rows = NFRESH(n) + NXOR(n) + NCH(n) + NFIELD(n) + NRES(n) + NME(n);
    b.aux = NFRESH(n) + NXOR(n) + NCH(n) + NFIELD(n) + 1 + NRES(n);
    b.nnz[0] = 2ull * (NFRESH(n) + NRES(n)) + NXOR(n) + 2ull * NCH(n) + 2ull * NFIELD(n);
    for (unsigned j = 0; j < n; j += 2) {
        unsigned na = n - j < 2 ? n - j : 2;
        b.nnz[0] += (uint64_t)na * me_words(n, na) * 32;
    }
    b.nnz[1] = b.rows;
    b.nnz[2] = 3ull * NXOR(n) + 2ull * NCH(n) + NFIELD(n) + (uint64_t)RESW * n;
    return b;
}

/* Bits packed into each small-integer public input. */
static unsigned input_bits(unsigned k) {
    return k >= 27 ? 31 : k <= 22 ? 1 : 1u << (k - 22);
}

int cz_porep_synth_shape_get(cz_porep_synth_shape *sh, unsigned k, cz_errinfo *ei) {
    memset(sh, 0, sizeof *sh);
    if (k < CZ_POREP_SYNTH_KMIN || k > CZ_POREP_SYNTH_KMAX)
        return cz_fail(ei, CZ_ERANGE, "porep-synth: scale k = %u is outside %d..%d", k,
                       CZ_POREP_SYNTH_KMIN, CZ_POREP_SYNTH_KMAX);
    uint64_t domain = 1ull << k;
    /* The real circuit's fill of its 2^27 domain, capped by the room the inputs need. */
    uint64_t rows = ((uint64_t)CZ_POREP_SYNTH_REAL_ROWS * domain + (1ull << 26)) >> 27;
    if (rows > domain - CZ_POREP_SYNTH_NPUBLIC - 1)
        rows = domain - CZ_POREP_SYNTH_NPUBLIC - 1;
    block_counts big = block_shape(BIG), small = block_shape(SMALL);
    uint64_t body = rows - CZ_POREP_SYNTH_NPUBLIC;
    sh->k = k;
    sh->domain = domain;
    sh->npublic = CZ_POREP_SYNTH_NPUBLIC;
    sh->nrows = (uint32_t)rows;
    sh->nblocks_big = (uint32_t)(body / big.rows);
    body -= (uint64_t)sh->nblocks_big * big.rows;
    sh->nblocks_small = (uint32_t)(body / small.rows);
    sh->nfill = (uint32_t)(body - (uint64_t)sh->nblocks_small * small.rows);
    sh->naux = NINFR + sh->nblocks_big * big.aux + sh->nblocks_small * small.aux + sh->nfill;
    unsigned nb = input_bits(k);
    for (int m = 0; m < 3; m++)
        sh->nnz[m] =
            (uint64_t)sh->nblocks_big * big.nnz[m] + (uint64_t)sh->nblocks_small * small.nnz[m];
    sh->nnz[0] += 2ull * sh->nfill + CZ_POREP_SYNTH_NPUBLIC;
    sh->nnz[1] += sh->nfill + CZ_POREP_SYNTH_NPUBLIC;
    sh->nnz[2] += NINFR + (uint64_t)(CZ_POREP_SYNTH_NPUBLIC - NINFR) * nb;
    return CZ_OK;
}

/* ---- randomness ---------------------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t below(uint64_t *s, uint32_t n) {
    return (uint32_t)(((splitmix(s) >> 32) * n) >> 32);
}

static uint64_t shape_seed(uint64_t block) {
    uint64_t s = 0x706F726570ull ^ (block * 0xD1B54A32D192ED03ull);
    return splitmix(&s);
}

static uint64_t wit_seed(uint64_t seed, uint32_t partition, uint64_t block) {
    uint64_t s = seed;
    s = splitmix(&s) ^ ((uint64_t)partition * 0xA24BAED4963EE407ull);
    s = splitmix(&s) ^ ((block + 1) * 0x9FB21C651E98DF25ull);
    return splitmix(&s);
}

/* A uniform-ish field element below 2^252 (below r on both curves), Montgomery form. */
static void random_fr(uint64_t out[4], cz_curve_id curve, uint64_t *s) {
    uint64_t std[4] = {splitmix(s), splitmix(s), splitmix(s), splitmix(s) >> 4};
    CZ_ASSERT(cz_r1cs_fr_from_std(out, curve, std) == CZ_OK);
}

/* out = (z + k)·z */
static void field_step(uint64_t out[4], cz_curve_id curve, const uint64_t z[4],
                       const uint64_t k[4]) {
    if (curve == CZ_CURVE_BN254) {
        cz_bn254_fr a, b, t;
        memcpy(a.l, z, 32);
        memcpy(b.l, k, 32);
        cz_bn254_fr_add(&t, &a, &b);
        cz_bn254_fr_mul(&t, &t, &a);
        memcpy(out, t.l, 32);
    } else {
        cz_bls12381_fr a, b, t;
        memcpy(a.l, z, 32);
        memcpy(b.l, k, 32);
        cz_bls12381_fr_add(&t, &a, &b);
        cz_bls12381_fr_mul(&t, &t, &a);
        memcpy(out, t.l, 32);
    }
}

/* ---- the block program ---------------------------------------------------------------------- */

typedef struct gen {
    cz_r1cs *cs;
    const cz_porep_synth_shape *sh;
    int emit, wit;
    uint64_t seed;
    uint32_t partition;
    uint64_t one[4], zero[4];
} gen;

typedef struct blk {
    const gen *g;
    cz_r1cs *cs;
    uint32_t row;      /* global index of the next row */
    uint64_t pos[3];   /* next term of A, B, C */
    uint32_t aux0;     /* variable index of local aux 0 */
    uint32_t nloc;     /* local aux allocated */
    uint64_t srng;     /* shape stream */
    uint64_t wrng;     /* witness stream */
    uint32_t mark_gen; /* current mark for distinct picks */
    uint32_t qhead, qtail;
    uint8_t val[MAXLOC]; /* bit values of local aux (witness mode) */
    uint32_t mark[MAXLOC];
    uint16_t queue[MAXLOC]; /* outputs not yet used in A */
    uint16_t sel[MAXSEL];   /* the word bits of one ME row */
} blk;

static void term(blk *b, int m, uint32_t var, uint32_t coef) {
    if (!b->g->emit)
        return;
    cz_r1cs_mat *mt = m == 0 ? &b->cs->a : m == 1 ? &b->cs->b : &b->cs->c;
    mt->var[b->pos[m]] = var;
    mt->coef[b->pos[m]] = coef;
    b->pos[m]++;
}

static void row_end(blk *b) {
    if (b->g->emit) {
        b->cs->a.row_ptr[b->row + 1] = b->pos[0];
        b->cs->b.row_ptr[b->row + 1] = b->pos[1];
        b->cs->c.row_ptr[b->row + 1] = b->pos[2];
    }
    b->row++;
}

static uint32_t var_of(const blk *b, uint32_t loc) {
    return b->aux0 + loc;
}

/* Allocates a local bit with value v (witness mode). */
static uint32_t alloc_bit(blk *b, unsigned v) {
    uint32_t l = b->nloc++;
    CZ_ASSERT(l < MAXLOC);
    if (b->g->wit) {
        b->val[l] = (uint8_t)v;
        memcpy(b->cs->w[var_of(b, l)], v ? b->g->one : b->g->zero, 32);
    }
    return l;
}

/* (ONE - x)·x = 0 */
static void bool_row(blk *b, uint32_t l) {
    term(b, 0, 0, C_ONE);
    term(b, 0, var_of(b, l), C_MINUS_ONE);
    term(b, 1, var_of(b, l), C_ONE);
    row_end(b);
}

static void run_block(blk *b, unsigned n) {
    const gen *g = b->g;
    unsigned nfresh = NFRESH(n), nlogic = NXOR(n) + NCH(n);
    /* 1. fresh bits */
    for (unsigned i = 0; i < nfresh; i++) {
        unsigned v = g->wit ? (unsigned)(splitmix(&b->wrng) & 1) : 0;
        bool_row(b, alloc_bit(b, v));
    }
    /* 2. XOR and Ch rows */
    for (unsigned t = 0; t < nlogic; t++) {
        int is_ch = (uint64_t)(t + 1) * NCH(n) / nlogic > (uint64_t)t * NCH(n) / nlogic;
        uint32_t a = b->qtail - b->qhead >= LAG ? b->queue[b->qhead++] : below(&b->srng, nfresh);
        uint32_t x = below(&b->srng, nfresh);
        if (x == a)
            x = (x + 1) % nfresh;
        uint32_t d = is_ch ? below(&b->srng, b->nloc) : 0;
        if (is_ch && d == a)
            d = (d + 1) % b->nloc;
        unsigned v = 0;
        if (g->wit)
            v = is_ch ? (b->val[x] ? b->val[a] : b->val[d]) : (unsigned)(b->val[a] ^ b->val[x]);
        uint32_t o = alloc_bit(b, v);
        b->queue[b->qtail++] = (uint16_t)o;
        if (is_ch) {
            term(b, 0, var_of(b, a), C_ONE);
            term(b, 0, var_of(b, d), C_MINUS_ONE);
            term(b, 1, var_of(b, x), C_ONE);
            term(b, 2, var_of(b, o), C_ONE);
            term(b, 2, var_of(b, d), C_MINUS_ONE);
        } else {
            term(b, 0, var_of(b, a), C_TWO);
            term(b, 1, var_of(b, x), C_ONE);
            term(b, 2, var_of(b, a), C_ONE);
            term(b, 2, var_of(b, x), C_ONE);
            term(b, 2, var_of(b, o), C_MINUS_ONE);
        }
        row_end(b);
    }
    /* 3. a run of field elements: z' = (z + k)·z */
    uint32_t z = b->nloc++;
    if (g->wit) {
        b->val[z] = 2;
        random_fr(b->cs->w[var_of(b, z)], b->cs->curve, &b->wrng);
    }
    for (unsigned i = 0; i < NFIELD(n); i++) {
        uint32_t zn = b->nloc++, kc = C_SMALL0 + i % 7;
        if (g->wit) {
            b->val[zn] = 2;
            field_step(b->cs->w[var_of(b, zn)], b->cs->curve, b->cs->w[var_of(b, z)],
                       b->cs->coefs[kc]);
        }
        term(b, 0, var_of(b, z), C_ONE);
        term(b, 0, 0, kc);
        term(b, 1, var_of(b, z), C_ONE);
        term(b, 2, var_of(b, zn), C_ONE);
        row_end(b);
        z = zn;
    }
    /* 4. additions: pick the word bits of every ME row, allocate and constrain the result bits,
     * then the ME rows. The picks are replayed from a saved stream state for the second pass. */
    /* The last DANGLE outputs stay out of A: never popped below, and marked so no pick takes them.
     */
    for (uint32_t q = b->qtail - DANGLE; q < b->qtail; q++)
        b->mark[b->queue[q]] = UINT32_MAX;
    uint32_t avail = nfresh + nlogic, res0 = b->nloc;
    uint64_t pick_state = b->srng;
    uint32_t qhead0 = b->qhead;
    for (int pass = 0; pass < 2; pass++) {
        b->srng = pick_state;
        b->qhead = qhead0;
        uint32_t res = res0;
        for (unsigned j = 0; j < n; j += 2) {
            unsigned na = n - j < 2 ? n - j : 2, words = me_words(n, na), nsel = na * words * 32;
            b->mark_gen++;
            for (unsigned s = 0; s < nsel; s++) {
                uint32_t l;
                if (b->qtail - b->qhead > DANGLE) {
                    l = b->queue[b->qhead++];
                } else {
                    do
                        l = below(&b->srng, avail);
                    while (b->mark[l] == b->mark_gen || b->mark[l] == UINT32_MAX);
                }
                b->mark[l] = b->mark_gen;
                b->sel[s] = (uint16_t)l;
            }
            for (unsigned q = 0; q < na; q++) {
                if (pass == 0) {
                    uint64_t sum = 0;
                    for (unsigned w = 0; g->wit && w < words; w++)
                        for (unsigned i = 0; i < 32; i++)
                            sum += (uint64_t)b->val[b->sel[(q * words + w) * 32 + i]] << i;
                    for (unsigned i = 0; i < RESW; i++)
                        bool_row(b, alloc_bit(b, (unsigned)(sum >> i) & 1));
                    continue;
                }
                for (unsigned w = 0; w < words; w++)
                    for (unsigned i = 0; i < 32; i++)
                        term(b, 0, var_of(b, b->sel[(q * words + w) * 32 + i]),
                             C_POW2 + RESW * q + i);
            }
            if (pass == 1) {
                term(b, 1, 0, C_ONE);
                for (unsigned q = 0; q < na; q++)
                    for (unsigned i = 0; i < RESW; i++)
                        term(b, 2, var_of(b, res + q * RESW + i), C_POW2 + RESW * q + i);
                row_end(b);
            }
            res += na * RESW;
        }
    }
}

/* ---- tasks ---------------------------------------------------------------------------------- */

static void block_start(blk *b, const gen *g, uint32_t index) {
    const cz_porep_synth_shape *sh = g->sh;
    block_counts big = block_shape(BIG), small = block_shape(SMALL);
    uint32_t nb = index < sh->nblocks_big ? index : sh->nblocks_big;
    uint32_t ns = index - nb;
    b->g = g;
    b->cs = g->cs;
    b->row = nb * big.rows + ns * small.rows;
    for (int m = 0; m < 3; m++)
        b->pos[m] = nb * big.nnz[m] + ns * small.nnz[m];
    b->aux0 = 1 + sh->npublic + NINFR + nb * big.aux + ns * small.aux;
    b->nloc = 0;
    b->srng = shape_seed(index);
    b->wrng = wit_seed(g->seed, g->partition, index);
    b->qhead = b->qtail = 0;
    b->mark_gen = 0;
    memset(b->mark, 0, sizeof b->mark);
}

static void blocks_task(void *arg, size_t task) {
    const gen *g = arg;
    uint32_t nblocks = g->sh->nblocks_big + g->sh->nblocks_small;
    for (uint32_t i = (uint32_t)task * PER_TASK; i < nblocks && i < (task + 1) * PER_TASK; i++) {
        blk b;
        block_start(&b, g, i);
        run_block(&b, i < g->sh->nblocks_big ? BIG : SMALL);
    }
}

/* The fill rows and the input rows, after the blocks (serial: a few hundred rows). */
static void tail_rows(const gen *g) {
    const cz_porep_synth_shape *sh = g->sh;
    cz_r1cs *cs = g->cs;
    uint32_t nblocks = sh->nblocks_big + sh->nblocks_small;
    blk b;
    block_start(&b, g, nblocks); /* fill: offsets right after the blocks */
    b.wrng = wit_seed(g->seed, g->partition, UINT32_MAX);
    for (uint32_t i = 0; i < sh->nfill; i++) {
        unsigned v = g->wit ? (unsigned)(splitmix(&b.wrng) & 1) : 0;
        bool_row(&b, alloc_bit(&b, v));
    }
    block_counts big = block_shape(BIG), small = block_shape(SMALL);
    unsigned nb = input_bits(sh->k);
    uint64_t irng = wit_seed(g->seed, g->partition, (uint64_t)UINT32_MAX + 1);
    for (uint32_t s = 1; s <= sh->npublic; s++) {
        term(&b, 0, s, C_ONE);
        term(&b, 1, 0, C_ONE);
        if (s <= NINFR) {
            uint32_t v = 1 + sh->npublic + (s - 1);
            term(&b, 2, v, C_ONE);
            if (g->wit) {
                random_fr(cs->w[v], cs->curve, &irng);
                memcpy(cs->w[s], cs->w[v], 32);
            }
        } else {
            uint32_t j = (s - NINFR - 1) % nblocks, r = (s - NINFR - 1) / nblocks;
            unsigned n = j < sh->nblocks_big ? BIG : SMALL;
            uint32_t nbg = j < sh->nblocks_big ? j : sh->nblocks_big, nsm = j - nbg;
            uint32_t base = 1 + sh->npublic + NINFR + nbg * big.aux + nsm * small.aux;
            uint32_t off = (r * 7) % (NFRESH(n) - nb + 1);
            uint64_t value = 0;
            for (unsigned i = 0; i < nb; i++) {
                term(&b, 2, base + off + i, C_POW2 + i);
                value |= (uint64_t)(memcmp(cs->w[base + off + i], g->one, 32) == 0) << i;
            }
            if (g->wit)
                cz_r1cs_fr_from_u64(cs->w[s], cs->curve, value);
        }
        row_end(&b);
    }
    CZ_ASSERT(b.row == sh->nrows);
}

static void run_all(const gen *g, cz_threadpool *pool) {
    uint32_t nblocks = g->sh->nblocks_big + g->sh->nblocks_small;
    cz_threadpool_run(pool, blocks_task, (void *)g, (nblocks + PER_TASK - 1) / PER_TASK);
    tail_rows(g);
}

static void gen_init(gen *g, cz_r1cs *cs, const cz_porep_synth_shape *sh) {
    memset(g, 0, sizeof *g);
    g->cs = cs;
    g->sh = sh;
    cz_r1cs_fr_from_u64(g->one, cs->curve, 1);
}

int cz_porep_synth_build(cz_r1cs *cs, cz_curve_id curve, unsigned k, cz_threadpool *pool,
                         cz_errinfo *ei) {
    cz_porep_synth_shape sh;
    int rc = cz_porep_synth_shape_get(&sh, k, ei);
    if (rc != CZ_OK) {
        memset(cs, 0, sizeof *cs);
        return rc;
    }
    if ((rc = cz_r1cs_alloc(cs, curve, sh.npublic, sh.naux, sh.nrows, sh.nnz, NCOEFS, ei)) != CZ_OK)
        return rc;
    cz_r1cs_coef_set_i64(cs, C_ONE, 1);
    cz_r1cs_coef_set_i64(cs, C_MINUS_ONE, -1);
    cz_r1cs_coef_set_i64(cs, C_TWO, 2);
    for (int i = 0; i < 7; i++)
        cz_r1cs_coef_set_i64(cs, C_SMALL0 + (uint32_t)i, 3 + i);
    for (unsigned i = 0; i < 256; i++)
        cz_r1cs_coef_set_pow2(cs, C_POW2 + i, i);
    gen g;
    gen_init(&g, cs, &sh);
    g.emit = 1;
    run_all(&g, pool);
    for (int m = 0; m < 3; m++)
        CZ_ASSERT((m == 0 ? cs->a : m == 1 ? cs->b : cs->c).row_ptr[sh.nrows] == sh.nnz[m]);
    return CZ_OK;
}

int cz_porep_synth_witness(cz_r1cs *cs, unsigned k, uint64_t seed, uint32_t partition,
                           cz_threadpool *pool, cz_errinfo *ei) {
    cz_porep_synth_shape sh;
    int rc = cz_porep_synth_shape_get(&sh, k, ei);
    if (rc != CZ_OK)
        return rc;
    if (cs->nrows != sh.nrows || cs->npublic != sh.npublic || cs->naux != sh.naux ||
        cs->ncoefs != NCOEFS)
        return cz_fail(ei, CZ_EINVAL,
                       "porep-synth: the system (%u rows, %u aux) is not the one of scale %u "
                       "(%u rows, %u aux)",
                       cs->nrows, cs->naux, k, sh.nrows, sh.naux);
    gen g;
    gen_init(&g, cs, &sh);
    g.wit = 1;
    g.seed = seed;
    g.partition = partition;
    cz_r1cs_fr_from_u64(cs->w[0], cs->curve, 1);
    run_all(&g, pool);
    return CZ_OK;
}

int cz_porep_synth_write(const char *r1cs_path, const char *wtns_path, const cz_r1cs *cs,
                         cz_threadpool *pool, cz_errinfo *ei) {
    int rc = CZ_OK;
    if (r1cs_path != NULL && (rc = cz_r1cs_write(r1cs_path, cs, ei)) != CZ_OK)
        return rc;
    if (wtns_path != NULL)
        rc = cz_r1cs_write_wtns(wtns_path, cs, pool, ei);
    return rc;
}
