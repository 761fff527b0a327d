/*
 * Groth16 over BN254 and BLS12-381: the snarkjs-compatible prover (for .zkey + .wtns), the
 * verifier, and the verification key taken from a proving key.
 *
 * The prover is exactly snarkjs's `groth16 prove` (see docs/groth16.md): A·w and B·w from the
 * zkey's coefficient section, C = A∘B, three inverse NTTs, the odd-coset shift by w[k+1], three
 * NTTs, H = A·B - C on the coset, five MSMs (A, B1, C, H in G1; B2 in G2) and the blinding with
 * random r, s. Given the same r and s it produces the same proof as snarkjs, point for point.
 *
 * Types carry their curve: a cz_groth16_proof, cz_groth16_vk or cz_groth16_public built for BN254
 * cannot be verified against a BLS12-381 key (CZ_ECURVE). Public inputs are kept as canonical
 * scalar limbs (standard form, 4 × u64 little-endian, each < r).
 *
 * Blinding: r and s come from the CSPRNG (getrandom) unless the caller fixes them (for tests and
 * for reproducing a snarkjs proof). They are wiped from memory after use and never logged. The
 * scalar multiplications by r and s are not constant-time (cuzk/curve_api.h): a proving server
 * whose timing is observable by the party that receives the proof leaks timing of r and s.
 */
#ifndef CUZK_GROTH16_H
#define CUZK_GROTH16_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/bellperson.h"
#include "cuzk/curve.h"
#include "cuzk/curve_id.h"
#include "cuzk/err.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_threadpool cz_threadpool;

typedef struct {
    cz_bn254_g1_affine a;
    cz_bn254_g2_affine b;
    cz_bn254_g1_affine c;
} cz_bn254_groth16_proof;
typedef struct {
    cz_bls12381_g1_affine a;
    cz_bls12381_g2_affine b;
    cz_bls12381_g1_affine c;
} cz_bls12381_groth16_proof;

typedef struct cz_groth16_proof {
    cz_curve_id curve;
    union {
        cz_bn254_groth16_proof bn254;
        cz_bls12381_groth16_proof bls12381;
    } u;
} cz_groth16_proof;

/* Verification key. ic has npublic + 1 points and is owned by the key (cz_groth16_vk_free). */
typedef struct {
    cz_bn254_g1_affine alpha1;
    cz_bn254_g2_affine beta2, gamma2, delta2;
    cz_bn254_g1_affine *ic;
} cz_bn254_groth16_vk;
typedef struct {
    cz_bls12381_g1_affine alpha1;
    cz_bls12381_g2_affine beta2, gamma2, delta2;
    cz_bls12381_g1_affine *ic;
} cz_bls12381_groth16_vk;

typedef struct cz_groth16_vk {
    cz_curve_id curve;
    uint32_t npublic;
    union {
        cz_bn254_groth16_vk bn254;
        cz_bls12381_groth16_vk bls12381;
    } u;
} cz_groth16_vk;

/* Public inputs: n canonical scalars (4 limbs each, standard form), owned by the struct. */
typedef struct cz_groth16_public {
    cz_curve_id curve;
    uint32_t n;
    uint64_t (*values)[4];
} cz_groth16_public;

/* Where the prover's time went, in milliseconds (filled when opts->timings is set). With the GPU
 * prover: witness_ms is the CPU evaluation of A·w, B·w (C = A∘B is formed on the device and
 * counted in ntt_ms); the msm_* of A, B1, C, H are GPU times; msm_b2_ms is the GPU G2 MSM when the
 * key holds the B2 bases (cz_groth16_gpu_key_has_g2), else the CPU G2 MSM, which runs on its own
 * thread at the same time as the GPU work (so the parts add up to more than total_ms). */
