/*
 * The GPU backend (CUDA): device queries, device memory, the scalar-field NTT and the G1 and G2
 * multi-scalar multiplications of BN254 and BLS12-381 on an NVIDIA GPU.
 *
 * A C API: no CUDA type crosses it. Devices are numbered 0 .. count-1 as CUDA numbers them;
 * device memory is handed around as `void *` device addresses. Every function is synchronous
 * (except cz_gpu_upload_start, whose copy ends at cz_gpu_copy_wait):
 * when it returns, its work on the device is finished (all of it runs on the device's legacy
 * default stream, so CUDA events recorded on stream 0 around a call time exactly that call).
 *
 * Errors: CZ_ENOGPU when the library was built without CUDA or no device is present (tests exit
 * 77 on it), CZ_EGPU with the CUDA error string in the cz_errinfo for any failing CUDA call,
 * CZ_EDEVICE instead for an error after which the CUDA documentation says the process's context
 * on the device cannot be used again (an illegal address or instruction, a kernel that failed or
 * timed out, an error the hardware contained, an uncorrectable ECC error): every later call on
 * that device fails too, until the process restarts, so the engine takes the device out of
 * service (docs/engine.md). CZ_EINVAL / CZ_ERANGE / CZ_ECURVE for bad arguments, CZ_ENOMEM when
 * device memory runs out.
 *
 * Element and point layouts are the host's, byte for byte (4 or 6 little-endian u64 limbs =
 * 8 or 12 u32 limbs on the device, Montgomery form), so arrays are copied without conversion.
 *
 * NTT: the same transforms as cuzk/ntt.h (natural order in and out) over the same domains: the
 * caller names the roots (cz_ntt_roots: snarkjs's, or bellperson's for BLS12-381), and the coset
 * transforms use that domain's generator (cz_<curve>_ntt_coset_gen), for 1 <= log_n <=
 * CZ_GPU_NTT_MAX_LOG. Twiddles are made once per (device, curve, roots, log_n) and stay cached on
 * the device until cz_gpu_release (16·n bytes per cached domain); a transform of more than 2^10
 * elements borrows a 32·n-byte scratch buffer from the device's stream-ordered pool while it
 * runs.
 *
 * MSM: ret = Σ [s_i] P_i over G1 affine bases. Bases are uploaded once into a cz_gpu_bases handle
 * and stay resident across calls; an MSM uses the first n bases of a handle. Scalars are
 * Montgomery-form cz_<curve>_fr, given in host memory (_msm) or device memory (_msm_dev).
 * Infinity bases (x = y = 0), zero scalars and n from 0 up to 2^27 and beyond (n < 2^30) are
 * fine. Scalars that are 0 or 1 are split off automatically when they are at least 1/8 of the
 * set (cz_tuning, cuzk/tuning.h, can force the split, the window layout and per-phase times on
 * stderr, for tests and debugging). See docs/gpu.md.
 *
 * Fixed-base multiplication: [k_i]P for many scalars and one point P through a window table of
 * P (the key setup's big multiplications).
 *
 * Vector kernels: pointwise products, a·b - c, scaling and canonical -> Montgomery conversion of
 * Fr vectors in device memory (the glue of the Groth16 GPU prover, src/groth16/prove_gpu.c).
 *
 * R1CS: a constraint system's matrices resident on the device, evaluated at each witness
 * (a, b, c of a Groth16 proof computed where they are used).
 */
#ifndef CUZK_GPU_H
#define CUZK_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve.h"
#include "cuzk/err.h"
#include "cuzk/field.h"
#include "cuzk/ntt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- devices ---- */

typedef struct cz_gpu_info {
    char name[256];
    int cc_major, cc_minor;      /* compute capability */
    int multiprocessors;         /* SM count */
    size_t global_mem;           /* bytes */
    size_t l2_bytes;             /* L2 cache bytes */
    size_t smem_per_block_optin; /* largest dynamic shared memory one block can opt into */
    int clock_khz;               /* 0 when the runtime no longer reports it */
} cz_gpu_info;

