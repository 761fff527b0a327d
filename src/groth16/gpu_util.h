/*
 * Device helpers of the groth16 layer's GPU backends (prove_gpu.c for zkeys,
 * prove_bellperson_gpu.c for bellperson keys), defined in prove_gpu.c.
 */
#ifndef CZ_GROTH16_GPU_UTIL_H
#define CZ_GROTH16_GPU_UTIL_H

#include <stddef.h>

#include "cuzk/err.h"

/* Checks that dev names a CUDA device; what prefixes the message ("prove", "gpu key"). CZ_ENOGPU
 * (no CUDA build or no device), CZ_EINVAL (no such device). */
int cz__g16_gpu_check(int dev, const char *what, cz_errinfo *ei);
/* Renames the error of a failed device call (rc) after what was being done on device dev; bytes
 * is named for CZ_ENOMEM. CZ_OK passes through. */
int cz__g16_gpu_wrap(int rc, cz_errinfo *ei, int dev, const char *what, size_t bytes);
/* Whether a key gets its G2 bases on the device (cz_tuning.gpu_g2_on_cpu: no). */
int cz__g16_gpu_g2_wanted(void);
/* A device buffer named what in the error message. */
int cz__g16_gpu_alloc(void **d, size_t bytes, int dev, const char *what, cz_errinfo *ei);

/* The zkey prover's per-worker device workspace (cz_groth16_gpu_ws, prove_gpu.c), which the
 * bellperson prover uses with its own layout (grown by cz_groth16_gpu_ws_reserve): its device and
 * its buffer. */
typedef struct cz_groth16_gpu_ws cz_groth16_gpu_ws;
int cz__groth16_gpu_ws_device(const cz_groth16_gpu_ws *ws);
/* The bytes of every workspace allocated on dev now. */
size_t cz__g16_gpu_ws_bytes_on(int dev);
void *cz__g16_gpu_ws_buf(const cz_groth16_gpu_ws *ws);

#endif
