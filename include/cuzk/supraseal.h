/*
 * supra_seal's C2 interface, implemented by cuzk: the functions that the `supraseal-c2` crate
 * (the one behind bellperson's `cuda-supraseal` feature) declares and calls, with the same names,
 * argument lists, struct layouts and ownership rules, so that the crate can link the library
 * libcuzk_supraseal.so in place of supra_seal's CUDA code. docs/supraseal.md describes how.
 *
 * The interface is the one of Curio's fork of the crate (supraseal-c2 0.1.2, in Curio's
 * extern/supraseal-c2): upstream's functions plus a GPU mutex and a device index on the proving
 * calls, and a split (start / finalize) proving call. Upstream's generate_groth16_proofs_c
 * (supra_seal c2, crate 0.1.0) has the same name with six arguments instead of eight, so one
 * library cannot serve both; a program built against the upstream crate links this library
 * through the fork's lib.rs, whose Rust API is upstream's plus the new calls.
 *
 * Layouts (x86-64 and every LP64 target; checked by the static assertions below):
 *   fr_t          cz_bls12381_fr: 4 u64 limbs, little-endian, Montgomery form (blst's blst_fr,
 *                 blstrs's Scalar), 32 bytes;
 *   affine_t      cz_bls12381_g1_affine: x then y, 6 u64 limbs each, Montgomery form (blst's
 *                 blst_p1_affine, sppark's affine_t), 96 bytes; the point at infinity is x = y = 0,
 *                 which is also blst's and sppark's convention;
 *   affine_fp2_t  cz_bls12381_g2_affine: x then y, each c0 then c1 (the real part first, as in
 *                 blst's blst_fp2 {fp[2]}), 192 bytes; infinity x = y = 0;
 *   groth16_proof cz_bls12381_groth16_proof {a, b, c} = 96 + 192 + 96 = 384 bytes, the memory of
 *                 bellperson's Proof<Bls12> (blstrs's G1Affine, G2Affine, G1Affine), which the
 *                 Rust side hands over as the proofs array;
 *   Assignment    cz_supraseal_assignment (below), the crate's #[repr(C)] Assignment<Scalar>;
 *   RustError     cz_supraseal_error {int code; char *message;}, the crate's cuda::Error (sppark's
 *                 RustError), 16 bytes, returned by value;
 *   SRS           cz_supraseal_srs {void *ptr;}, the crate's #[repr(C)] SRS, passed by address
 *                 and returned by value by clone_SRS.
 *
 * Errors. Every failure returns a cz_supraseal_error with a non-zero code and a message, never an
 * abort: bad counts or densities, an assignment that does not fit the key, a missing or malformed
 * .params file, NULL pointers where arrays are due, no memory, a GPU error. The code is a positive
 * errno value (EINVAL, ENOMEM, EIO, ERANGE, ENODEV, ...), as supra_seal's are where no CUDA error
 * code applies; the message is malloc'd and belongs to the caller, who frees it with free() (the
 * crate's cuda::Error does so when it is dropped). Success is code 0 with message NULL. Only when
 * the message itself cannot be allocated is it NULL with a non-zero code; the crate then asks
 * cudaGetErrorString for a text, which names no cuzk error ("unrecognized error code").
 *
 * Devices. A proof runs on the GPU when the library was built with CUDA and a device is present
 * (cz_gpu_device_count), else on the CPU; the proofs are the same either way (for the same r and
 * s), and supra_seal's ENODEV ("No CUDA devices available") does not occur. On the GPU,
 * gpu_index >= 0 runs the whole batch on that device; gpu_index < 0 spreads the circuits over the
 * first min(devices, circuits) devices in contiguous runs, as supra_seal does. The CPU work (the
 * key's decoding, the CPU prover, the G2 MSM when the device keeps B_G2 on the host) runs on one
 * process-wide thread pool of one thread per online CPU, made at the first call.
 *
 * Thread-safety. Every function may be called from several threads at once. Proving calls that
 * share a GPU mutex (create_gpu_mutex) run their device parts one at a time; a NULL mutex means one
 * process-wide mutex, which serialises every call that passes NULL (upstream's behaviour). The
 * mutex is held around the part of a call that uses the device, as in supra_seal's fork: the
 * uploads, NTTs and MSMs on the GPU (the compute stage on the CPU backend); the checks before it,
 * the G2 MSM when it runs on the CPU and the epilogue run outside it, so a second caller's device
 * work can start while the first one's CPU work finishes.
 */