typedef struct cz_groth16_timings {
    double witness_ms; /* A·w, B·w, C = A∘B */
    double ntt_ms;     /* 3 iNTT + coset shift + 3 NTT + H = A·B - C */
    double msm_a_ms, msm_b1_ms, msm_b2_ms, msm_c_ms, msm_h_ms;
    double total_ms;
    double upload_ms; /* GPU only: host -> device copies (vectors, witness, and the bases when no
                       * resident gpu_key was given) */
    double gpu_ms;    /* GPU only: the compute stage on the device, from its first copy or kernel
                       * to the last MSM (the uploads are outside it after cz_groth16_upload) */
    double abc_ms;    /* GPU only: a, b, c computed on the device from resident matrices
                       * (cz_groth16_bp_upload_eval), part of upload_ms */
} cz_groth16_timings;

/*
 * A proving key's G1 bases (A, B1, C, H) and, optionally, its G2 bases B2 resident on one GPU, for
 * the GPU prover: uploaded once by cz_groth16_gpu_key_create, reused by every proof with that zkey
 * on that device. The key keeps a pointer to zk (which must outlive it) and holds (2·nVars +
 * nVars - nPublic - 1 + domainSize) G1 points of device memory (64 bytes each on BN254, 96 on
 * BLS12-381), plus nVars G2 points (128 / 192 bytes each) with B2. B2 is on by default; with
 * cz_tuning.gpu_g2_on_cpu set at creation (cuzk/tuning.h), or when the device has no room for it
 * (CZ_ENOMEM: one warning is logged and the key is made without it), the key has no B2 and the G2
 * MSM runs on the CPU. One key may be used by one prove call at a time per thread; calls only read
 * it.
 */
typedef struct cz_groth16_gpu_key cz_groth16_gpu_key;

/* Errors: CZ_ENOGPU (no CUDA build, no device, no device dev), CZ_ENOMEM (host or device memory,
 * naming which bases), CZ_EGPU (a CUDA failure, with its message). */
int cz_groth16_gpu_key_create(cz_groth16_gpu_key **out, const cz_zkey *zk, int dev, cz_errinfo *ei);
void cz_groth16_gpu_key_free(cz_groth16_gpu_key *k);          /* NULL is a no-op */
size_t cz_groth16_gpu_key_bytes(const cz_groth16_gpu_key *k); /* device bytes held */
/* 1 when k holds the B2 bases (the GPU compute stage then runs the G2 MSM), else 0. */
int cz_groth16_gpu_key_has_g2(const cz_groth16_gpu_key *k);
/* A benchmark key's bases, made on device dev as progressions (never in host memory):
 * A, B1, C, H[i] = p0[v] + i·step[v] with p0, step arrays of 4 affine G1 points of zk's curve
 * (v = A, B1, C, H; none infinity); B2 is uploaded from zk's host B2 when zk has one (unless
 * CZ_GPU_G2=0), so it is as sparse as the host key's. zk supplies the counts, the header and B2
 * (its a, b1, c, h may be NULL). Proofs with such a key are timed, not verifiable. Errors as
 * above. */
int cz_groth16_gpu_key_create_progression(cz_groth16_gpu_key **out, const cz_zkey *zk,
                                          const void *p0, const void *step, int dev,
                                          cz_errinfo *ei);

typedef struct cz_groth16_prove_opts {
    /* Fixed blinding factors (32 bytes each, canonical little-endian, < r), or NULL for random.
     * Both or neither. r = s = 0 gives a valid but not zero-knowledge proof (tests only). */
    const uint8_t *r, *s;
    cz_threadpool *pool;         /* NULL: run on the calling thread only */
    cz_groth16_timings *timings; /* NULL: not recorded */
    /* GPU prover (docs/groth16.md, "GPU prover"): use_gpu = 0 (the default of a zeroed struct)
     * proves on the CPU. Otherwise on CUDA device gpu_device, with the resident bases of gpu_key
     * (made for this zk on this device, else CZ_EINVAL), or, with gpu_key NULL, with bases
     * uploaded for this call and freed after it. The proof is the CPU prover's, byte for byte. */
    int use_gpu;
    int gpu_device;
    const cz_groth16_gpu_key *gpu_key;
    int pageable; /* GPU: 1 = a and b in plain host memory (default 0: pinned where possible) */
} cz_groth16_prove_opts;