/* 1 when the library was built with CUDA, 0 otherwise. */
int cz_gpu_built(void);
/* *count = number of CUDA devices; CZ_ENOGPU (and *count = 0) when none or no CUDA build. */
int cz_gpu_device_count(int *count, cz_errinfo *ei);
int cz_gpu_device_info(cz_gpu_info *info, int dev, cz_errinfo *ei);
/* Free and total memory of dev in bytes, now (cudaMemGetInfo; the first call on a thread may
 * create the device's context). */
int cz_gpu_mem_info(size_t *free_bytes, size_t *total_bytes, int dev, cz_errinfo *ei);
/* Frees the cached twiddle tables of dev (every later NTT rebuilds what it needs) and hands the
 * idle memory of dev's stream-ordered pool (the NTT's scratch, the MSM's temporaries) back to the
 * driver. */
int cz_gpu_release(int dev, cz_errinfo *ei);

/* ---- device memory (plain cudaMalloc'd buffers) ---- */

int cz_gpu_alloc(void **d_ptr, size_t bytes, int dev, cz_errinfo *ei);
void cz_gpu_free(void *d_ptr, int dev);
int cz_gpu_upload(void *d_dst, const void *src, size_t bytes, int dev, cz_errinfo *ei);
int cz_gpu_download(void *dst, const void *d_src, size_t bytes, int dev, cz_errinfo *ei);

/* ---- pinned (page-locked) host memory ----
 *
 * Host buffers the GPU copies from at full PCIe speed by DMA, without the driver's staging copy
 * through its own pinned bounce buffer (pageable memory). Pinned memory is locked in RAM: it
 * counts against RLIMIT_MEMLOCK only for cudaHostRegister, and a machine has a finite amount of
 * it, so callers fall back to malloc when these fail (src/engine/mem.c, the SRS manager).
 *
 * cz_gpu_host_alloc: cudaHostAlloc(cudaHostAllocPortable) (usable by every device). CZ_ENOGPU
 * without CUDA or a device, CZ_ENOMEM when the driver cannot pin that much, CZ_EGPU otherwise.
 * Free with cz_gpu_host_free (NULL is a no-op).
 *
 * cz_gpu_host_register: pins memory we did not allocate (cudaHostRegisterPortable; with
 * read_only also cudaHostRegisterReadOnly, needed for a PROT_READ mapping). p and bytes should
 * be page aligned. Undo with cz_gpu_host_unregister before the memory is freed or unmapped. */
int cz_gpu_host_alloc(void **out, size_t bytes, cz_errinfo *ei);
void cz_gpu_host_free(void *p);
int cz_gpu_host_register(void *p, size_t bytes, int read_only, cz_errinfo *ei);
int cz_gpu_host_unregister(void *p, cz_errinfo *ei);
/* 1 when p is host memory the driver has page-locked (cz_gpu_host_alloc, or inside a range of
 * cz_gpu_host_register), else 0 (pageable memory, no CUDA, no device). */
int cz_gpu_host_is_pinned(const void *p);

/* An upload in flight: cudaMemcpyAsync on a stream of its own (non-blocking with respect to the
 * default stream, so kernels of the other calls run meanwhile). From pinned memory the call
 * returns at once; from pageable memory the driver stages it and the call returns roughly when
 * the copy is done. The copy goes in pieces of CZ_GPU_COPY_CHUNK_MB MiB (default 64, 0 = one
 * piece), so other threads' copies are not held up behind it. src must stay valid and unchanged
 * until cz_gpu_copy_wait, which must be called exactly once on every path (it waits, reports the
 * copy's error and frees the handle). */
typedef struct cz_gpu_copy cz_gpu_copy;
int cz_gpu_upload_start(cz_gpu_copy **out, void *d_dst, const void *src, size_t bytes, int dev,
                        cz_errinfo *ei);
/* bytes of device memory set to zero the same way: cudaMemsetAsync on a stream of its own, waited
 * for by cz_gpu_copy_wait. */
int cz_gpu_zero_start(cz_gpu_copy **out, void *d_dst, size_t bytes, int dev, cz_errinfo *ei);
int cz_gpu_copy_wait(cz_gpu_copy *c, cz_errinfo *ei); /* NULL: CZ_OK */

