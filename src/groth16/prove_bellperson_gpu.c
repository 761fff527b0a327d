/*
 * The bellperson prover on a CUDA GPU (cz_groth16_bp_prove with opts->use_gpu) and its resident
 * key (cz_groth16_bp_gpu_key): the CPU prover's proof (prove_bellperson.c), byte for byte, for
 * the same r and s.
 *
 * The key: H and L as they are; A, B_G1 and B_G2 spread over the variables (cz_gpu_bases_spread:
 * point k of A sits at the position of the k-th variable that A touches, inputs first, then aux),
 * so the A and B MSMs take the whole assignment input | aux as their scalars, already on the
 * device, with no gathering on the host. The positions come from the densities of the assignment
 * the key is made for; every circuit proved with the key must have the same densities (they are
 * a property of the circuit, so every partition of a Filecoin proof does), else CZ_EFORMAT.
 * B_G2 (the largest section: G2 points are 192 bytes) is resident only where it fits beside the
 * G1 bases and the working memory of one proof (the kernel region, and the workspace unless one
 * is allocated on the device already); otherwise it is streamed: every proof uploads it from the
 * key's host copy (which must stay valid while the key lives), or from a page-locked copy the key
 * makes where the host copy is pageable (key_g2_pin), in pieces as large as the free memory allows
 * and sums the pieces' G2 MSMs, so a card too small for the whole key still proves
 * on the device, a compact witness included. With cz_tuning.gpu_g2_on_cpu B_G2 stays on the host
 * and the G2 MSM runs on the CPU beside the GPU work. A key whose G1 bases leave less than one
 * proof's working memory is refused (CZ_ENOMEM, with the sizes).
 *
 * Per circuit: upload a, b, c (zero past abc_size) and w = input | aux; h over bellperson's
 * domain in six NTTs and no vector pass (cz_bls12381_gpu_ntt_quotient_dev: the field elements
 * of the CPU's bp_h, prove_bellperson.c); the MSMs H (n − 1
 * scalars of h), L (aux), A, B_G1 and B_G2 (w). Device memory per proof: 3 domain
 * vectors + the assignment (32 bytes per row and per variable) + the MSMs' temporaries, whose
 * sorted pairs go into the vectors h no longer needs (lent: cz_<curve>_gpu_g1_msm_dev_lent).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/assignment.h"
#include "cuzk/clock.h"
#include "cuzk/curve.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/log.h"
#include "cuzk/msm.h"
#include "cuzk/r1cs.h"
#include "cuzk/tuning.h"
#include "groth16/gpu_util.h"
#include "groth16/pending.h"
#include "groth16/prove_bellperson.h"

struct cz_groth16_bp_gpu_key {
    const cz_bellperson_params *params;
    int dev;
    cz_gpu_bases *h, *l, *a, *b1, *b2; /* b2 NULL: streamed (b2_idx) or on the CPU */
    uint32_t *b2_idx; /* streamed B_G2: the variable each point of params->b_g2 belongs to */
    /* streamed B_G2: the host points the pieces are uploaded from (params->b_g2, or b2_copy) */
    const cz_bls12381_g2_affine *b2_src;
    void *b2_copy; /* streamed B_G2 from pageable memory: the key's page-locked copy of it */
    size_t ninput, naux;
    uint64_t *a_aux, *b_in, *b_aux; /* the densities the key was spread by */
    size_t bytes;
};

void cz_groth16_bp_gpu_key_free(cz_groth16_bp_gpu_key *k) {
    if (k == NULL)
        return;
    cz_gpu_bases_free(k->h);
    cz_gpu_bases_free(k->l);
    cz_gpu_bases_free(k->a);
    cz_gpu_bases_free(k->b1);
    cz_gpu_bases_free(k->b2);
    cz_gpu_host_free(k->b2_copy);
    free(k->b2_idx);
    free(k->a_aux);
    free(k->b_in);
    free(k->b_aux);
    free(k);
}

size_t cz_groth16_bp_gpu_key_bytes(const cz_groth16_bp_gpu_key *k) {
    return k != NULL ? k->bytes : 0;
}

/* The positions of the variables a query touches: the inputs whose bit is set in in_density
 * (every input when it is NULL), then ninput + j for the aux j set in aux_density. */
static uint32_t *positions(size_t *m, const cz_assignment *as, const uint64_t *in_density,
                           const uint64_t *aux_density) {
    uint32_t *idx = malloc((as->ninput + as->naux) * sizeof *idx);
    size_t k = 0;
    if (idx == NULL)
        return NULL;
    for (size_t i = 0; i < as->ninput; i++)
        if (in_density == NULL || cz_density_bit(in_density, i))
            idx[k++] = (uint32_t)i;
    for (size_t j = 0; j < as->naux; j++)
        if (cz_density_bit(aux_density, j))
            idx[k++] = (uint32_t)(as->ninput + j);
    *m = k;
    return idx;
}

