/*
 * snarkjs/circom witness files (.wtns, version 2), reader and writer.
 *
 *   section 1: n8 u32 | prime n8 bytes LE | nWitness u32
 *   section 2: nWitness × n8 bytes, little-endian, standard (not Montgomery) form; witness[0] = 1
 *
 * The prime must be the scalar field r of BN254 or BLS12-381 (n8 = 32), which identifies the
 * curve; every value must be < r. Values are exposed as they are in the file: 4 little-endian
 * 64-bit limbs per value, standard form (the MSM scalar format), pointing into the file's
 * bytes (read into memory at open) when section 2 is 8-byte aligned, else into an aligned copy.
 * They live until cz_wtns_close.
 */
#ifndef CUZK_WTNS_H
#define CUZK_WTNS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve_id.h"
#include "cuzk/err.h"
#include "cuzk/zkey.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limbs per witness value (n8 = 32 for both curves). */
#define CZ_WTNS_LIMBS 4

struct cz__wtns_priv;

typedef struct cz_wtns {
    cz_curve_id curve;
    uint32_t nwitness;
    const uint64_t *values; /* nwitness × CZ_WTNS_LIMBS limbs, standard form, each < r */
    struct cz__wtns_priv *priv;
} cz_wtns;

/* Opens and checks path. Errors: CZ_EIO, CZ_EFORMAT, CZ_EUNSUPPORTED (version), CZ_ECURVE
 * (prime is not a known r), CZ_ENONCANON (value >= r), CZ_ENOMEM; ei names file, section, offset.
 */
int cz_wtns_open(cz_wtns **out, const char *path, cz_errinfo *ei);
/* The same over a buffer the caller keeps alive until cz_wtns_close. */
int cz_wtns_open_mem(cz_wtns **out, const void *data, size_t size, const char *name,
                     cz_errinfo *ei);
void cz_wtns_close(cz_wtns *w);
const char *cz_wtns_name(const cz_wtns *w);

/* Checks that w belongs to zk: same curve (prime == zkey r) and nWitness == nVars. CZ_ECURVE or
 * CZ_EFORMAT with a message naming both files. */
int cz_wtns_check_against_zkey(const cz_wtns *w, const cz_zkey *zk, cz_errinfo *ei);

/* Writes a .wtns file with the exact bytes snarkjs writes: n values of CZ_WTNS_LIMBS standard-form
 * limbs each (each must be < r: CZ_ENONCANON otherwise, nothing written). CZ_EIO on write errors.
 */
int cz_wtns_write(const char *path, cz_curve_id curve, const uint64_t *values, uint32_t n,
                  cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