/* ---- NTT over Fr ---- */

#define CZ_GPU_NTT_MAX_LOG 28

typedef enum cz_gpu_ntt_kind {
    CZ_GPU_NTT_FORWARD = 0,       /* A[i] = Σ a[j]·ω^(ij) */
    CZ_GPU_NTT_INVERSE = 1,       /* a[j] = n⁻¹ Σ A[i]·ω^(-ij) */
    CZ_GPU_NTT_COSET_FORWARD = 2, /* A[i] = Σ a[j]·g^j·ω^(ij) */
    CZ_GPU_NTT_COSET_INVERSE = 3  /* the inverse of the coset forward transform */
} cz_gpu_ntt_kind;

/* In place over a[0 .. 2^log_n) in host memory (copied to the device and back), over the domain
 * 2^log_n of roots. CZ_EINVAL for an unknown roots value or kind, CZ_EUNSUPPORTED for roots the
 * curve lacks (bellperson's on BN254), CZ_ERANGE for log_n. */
int cz_bn254_gpu_ntt(cz_bn254_fr *a, unsigned log_n, cz_ntt_roots roots, cz_gpu_ntt_kind kind,
                     int dev, cz_errinfo *ei);
int cz_bls12381_gpu_ntt(cz_bls12381_fr *a, unsigned log_n, cz_ntt_roots roots, cz_gpu_ntt_kind kind,
                        int dev, cz_errinfo *ei);
/* In place over 2^log_n elements already in device memory at d_a (no host copies). */
int cz_bn254_gpu_ntt_dev(void *d_a, unsigned log_n, cz_ntt_roots roots, cz_gpu_ntt_kind kind,
                         int dev, cz_errinfo *ei);
int cz_bls12381_gpu_ntt_dev(void *d_a, unsigned log_n, cz_ntt_roots roots, cz_gpu_ntt_kind kind,
                            int dev, cz_errinfo *ei);
/* The quotient of a QAP over the domain 2^log_n of roots, on the device: from the evaluations a,
 * b, c (2^log_n each, device memory) the coefficients
 *   h = (coset_inverse(coset_forward(inverse(a))·coset_forward(inverse(b))) - inverse(c))·Z(g)⁻¹
 * into d_a, with Z(g) = g^n - 1 the vanishing polynomial on the coset of generator g
 * (cz_<curve>_ntt_coset_z): bellperson's h (docs/groth16.md). d_b and d_c are overwritten.
 * The same field elements as those six transforms with a product pass (cz_<curve>_gpu_fr_mul_dev)
 * and a subtraction and scaling pass, computed without either pass: the n⁻¹ of the three inverse
 * transforms goes into the coset factors and Z(g)⁻¹, the product into the last pass of b's coset
 * transform and the subtraction into the last pass of the coset inverse. Errors as
 * cz_<curve>_gpu_ntt_dev. */
int cz_bn254_gpu_ntt_quotient_dev(void *d_a, void *d_b, void *d_c, unsigned log_n,
                                  cz_ntt_roots roots, int dev, cz_errinfo *ei);
int cz_bls12381_gpu_ntt_quotient_dev(void *d_a, void *d_b, void *d_c, unsigned log_n,
                                     cz_ntt_roots roots, int dev, cz_errinfo *ei);

/* ---- MSM over G1 ---- */

typedef struct cz_gpu_bases cz_gpu_bases;

/* *b = n affine bases copied to device dev; they stay there until cz_gpu_bases_free. When at
 * least an eighth of them are infinity (a Groth16 key's B bases: every variable B does not touch)
 * the handle keeps only the finite ones and their indices (sparse; cz_tuning.gpu_bases_compact
 * can ask for never or whenever one is infinity): an MSM then reads, sorts and adds only those,
 * with the same result. */
int cz_bn254_gpu_g1_bases_upload(cz_gpu_bases **b, const cz_bn254_g1_affine *bases, size_t n,
                                 int dev, cz_errinfo *ei);
int cz_bls12381_gpu_g1_bases_upload(cz_gpu_bases **b, const cz_bls12381_g1_affine *bases, size_t n,
                                    int dev, cz_errinfo *ei);
