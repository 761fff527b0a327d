/*
 * bellperson's Groth16 key files over BLS12-381, the ones Filecoin proves and verifies with: the
 * verifying key (.vk) and the parameters (.params, the proving key, which begins with the
 * verifying key). Proofs (192 bytes per partition) are cz_groth16_proof_decode and
 * cz_groth16_proofs_read in cuzk/groth16.h; cz_groth16_vk_from_bellperson makes a key that
 * cz_groth16_verify takes.
 *
 * Layouts (counts are u32 big-endian; points are the zcash/bellman uncompressed encoding of
 * cuzk/encoding.h, G1 96 bytes, G2 192):
 *
 *   .vk      alpha_g1 G1 | beta_g1 G1 | beta_g2 G2 | gamma_g2 G2 | delta_g1 G1 | delta_g2 G2 |
 *            nIC | IC[nIC] G1                                    868 + 96·nIC bytes
 *   .params  the .vk's bytes, then H, L, A, B_G1 (G1 points) and B_G2 (G2 points), each a count
 *            followed by its points                              888 + 96·(nIC + nH + nL + nA
 *                                                                     + nB_G1) + 192·nB_G2 bytes
 *
 * What the sections hold (bellperson's generator): IC one point per public input, ONE first; H
 * domain − 1 points; L one per auxiliary variable; A the inputs, then the auxiliary variables
 * whose A density bit is set; B_G1 and B_G2 the inputs and then the auxiliary variables whose B
 * density bits are set. A proof is 192 bytes, so sizes tell the three kinds apart: a .vk is
 * 4 mod 96 bytes, a .params 24 mod 96, a file of proofs 0 mod 96.
 *
 * Checks. Reading walks the counts first (each count says where the next one is) and refuses a
 * file whose counts do not end exactly at its last byte, before any point is decoded or any
 * memory is allocated for them. Then every point must be a valid encoding (flag bits, coordinates
 * below p) and on the curve. The verifying key's points (the six and IC) are also checked to be in
 * the prime-order subgroup, always: there are few of them and a verifier relies on them. The
 * subgroup check of the five proving sections is an option (cz_bellperson_read_opts), off by
 * default: it costs one or two multiplications by the 64-bit curve parameter per point, some 200
 * times the decoding (docs/formats.md gives the measured costs: about 10 hours of CPU time for
 * Filecoin's 44 GiB PoRep parameters, against 3 minutes to decode them), and the keys Filecoin
 * uses are
 * checked against the BLAKE2b digests of its parameter manifest instead. The point at infinity is
 * refused everywhere: bellperson's readers refuse it in IC, H, L, A, B_G1, B_G2 and in proofs (the
 * generator leaves the zero polynomials out of A and B; an infinity in L is an unconstrained
 * variable); cuzk also refuses it for the six points of the verifying key, which bellperson would
 * read (an infinite delta or gamma lets anyone forge proofs). Every error names the file, the
 * section and the byte offset ("k.params: L point 3 at offset 1444: ..."), never the file's bytes.
 * The files have no magic number, so the first 96 bytes stand in for one: until they decode as a
 * point of the curve, the only error is "not a bellperson key", with no count or offset read from
 * a file that may be anything (docs/formats.md).
 *
 * Reading the parameters. The file is opened once (cz_file_open: regular files only), its counts
 * are walked with 4-byte reads, and then each section's points are read with pread straight into
 * the destination arrays (a G1 point's encoding and cz_bls12381_g1_affine are both 96 bytes, G2
 * both 192) and decoded in place, chunk by chunk, in parallel over a thread pool. So the file's
 * bytes are in memory once, in the arrays the caller's allocator gave (the engine's pinned
 * memory), and nothing else of their size is allocated. After the last read the file must still
 * be the version that was opened (cz_file_check_unchanged).
 *
 * Ownership: a cz_bellperson_vk owns its IC array (malloc, cz_bellperson_vk_free); a
 * cz_bellperson_params owns its verifying key and its five arrays, which it gives back to the
 * allocator they came from (cz_bellperson_params_free). Writers take the structs as they are; a
 * struct filled by hand must hold points on the curve, none of them infinity (CZ_EINVAL).
 */
#ifndef CUZK_BELLPERSON_H
#define CUZK_BELLPERSON_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve.h"
#include "cuzk/err.h"
#include "cuzk/fileio.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_threadpool cz_threadpool;

/* The six points at the start of a .vk; the IC count follows them. */
#define CZ_BELLPERSON_VK_POINTS_BYTES 864

/* The counted sections of the files, in file order (a .vk has only the first). */
typedef enum cz_bellperson_section {
    CZ_BELLPERSON_IC,
    CZ_BELLPERSON_H,
    CZ_BELLPERSON_L,
    CZ_BELLPERSON_A,
    CZ_BELLPERSON_B_G1,
    CZ_BELLPERSON_B_G2,
    CZ_BELLPERSON_NSECTIONS
} cz_bellperson_section;

/* "IC", "H", "L", "A", "B_G1", "B_G2"; "?" for anything else. */
const char *cz_bellperson_section_name(int section);
/* Bytes of one point of the section: 96, or 192 for B_G2. */
size_t cz_bellperson_point_bytes(int section);

typedef enum cz_bellperson_kind {
    CZ_BELLPERSON_ANY,    /* a reader's request: whichever the structure says */
    CZ_BELLPERSON_VK,     /* the file ends after IC */
    CZ_BELLPERSON_PARAMS, /* the file holds all six sections */
} cz_bellperson_kind;

/* A file's structure, from its counts alone. */
typedef struct cz_bellperson_info {
    cz_bellperson_kind kind;
    uint64_t size;                            /* bytes of the file */
    uint32_t count[CZ_BELLPERSON_NSECTIONS];  /* points in each section (0 past IC for a .vk) */
    uint64_t offset[CZ_BELLPERSON_NSECTIONS]; /* where each section's count is; its points follow */
} cz_bellperson_info;