/*
 * Proves with proving key zk and witness w (checked against zk first). Writes the proof and the
 * public inputs (witness[1..npublic]; free with cz_groth16_public_free). opts may be NULL.
 * Errors: CZ_ECURVE / CZ_EFORMAT (witness does not match the key), CZ_ERANGE (bad r or s),
 * CZ_ENOMEM, CZ_EIO (no randomness). With use_gpu also: CZ_ENOGPU (no CUDA build or no device),
 * CZ_EINVAL (no device gpu_device; a gpu_key of another zkey or device), CZ_ENOMEM (device memory,
 * naming what), CZ_EGPU (a CUDA failure, with its message).
 */
int cz_groth16_prove(cz_groth16_proof *proof, cz_groth16_public *pub, const cz_zkey *zk,
                     const cz_wtns *w, const cz_groth16_prove_opts *opts, cz_errinfo *ei);

/*
 * The prover in stages, for a proving engine that overlaps proofs (docs/groth16.md, "Stages");
 * cz_groth16_prove is exactly eval → begin → g2_start → compute → finish (without g2_start when
 * its GPU key has B2):
 *
 *   cz_groth16_eval      a = A·w, b = B·w over the domain from the zkey's coefficient section
 *                        (the "synthesis" of a circom job), threaded on pool;
 *   cz_groth16_begin     takes a and b over, with the witness and the blinding factors;
 *   cz_groth16_g2_start  starts the G2 MSM (B2) on a thread of its own, computing on pool;
 *   cz_groth16_upload    optional, GPU only: copies a, b and the witness into a device workspace
 *                        and gives a and b back, so that compute runs kernels only (an engine
 *                        calls it before taking its device lock);
 *   cz_groth16_compute   the NTTs and the four G1 MSMs, on the CPU (key NULL, on pool) or on the
 *                        GPU of a resident key; frees a and b; with a key that has B2
 *                        (cz_groth16_gpu_key_has_g2) and the G2 MSM not started, the G2 MSM too,
 *                        on the GPU after the G1 ones;
 *   cz_groth16_finish    joins the G2 MSM (running it inline if it was neither started nor done
 *                        by compute) and writes the proof.
 * The G2 rule: g2_start puts the G2 MSM on the CPU whatever the key. A caller that wants it on the
 * GPU (a key with B2) must not call g2_start; without B2 on the key it should (else finish runs
 * it on the CPU after compute, serially).
 * A pending proof is used by one thread at a time (the G2 thread aside) and freed with
 * cz_groth16_pending_free on every path (it joins a running G2 thread first). The zkey and the
 * witness values must outlive it.
 */
typedef struct cz_groth16_pending cz_groth16_pending;

/* a, b: zk->domain_size elements each of the curve's Fr (cz_<curve>_fr, Montgomery form),
 * overwritten. w must belong to zk (cz_wtns_check_against_zkey). CZ_ENOMEM. */
int cz_groth16_eval(void *a, void *b, const cz_zkey *zk, const cz_wtns *w, cz_threadpool *pool,
                    cz_errinfo *ei);
/* a, b: malloc'd evaluations (as from cz_groth16_eval, or any A·w, B·w that satisfies the
 * constraints), owned by the pending proof from now on, also on failure. witness: zk->nvars
 * canonical values (4 little-endian limbs each, < r). r, s: as in cz_groth16_prove_opts. */
int cz_groth16_begin(cz_groth16_pending **out, const cz_zkey *zk, const uint64_t (*witness)[4],
                     void *a, void *b, const uint8_t *r, const uint8_t *s, cz_errinfo *ei);
/* The same with a and b from elsewhere (a buffer pool, pinned memory): the pending proof gives
 * them back with release(release_arg, p) instead of free(p), also on failure. */
int cz_groth16_begin_pooled(cz_groth16_pending **out, const cz_zkey *zk,
                            const uint64_t (*witness)[4], void *a, void *b,
                            void (*release)(void *arg, void *p), void *release_arg,
                            const uint8_t *r, const uint8_t *s, cz_errinfo *ei);