/* *b = bases P_i = p0 + i·step (i < n) made on device dev: for tests and benchmarks at sizes where
 * the CPU would be slow (p0 = aG, step = dG gives Σ s_i·P_i = [Σ s_i·(a + i·d)]G). p0 and step
 * must not be infinity. */
int cz_bn254_gpu_g1_bases_progression(cz_gpu_bases **b, const cz_bn254_g1_affine *p0,
                                      const cz_bn254_g1_affine *step, size_t n, int dev,
                                      cz_errinfo *ei);
int cz_bls12381_gpu_g1_bases_progression(cz_gpu_bases **b, const cz_bls12381_g1_affine *p0,
                                         const cz_bls12381_g1_affine *step, size_t n, int dev,
                                         cz_errinfo *ei);
/* The upload in two steps, so that the copy runs beside other work: _upload_start makes the
 * handle *b on dev and starts copying bases on a stream of its own (cz_gpu_upload_start: from
 * page-locked memory the call returns at once; bases must stay unchanged until the end);
 * cz_gpu_bases_upload_end waits for the copy (cp, consumed) and makes *b what _upload makes
 * (compacted when mostly infinity). Call the end exactly once after a started upload; on an error
 * from either, *b (if any) is still the caller's to free. G2: the same, below. */
int cz_bn254_gpu_g1_bases_upload_start(cz_gpu_bases **b, cz_gpu_copy **cp,
                                       const cz_bn254_g1_affine *bases, size_t n, int dev,
                                       cz_errinfo *ei);
int cz_bls12381_gpu_g1_bases_upload_start(cz_gpu_bases **b, cz_gpu_copy **cp,
                                          const cz_bls12381_g1_affine *bases, size_t n, int dev,
                                          cz_errinfo *ei);
int cz_gpu_bases_upload_end(cz_gpu_bases *b, cz_gpu_copy *cp, cz_errinfo *ei);
void cz_gpu_bases_free(cz_gpu_bases *b);
size_t cz_gpu_bases_count(const cz_gpu_bases *b);  /* n, the bases the handle stands for */
size_t cz_gpu_bases_stored(const cz_gpu_bases *b); /* points on the device: n unless sparse */
size_t cz_gpu_bases_bytes(const cz_gpu_bases *b);  /* device bytes of points and indices */
/* Makes the dense handle b (bases of either group) keep only the positions that the sparse
 * handle like stores, as if b's other points were infinity (the benchmark key's B1, made on the
 * device as a progression, takes the sparsity of its B2). Nothing changes when like is dense.
 * CZ_EINVAL when b is already sparse or the two differ in count or device. */
int cz_gpu_bases_restrict(cz_gpu_bases *b, const cz_gpu_bases *like, cz_errinfo *ei);

/* Makes the dense handle b of m points (either group) stand for n >= m bases: its point j
 * sits at position idx[j] (host array of m indices, strictly ascending, each < n < 2^31) and
 * every other position is infinity. A bellperson key stores A and B only for the variables a
 * circuit's A and B touch; spread over the variables, an MSM takes the full assignment as its
 * scalars and reads only those positions. CZ_EINVAL (b already sparse, idx not ascending or out
 * of range), CZ_ENOMEM (device), CZ_EGPU. */
int cz_gpu_bases_spread(cz_gpu_bases *b, const uint32_t *idx, size_t n, cz_errinfo *ei);

/* *ret = Σ_{i<n} [scalars[i]] bases[i]; n <= cz_gpu_bases_count(b); CZ_ECURVE for a handle of
 * the other curve. */
int cz_bn254_gpu_g1_msm(cz_bn254_g1_jacobian *ret, const cz_gpu_bases *b,
                        const cz_bn254_fr *scalars, size_t n, cz_errinfo *ei);
int cz_bls12381_gpu_g1_msm(cz_bls12381_g1_jacobian *ret, const cz_gpu_bases *b,
                           const cz_bls12381_fr *scalars, size_t n, cz_errinfo *ei);
/* The same with the scalars already in device memory on the handle's device. */
int cz_bn254_gpu_g1_msm_dev(cz_bn254_g1_jacobian *ret, const cz_gpu_bases *b, const void *d_scalars,
                            size_t n, cz_errinfo *ei);