/*
 * Walks the counts of the file at path (a few 4-byte reads, no point is decoded): the fast way to
 * learn a key's sizes. want is the kind the caller expects (CZ_BELLPERSON_ANY: either); a .vk
 * asked for as .params, or a .params as .vk, is an error that says which the file is. Errors:
 * CZ_EIO (cz_file_open's), CZ_EFORMAT (a count that runs past the end, a file too short for the
 * six points, trailing bytes), naming the file, the section and the offset.
 */
int cz_bellperson_info_read(cz_bellperson_info *info, const char *path, cz_bellperson_kind want,
                            cz_errinfo *ei);
/* The same over size bytes at data; name is used in messages. */
int cz_bellperson_info_mem(cz_bellperson_info *info, const void *data, size_t size,
                           const char *name, cz_bellperson_kind want, cz_errinfo *ei);

typedef struct cz_bellperson_vk {
    cz_bls12381_g1_affine alpha_g1, beta_g1, delta_g1;
    cz_bls12381_g2_affine beta_g2, gamma_g2, delta_g2;
    uint32_t nic;              /* public inputs + 1 (ONE) */
    cz_bls12381_g1_affine *ic; /* nic points, malloc'd */
} cz_bellperson_vk;

/*
 * Reads a .vk (exactly: trailing bytes are an error) and checks every point: valid encoding, on
 * the curve, in the subgroup, not infinity. pool (may be NULL) decodes IC in parallel. Errors:
 * CZ_EIO, CZ_EFORMAT, CZ_EFLAGS, CZ_ENONCANON, CZ_ENOTONCURVE, CZ_ENOTINSUBGROUP, CZ_ENOMEM, each
 * naming the file, the point and its offset. On error *vk is zeroed (nothing to free).
 */
int cz_bellperson_vk_read(cz_bellperson_vk *vk, const char *path, cz_threadpool *pool,
                          cz_errinfo *ei);
/* The verifying key of path, a .vk or a .params (the key a .params starts with: the file's
 * counts are walked and checked against its size, and only the key's bytes are read and decoded,
 * so a 44 GiB .params costs a few reads). Errors as cz_bellperson_vk_read's. */
int cz_bellperson_vk_read_any(cz_bellperson_vk *vk, const char *path, cz_threadpool *pool,
                              cz_errinfo *ei);
int cz_bellperson_vk_read_mem(cz_bellperson_vk *vk, const void *data, size_t size, const char *name,
                              cz_threadpool *pool, cz_errinfo *ei);
/* Bytes of vk's encoding: 868 + 96·nic. */
size_t cz_bellperson_vk_bytes(const cz_bellperson_vk *vk);
/* Writes cz_bellperson_vk_bytes(vk) bytes to out. CZ_EINVAL when a point is infinity. */
int cz_bellperson_vk_encode(uint8_t *out, const cz_bellperson_vk *vk, cz_errinfo *ei);
/* Creates (or replaces) path with vk's encoding. CZ_EINVAL as above, CZ_EIO, CZ_ENOMEM. */
int cz_bellperson_vk_write(const char *path, const cz_bellperson_vk *vk, cz_errinfo *ei);
void cz_bellperson_vk_free(cz_bellperson_vk *vk); /* frees ic; NULL is a no-op */

typedef struct cz_bellperson_params {
    cz_bellperson_vk vk;
    uint32_t nh, nl, na, nb_g1, nb_g2;
    cz_bls12381_g1_affine *h, *l, *a, *b_g1; /* NULL where the count is 0 */
    cz_bls12381_g2_affine *b_g2;
    cz_file_alloc mem; /* where the five arrays came from (alloc NULL: malloc) */
    cz_file_id id;     /* the file as read (zero when read from memory) */
} cz_bellperson_params;

typedef struct cz_bellperson_read_opts {
    int check_subgroup;       /* also check H, L, A, B_G1, B_G2 for the subgroup (default 0) */
    cz_threadpool *pool;      /* decodes in parallel; NULL: on the calling thread */
    const cz_file_alloc *mem; /* allocates the five arrays; NULL: malloc/free */
} cz_bellperson_read_opts;

/* 1 when x and y hold the same key: the same counts and every point byte for byte (the
 * verifying key's included); 0 otherwise. */
int cz_bellperson_params_equal(const cz_bellperson_params *x, const cz_bellperson_params *y);

/*
 * Reads a .params file as described above; opts may be NULL (the defaults). Errors as for
 * cz_bellperson_vk_read, for the point of any section, plus CZ_EIO when the file changed while it
 * was read. On error *p is zeroed and everything it had allocated is given back.
 */
int cz_bellperson_params_read(cz_bellperson_params *p, const char *path,
                              const cz_bellperson_read_opts *opts, cz_errinfo *ei);
/* The same over size bytes at data (tests, fuzzing); name is used in messages. */
int cz_bellperson_params_read_mem(cz_bellperson_params *p, const void *data, size_t size,
                                  const char *name, const cz_bellperson_read_opts *opts,
                                  cz_errinfo *ei);
/* Creates (or replaces) path with p's encoding, the points encoded on pool (NULL: the calling
 * thread). CZ_EINVAL when a point is infinity (nothing written), CZ_EIO. */
int cz_bellperson_params_write(const char *path, const cz_bellperson_params *p, cz_threadpool *pool,
                               cz_errinfo *ei);
/* Frees the verifying key and gives the arrays back to p->mem; NULL is a no-op. */
void cz_bellperson_params_free(cz_bellperson_params *p);

#ifdef __cplusplus
}
#endif

#endif