/* Copies nbits of a density into a new array of whole words with the tail bits cleared. */
static uint64_t *density_copy(const uint64_t *d, size_t nbits) {
    size_t nw = cz_density_words(nbits);
    uint64_t *c = malloc((nw ? nw : 1) * sizeof *c);
    if (c == NULL)
        return NULL;
    memcpy(c, d, nw * sizeof *c);
    if (nbits % 64 != 0)
        c[nw - 1] &= (UINT64_C(1) << (nbits % 64)) - 1;
    return c;
}

/* Whether nbits of d equal the key's copy kd. */
static int density_same(const uint64_t *kd, const uint64_t *d, size_t nbits) {
    size_t full = nbits / 64;
    if (memcmp(kd, d, full * sizeof *d) != 0)
        return 0;
    return nbits % 64 == 0 || kd[full] == (d[full] & ((UINT64_C(1) << (nbits % 64)) - 1));
}

/* Spreads handle b (its points made already) over the variables of query (A: in_density NULL). */
static int key_spread(cz_groth16_bp_gpu_key *k, cz_gpu_bases *b, const cz_assignment *as,
                      const uint64_t *in_density, const uint64_t *aux_density, const char *what,
                      cz_errinfo *ei) {
    size_t m = 0;
    uint32_t *idx = positions(&m, as, in_density, aux_density);
    int rc;
    if (idx == NULL)
        return cz_fail(ei, CZ_ENOMEM, "bellperson gpu key: cannot allocate the %s positions", what);
    if (m != cz_gpu_bases_count(b))
        rc = cz_fail(ei, CZ_EFORMAT, "bellperson gpu key: %zu variables in %s, the key has %zu", m,
                     what, cz_gpu_bases_count(b));
    else
        rc = cz__g16_gpu_wrap(cz_gpu_bases_spread(b, idx, as->ninput + as->naux, ei), ei, k->dev,
                              what, m * sizeof *idx);
    free(idx);
    return rc;
}

