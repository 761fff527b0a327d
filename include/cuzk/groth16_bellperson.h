/*
 * Groth16 proofs for bellperson keys (.params, cuzk/bellperson.h) from proving assignments
 * (cuzk/assignment.h): exactly what bellperson's create_proof_batch_priority and supra_seal's
 * generate_groth16_proofs compute, on the CPU or on the GPU, so that given the same r and s the
 * proof is the same, point for point (docs/groth16.md, "bellperson prover").
 *
 * Per circuit, with n = |H| + 1 the key's domain (a power of two, n >= abc_size; a, b, c are
 * zero past abc_size), over blstrs's domain (CZ_NTT_ROOTS_BELLPERSON: root 7^((r-1)/2^32) squared
 * down, coset generator g = 7):
 *   h     bellperson's coset iNTT((coset NTT(iNTT a))·(coset NTT(iNTT b)) − coset NTT(iNTT c))
 *         / Z(g), Z(g) = g^n − 1, computed in 6 NTTs as (coset iNTT(A_g·B_g) − iNTT c) / Z(g)
 *         (the same field elements); the first n − 1 are the H MSM's scalars;
 *   MSMs  H' = Σ h_i·H_i; L' = Σ aux_j·L_j over all aux;
 *         A' = Σ input_i·A_i + Σ_{a_aux_j} aux_j·A_{ninput + rank_j} (inputs dense, aux where
 *         a_aux_density is set, in order); B1' and B2' likewise over b_input_density then
 *         b_aux_density, in G1 (B_G1) and G2 (B_G2);
 *   proof πA = A' + α₁ + r·δ₁;  πB = B2' + β₂ + s·δ₂;
 *         πC = s·A' + r·B1' + r·s·δ₁ + s·α₁ + r·β₁ + H' + L'.
 * A key must match the assignments: |IC| = ninput, |L| = naux, |A| = ninput + popcount(a_aux),
 * |B_G1| = |B_G2| = popcount(b_input) + popcount(b_aux), abc_size <= n; every mismatch is
 * CZ_EFORMAT naming the count, before any work. A batch may mix densities (each circuit uses its
 * own), but every circuit must fit the key.
 *
 * Blinding: r_s[i], s_s[i] (Montgomery form, as supra_seal's r_s, s_s) or, both NULL, drawn from
 * the CSPRNG per circuit and wiped after use. r = s = 0 gives bellperson's non-zero-knowledge
 * proof (tests only). The scalar multiplications by r and s are not constant-time
 * (cuzk/curve_api.h).
 */
#ifndef CUZK_GROTH16_BELLPERSON_H
#define CUZK_GROTH16_BELLPERSON_H

#include <stddef.h>

#include "cuzk/assignment.h"
#include "cuzk/bellperson.h"
#include "cuzk/err.h"
#include "cuzk/groth16.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_threadpool cz_threadpool;

/*
 * A bellperson key's bases resident on one GPU (H, L, A, B_G1 and, unless the device lacks the
 * room or cz_tuning.gpu_g2_on_cpu is set, B_G2), uploaded once and shared by every proof with
 * that key on that device; it keeps a pointer to params, which must outlive it (a B_G2 streamed
 * for want of room: its host copy is page-locked while the key lives, unless it already is; see
 * docs/groth16.md). A, B_G1 and B_G2
 * are spread over the variables by the densities of shape (an assignment of the key's circuit;
 * only its counts and densities are read): every circuit proved with the key must have the
 * same densities (CZ_EFORMAT otherwise), as every partition of one Filecoin circuit has.
 * Errors: CZ_ENOGPU, CZ_EINVAL (no such device), CZ_EFORMAT (shape does not fit the key),
 * CZ_ENOMEM naming the section, CZ_EGPU.
 */
typedef struct cz_groth16_bp_gpu_key cz_groth16_bp_gpu_key;
int cz_groth16_bp_gpu_key_create(cz_groth16_bp_gpu_key **out, const cz_bellperson_params *params,
                                 const cz_assignment *shape, int dev, cz_errinfo *ei);
/* A benchmark key, for timing at sizes where a setup would take long: cz_groth16_bp_bench_params
 * zeroes *params and gives it the counts a key made by cz_groth16_setup_bellperson for circuits
 * shaped like shape (its ninput, naux and densities; values not read) over the domain 2^log_n
 * would have, and a verifying key of small multiples of the generators without IC (no arrays:
 * nothing to free); cz_groth16_bp_gpu_key_create_bench makes its device key, every base a
 * progression p0 + i·step of fixed multiples of the generators made on the device. Proofs with
 * it are timed, not verifiable. Errors as for cz_groth16_bp_gpu_key_create. */