int cz_bls12381_gpu_g1_msm_dev(cz_bls12381_g1_jacobian *ret, const cz_gpu_bases *b,
                               const void *d_scalars, size_t n, cz_errinfo *ei);
/* The same, with device memory the caller lends the call for its temporaries: lent_bytes at
 * d_lent on the handle's device (used from its first 256-byte boundary), which the call may
 * overwrite. The sorted digit pairs go there where they fit (all of them, or the keys with the
 * values from the pool), so a device short of free memory sorts more windows a pass: a prover
 * lends the vectors it no longer needs. CZ_EINVAL where it overlaps the scalars; NULL or 0: none,
 * as _msm_dev. */
int cz_bn254_gpu_g1_msm_dev_lent(cz_bn254_g1_jacobian *ret, const cz_gpu_bases *b,
                                 const void *d_scalars, size_t n, void *d_lent, size_t lent_bytes,
                                 cz_errinfo *ei);
int cz_bls12381_gpu_g1_msm_dev_lent(cz_bls12381_g1_jacobian *ret, const cz_gpu_bases *b,
                                    const void *d_scalars, size_t n, void *d_lent,
                                    size_t lent_bytes, cz_errinfo *ei);
/* The least device memory an MSM of n scalars takes beside its bases and scalars (one window a
 * pass: its buckets and the sort arrays of one window); more room, fewer passes. 0 without
 * CUDA. */
size_t cz_bn254_gpu_g1_msm_min_bytes(size_t n);
size_t cz_bls12381_gpu_g1_msm_min_bytes(size_t n);

/* ---- MSM over G2 ----
 *
 * The G1 calls above for G2 affine bases (coordinates in Fp2, cz_<curve>_g2_affine; the same
 * cz_gpu_bases handle type, which remembers its group: a G1 handle given to a G2 MSM, or the
 * other way round, is CZ_ECURVE). Same kernels (templates over the coordinate field), same 0/1
 * split and tuning; the bases must have order r (the r - s digit trick), as G2
 * bases of a Groth16 key do. Memory per point: 128 bytes (BN254) or 192 bytes (BLS12-381) of
 * bases; the working memory of a call is the G1 one with buckets twice the size. */
int cz_bn254_gpu_g2_bases_upload(cz_gpu_bases **b, const cz_bn254_g2_affine *bases, size_t n,
                                 int dev, cz_errinfo *ei);
int cz_bls12381_gpu_g2_bases_upload(cz_gpu_bases **b, const cz_bls12381_g2_affine *bases, size_t n,
                                    int dev, cz_errinfo *ei);
int cz_bn254_gpu_g2_bases_upload_start(cz_gpu_bases **b, cz_gpu_copy **cp,
                                       const cz_bn254_g2_affine *bases, size_t n, int dev,
                                       cz_errinfo *ei);
int cz_bls12381_gpu_g2_bases_upload_start(cz_gpu_bases **b, cz_gpu_copy **cp,
                                          const cz_bls12381_g2_affine *bases, size_t n, int dev,
                                          cz_errinfo *ei);
/* P_i = p0 + i·step (i < n) made on the device, as for G1 (p0, step not infinity). */
int cz_bn254_gpu_g2_bases_progression(cz_gpu_bases **b, const cz_bn254_g2_affine *p0,
                                      const cz_bn254_g2_affine *step, size_t n, int dev,
                                      cz_errinfo *ei);
int cz_bls12381_gpu_g2_bases_progression(cz_gpu_bases **b, const cz_bls12381_g2_affine *p0,
                                         const cz_bls12381_g2_affine *step, size_t n, int dev,
                                         cz_errinfo *ei);
/* *ret = Σ_{i<n} [scalars[i]] bases[i] (host scalars, Montgomery form, as cz_<curve>_g2_msm). */
int cz_bn254_gpu_g2_msm(cz_bn254_g2_jacobian *ret, const cz_gpu_bases *b,
                        const cz_bn254_fr *scalars, size_t n, cz_errinfo *ei);
