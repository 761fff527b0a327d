/*
 * The key object behind a supra_seal SRS handle (srs.c) and what the proving calls (prove.c) use
 * of it: the decoded .params, the resident GPU keys per device, the process-wide thread pool and
 * the translation of cuzk errors into supra_seal's error struct.
 *
 * A key object is reference-counted: each handle, the cache and each proof in flight hold one
 * reference. Its resident GPU keys are reference-counted too (cz__ss_key): the device's slot
 * holds one while the key is current, each proof using it another, so a key replaced by one of
 * other densities, or evicted, is freed when its last proof ends.
 */
#ifndef CZ_SUPRASEAL_SRS_H
#define CZ_SUPRASEAL_SRS_H

#include "cuzk/assignment.h"
#include "cuzk/bellperson.h"
#include "cuzk/err.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/supraseal.h"
#include "cuzk/threadpool.h"

typedef struct cz__ss_srs cz__ss_srs;

/* A resident key on one device and the number of its holders (the slot and the proofs). */
typedef struct cz__ss_key {
    cz_groth16_bp_gpu_key *k;
    int dev;
    size_t refs;
} cz__ss_key;

/* The process-wide pool (one thread per online CPU, made at the first call; NULL when it could
 * not be made, and then everything runs on the calling thread). */
cz_threadpool *cz__ss_pool(void);

/* A reference on the key of path, from the cache (cache != 0) or read for the caller alone.
 * Errors: cz_bellperson_params_read's, CZ_ENOMEM. */
int cz__ss_srs_open(cz__ss_srs **out, const char *path, int cache, cz_errinfo *ei);
void cz__ss_srs_ref(cz__ss_srs *s);
void cz__ss_srs_unref(cz__ss_srs *s); /* NULL is a no-op */
/* Removes the path from the cache and releases every device's current key. */
void cz__ss_srs_evict(cz__ss_srs *s);
const cz_bellperson_params *cz__ss_srs_params(const cz__ss_srs *s);
/* The devices counted when the key was read (0: the CPU proves). */
int cz__ss_srs_ndev(const cz__ss_srs *s);

/* The current key of device dev if it was made for shape's densities, else a new one made for
 * them (which becomes the current one); one reference for the caller. Errors:
 * cz_groth16_bp_gpu_key_create's. */
int cz__ss_key_take(cz__ss_key **out, cz__ss_srs *s, int dev, const cz_assignment *shape,
                    cz_errinfo *ei);
void cz__ss_key_give(cz__ss_srs *s, cz__ss_key *key); /* NULL is a no-op */

/* The error struct for a cuzk code (CZ_OK: success) with the message "what: <ei's message>". */
cz_supraseal_error cz__ss_error(int code, const char *what, const cz_errinfo *ei);

#endif