void cz_groth16_bp_bench_params(cz_bellperson_params *params, const cz_assignment *shape,
                                unsigned log_n);
int cz_groth16_bp_gpu_key_create_bench(cz_groth16_bp_gpu_key **out,
                                       const cz_bellperson_params *params,
                                       const cz_assignment *shape, int dev, cz_errinfo *ei);
void cz_groth16_bp_gpu_key_free(cz_groth16_bp_gpu_key *k); /* NULL is a no-op */
/* 1 when as has the counts and densities k was spread by (so k can prove it), else 0. */
int cz_groth16_bp_gpu_key_fits(const cz_groth16_bp_gpu_key *k, const cz_assignment *as);
size_t cz_groth16_bp_gpu_key_bytes(const cz_groth16_bp_gpu_key *k);

typedef struct cz_groth16_bp_opts {
    const cz_bls12381_fr *r_s, *s_s; /* n each, or both NULL: random */
    cz_threadpool *pool;             /* NULL: the calling thread only */
    /* use_gpu = 0: the CPU. Otherwise device gpu_device, with gpu_key's resident bases (made for
     * this params on that device, else CZ_EINVAL) or, gpu_key NULL, bases uploaded for the call
     * and spread by the first circuit's densities (so a GPU batch shares its densities). */
    int use_gpu;
    int gpu_device;
    const cz_groth16_bp_gpu_key *gpu_key;
    cz_groth16_timings *timings; /* NULL: not recorded; summed over the batch */
} cz_groth16_bp_opts;

/*
 * proofs[i] = the proof of assignment asg[i] with params, for i < n (n >= 1); opts may be NULL.
 * Errors: CZ_EFORMAT (an assignment that does not fit the key, naming circuit and count),
 * CZ_EINVAL (n == 0; one of r_s/s_s NULL; a gpu_key of another key or device), CZ_ERANGE (a
 * domain the NTT does not take: past 2^CZ_GPU_NTT_MAX_LOG on the GPU), CZ_ENOMEM, CZ_EIO (no
 * randomness), and with use_gpu CZ_ENOGPU, CZ_EGPU.
 * The assignments are not checked for satisfaction: a wrong one gives a proof that fails
 * verification.
 */
int cz_groth16_bp_prove(cz_groth16_proof *proofs, const cz_bellperson_params *params,
                        const cz_assignment *asg, size_t n, const cz_groth16_bp_opts *opts,
                        cz_errinfo *ei);

/*
 * The prover in stages, for an engine that overlaps proofs (as the zkey prover's stages in
 * cuzk/groth16.h); cz_groth16_bp_prove is begin → [g2_start] → [upload] → compute → finish per
 * circuit:
 *
 *   cz_groth16_bp_begin     checks one assignment against the key, takes r and s (Montgomery,
 *                           both NULL: random);
 *   cz_groth16_bp_g2_start  starts the G2 MSM (B2') on a thread of its own, computing on pool:
 *                           call it when the G2 MSM should run on the CPU beside the GPU work
 *                           (a key without B_G2 on the device, or the CPU backend);
 *   cz_groth16_bp_upload    optional, GPU only: a, b, c and the assignment into ws (grown to
 *                           fit), so that compute runs kernels only; a, b, c are not read again;
 *   cz_groth16_bp_upload_eval  instead, for an assignment without a, b, c (as->a, b and c
 *                           NULL: the witness alone), GPU only: the assignment into ws and a, b, c
 *                           computed there from m, the circuit's matrices resident on ws's device
 *                           (cuzk/gpu.h); such an assignment cannot be computed otherwise;
 *   cz_groth16_bp_upload_compact  instead, for an assignment whose witness is compact
 *                           (cuzk/r1cs.h: as->aux NULL, as->input the first ninput of vals):
 *                           bits and vals (host memory; pinned copies fastest) to ws's device,
 *                           w expanded there by m, which holds the circuit's booleans, and a, b,
 *                           c computed from it as upload_eval does; the G2 MSM must then run on
 *                           the device (a key with B_G2): the aux values exist only there;
 *   cz_groth16_bp_compute   h and the G1 MSMs on the CPU (key NULL, on pool) or on the key's
 *                           GPU (uploading first when upload was not called); with a key holding
 *                           B_G2 and the G2 MSM not started, the G2 MSM too, on the GPU;
 *   cz_groth16_bp_finish    joins the G2 MSM (running it inline when nothing ran it) and writes
 *                           the proof.
 * The assignment and the key must outlive the pending proof. A pending proof is used by one
 * thread at a time (its G2 thread aside) and freed with cz_groth16_bp_pending_free on every path
 * (joining a running G2 thread first). Errors as for cz_groth16_bp_prove; compute on a GPU key
 * of another key, or after an upload to another device: CZ_EINVAL.
 */
