/*
 * circom constraint systems (.r1cs, version 1), reader. Used by `cuzk setup` to build test keys.
 *
 *   section 1 header: n8 u32 | prime n8 bytes LE | nWires u32 | nPubOut u32 | nPubIn u32 |
 *                     nPrvIn u32 | nLabels u64 | nConstraints u32
 *   section 2 constraints: nConstraints × { LC A, LC B, LC C },
 *                     LC = nTerms u32 | nTerms × { wire u32 | coef n8 bytes LE, standard form }
 *   section 3 wire → label map: nWires × u64 (optional here)
 *
 * circom writes section 2 before section 1; sections are found by id. Constraint i means
 * (Σ A·w)·(Σ B·w) = Σ C·w. Terms keep the file's order (circom's is not numeric by wire). The prime
 * must be the scalar field r of BN254 or BLS12-381 (n8 = 32). Every wire is checked < nWires and
 * every coefficient < r. Files with custom gates (sections 4/5, PLONK only) are refused with
 * CZ_EUNSUPPORTED.
 *
 * Unlike the zkey and wtns readers, the whole system is decoded into arrays owned by the
 * cz_r1cs_file (40 bytes per term) and the file's bytes are freed before cz_r1cs_open returns.
 *
 * cz_r1cs_from_file converts an opened system (and optionally its .wtns) into the in-memory
 * cz_r1cs of cuzk/r1cs.h, keeping circom's wire order: wire 0 is ONE, the public wires 1 ..
 * nPubOut + nPubIn are the public inputs, the rest are aux variables in wire order.
 */
#ifndef CUZK_R1CS_FILE_H
#define CUZK_R1CS_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/curve_id.h"
#include "cuzk/err.h"
#include "cuzk/r1cs.h"
#include "cuzk/wtns.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_r1cs_term {
    uint32_t wire;
    uint64_t coef[4]; /* standard form, < r, least significant limb first */
} cz_r1cs_term;

typedef struct cz_r1cs_lc {
    size_t nterms;
    const cz_r1cs_term *terms;
} cz_r1cs_lc;

typedef struct cz_r1cs_constraint {
    cz_r1cs_lc a, b, c;
} cz_r1cs_constraint;

struct cz__r1cs_priv;

typedef struct cz_r1cs_file {
    cz_curve_id curve;
    uint32_t nwires; /* including wire 0 = constant 1 */
    uint32_t npub_out, npub_in, nprv_in;
    uint64_t nlabels;
    uint32_t nconstraints;
    const cz_r1cs_constraint *constraints; /* nconstraints */
    size_t nterms;                         /* terms in all constraints together */
    const uint64_t *wire_labels;           /* nwires label ids, or NULL without section 3 */
    struct cz__r1cs_priv *priv;
} cz_r1cs_file;

/* Errors: CZ_EIO, CZ_EFORMAT, CZ_EUNSUPPORTED (version, custom gates), CZ_ECURVE (prime),
 * CZ_ENONCANON (coefficient >= r), CZ_ENOMEM; ei names the file, section and byte offset. */
int cz_r1cs_open(cz_r1cs_file **out, const char *path, cz_errinfo *ei);
/* The same over a caller's buffer (only read during the call). */
int cz_r1cs_open_mem(cz_r1cs_file **out, const void *data, size_t size, const char *name,
                     cz_errinfo *ei);
void cz_r1cs_close(cz_r1cs_file *r1cs);

/*
 * Fills *cs from f: npublic = nPubOut + nPubIn, naux = nWires - 1 - npublic, the rows in file
 * order with their terms in file order, each distinct coefficient once in the table (Montgomery
 * form). With w, cs->w is the witness; w = NULL gives the structure only (witness zero, w[0] = 1).
 * cs is independent of f and w afterwards; free it with cz_r1cs_free. Errors: CZ_ECURVE (w over
 * another field), CZ_EFORMAT (w's count is not nWires, w[0] != 1), CZ_ERANGE (2^32 - 1 distinct
 * coefficients or more), CZ_ENOMEM. On error *cs is zeroed.
 */
int cz_r1cs_from_file(cz_r1cs *cs, const cz_r1cs_file *f, const cz_wtns *w, cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