int cz_groth16_g2_start(cz_groth16_pending *pp, cz_threadpool *pool, cz_errinfo *ei);
/*
 * A GPU worker's device buffers for the vectors a, b, c and the witness of one proof at a time
 * (3·domain_size + nvars Fr elements), grown on first use to the largest proof seen and kept
 * until freed: with one per worker, no device allocation happens per proof. Created empty on
 * device dev (CZ_ENOGPU / CZ_EINVAL as for a key). Used by one thread at a time.
 */
typedef struct cz_groth16_gpu_ws cz_groth16_gpu_ws;
int cz_groth16_gpu_ws_create(cz_groth16_gpu_ws **out, int dev, cz_errinfo *ei);
void cz_groth16_gpu_ws_free(cz_groth16_gpu_ws *ws);          /* NULL is a no-op */
size_t cz_groth16_gpu_ws_bytes(const cz_groth16_gpu_ws *ws); /* device bytes held now */
/* Makes ws hold at least bytes of device memory ahead of an upload (what it held is lost when it
 * grows; nothing happens otherwise). CZ_ENOMEM, naming the buffer, leaves ws empty: a caller that
 * shares a device among workers learns there that the device has no room for another workspace
 * before a partition costs anything. */
int cz_groth16_gpu_ws_reserve(cz_groth16_gpu_ws *ws, size_t bytes, cz_errinfo *ei);
/* Copies a, b and the witness of pp into ws (growing it) and gives a and b back; waits for the
 * copies. When ws cannot grow (CZ_ENOMEM, naming the buffer, and ws then holds 0 bytes) nothing
 * else changes: pp can still be computed, uploading then into a workspace of its own. The compute
 * stage must then run with a key on ws's device and before ws serves another proof. CZ_EINVAL:
 * already uploaded or computed. */
int cz_groth16_upload(cz_groth16_pending *pp, cz_groth16_gpu_ws *ws, cz_errinfo *ei);
/* key NULL: on the CPU with pool; else on key's device (key made for the same zkey; after
 * cz_groth16_upload, on the workspace's device: CZ_EINVAL otherwise). */
int cz_groth16_compute(cz_groth16_pending *pp, const cz_groth16_gpu_key *key, cz_threadpool *pool,
                       cz_errinfo *ei);
int cz_groth16_finish(cz_groth16_proof *proof, cz_groth16_pending *pp, cz_errinfo *ei);
/* The stages' times so far (ntt_ms, msm_*, upload_ms, gpu_ms; witness_ms is the caller's). */
const cz_groth16_timings *cz_groth16_pending_timings(const cz_groth16_pending *pp);
void cz_groth16_pending_free(cz_groth16_pending *pp); /* NULL is a no-op */
/* The device of a resident key. */
int cz_groth16_gpu_key_device(const cz_groth16_gpu_key *k);

/*
 * Verifies proof against vk and pub: CZ_OK when the proof is valid, CZ_EVERIFY when the pairing
 * equation fails; CZ_ECURVE (curve mismatch), CZ_EFORMAT (wrong number of public inputs),
 * CZ_ERANGE (a public input >= r), CZ_ENOTONCURVE / CZ_ENOTINSUBGROUP (a proof point, named in ei).
 */
int cz_groth16_verify(const cz_groth16_vk *vk, const cz_groth16_public *pub,
                      const cz_groth16_proof *proof, cz_errinfo *ei);

/*
 * Verifies n proofs of one key at once, as bellperson's verify_proofs_batch: proof j with the
 * public inputs pubs[j] (each pubs[j].n == vk->npublic), by one random linear combination of the
 * n pairing equations (128-bit multipliers from the CSPRNG, drawn per call) and one multi-pairing
 * of n + 3 pairs (docs/groth16.md, "Batch verification"). CZ_OK when every proof is valid;
 * CZ_EVERIFY when at least one is not (a batch with a bad proof passes with probability at most
 * 2^-128), without saying which: cz_groth16_verify on each finds it. n == 1 is cz_groth16_verify.
 * Every point and input is checked as there, first, and an error names the proof: CZ_ECURVE,
 * CZ_EFORMAT (proof j's input count), CZ_ERANGE, CZ_ENOTONCURVE / CZ_ENOTINSUBGROUP; also
 * CZ_EINVAL (n == 0), CZ_ENOMEM, CZ_EIO (no randomness). Cost for n proofs of m public inputs:
 * about n single verifications' point checks, n·m Fr products, one MSM of m + 1 points and
 * n + 3 Miller loops sharing one final exponentiation (a single verify: 4 and 1).
 */