#ifndef CUZK_SUPRASEAL_H
#define CUZK_SUPRASEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve.h"
#include "cuzk/field.h"
#include "cuzk/groth16.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One circuit's proving assignment, as bellperson's prover/supraseal.rs fills it from a
 * ProvingAssignment (and as cuzk/assignment.h describes its contents):
 *   a_aux_density  a_aux_bit_len bits (= aux_assignment_size), a_aux_popcount of them set: the
 *                  aux variables that occur in A;
 *   b_inp_density  b_inp_bit_len bits (= inp_assignment_size), b_inp_popcount set: the inputs
 *                  in B;
 *   b_aux_density  b_aux_bit_len bits (= aux_assignment_size), b_aux_popcount set: aux in B;
 *                  each a u64 array, least significant bit first (bitvec's Lsb0 raw slice);
 *   a, b, c        abc_size evaluations each (the constraints, then one per input);
 *   inp_assignment_data  inp_assignment_size values, ONE first;
 *   aux_assignment_data  aux_assignment_size values.
 * Scalars are fr_t (Montgomery). The arrays belong to the caller and are only read; they must
 * stay valid until the proving call returns (for the split API, until finalize or destroy). Every
 * count is checked (bit lengths equal to the sizes, popcounts equal to the bits set, the key's
 * section sizes) before any work: a mismatch is EINVAL naming the circuit and the field.
 */
typedef struct cz_supraseal_assignment {
    const uint64_t *a_aux_density;
    size_t a_aux_bit_len;
    size_t a_aux_popcount;

    const uint64_t *b_inp_density;
    size_t b_inp_bit_len;
    size_t b_inp_popcount;

    const uint64_t *b_aux_density;
    size_t b_aux_bit_len;
    size_t b_aux_popcount;

    const cz_bls12381_fr *a;
    const cz_bls12381_fr *b;
    const cz_bls12381_fr *c;
    size_t abc_size;

    const cz_bls12381_fr *inp_assignment_data;
    size_t inp_assignment_size;

    const cz_bls12381_fr *aux_assignment_data;
    size_t aux_assignment_size;
} cz_supraseal_assignment;

/* sppark's RustError: code 0 and message NULL on success; see "Errors" above. */
typedef struct cz_supraseal_error {
    int code;
    char *message;
} cz_supraseal_error;

/*
 * A handle on a loaded key: ptr is NULL (no key: what the crate's SRS::default() holds) or points
 * at a reference-counted key object. Every non-NULL handle holds one reference, which drop_SRS
 * gives back; clone_SRS takes another. The key object holds the decoded .params in host memory
 * and, per device, the key's bases resident on the GPU, made at the first proof on that device
 * for that shape of circuit (its densities) and made again when a later batch has other
 * densities.
 */
typedef struct cz_supraseal_srs {
    void *ptr;
} cz_supraseal_srs;

/* A proof started by generate_groth16_proofs_start_c, and a mutex for the proving calls. */
typedef struct cz_supraseal_pending cz_supraseal_pending;
typedef struct cz_supraseal_gpu_mutex cz_supraseal_gpu_mutex;

/*
 * Reads the bellperson .params file at srs_path (cuzk/bellperson.h: the counts must end at the
 * file's end, every point must be a valid encoding on its curve, where supra_seal ignores blst's
 * verdict; no subgroup check of the proving sections, as in supra_seal; decoded in parallel on
 * the pool) and stores a handle on it in *ret, which must not hold a reference
 * (it is overwritten). Returns once the key is decoded: supra_seal returns after the file's
 * header and decodes in the background, so cuzk reports a bad point here, not at the first proof.
 *
 * cache = true looks the path up first in a process-wide cache of the four keys last asked for
 * (least recently used first out), keyed by the path string as given: a hit whose file is still
 * the one read (same inode, size and modification time) returns another reference to it; a miss
 * or a changed file reads the file and puts the new key at the front. The cache holds a
 * reference of its own, so a cached key stays loaded after its last handle is dropped, until it
 * falls out of the cache or evict_SRS removes it. cache = false reads the file for this handle
 * alone. On error *ret is left as it was.
 */
cz_supraseal_error create_SRS(cz_supraseal_srs *ret, const char *srs_path, bool cache);
/* Removes srs's path from the cache (its reference is dropped; handles keep theirs) and frees
 * the key's resident bases on every device, which the next proof uploads again. A proof that is
 * using them keeps them until it ends. A NULL handle is a no-op. */
void evict_SRS(const cz_supraseal_srs *srs);
/* Gives back srs's reference; the last one frees the key. srs itself is not written (the crate
 * clears it); a NULL handle is a no-op. */
void drop_SRS(const cz_supraseal_srs *srs);
/* A new handle on the same key (one more reference). A NULL handle gives a NULL handle. */
cz_supraseal_srs clone_SRS(const cz_supraseal_srs *srs);

/*
 * proofs[i] = the Groth16 proof of provers[i] with the key of srs, for i < num_circuits, with
 * blinding r_s[i], s_s[i] (Montgomery form; r = s = 0 gives bellperson's non-zero-knowledge
 * proof; both NULL draw them from the CSPRNG, a cuzk extension). The proofs are those of
 * bellperson's create_proof_batch_priority and cuzk's cz_groth16_bp_prove for the same r and s.
 * gpu_mtx: see "Thread-safety"; gpu_index: see "Devices" (a device past the last one is EINVAL).
 * num_circuits = 0 does nothing and succeeds. Circuits may differ in their densities: each is
 * proved with the device's resident key for its densities, made again when they change.
 */
cz_supraseal_error generate_groth16_proofs_c(const cz_supraseal_assignment provers[],
                                             size_t num_circuits, const cz_bls12381_fr r_s[],
                                             const cz_bls12381_fr s_s[],
                                             cz_bls12381_groth16_proof proofs[],
                                             const cz_supraseal_srs *srs,
                                             cz_supraseal_gpu_mutex *gpu_mtx, int gpu_index);

/*
 * The same proof in two calls, as supra_seal's fork splits it (generate_groth16_proofs_c is the
 * two in a row). start checks everything that generate_groth16_proofs_c checks (an error is
 * returned here, with *pending_out = NULL and nothing left to free), copies the assignment structs,
 * r_s and s_s, takes a reference on the key and, with the mutex held, runs the device part of
 * every circuit (see "Thread-safety"); it returns when that is done, with the G2 MSMs that run on
 * the CPU (a device that keeps B_G2 on the host, or the CPU backend) still running on threads of
 * their own. The assignment arrays must stay valid until finalize or destroy.
 *
 * finalize waits for those MSMs, writes num_circuits proofs into proofs (nothing when a circuit
 * failed) and frees the handle, whether or not the proving succeeded: the handle is consumed, as
 * in the fork. destroy_pending_proof frees a handle that was never finalized (waiting for its
 * threads first); NULL is a no-op. Calling both on one handle is a double free.
 */
cz_supraseal_error generate_groth16_proofs_start_c(const cz_supraseal_assignment provers[],
                                                   size_t num_circuits, const cz_bls12381_fr r_s[],
                                                   const cz_bls12381_fr s_s[],
                                                   const cz_supraseal_srs *srs,
                                                   cz_supraseal_gpu_mutex *gpu_mtx, int gpu_index,
                                                   cz_supraseal_pending **pending_out);
cz_supraseal_error finalize_groth16_proof_c(cz_supraseal_pending *handle,
                                            cz_bls12381_groth16_proof proofs[]);
void destroy_pending_proof(cz_supraseal_pending *handle);

/* A new mutex for the proving calls (NULL when out of memory, which the calls then read as the
 * process-wide mutex), and its release: no call may be using it then; NULL is a no-op. */
cz_supraseal_gpu_mutex *create_gpu_mutex(void);
void destroy_gpu_mutex(cz_supraseal_gpu_mutex *mtx);

/* The layouts the Rust side relies on. */
#ifdef __cplusplus
#define CZ_SUPRASEAL_ASSERT static_assert
#else
#define CZ_SUPRASEAL_ASSERT _Static_assert
#endif
CZ_SUPRASEAL_ASSERT(sizeof(cz_bls12381_fr) == 32, "fr_t is 32 bytes");
CZ_SUPRASEAL_ASSERT(sizeof(cz_bls12381_g1_affine) == 96, "affine_t is 96 bytes");
CZ_SUPRASEAL_ASSERT(sizeof(cz_bls12381_g2_affine) == 192, "affine_fp2_t is 192 bytes");
CZ_SUPRASEAL_ASSERT(offsetof(cz_bls12381_g2_affine, y) == 96, "affine_fp2_t: y after x");
CZ_SUPRASEAL_ASSERT(offsetof(cz_bls12381_fp2, c1) == 48, "fp2: c1 after c0");
CZ_SUPRASEAL_ASSERT(sizeof(cz_bls12381_groth16_proof) == 384, "groth16_proof is 384 bytes");
CZ_SUPRASEAL_ASSERT(offsetof(cz_bls12381_groth16_proof, b) == 96, "groth16_proof: b at 96");
CZ_SUPRASEAL_ASSERT(offsetof(cz_bls12381_groth16_proof, c) == 288, "groth16_proof: c at 288");
CZ_SUPRASEAL_ASSERT(sizeof(size_t) == 8 && sizeof(void *) == 8, "an LP64 target");
CZ_SUPRASEAL_ASSERT(sizeof(cz_supraseal_assignment) == 17 * 8, "Assignment is 17 words");
CZ_SUPRASEAL_ASSERT(offsetof(cz_supraseal_assignment, b_inp_density) == 3 * 8, "b_inp_density");
CZ_SUPRASEAL_ASSERT(offsetof(cz_supraseal_assignment, b_aux_density) == 6 * 8, "b_aux_density");
CZ_SUPRASEAL_ASSERT(offsetof(cz_supraseal_assignment, a) == 9 * 8, "a");
CZ_SUPRASEAL_ASSERT(offsetof(cz_supraseal_assignment, abc_size) == 12 * 8, "abc_size");
CZ_SUPRASEAL_ASSERT(offsetof(cz_supraseal_assignment, inp_assignment_data) == 13 * 8, "inputs");
CZ_SUPRASEAL_ASSERT(offsetof(cz_supraseal_assignment, aux_assignment_size) == 16 * 8, "aux size");
CZ_SUPRASEAL_ASSERT(sizeof(cz_supraseal_error) == 16, "RustError is 16 bytes");
CZ_SUPRASEAL_ASSERT(offsetof(cz_supraseal_error, message) == 8, "RustError: message at 8");
CZ_SUPRASEAL_ASSERT(sizeof(cz_supraseal_srs) == 8, "SRS is one pointer");
#undef CZ_SUPRASEAL_ASSERT

#ifdef __cplusplus
}
#endif

#endif
