/*
 * A buffered file writer for the binary writers (r1cs_write.c, wtns_write.c: little-endian; the
 * bellperson files use only its bytes): bytes collect in a 1 MiB buffer and go out in large
 * fwrite calls. The first error sticks (bw->err) and later calls do nothing, so a writer checks
 * once, at the end (cz__bw_finish). cz__bw_open writes the iden3 container's preamble,
 * cz__bw_create nothing.
 */
#ifndef CUZK_FORMATS_BUFWRITE_H
#define CUZK_FORMATS_BUFWRITE_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/err.h"

#define CZ_BW_SIZE (1u << 20)

typedef struct cz__bw {
    FILE *f;
    size_t len;
    int err; /* errno of the first failure, or 0 */
    uint8_t buf[CZ_BW_SIZE];
} cz__bw;

static inline void cz__bw_flush(cz__bw *bw) {
    if (bw->err == 0 && bw->len > 0 && fwrite(bw->buf, 1, bw->len, bw->f) != bw->len)
        bw->err = errno ? errno : EIO;
    bw->len = 0;
}

static inline void cz__bw_bytes(cz__bw *bw, const void *p, size_t n) {
    const uint8_t *s = p;
    while (n > 0) {
        if (bw->len == CZ_BW_SIZE)
            cz__bw_flush(bw);
        size_t k = CZ_BW_SIZE - bw->len < n ? CZ_BW_SIZE - bw->len : n;
        memcpy(bw->buf + bw->len, s, k);
        bw->len += k;
        s += k;
        n -= k;
    }
}

static inline void cz__bw_u32(cz__bw *bw, uint32_t v) {
    uint8_t b[4];
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    cz__bw_bytes(bw, b, 4);
}

static inline void cz__bw_u64(cz__bw *bw, uint64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    cz__bw_bytes(bw, b, 8);
}

/* Section header of the iden3 container: id u32, payload size u64. */
static inline void cz__bw_section(cz__bw *bw, uint32_t id, uint64_t size) {
    cz__bw_u32(bw, id);
    cz__bw_u64(bw, size);
}

/* Flushes and closes; 0 or the errno of the first failure. */
static inline int cz__bw_close(cz__bw *bw) {
    cz__bw_flush(bw);
    if (fclose(bw->f) != 0 && bw->err == 0)
        bw->err = errno ? errno : EIO;
    return bw->err;
}

/* Creates (or truncates) path, with nothing written yet. */
static inline int cz__bw_create(cz__bw *bw, const char *path, cz_errinfo *ei) {
    if ((bw->f = fopen(path, "wb")) == NULL)
        return cz_fail(ei, CZ_EIO, "%s: cannot create: %s", path, strerror(errno));
    bw->len = 0;
    bw->err = 0;
    return CZ_OK;
}

/* Creates path and writes the container preamble: magic (4 bytes), version, section count. */
static inline int cz__bw_open(cz__bw *bw, const char *path, const char magic[4], uint32_t version,
                              uint32_t nsections, cz_errinfo *ei) {
    int rc = cz__bw_create(bw, path, ei);
    if (rc != CZ_OK)
        return rc;
    cz__bw_bytes(bw, magic, 4);
    cz__bw_u32(bw, version);
    cz__bw_u32(bw, nsections);
    return CZ_OK;
}

/* Closes the file; after a failure anywhere in the writing, removes it and says why. */
static inline int cz__bw_finish(cz__bw *bw, const char *path, cz_errinfo *ei) {
    int err = cz__bw_close(bw);
    if (err == 0)
        return CZ_OK;
    unlink(path);
    return cz_fail(ei, CZ_EIO, "%s: write failed: %s", path, strerror(err));
}

#endif