/* A key with its device checked, the densities of shape copied, no bases yet. */
static int key_new(cz_groth16_bp_gpu_key **out, const cz_bellperson_params *params,
                   const cz_assignment *shape, int dev, cz_errinfo *ei) {
    cz_groth16_bp_gpu_key *k;
    int rc;
    *out = NULL;
    if ((rc = cz__g16_gpu_check(dev, "bellperson gpu key", ei)) != CZ_OK)
        return rc;
    if ((k = calloc(1, sizeof *k)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "bellperson gpu key: cannot allocate it");
    k->params = params;
    k->dev = dev;
    k->ninput = shape->ninput;
    k->naux = shape->naux;
    k->a_aux = density_copy(shape->a_aux_density, shape->naux);
    k->b_in = density_copy(shape->b_input_density, shape->ninput);
    k->b_aux = density_copy(shape->b_aux_density, shape->naux);
    if (k->a_aux == NULL || k->b_in == NULL || k->b_aux == NULL) {
        cz_groth16_bp_gpu_key_free(k);
        return cz_fail(ei, CZ_ENOMEM, "bellperson gpu key: cannot copy the densities");
    }
    *out = k;
    return CZ_OK;
}

/* Spreads A, B_G1 and B_G2 (made already, B_G2 possibly absent) and counts the bytes. */
static int key_finish(cz_groth16_bp_gpu_key *k, const cz_assignment *shape, cz_errinfo *ei) {
    int rc;
    if ((rc = key_spread(k, k->a, shape, NULL, shape->a_aux_density, "A", ei)) != CZ_OK ||
        (rc = key_spread(k, k->b1, shape, shape->b_input_density, shape->b_aux_density, "B_G1",
                         ei)) != CZ_OK)
        return rc;
    if (k->b2 != NULL && (rc = key_spread(k, k->b2, shape, shape->b_input_density,
                                          shape->b_aux_density, "B_G2", ei)) != CZ_OK)
        return rc;
    k->bytes = cz_gpu_bases_bytes(k->h) + cz_gpu_bases_bytes(k->l) + cz_gpu_bases_bytes(k->a) +
               cz_gpu_bases_bytes(k->b1) + cz_gpu_bases_bytes(k->b2);
    return CZ_OK;
}

/* The outcome of making B_G2: no room (CZ_ENOMEM) leaves the G2 MSM on the CPU, with a warning. */
static int key_g2_done(cz_groth16_bp_gpu_key *k, int rc, cz_errinfo *ei) {
    if (rc != CZ_ENOMEM)
        return rc;
    CZ_LOG_WARN("bellperson gpu key: the G2 MSM stays on the CPU: %s", ei != NULL ? ei->msg : "");
    cz_errinfo_clear(ei);
    cz_gpu_bases_free(k->b2);
    k->b2 = NULL;
    return CZ_OK;
}

static size_t key_g1_bytes(const cz_groth16_bp_gpu_key *k) {
    return cz_gpu_bases_bytes(k->h) + cz_gpu_bases_bytes(k->l) + cz_gpu_bases_bytes(k->a) +
           cz_gpu_bases_bytes(k->b1);
}

/* The device memory one proof needs beside the key: the kernel region, and the workspace unless
 * workspaces are allocated on dev already. */
static size_t proof_room(const cz_bellperson_params *params, const cz_assignment *shape, int dev) {
    size_t ws = cz_groth16_bp_gpu_ws_need(params, shape->ninput + shape->naux, NULL),
           have = cz__g16_gpu_ws_bytes_on(dev);
    return cz_groth16_bp_gpu_region_bytes(params) + (have >= ws ? 0 : ws - have);
}

/* Every proof uploads a streamed B_G2. From pageable memory the driver stages the copy through
 * its own buffers (3.4 s of the 5.3 s B_G2 stage of a 32 GiB WindowPoSt on an H100); from
 * page-locked memory it goes at the link's speed. The daemon's keys are page-locked already
 * (src/engine/hostmem.c); from any other host copy (a key made by the setup, or read by the CLI)
 * the key makes a page-locked copy of B_G2 for its life. Registering the caller's memory in
 * place instead rounds to whole pages, which then hold the edges of other heap blocks: a copy
 * from a block that crosses such an edge is refused by the driver (cudaErrorInvalidValue, seen
 * in gpu_test_gpu_bellperson_prove on an H200). Where no page-locked memory is to be had the key
 * streams from the pageable copy, as correct and slower. */
static void key_g2_pin(cz_groth16_bp_gpu_key *k) {
    const cz_bellperson_params *p = k->params;
    const size_t bytes = (size_t)p->nb_g2 * sizeof *p->b_g2;
    cz_errinfo sub;
    k->b2_src = p->b_g2;
    if (p->nb_g2 == 0 || cz_gpu_host_is_pinned(p->b_g2))
        return;
    cz_errinfo_clear(&sub);
    if (cz_gpu_host_alloc(&k->b2_copy, bytes, &sub) == CZ_OK) {
        memcpy(k->b2_copy, p->b_g2, bytes);
        k->b2_src = k->b2_copy;
    } else {
        CZ_LOG_WARN("bellperson gpu key: the streamed B_G2 (%zu MiB) stays pageable, every proof "
                    "copies it slower: %s",
                    bytes >> 20, sub.msg);
    }
}

/* B_G2 streamed from the host: the positions of its points, the page-locked source. */
static int key_g2_stream(cz_groth16_bp_gpu_key *k, const cz_assignment *shape, cz_errinfo *ei) {
    size_t m = 0;
    if ((k->b2_idx = positions(&m, shape, shape->b_input_density, shape->b_aux_density)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "bellperson gpu key: cannot allocate the B_G2 positions");
    if (m != k->params->nb_g2)
        return cz_fail(ei, CZ_EFORMAT, "bellperson gpu key: %zu variables in B_G2, the key has %u",
                       m, k->params->nb_g2);
    key_g2_pin(k);
    return CZ_OK;
}

/* B_G2 of a key with a host copy: resident where it fits beside one proof's working memory (and
 * cz_tuning does not ask for streaming), else streamed; on the CPU with cz_tuning.gpu_g2_on_cpu.
 * CZ_ENOMEM when the G1 bases leave no room for a proof. */
static int key_g2_place(cz_groth16_bp_gpu_key *k, const cz_assignment *shape, cz_errinfo *ei) {
    const cz_bellperson_params *p = k->params;
    size_t room = proof_room(p, shape, k->dev), free_b = 0, total_b = 0;
    size_t g2_bytes = (size_t)p->nb_g2 * (sizeof(cz_bls12381_g2_affine) + sizeof(uint32_t));
    cz_tuning tu;
    int rc;
    cz_tuning_get(&tu);
    if ((rc = cz__g16_gpu_wrap(cz_gpu_mem_info(&free_b, &total_b, k->dev, ei), ei, k->dev,
                               "the free memory", 0)) != CZ_OK)
        return rc;
    if (free_b < room)
        return cz_fail(ei, CZ_ENOMEM,
                       "bellperson gpu key: GPU %d has %zu MiB free beside the key's G1 bases "
                       "(%zu MiB); a proof needs %zu MiB",
                       k->dev, free_b >> 20, key_g1_bytes(k) >> 20, room >> 20);
    if (!cz__g16_gpu_g2_wanted())
        return CZ_OK;
    if (!tu.gpu_g2_stream && free_b - room >= g2_bytes) {
        rc = cz__g16_gpu_wrap(
            cz_bls12381_gpu_g2_bases_upload(&k->b2, p->b_g2, p->nb_g2, k->dev, ei), ei, k->dev,
            "the B_G2 bases", (size_t)p->nb_g2 * sizeof(cz_bls12381_g2_affine));
        if (rc != CZ_ENOMEM)
            return rc;
        cz_errinfo_clear(ei);
        cz_gpu_bases_free(k->b2);
        k->b2 = NULL;
    }
    if (!tu.gpu_g2_stream)
        CZ_LOG_INFO("bellperson gpu key: B_G2 (%zu MiB) is streamed from the host: GPU %d has "
                    "%zu MiB free beside the G1 bases, a proof needs %zu MiB",
                    g2_bytes >> 20, k->dev, free_b >> 20, room >> 20);
    return key_g2_stream(k, shape, ei);
}

static int key_done(cz_groth16_bp_gpu_key **out, cz_groth16_bp_gpu_key *k, int rc) {
    if (rc != CZ_OK) {
        cz_groth16_bp_gpu_key_free(k);
        return rc;
    }
    *out = k;
    return CZ_OK;
}

int cz_groth16_bp_gpu_key_create(cz_groth16_bp_gpu_key **out, const cz_bellperson_params *params,
                                 const cz_assignment *shape, int dev, cz_errinfo *ei) {
    cz_groth16_bp_gpu_key *k;
    size_t g1 = sizeof(cz_bls12381_g1_affine);
    int rc;
    if ((rc = key_new(&k, params, shape, dev, ei)) != CZ_OK)
        return rc;
    if ((rc = cz__g16_gpu_wrap(
             cz_bls12381_gpu_g1_bases_upload(&k->h, params->h, params->nh, dev, ei), ei, dev,
             "the H bases", params->nh * g1)) != CZ_OK ||
        (rc = cz__g16_gpu_wrap(
             cz_bls12381_gpu_g1_bases_upload(&k->l, params->l, params->nl, dev, ei), ei, dev,
             "the L bases", params->nl * g1)) != CZ_OK ||
        (rc = cz__g16_gpu_wrap(
             cz_bls12381_gpu_g1_bases_upload(&k->a, params->a, params->na, dev, ei), ei, dev,
             "the A bases", params->na * g1)) != CZ_OK ||
        (rc = cz__g16_gpu_wrap(
             cz_bls12381_gpu_g1_bases_upload(&k->b1, params->b_g1, params->nb_g1, dev, ei), ei, dev,
             "the B_G1 bases", params->nb_g1 * g1)) != CZ_OK ||
        (rc = key_g2_place(k, shape, ei)) != CZ_OK)
        return key_done(out, k, rc);
    return key_done(out, k, key_finish(k, shape, ei));
}

/* [k]G1 and [k]G2 for a small k: the benchmark key's points. */
static void g1_small(cz_bls12381_g1_affine *out, uint64_t k) {
    cz_bls12381_g1_jacobian j;
    uint64_t l[1] = {k};
    cz_bls12381_g1_generator(out);
    cz_bls12381_g1_from_affine(&j, out);
    cz_bls12381_g1_mul_limbs(&j, &j, l, 1);
    cz_bls12381_g1_to_affine(out, &j);
}

static void g2_small(cz_bls12381_g2_affine *out, uint64_t k) {
    cz_bls12381_g2_jacobian j;
    uint64_t l[1] = {k};
    cz_bls12381_g2_generator(out);
    cz_bls12381_g2_from_affine(&j, out);
    cz_bls12381_g2_mul_limbs(&j, &j, l, 1);
    cz_bls12381_g2_to_affine(out, &j);
}

void cz_groth16_bp_bench_params(cz_bellperson_params *p, const cz_assignment *shape,
                                unsigned log_n) {
    memset(p, 0, sizeof *p);
    p->vk.nic = (uint32_t)shape->ninput;
    g1_small(&p->vk.alpha_g1, 3);
    g1_small(&p->vk.beta_g1, 5);
    g1_small(&p->vk.delta_g1, 7);
    g2_small(&p->vk.beta_g2, 11);
    g2_small(&p->vk.gamma_g2, 13);
    g2_small(&p->vk.delta_g2, 17);
    p->nh = (uint32_t)(((size_t)1 << log_n) - 1);
    p->nl = (uint32_t)shape->naux;
    p->na = (uint32_t)(shape->ninput + cz_density_popcount(shape->a_aux_density, shape->naux));
    p->nb_g1 = p->nb_g2 = (uint32_t)(cz_density_popcount(shape->b_input_density, shape->ninput) +
                                     cz_density_popcount(shape->b_aux_density, shape->naux));
}

int cz_groth16_bp_gpu_key_create_bench(cz_groth16_bp_gpu_key **out,
                                       const cz_bellperson_params *params,
                                       const cz_assignment *shape, int dev, cz_errinfo *ei) {
    cz_groth16_bp_gpu_key *k;
    cz_gpu_bases **h[4];
    const uint32_t cnt[4] = {params->nh, params->nl, params->na, params->nb_g1};
    static const char *const what[4] = {"the H bases", "the L bases", "the A bases",
                                        "the B_G1 bases"};
    size_t g1 = sizeof(cz_bls12381_g1_affine), g2 = sizeof(cz_bls12381_g2_affine);
    cz_bls12381_g1_affine p0, step;
    cz_bls12381_g2_affine p0_g2, step_g2;
    int rc;
    if ((rc = key_new(&k, params, shape, dev, ei)) != CZ_OK)
        return rc;
    h[0] = &k->h, h[1] = &k->l, h[2] = &k->a, h[3] = &k->b1;
    for (int v = 0; v < 4; v++) {
        g1_small(&p0, 19 + (uint64_t)v);
        g1_small(&step, 29 + (uint64_t)v);
        if ((rc = cz__g16_gpu_wrap(
                 cz_bls12381_gpu_g1_bases_progression(h[v], &p0, &step, cnt[v], dev, ei), ei, dev,
                 what[v], cnt[v] * g1)) != CZ_OK)
            return key_done(out, k, rc);
    }
    g2_small(&p0_g2, 37);
    g2_small(&step_g2, 41);
    if (cz__g16_gpu_g2_wanted() &&
        (rc = key_g2_done(k,
                          cz__g16_gpu_wrap(cz_bls12381_gpu_g2_bases_progression(
                                               &k->b2, &p0_g2, &step_g2, params->nb_g2, dev, ei),
                                           ei, dev, "the B_G2 bases", params->nb_g2 * g2),
                          ei)) != CZ_OK)
        return key_done(out, k, rc);
    return key_done(out, k, key_finish(k, shape, ei));
}

/* CZ_EFORMAT unless circuit i has the densities key was spread by. */
int cz_groth16_bp_gpu_key_fits(const cz_groth16_bp_gpu_key *k, const cz_assignment *as) {
    return as->ninput == k->ninput && as->naux == k->naux &&
           density_same(k->a_aux, as->a_aux_density, as->naux) &&
           density_same(k->b_in, as->b_input_density, as->ninput) &&
           density_same(k->b_aux, as->b_aux_density, as->naux);
}

static int key_fits(const cz_groth16_bp_gpu_key *k, const cz_assignment *as, cz_errinfo *ei) {
    if (!cz_groth16_bp_gpu_key_fits(k, as))
        return cz_fail(ei, CZ_EFORMAT,
                       "bellperson prove: the circuit has other densities than the GPU key was "
                       "made for (another circuit?)");
    return CZ_OK;
}

const cz_bellperson_params *cz__bp_gpu_key_params(const cz_groth16_bp_gpu_key *k) {
    return k->params;
}

int cz_groth16_bp_gpu_key_g2_pinned(const cz_groth16_bp_gpu_key *k) {
    return k != NULL && k->b2_idx != NULL && k->b2_src != NULL && cz_gpu_host_is_pinned(k->b2_src);
}

int cz_groth16_bp_gpu_key_has_g2(const cz_groth16_bp_gpu_key *k) {
    return k != NULL && (k->b2 != NULL || k->b2_idx != NULL);
}

/* The points of a streamed B_G2 piece: cz_tuning's, else the largest power of two up to all of
 * them whose points, positions and MSM fit in three quarters of the free memory. */
static size_t g2_piece(const cz_groth16_bp_gpu_key *k, size_t n) {
    size_t free_b = 0, total_b = 0, piece = (size_t)1 << 26;
    cz_tuning tu;
    cz_errinfo sub;
    cz_tuning_get(&tu);
    if (tu.gpu_g2_stream_points != 0)
        return tu.gpu_g2_stream_points < n ? tu.gpu_g2_stream_points : n;
    cz_errinfo_clear(&sub);
    if (cz_gpu_mem_info(&free_b, &total_b, k->dev, &sub) != CZ_OK)
        free_b = 0;
    while (piece > ((size_t)1 << 16) && piece * (sizeof(cz_bls12381_g2_affine) + sizeof(uint32_t)) +
                                                cz_bls12381_gpu_g2_msm_min_bytes(piece) >
                                            free_b / 4 * 3)
        piece >>= 1;
    return piece < n ? piece : n;
}

/* A piece of B_G2 uploaded or on its way (g2_streamed). */
typedef struct g2_piece_up {
    cz_gpu_bases *b;
    cz_gpu_copy *cp; /* the copy in flight; NULL once ended */
    size_t c0, m;    /* its points: params->b_g2[c0 .. c0 + m) */
} g2_piece_up;

static int piece_start(g2_piece_up *u, const cz_groth16_bp_gpu_key *k, size_t c0, size_t m,
                       cz_errinfo *ei) {
    u->c0 = c0;
    u->m = m;
    return cz_bls12381_gpu_g2_bases_upload_start(&u->b, &u->cp, k->b2_src + c0, m, k->dev, ei);
}

/* Waits for a piece's copy if it is still in flight and frees it (a piece dropped before its use
 * is not compacted: cz_gpu_bases_upload_end would run kernels and allocate for nothing). */
static void piece_drop(g2_piece_up *u) {
    cz_errinfo sub;
    cz_errinfo_clear(&sub);
    (void)cz_gpu_copy_wait(u->cp, &sub); /* NULL: nothing in flight */
    cz_gpu_bases_free(u->b);
    memset(u, 0, sizeof *u);
}

/* *out = the B_G2 MSM over the scalars w (nvars, on the device) with the key's streamed B_G2:
 * each piece uploaded from the host copy, spread over its variables, its MSM summed. The next
 * piece's upload starts before the current piece's MSM, on a stream of its own, where the device
 * has room for it (from the page-locked copy it then runs beside the kernels; else, or with
 * cz_tuning.gpu_g2_stream_serial, it is uploaded after). An MSM without room beside the piece
 * ahead runs again without it; a piece the device has no room for is halved. Each piece's MSM
 * gets the lent memory (lent_bytes at lent). */
static int g2_streamed(cz_bls12381_g2_jacobian *out, const cz_groth16_bp_gpu_key *k, const void *w,
                       size_t nvars, void *lent, size_t lent_bytes, cz_errinfo *ei) {
    size_t n = k->params->nb_g2, piece = g2_piece(k, n);
    g2_piece_up cur = {0}, next = {0};
    cz_tuning tu;
    int rc = CZ_OK;
    cz_tuning_get(&tu);
    memset(out, 0, sizeof *out); /* infinity: z = 0 */
    for (size_t c0 = 0; c0 < n && rc == CZ_OK;) {
        cz_bls12381_g2_jacobian part;
        size_t m;
        if (cur.b == NULL) /* nothing uploaded ahead: the first piece, or after a halving */
            rc = piece_start(&cur, k, c0, piece < n - c0 ? piece : n - c0, ei);
        m = cur.m;
        if (rc == CZ_OK) {
            rc = cz_gpu_bases_upload_end(cur.b, cur.cp, ei);
            cur.cp = NULL;
        }
        if (rc == CZ_OK)
            rc = cz_gpu_bases_spread(cur.b, k->b2_idx + c0, nvars, ei);
        if (rc == CZ_OK && c0 + m < n && !tu.gpu_g2_stream_serial) {
            size_t c1 = c0 + m;
            cz_errinfo sub;
            cz_errinfo_clear(&sub);
            if (piece_start(&next, k, c1, piece < n - c1 ? piece : n - c1, &sub) != CZ_OK)
                memset(&next, 0, sizeof next); /* no room beside it: after this piece */
        }
        if (rc == CZ_OK) {
            rc = cz_bls12381_gpu_g2_msm_dev_lent(&part, cur.b, w, nvars, lent, lent_bytes, ei);
            if (rc == CZ_ENOMEM && next.b != NULL) { /* the piece ahead took its room */
                piece_drop(&next);
                cz_errinfo_clear(ei);
                rc = cz_bls12381_gpu_g2_msm_dev_lent(&part, cur.b, w, nvars, lent, lent_bytes, ei);
            }
        }
        piece_drop(&cur);
        if (rc == CZ_ENOMEM && piece > 1) { /* smaller pieces, the one ahead included */
            piece_drop(&next);
            cz_errinfo_clear(ei);
            piece = (piece + 1) / 2;
            rc = CZ_OK;
            continue;
        }
        if (rc == CZ_OK) {
            cz_bls12381_g2_add(out, out, &part);
            c0 += m; /* where the piece ahead, if any, starts */
            cur = next;
            memset(&next, 0, sizeof next);
        }
    }
    piece_drop(&cur);
    piece_drop(&next);
    return rc;
}

/* Workspace layout: a | b | c (n elements each) | w = input | aux, then, for a compact witness
 * (bits rounded to whole elements, then its values) that does not fit where a, b and c go (a
 * circuit of more variables than rows), its staging area. */
static size_t ws_bytes(unsigned log_n, size_t nvars) {
    return (3 * ((size_t)1 << log_n) + nvars) * sizeof(cz_bls12381_fr);
}

static size_t stage_bytes(size_t nvars, const cz_gpu_r1cs *m) {
    return cz_r1cs_bool_bytes_aligned((uint32_t)nvars) +
           (size_t)cz_gpu_r1cs_nvals(m) * sizeof(cz_bls12381_fr);
}

static int stage_in_abc(unsigned log_n, size_t nvars, const cz_gpu_r1cs *m) {
    return stage_bytes(nvars, m) <= 3 * ((size_t)1 << log_n) * sizeof(cz_bls12381_fr);
}

size_t cz_groth16_bp_gpu_ws_need(const cz_bellperson_params *params, size_t nvars,
                                 const cz_gpu_r1cs *m_compact) {
    unsigned log_n = (unsigned)__builtin_ctzll((unsigned long long)params->nh + 1);
    size_t need = ws_bytes(log_n, nvars);
    if (m_compact != NULL && !stage_in_abc(log_n, nvars, m_compact))
        need += stage_bytes(nvars, m_compact);
    return need;
}

size_t cz_groth16_bp_gpu_region_bytes(const cz_bellperson_params *params) {
    size_t n = (size_t)params->nh + 1, fr = sizeof(cz_bls12381_fr);
    size_t h = cz_bls12381_gpu_g1_msm_min_bytes(params->nh),
           g2 = cz_bls12381_gpu_g2_msm_min_bytes(params->nb_g2);
    /* the NTT's twiddles (n/2) and scratch (n), then the largest MSM's least */
    return n / 2 * fr + n * fr + (h > g2 ? h : g2);
}

/* Copies a, b, c (zero past abc_size) and w into ws, or w alone when m is given and then a, b, c
 * computed from it by m's kernel. Every copy and zero fill runs on a non-blocking stream of its
 * own (cz_gpu_upload_start): on the legacy default stream, as cudaMemcpy, they were queued
 * between the kernels of the partition another worker computes on the same device, whose region
 * then took the uploads' time too. */
int cz__bp_upload_gpu(cz_groth16_bp_pending *pp, cz_groth16_gpu_ws *ws, const cz_gpu_r1cs *m,
                      const cz__bp_compact *cw, cz_errinfo *ei) {
    const cz_assignment *as = pp->as;
    size_t n = (size_t)1 << pp->log_n, fr = sizeof(cz_bls12381_fr);
    int dev = cz__groth16_gpu_ws_device(ws), rc, k = 0;
    const cz_bls12381_fr *src[3] = {as->a, as->b, as->c};
    static const char *const what[3] = {"upload a", "upload b", "upload c"};
    cz_gpu_copy *cp[8] = {NULL};
    const char *cp_what[8];
    uint64_t t = cz_clock_now_ns();
    uint8_t *buf;

    /* a compact witness: its bits, rounded to whole elements, then its values, staged where a,
     * b and c go (computed after the expansion) or, where they do not fit there (a circuit of
     * more variables than rows), after w */
    const size_t nvars = as->ninput + as->naux;
    const size_t bits_bytes = cz_r1cs_bool_bytes_aligned((uint32_t)nvars);
    size_t stage_at = 0;
    uint8_t *stage;
    if (m != NULL && cz_gpu_r1cs_device(m) != dev)
        return cz_fail(ei, CZ_EINVAL,
                       "bellperson prove: the matrices are on GPU %d, the "
                       "workspace on GPU %d",
                       cz_gpu_r1cs_device(m), dev);
    if (cw != NULL && m == NULL)
        return cz_fail(ei, CZ_EINVAL, "bellperson prove: a compact witness without matrices");
    if (cw != NULL && !stage_in_abc(pp->log_n, nvars, m))
        stage_at = ws_bytes(pp->log_n, nvars);
    if ((rc = cz_groth16_gpu_ws_reserve(
             ws, cz_groth16_bp_gpu_ws_need(pp->params, nvars, cw != NULL ? m : NULL), ei)) != CZ_OK)
        return rc;
    buf = cz__g16_gpu_ws_buf(ws);
    stage = buf + stage_at;
    for (int v = 0; m == NULL && v < 3 && rc == CZ_OK; v++) {
        uint8_t *d = buf + (size_t)v * n * fr;
        cp_what[k] = what[v];
        rc = cz_gpu_upload_start(&cp[k++], d, src[v], as->abc_size * fr, dev, ei);
        /* zero past abc_size: a product with zero is zero whatever the buffer held */
        if (rc == CZ_OK && as->abc_size < n) {
            cp_what[k] = "zero padding";
            rc = cz_gpu_zero_start(&cp[k++], d + as->abc_size * fr, (n - as->abc_size) * fr, dev,
                                   ei);
        }
    }
    buf += 3 * n * fr;
    if (rc == CZ_OK && cw != NULL) {
        cp_what[k] = "upload the witness's bits";
        rc = cz_gpu_upload_start(
            &cp[k++], stage, cw->bits,
            cz_r1cs_bool_words((uint32_t)(as->ninput + as->naux)) * sizeof(uint64_t), dev, ei);
        if (rc == CZ_OK) {
            cp_what[k] = "upload the witness's values";
            rc = cz_gpu_upload_start(&cp[k++], stage + bits_bytes, cw->vals,
                                     (size_t)cz_gpu_r1cs_nvals(m) * fr, dev, ei);
        }
    }
    if (rc == CZ_OK && cw == NULL) {
        cp_what[k] = "upload the inputs";
        rc = cz_gpu_upload_start(&cp[k++], buf, as->input, as->ninput * fr, dev, ei);
    }
    if (rc == CZ_OK && cw == NULL) {
        cp_what[k] = "upload the aux values";
        rc = cz_gpu_upload_start(&cp[k++], buf + as->ninput * fr, as->aux, as->naux * fr, dev, ei);
    }
    if (rc != CZ_OK)
        rc = cz__g16_gpu_wrap(rc, ei, dev, cp_what[k - 1], 0);
    /* every copy is waited for, also after a failure: the buffers stay valid until then */
    for (int i = 0; i < k; i++) {
        int wrc = cz_gpu_copy_wait(cp[i], rc == CZ_OK ? ei : NULL);
        if (rc == CZ_OK && wrc != CZ_OK)
            rc = cz__g16_gpu_wrap(wrc, ei, dev, cp_what[i], 0);
    }
    if (rc == CZ_OK && cw != NULL) {
        uint64_t t1 = cz_clock_now_ns();
        if ((rc = cz_gpu_r1cs_expand(m, buf, stage, stage + bits_bytes, ei)) != CZ_OK)
            rc = cz__g16_gpu_wrap(rc, ei, dev, "the witness from its compact form", 0);
        pp->tm.abc_ms += (double)(cz_clock_now_ns() - t1) / 1e6;
    }
    if (rc == CZ_OK && m != NULL) {
        uint64_t t1 = cz_clock_now_ns();
        if ((rc = cz_gpu_r1cs_eval(m, buf - 3 * n * fr, n, buf, ei)) != CZ_OK)
            rc = cz__g16_gpu_wrap(rc, ei, dev, "a, b, c from the matrices", 0);
        pp->tm.abc_ms += (double)(cz_clock_now_ns() - t1) / 1e6;
    }
    if (rc != CZ_OK)
        return rc;
    pp->ws = ws;
    pp->tm.upload_ms += (double)(cz_clock_now_ns() - t) / 1e6;
    return CZ_OK;
}

/* The kernel region on the key's device, with the vectors in buf (ws layout): h, then the
 * MSMs into pp->m (B_G2 when the key has it and the G2 MSM was not started). */
static int bp_region(cz_groth16_bp_pending *pp, const cz_groth16_bp_gpu_key *k, uint8_t *buf,
                     cz_errinfo *ei) {
    const cz_assignment *as = pp->as;
    unsigned log_n = pp->log_n;
    size_t n = (size_t)1 << log_n, fr = sizeof(cz_bls12381_fr), nvars = as->ninput + as->naux;
    int dev = k->dev, rc;
    void *vec[3] = {buf, buf + n * fr, buf + 2 * n * fr};
    uint8_t *w = buf + 3 * n * fr;
    cz_groth16_timings *tm = &pp->tm;
    uint64_t t0 = cz_clock_now_ns(), t;

    /* h into vec[0] (see the file comment) */
    if ((rc = cz__g16_gpu_wrap(cz_bls12381_gpu_ntt_quotient_dev(vec[0], vec[1], vec[2], log_n,
                                                                CZ_NTT_ROOTS_BELLPERSON, dev, ei),
                               ei, dev, "h, the quotient (a·b - c) / Z", 0)) != CZ_OK)
        return rc;
    tm->ntt_ms += (double)(cz_clock_now_ns() - t0) / 1e6;

#define BP_GPU_MSM(field, name, call)                                                              \
    do {                                                                                           \
        t = cz_clock_now_ns();                                                                     \
        rc = cz__g16_gpu_wrap((call), ei, dev, name, 0);                                           \
        tm->field += (double)(cz_clock_now_ns() - t) / 1e6;                                        \
        if (rc != CZ_OK)                                                                           \
            return rc;                                                                             \
    } while (0)
    /* the vectors h no longer needs (b and c), then all three after the H MSM, are lent to the
     * MSMs for their sorted pairs: a device that holds a large key besides keeps its windows a
     * pass */
    BP_GPU_MSM(
        msm_h_ms, "the H MSM",
        cz_bls12381_gpu_g1_msm_dev_lent(&pp->m.h, k->h, vec[0], n - 1, vec[1], 2 * n * fr, ei));
    BP_GPU_MSM(msm_c_ms, "the L MSM",
               cz_bls12381_gpu_g1_msm_dev_lent(&pp->m.l, k->l, w + as->ninput * fr, as->naux,
                                               vec[0], 3 * n * fr, ei));
    BP_GPU_MSM(msm_a_ms, "the A MSM",
               cz_bls12381_gpu_g1_msm_dev_lent(&pp->m.a, k->a, w, nvars, vec[0], 3 * n * fr, ei));
    BP_GPU_MSM(msm_b1_ms, "the B_G1 MSM",
               cz_bls12381_gpu_g1_msm_dev_lent(&pp->m.b1, k->b1, w, nvars, vec[0], 3 * n * fr, ei));
    if (k->b2 != NULL && pp->g2_state == 0) {
        BP_GPU_MSM(
            msm_b2_ms, "the B_G2 MSM",
            cz_bls12381_gpu_g2_msm_dev_lent(&pp->m.b2, k->b2, w, nvars, vec[0], 3 * n * fr, ei));
        pp->g2_state = 2;
        pp->g2_rc = CZ_OK;
    } else if (k->b2_idx != NULL && pp->g2_state == 0) {
        BP_GPU_MSM(msm_b2_ms, "the B_G2 MSM (streamed)",
                   g2_streamed(&pp->m.b2, k, w, nvars, vec[0], 3 * n * fr, ei));
        pp->g2_state = 2;
        pp->g2_rc = CZ_OK;
    }
#undef BP_GPU_MSM
    tm->gpu_ms += (double)(cz_clock_now_ns() - t0) / 1e6;
    return CZ_OK;
}

int cz__bp_compute_gpu(cz_groth16_bp_pending *pp, const cz_groth16_bp_gpu_key *key,
                       cz_errinfo *ei) {
    cz_groth16_gpu_ws *own = NULL;
    int rc;
    if (key->params != pp->params)
        return cz_fail(ei, CZ_EINVAL, "bellperson prove: the GPU key was made for another key");
    if (pp->ws != NULL && cz__groth16_gpu_ws_device(pp->ws) != key->dev)
        return cz_fail(ei, CZ_EINVAL, "bellperson prove: uploaded to GPU %d, computing on GPU %d",
                       cz__groth16_gpu_ws_device(pp->ws), key->dev);
    if ((rc = key_fits(key, pp->as, ei)) != CZ_OK)
        return rc;
    if (pp->ws == NULL) { /* no upload stage: into a workspace of this call's own */
        if ((rc = cz_groth16_gpu_ws_create(&own, key->dev, ei)) != CZ_OK ||
            (rc = cz__bp_upload_gpu(pp, own, NULL, NULL, ei)) != CZ_OK)
            goto out;
    }
    rc = bp_region(pp, key, cz__g16_gpu_ws_buf(pp->ws), ei);
out:
    if (own != NULL)
        pp->ws = NULL;
    cz_groth16_gpu_ws_free(own);
    return rc;
}