int cz_bls12381_gpu_g2_msm(cz_bls12381_g2_jacobian *ret, const cz_gpu_bases *b,
                           const cz_bls12381_fr *scalars, size_t n, cz_errinfo *ei);
/* The same with the scalars already in device memory on the handle's device. */
int cz_bn254_gpu_g2_msm_dev(cz_bn254_g2_jacobian *ret, const cz_gpu_bases *b, const void *d_scalars,
                            size_t n, cz_errinfo *ei);
int cz_bls12381_gpu_g2_msm_dev(cz_bls12381_g2_jacobian *ret, const cz_gpu_bases *b,
                               const void *d_scalars, size_t n, cz_errinfo *ei);
/* With lent memory, as cz_<curve>_gpu_g1_msm_dev_lent. */
int cz_bn254_gpu_g2_msm_dev_lent(cz_bn254_g2_jacobian *ret, const cz_gpu_bases *b,
                                 const void *d_scalars, size_t n, void *d_lent, size_t lent_bytes,
                                 cz_errinfo *ei);
int cz_bls12381_gpu_g2_msm_dev_lent(cz_bls12381_g2_jacobian *ret, const cz_gpu_bases *b,
                                    const void *d_scalars, size_t n, void *d_lent,
                                    size_t lent_bytes, cz_errinfo *ei);
size_t cz_bn254_gpu_g2_msm_min_bytes(size_t n);
size_t cz_bls12381_gpu_g2_msm_min_bytes(size_t n);

/* ---- fixed-base multiplication (key setup, BLS12-381) ----
 *
 * out[i] = [k[i]]P for i < n, affine (x = y = 0 for k = 0), given a window table of the fixed
 * point P: table[j·(2^w - 1) + d - 1] = d·2^(w·j)·P for the windows j < nwin and digits
 * 1 <= d < 2^w (src/groth16/setup_fixed_impl.h builds it on the CPU). k: Montgomery-form scalars
 * in host memory; out: host memory. 1 <= w <= 16; the nwin windows must cover 255 bits and none
 * may start past bit 256. The bellperson key setup uses it for H, L, A, B and IC
 * (src/groth16/setup_bellperson.c). Device memory: the table plus about 430 (G1) or 820 (G2)
 * bytes for each of up to 2^22 points in flight. CZ_EINVAL (w, nwin, NULL arrays). */
int cz_bls12381_gpu_g1_fixed_mul(cz_bls12381_g1_affine *out, const cz_bls12381_g1_affine *table,
                                 unsigned w, unsigned nwin, const cz_bls12381_fr *k, size_t n,
                                 int dev, cz_errinfo *ei);
int cz_bls12381_gpu_g2_fixed_mul(cz_bls12381_g2_affine *out, const cz_bls12381_g2_affine *table,
                                 unsigned w, unsigned nwin, const cz_bls12381_fr *k, size_t n,
                                 int dev, cz_errinfo *ei);

/* ---- vector kernels over Fr (device memory, n elements, Montgomery form) ---- */

/* d_r[i] = d_a[i]·d_b[i]. d_r may alias d_a or d_b. */
int cz_bn254_gpu_fr_mul_dev(void *d_r, const void *d_a, const void *d_b, size_t n, int dev,
                            cz_errinfo *ei);
int cz_bls12381_gpu_fr_mul_dev(void *d_r, const void *d_a, const void *d_b, size_t n, int dev,
                               cz_errinfo *ei);
/* d_r[i] = d_a[i]·d_b[i] - d_c[i]. d_r may alias any input. */
int cz_bn254_gpu_fr_mul_sub_dev(void *d_r, const void *d_a, const void *d_b, const void *d_c,
                                size_t n, int dev, cz_errinfo *ei);
int cz_bls12381_gpu_fr_mul_sub_dev(void *d_r, const void *d_a, const void *d_b, const void *d_c,
                                   size_t n, int dev, cz_errinfo *ei);
/* d_a[i] ·= *k (k in host memory, Montgomery form). */
int cz_bn254_gpu_fr_scale_dev(void *d_a, const cz_bn254_fr *k, size_t n, int dev, cz_errinfo *ei);
int cz_bls12381_gpu_fr_scale_dev(void *d_a, const cz_bls12381_fr *k, size_t n, int dev,
                                 cz_errinfo *ei);
