/*
 * Writers from an in-memory constraint system (cuzk/r1cs.h) to the circom/snarkjs files: the
 * system as .r1cs version 1 and its witness as .wtns version 2, in the layouts that
 * cuzk/r1cs_file.h and cuzk/wtns.h read and that snarkjs reads (`snarkjs r1cs info`,
 * `snarkjs wtns check`, `snarkjs groth16 setup`).
 *
 * The .r1cs file: section 1 (header: n8 = 32, r, nWires = nvars, nPubOut = 0, nPubIn = npublic,
 * nPrvIn = 0, nLabels = nWires, nConstraints = nrows), section 2 (per row the LCs A, B, C as
 * term count + (wire u32, coefficient 32 bytes little-endian standard form)), section 3 (the
 * identity wire→label map). Terms are written in CSR order; snarkjs keys an LC by wire, so a
 * variable must not appear twice in one LC (the writer refuses it with CZ_EFORMAT).
 *
 * Both writers stream through a 1 MiB buffer; the coefficient table is converted to standard form
 * once, the witness in parallel batches on pool (NULL: one thread). Cost: about 36 bytes per term
 * and 32 per witness value, written at disk speed. On error the partial file is removed.
 */
#ifndef CUZK_R1CS_IO_H
#define CUZK_R1CS_IO_H

#include "cuzk/err.h"
#include "cuzk/r1cs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_threadpool cz_threadpool;

/* Writes cs (structure only) to path. CZ_EFORMAT (see above), CZ_ERANGE (more than 2^32 - 1
 * terms in one row), CZ_EIO, CZ_ENOMEM. */
int cz_r1cs_write(const char *path, const cz_r1cs *cs, cz_errinfo *ei);

/* Writes the witness cs->w (nvars values) to path. CZ_EIO, CZ_ENOMEM. */
int cz_r1cs_write_wtns(const char *path, const cz_r1cs *cs, cz_threadpool *pool, cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
