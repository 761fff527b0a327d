/*
 * Filecoin's parameter files: the Groth16 proving keys (.params), verifying keys (.vk) and the
 * aggregation SRS (.srs) that Filecoin's proofs use, as rust-fil-proofs names them, where its tools
 * look for them, and how their content is checked (docs/params.md).
 *
 * The manifest. rust-fil-proofs ships parameters.json (and srs-inner-product.json): for each file
 * name its IPFS CID, its digest and the sector size it serves. cuzk carries the same facts as a
 * built-in table (cz_params_builtin(), generated from the copies in params/); a caller with another
 * manifest (a newer release) makes its own cz_param_manifest. The digest is the first 32 hex digits
 * of BLAKE2b-512 of the whole file, as fil-proofs-param's tools and rust-fil-proofs' own check
 * compute it.
 *
 * The directory. Filecoin's tools read FIL_PROOFS_PARAMETER_CACHE, default
 * /var/tmp/filecoin-proof-parameters (CZ_PARAMS_DEFAULT_DIR). The library reads no environment:
 * callers pass a directory (the CLI resolves the variable, src/cli/cmd_params.c).
 *
 * Ownership: the built-in table is static; cz_param_file strings of a caller's manifest stay the
 * caller's. Checking reads files only: nothing is written, renamed or locked.
 */
#ifndef CUZK_PARAMS_H
#define CUZK_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZ_PARAMS_ENV         "FIL_PROOFS_PARAMETER_CACHE"
#define CZ_PARAMS_DEFAULT_DIR "/var/tmp/filecoin-proof-parameters"
#define CZ_PARAM_DIGEST_HEX   32 /* hex digits of a digest (of BLAKE2b-512's 128) */

/* The proof a file serves. */
typedef enum cz_param_proof {
    CZ_PARAM_PROOF_UNKNOWN = 0,     /* a name whose prefix cuzk does not know */
    CZ_PARAM_PROOF_POREP,           /* stacked-proof-of-replication: PoRep (C2) */
    CZ_PARAM_PROOF_WINNING_POST,    /* proof-of-spacetime-fallback, 66 challenges of 1 sector */
    CZ_PARAM_PROOF_WINDOW_POST,     /* proof-of-spacetime-fallback, a partition of sectors */
    CZ_PARAM_PROOF_POST,            /* proof-of-spacetime-fallback, Winning or Window not known */
    CZ_PARAM_PROOF_UPDATE,          /* empty-sector-update: SnapDeals */
    CZ_PARAM_PROOF_UPDATE_POSEIDON, /* empty-sector-update-poseidon: SnapDeals, Poseidon variant */
    CZ_PARAM_PROOF_AGGREGATION,     /* fil-inner-product-v1: the SRS for aggregating PoRep proofs */
} cz_param_proof;

/* The file's type, from its extension. */
typedef enum cz_param_ext {
    CZ_PARAM_EXT_PARAMS, /* .params: Groth16 proving key (bellperson layout) */
    CZ_PARAM_EXT_VK,     /* .vk: Groth16 verifying key */
    CZ_PARAM_EXT_SRS,    /* .srs: inner-product SRS */
} cz_param_ext;

/* One file of a manifest. */
typedef struct cz_param_file {
    const char *name;     /* file name in the directory: v28-...params */
    const char *cid;      /* IPFS CID it is published under */
    const char *digest;   /* CZ_PARAM_DIGEST_HEX lower-case hex digits */
    uint64_t sector_size; /* bytes; 0 for the SRS (every sector size) */
    cz_param_proof proof;
    cz_param_ext ext;
} cz_param_file;

typedef struct cz_param_manifest {
    const cz_param_file *files;
    size_t nfiles;
} cz_param_manifest;

/* The manifest cuzk was built with (rust-fil-proofs' parameters.json and srs-inner-product.json),
 * ordered by sector size, then proof, then type (.params before .vk); the SRS last. */
const cz_param_manifest *cz_params_builtin(void);

/* "porep", "winning-post", "window-post", "post", "update", "update-poseidon", "aggregation",
 * "unknown". */
const char *cz_param_proof_name(cz_param_proof proof);
/* "params", "vk", "srs". */
const char *cz_param_ext_name(cz_param_ext ext);

/* The proof and type a file name says (v<N>-<prefix>-...<.params|.vk|.srs>); a name in the
 * built-in manifest gets its proof from there (which tells Winning from Window PoSt), any other
 * PoSt name gets CZ_PARAM_PROOF_POST, an unknown prefix CZ_PARAM_PROOF_UNKNOWN. CZ_OK, or
 * CZ_EFORMAT for a name that is not of that form (the message names it) or is not one plain path
 * component (letters, digits, '-', '_', '.'; the message then gives only its length). */
int cz_param_classify(cz_param_proof *proof, cz_param_ext *ext, const char *name, cz_errinfo *ei);

/* The entry named name in m (NULL = the built-in manifest), or NULL. */
const cz_param_file *cz_params_find(const cz_param_manifest *m, const char *name);
/* The first entry of m (NULL = built-in) for that proof, sector size and type, or NULL. */
const cz_param_file *cz_params_find_proof(const cz_param_manifest *m, cz_param_proof proof,
                                          uint64_t sector_size, cz_param_ext ext);

/* Called as a file is hashed, after each read (every few MiB): done and total bytes. A non-zero
 * return stops the hashing with CZ_ECANCELED. */
typedef int (*cz_param_progress_fn)(void *arg, uint64_t done, uint64_t total);

/* digest = the first 32 hex digits (lower case, terminated) of BLAKE2b-512 of the regular file at
 * path, read sequentially in large reads; *size (may be NULL) = its size. progress may be NULL.
 * Errors, naming the path and the reason: CZ_EIO (cannot open, not a regular file, a read error,
 * the file's size changed while it was read), CZ_ENOMEM, CZ_ECANCELED. */
int cz_params_digest_file(char digest[CZ_PARAM_DIGEST_HEX + 1], uint64_t *size, const char *path,
                          cz_param_progress_fn progress, void *arg, cz_errinfo *ei);

/* What cz_params_check found. */
typedef enum cz_param_state {
    CZ_PARAM_MISSING,    /* no file of that name */
    CZ_PARAM_PRESENT,    /* a regular file, not hashed (hash == 0) */
    CZ_PARAM_MATCH,      /* its digest is the manifest's */
    CZ_PARAM_MISMATCH,   /* its digest is not the manifest's */
    CZ_PARAM_UNREADABLE, /* there, but not a regular file, or it cannot be read */
} cz_param_state;

typedef struct cz_param_status {
    cz_param_state state;
    uint64_t size;                        /* bytes, when present */
    char digest[CZ_PARAM_DIGEST_HEX + 1]; /* the file's digest, when hashed; else "" */
} cz_param_status;

/* Checks the file f->name in dir (a trailing '/' is fine) against f->digest: hash == 0 only looks
 * (present and its size), hash != 0 also computes the digest (progress as for
 * cz_params_digest_file). *st is filled whatever the outcome. Returns CZ_OK (present and, when
 * hashed, matching), CZ_ENOTFOUND (missing), CZ_EVERIFY (mismatch: the message gives both
 * digests), CZ_EIO (not a regular file, unreadable), CZ_ENOMEM, CZ_ECANCELED, CZ_EINVAL (the path
 * is too long); every message names the path. */
int cz_params_check(cz_param_status *st, const char *dir, const cz_param_file *f, int hash,
                    cz_param_progress_fn progress, void *arg, cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