/* In place from canonical (standard-form limbs, each < r, e.g. a .wtns witness) to Montgomery. */
int cz_bn254_gpu_fr_to_mont_dev(void *d_a, size_t n, int dev, cz_errinfo *ei);
int cz_bls12381_gpu_fr_to_mont_dev(void *d_a, size_t n, int dev, cz_errinfo *ei);

/* ---- a rank-1 constraint system resident on the device (BLS12-381) ----
 *
 * The matrices of a circuit whose witnesses change and whose shape does not (a Filecoin
 * partition), uploaded once; each witness then gives a, b, c = A·w, B·w, C·w on the device, so
 * that a proof moves its witness over PCIe instead of three vectors of its rows. The host arrays
 * have cuzk/r1cs.h's layout (cz_r1cs_mat: row pointers, variable indices input | aux, indices
 * into the coefficient table, Montgomery form), given here as arrays because this layer lies
 * below the r1cs one. */
typedef struct cz_gpu_r1cs_host {
    uint32_t nrows, nvars; /* rows (the input constraints not counted); variables, ONE included */
    uint32_t ninput;       /* ONE and the public inputs: the first ninput variables */
    const uint64_t *row_ptr[3]; /* A, B, C: nrows + 1 each, row_ptr[k][0] = 0 */
    const uint32_t *var[3];     /* row_ptr[k][nrows] entries each, each < nvars */
    const uint32_t *coef[3];    /* the same count, each < ncoefs */
    const cz_bls12381_fr *coefs;
    uint32_t ncoefs;
    /* NULL, or (nvars + 63) / 64 words: the boolean variables (cz_r1cs.booleans), resident too,
     * so that cz_gpu_r1cs_expand makes witnesses of compact ones */
    const uint64_t *booleans;
} cz_gpu_r1cs_host;

typedef struct cz_gpu_r1cs cz_gpu_r1cs;

/* Uploads h to device dev. CZ_EINVAL for an inconsistent h (a row pointer that decreases, an index
 * out of range: checked on the host before anything is allocated), CZ_ENOMEM (device memory:
 * nothing left allocated), CZ_EGPU, CZ_ENOGPU. */
int cz_bls12381_gpu_r1cs_upload(cz_gpu_r1cs **out, const cz_gpu_r1cs_host *h, int dev,
                                cz_errinfo *ei);
void cz_gpu_r1cs_free(cz_gpu_r1cs *m);          /* NULL is a no-op */
size_t cz_gpu_r1cs_bytes(const cz_gpu_r1cs *m); /* device bytes it holds */
int cz_gpu_r1cs_device(const cz_gpu_r1cs *m);
/* The values of a compact witness of m (its variables that are not booleans); nvars when m has
 * no booleans. */
uint32_t cz_gpu_r1cs_nvals(const cz_gpu_r1cs *m);

/* w (nvars elements on m's device, Montgomery) from a compact witness on the device (cuzk/r1cs.h):
 * d_bits, (nvars + 63) / 64 words, the booleans' values, and d_vals, the cz_gpu_r1cs_nvals values
 * of the other variables in order. The bits of variables that are not booleans are not read
 * (cz_r1cs_witness_expand checks them on the host). CZ_EINVAL for m without booleans or an
 * argument missing or not 16-byte aligned (d_bits 8-byte). */
int cz_gpu_r1cs_expand(const cz_gpu_r1cs *m, void *d_w, const void *d_bits, const void *d_vals,
                       cz_errinfo *ei);

/* a, b, c of the witness d_w (nvars elements on m's device, Montgomery) into d_abc, three vectors
 * of n elements each (a at element 0, b at n, c at 2n): row i < nrows its rows' sums; row
 * nrows + j for j < ninput bellperson's input constraint (a = w[j], b = c = 0); rows up to n
 * zero. n >= nrows + ninput (CZ_ERANGE otherwise); d_abc and d_w 16-byte aligned (CZ_EINVAL). */
int cz_gpu_r1cs_eval(const cz_gpu_r1cs *m, void *d_abc, size_t n, const void *d_w, cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
