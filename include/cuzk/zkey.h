/*
 * snarkjs Groth16 proving keys (.zkey, version 1, protocol 1) for BN254 ("bn128") and BLS12-381.
 *
 * cz_zkey_open reads the file into memory (cz_file_load) and checks all of its structure before
 * returning:
 * container (magic "zkey", version 1, unique sections), protocol 1 (PLONK and FFLONK keys are
 * refused with CZ_EUNSUPPORTED), the header (q identifies the curve, r must be that curve's scalar
 * field, domainSize a power of two within the field's 2-adicity, nPublic < nVars), the exact size
 * of every point section, every coefficient entry (matrix 0 or 1, constraint < domainSize,
 * signal < nVars, value < r), and that every point coordinate is < q. It does *not* check that the
 * points are on the curve or in the subgroup: that is cz_zkey_validate_points.
 *
 * Points in the file are snarkjs "LEM": affine x‖y, each coordinate little-endian in Montgomery
 * form, Fp2 = c0‖c1, all-zero bytes = infinity. On little-endian 64-bit hosts that is byte for
 * byte the layout of cz_<curve>_g1_affine / g2_affine (cuzk/curve.h), so the point arrays below
 * point straight into the file's bytes when the section payload is 8-byte aligned, and into a
 * private copy otherwise. The six header points are copied into the struct.
 *
 * Coefficients (section 4) stay in the file's packed 44-byte entries
 * { matrix u32 | constraint u32 | signal u32 | value 32 bytes LE }, where value = v·R² mod r
 * ("double Montgomery", R = 2^256): a Montgomery multiplication of the raw value with a
 * standard-form witness value gives v·w in Montgomery form. cz_zkey_coef_at decodes one entry.
 *
 * Lifetime: everything reachable from a cz_zkey lives until cz_zkey_close. The struct is read-only
 * for callers. Opening costs one pass over the file (the canonical checks touch every page).
 */
#ifndef CUZK_ZKEY_H
#define CUZK_ZKEY_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve.h"
#include "cuzk/curve_id.h"
#include "cuzk/err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of one section-4 entry. */
#define CZ_ZKEY_COEF_BYTES 44

typedef struct cz_zkey_coef {
    uint32_t matrix;   /* 0 = A, 1 = B */
    uint32_t row;      /* constraint index, < domain_size */
    uint32_t signal;   /* < nvars */
    uint64_t value[4]; /* v·R² mod r, as limbs (least significant first) */
} cz_zkey_coef;

/* Points of a BN254 key. Array lengths: ic nPublic+1, a/b1/b2 nVars, c nVars-nPublic-1 (c[i]
 * belongs to signal nPublic+1+i), h domainSize. */
typedef struct cz_zkey_bn254 {
    cz_bn254_g1_affine alpha1, beta1, delta1;
    cz_bn254_g2_affine beta2, gamma2, delta2;
    const cz_bn254_g1_affine *ic, *a, *b1, *c, *h;
    const cz_bn254_g2_affine *b2;
} cz_zkey_bn254;

typedef struct cz_zkey_bls12381 {
    cz_bls12381_g1_affine alpha1, beta1, delta1;
    cz_bls12381_g2_affine beta2, gamma2, delta2;
    const cz_bls12381_g1_affine *ic, *a, *b1, *c, *h;
    const cz_bls12381_g2_affine *b2;
} cz_zkey_bls12381;

struct cz__zkey_priv;

typedef struct cz_zkey {
    cz_curve_id curve;
    uint32_t nvars;       /* signals, including the constant 1 (signal 0) */
    uint32_t npublic;     /* public signals, excluding signal 0 */
    uint32_t domain_size; /* FFT domain n = 2^log_domain_size */
    uint32_t log_domain_size;
    size_t ncoefs;
    const uint8_t *coefs; /* ncoefs × CZ_ZKEY_COEF_BYTES packed entries (any alignment) */
    union {
        cz_zkey_bn254 bn254;       /* when curve == CZ_CURVE_BN254 */
        cz_zkey_bls12381 bls12381; /* when curve == CZ_CURVE_BLS12381 */
    } u;
    struct cz__zkey_priv *priv;
} cz_zkey;

/* Reads and checks path (see above). On success *out owns the bytes; close with cz_zkey_close.
 * Errors: CZ_EIO, CZ_EFORMAT, CZ_EUNSUPPORTED (version, protocol), CZ_ECURVE (unknown q, r not
 * the curve's), CZ_ENONCANON (value or coordinate out of range), CZ_ENOMEM; ei names the file,
 * the section and the byte offset. */
int cz_zkey_open(cz_zkey **out, const char *path, cz_errinfo *ei);
/* The same over a buffer the caller keeps alive until cz_zkey_close; name is used in messages. */
int cz_zkey_open_mem(cz_zkey **out, const void *data, size_t size, const char *name,
                     cz_errinfo *ei);
/* The same over data that the key takes over: release(arg, data, size) gives it back at
 * cz_zkey_close, or before returning when the open fails (a loader that read the key into its own
 * memory, e.g. pinned). */
int cz_zkey_open_owned(cz_zkey **out, void *data, size_t size, const char *name,
                       void (*release)(void *arg, void *data, size_t size), void *arg,
                       cz_errinfo *ei);
void cz_zkey_close(cz_zkey *zk);

/* The file name given to open (for messages). */
const char *cz_zkey_name(const cz_zkey *zk);

/* Decodes coefficient entry i < zk->ncoefs. */
void cz_zkey_coef_at(cz_zkey_coef *out, const cz_zkey *zk, size_t i);

/*
 * Full validation of every point of the key — the six header points, IC, A, B1, B2, C and H — on
 * its curve (infinity allowed), and with check_subgroup also in the prime-order subgroup. Open
 * checks only structure and ranges; a key from an untrusted source should pass this too. Cost:
 * the on-curve test is a few multiplications per point (milliseconds per 2^16 points); the
 * subgroup test is, per point of a group with a cofactor, one or two multiplications by the
 * 64-bit curve parameter for BLS12-381 G1 and G2 (about 80 µs) and a multiplication by r for
 * BN254 G2. CZ_ENOTONCURVE or
 * CZ_ENOTINSUBGROUP with the file, section, point index and byte offset.
 */
int cz_zkey_validate_points(const cz_zkey *zk, int check_subgroup, cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
