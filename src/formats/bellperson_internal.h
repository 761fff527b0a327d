/*
 * What the two halves of the bellperson reader share (bellperson.c: the source, the walk of the
 * counts, the parallel point decoder, the verifying key; bellperson_params.c: the parameters).
 *
 * A source is the file being read: an open descriptor (cz_file_open) read with cz_file_pread, or
 * a caller's buffer. Both give bytes at an offset that the walk has already checked against the
 * size, so a short read means the file shrank after it was opened.
 */
#ifndef CUZK_FORMATS_BELLPERSON_INTERNAL_H
#define CUZK_FORMATS_BELLPERSON_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/bellperson.h"

typedef struct cz__bp_src {
    const char *name;
    int fd;             /* >= 0: read with cz_file_pread */
    const uint8_t *mem; /* fd < 0: the bytes */
    uint64_t size;
    cz_file_id id; /* fd >= 0: the file as opened */
} cz__bp_src;

/* Opens path (cz_file_open) or wraps data; cz__bp_src_close closes what was opened. */
int cz__bp_src_open(cz__bp_src *s, const char *path, cz_errinfo *ei);
void cz__bp_src_mem(cz__bp_src *s, const void *data, size_t size, const char *name);
void cz__bp_src_close(cz__bp_src *s);

/* Walks the counts (cz_bellperson_info_read). */
int cz__bp_walk(cz_bellperson_info *info, const cz__bp_src *s, cz_bellperson_kind want,
                cz_errinfo *ei);

/* One section's points to decode into dst (n points of cz_bellperson_point_bytes(section)). */
typedef struct cz__bp_job {
    int section;
    void *dst;
    uint64_t off; /* the first point's offset in the file */
    size_t n;
    int check_subgroup;
} cz__bp_job;

/* Reads and decodes every job, in chunks spread over pool (NULL: this thread). On failure the
 * error is the one of the first bad point in file order (so it does not depend on the pool).
 * The destination bytes of a failed run are unspecified. */
int cz__bp_decode(const cz__bp_src *s, const cz__bp_job *jobs, size_t njobs, cz_threadpool *pool,
                  cz_errinfo *ei);

/* Reads the verifying key at the start of s, whose walk is info (all points checked). */
int cz__bp_vk_read(cz_bellperson_vk *vk, const cz__bp_src *s, const cz_bellperson_info *info,
                   cz_threadpool *pool, cz_errinfo *ei);

/* Big-endian u32. */
static inline uint32_t cz__be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}
static inline void cz__put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

#endif