int cz_groth16_verify_batch(const cz_groth16_vk *vk, const cz_groth16_public *pubs,
                            const cz_groth16_proof *proofs, size_t n, cz_errinfo *ei);

/* The verification key of a proving key (a copy: it outlives zk). */
int cz_groth16_vk_from_zkey(cz_groth16_vk *vk, const cz_zkey *zk, cz_errinfo *ei);

void cz_groth16_vk_free(cz_groth16_vk *vk);
void cz_groth16_public_free(cz_groth16_public *pub);
/* Allocates pub->values for n inputs (zeroed). */
int cz_groth16_public_alloc(cz_groth16_public *pub, cz_curve_id curve, uint32_t n, cz_errinfo *ei);

/*
 * The bytes of a proof as the engine returns it (src/groth16/proof_bytes.c): BLS12-381 in the
 * zcash/bellman compressed encoding (A, B, C: 48 + 96 + 48 = 192 bytes, Filecoin's), BN254 as
 * snarkjs's affine little-endian Montgomery points (64 + 128 + 64 = 256 bytes). A proof stays a
 * struct until its job is assembled and is encoded once, here.
 */
size_t cz_groth16_proof_bytes(cz_curve_id curve);
/* Writes cz_groth16_proof_bytes(proof->curve) bytes to out; returns that count. */
size_t cz_groth16_proof_encode(uint8_t *out, const cz_groth16_proof *proof);
/* The inverse: len must be cz_groth16_proof_bytes(curve). Every point must be a valid encoding
 * (zcash flag bits, coordinates below p), on the curve, in the subgroup, and not infinity (as
 * bellperson's Proof::read_many). CZ_EFORMAT, CZ_EFLAGS, CZ_ENONCANON, CZ_ENOTONCURVE,
 * CZ_ENOTINSUBGROUP naming the point and its offset in the proof ("B at offset 48: ..."),
 * CZ_ECURVE. On error *proof is unchanged. */
int cz_groth16_proof_decode(cz_groth16_proof *proof, cz_curve_id curve, const uint8_t *in,
                            size_t len, cz_errinfo *ei);
/* A file of proofs: the proofs of N partitions one after the other (Filecoin's PoRep: 10 × 192
 * bytes). *proofs (malloc'd, free()) gets *n proofs; size must be a non-zero multiple of
 * cz_groth16_proof_bytes(curve). Errors as above, naming name, the partition and the offset in
 * the file ("p.bin: partition 1: A at offset 192: ..."), except that a file whose first point does
 * not decode is only "not a file of proofs" (it has no magic number; its bytes are not told). */
int cz_groth16_proofs_decode(cz_groth16_proof **proofs, size_t *n, cz_curve_id curve,
                             const uint8_t *data, size_t size, const char *name, cz_errinfo *ei);
/* The same for the file at path (cz_file_load), plus CZ_EIO. */
int cz_groth16_proofs_read(cz_groth16_proof **proofs, size_t *n, cz_curve_id curve,
                           const char *path, cz_errinfo *ei);
/* Creates (or replaces) path with n >= 1 proofs of one curve. CZ_EINVAL, CZ_ECURVE, CZ_EIO. */
int cz_groth16_proofs_write(const char *path, const cz_groth16_proof *proofs, size_t n,
                            cz_errinfo *ei);

/* The verifying key of a bellperson .vk or .params (cuzk/bellperson.h), for cz_groth16_verify: a
 * copy of alpha_g1, beta_g2, gamma_g2, delta_g2 and IC (nic - 1 public inputs). CZ_ENOMEM. */
int cz_groth16_vk_from_bellperson(cz_groth16_vk *vk, const cz_bellperson_vk *bp, cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