typedef struct cz_groth16_bp_pending cz_groth16_bp_pending;
typedef struct cz_groth16_gpu_ws cz_groth16_gpu_ws;
int cz_groth16_bp_begin(cz_groth16_bp_pending **out, const cz_bellperson_params *params,
                        const cz_assignment *as, const cz_bls12381_fr *r, const cz_bls12381_fr *s,
                        cz_errinfo *ei);
int cz_groth16_bp_g2_start(cz_groth16_bp_pending *pp, cz_threadpool *pool, cz_errinfo *ei);
int cz_groth16_bp_upload(cz_groth16_bp_pending *pp, cz_groth16_gpu_ws *ws, cz_errinfo *ei);
typedef struct cz_gpu_r1cs cz_gpu_r1cs;
int cz_groth16_bp_upload_eval(cz_groth16_bp_pending *pp, cz_groth16_gpu_ws *ws,
                              const cz_gpu_r1cs *m, cz_errinfo *ei);
int cz_groth16_bp_upload_compact(cz_groth16_bp_pending *pp, cz_groth16_gpu_ws *ws,
                                 const cz_gpu_r1cs *m, const uint64_t *bits,
                                 const cz_bls12381_fr *vals, cz_errinfo *ei);
/* The workspace bytes an upload of a circuit of nvars variables (inputs and aux) under params
 * takes: a, b, c and the witness, and the staging of a compact witness for the matrices
 * m_compact where it does not fit in a, b and c (m_compact NULL: a full witness). */
size_t cz_groth16_bp_gpu_ws_need(const cz_bellperson_params *params, size_t nvars,
                                 const cz_gpu_r1cs *m_compact);
/* The device memory the kernel region of a proof under params takes beyond its workspace and the
 * resident key: the NTT's twiddles and scratch and the least of its largest MSM. A workspace
 * that leaves less free cannot be computed in. */
size_t cz_groth16_bp_gpu_region_bytes(const cz_bellperson_params *params);
int cz_groth16_bp_compute(cz_groth16_bp_pending *pp, const cz_groth16_bp_gpu_key *key,
                          cz_threadpool *pool, cz_errinfo *ei);
int cz_groth16_bp_finish(cz_groth16_proof *proof, cz_groth16_bp_pending *pp, cz_errinfo *ei);
/* The stage times so far (ntt_ms, msm_*, upload_ms, gpu_ms). */
const cz_groth16_timings *cz_groth16_bp_pending_timings(const cz_groth16_bp_pending *pp);
void cz_groth16_bp_pending_free(cz_groth16_bp_pending *pp); /* NULL is a no-op */
/* Whether the G2 MSM of a proof with this key runs on the device: B_G2 resident, or streamed
 * from the host copy where it does not fit (then compute runs it unless it was started on the
 * CPU); 0 with cz_tuning.gpu_g2_on_cpu. */
int cz_groth16_bp_gpu_key_has_g2(const cz_groth16_bp_gpu_key *k);
/* 1 when the key streams B_G2 from page-locked host memory: the caller's copy where the driver
 * has it page-locked (the daemon's keys), else a page-locked copy the key made for its life
 * (the caller's memory is never registered in place); 0 when B_G2 is resident, on the CPU, or
 * streamed from pageable memory (no page-locked memory was to be had). */
int cz_groth16_bp_gpu_key_g2_pinned(const cz_groth16_bp_gpu_key *k);

/* The public inputs of an assignment as cz_groth16_verify takes them: input[1 .. ninput),
 * canonical. CZ_ENOMEM. */
int cz_groth16_bp_public(cz_groth16_public *pub, const cz_assignment *asg, cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
