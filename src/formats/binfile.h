/*
 * The iden3 binary container shared by snarkjs's .r1cs, .wtns, .zkey and .ptau files
 * (@iden3/binfileutils):
 *
 *   magic 4 bytes | version u32 | nsections u32 | nsections × { id u32 | size u64 | payload }
 *
 * all integers little-endian. A cz__binfile reads a file into memory (cz_file_load: regular files
 * only, so no mapping that another process can truncate under the reader), or takes over or wraps
 * a caller's buffer,
 * checks magic and version, and indexes the sections by id. Readers look sections up by id, never
 * by position (circom writes .r1cs as 2,1,3; `groth16 setup` writes .zkey as 1,2,4,3,9,8,5,6,7,10).
 * A duplicated id is an error only when a reader asks for that section; unknown ids are ignored.
 *
 * Every size and offset is checked against the file size before use (`if (len > size - pos)`), so
 * no input makes a reader touch memory outside the file. Errors name the file, the section and the
 * absolute byte offset: "<name>: section 4 at offset 712: ...". They never quote the file's
 * bytes (a client of the daemon names a path, and an error must not become a way to read a file
 * it could not): a file without the magic is "not a .zkey file", a prime or field that is not
 * known is given by its width only. Counts and ids decoded from a file that has the magic (its
 * version, section sizes, nVars) are the structure of a key, and are named.
 *
 * Lifetime: the bytes live until cz__binfile_close; pointers into them (cz__breader_bytes) die
 * with them. Files are opened read-only and never written; what happens to a file after it was
 * read does not touch the bytes in memory.
 */
#ifndef CUZK_FORMATS_BINFILE_H
#define CUZK_FORMATS_BINFILE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"

typedef struct cz__bsect {
    uint32_t id;
    uint64_t off;  /* absolute offset of the payload */
    uint64_t size; /* payload bytes; off + size <= file size */
} cz__bsect;

/* How a buffer handed to cz__binfile_open_owned is given back: fn(arg, data, size) at close. */
typedef struct cz__binfile_release {
    void (*fn)(void *arg, void *data, size_t size);
    void *arg;
} cz__binfile_release;

typedef struct cz__binfile {
    char *name;          /* file path (or the caller's name for a buffer), for messages */
    const uint8_t *data; /* whole file */
    size_t size;
    void *owned; /* the buffer we release at close (cz__binfile_open, _open_owned), else NULL */
    size_t owned_len;
    cz__binfile_release release;
    uint32_t version;
    cz__bsect *sects;
    size_t nsects;
} cz__binfile;

/* Reads path (cz_file_load, malloc'd) and indexes it. On error bf is left closed (nothing to
 * release). */
int cz__binfile_open(cz__binfile *bf, const char *path, const char magic[4], uint32_t version,
                     cz_errinfo *ei);
/* Same over data, which bf takes over: release (NULL = keep it) gets it back at close, and also
 * when the open fails. */
int cz__binfile_open_owned(cz__binfile *bf, void *data, size_t size, const char *name,
                           const cz__binfile_release *release, const char magic[4],
                           uint32_t version, cz_errinfo *ei);
/* The release of malloc'd buffers (free). */
void cz__binfile_release_heap(void *arg, void *data, size_t size);
/* Same over a caller's buffer, which must outlive bf (no copy is made). */
int cz__binfile_open_mem(cz__binfile *bf, const void *data, size_t size, const char *name,
                         const char magic[4], uint32_t version, cz_errinfo *ei);
void cz__binfile_close(cz__binfile *bf);

/*
 * Looks up section id. CZ_OK and *out when it occurs exactly once. When it is absent: CZ_ENOTFOUND
 * without touching ei if !required, else a CZ_EFORMAT error. Twice or more: CZ_EFORMAT.
 */
int cz__binfile_find(const cz__binfile *bf, uint32_t id, int required, cz__bsect *out,
                     cz_errinfo *ei);

/* Records "<name>: section <id> at offset <off>: <message>" in ei and returns code. */
int cz__binfile_fail(const cz__binfile *bf, cz_errinfo *ei, int code, uint32_t id, uint64_t off,
                     const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* A bounds-checked sequential reader over one section's payload. */
typedef struct cz__breader {
    const cz__binfile *bf;
    uint32_t id;
    uint64_t pos; /* absolute offset of the next byte */
    uint64_t end; /* absolute end of the section */
} cz__breader;

void cz__breader_init(cz__breader *r, const cz__binfile *bf, const cz__bsect *s);
/* Bytes left in the section. */
uint64_t cz__breader_left(const cz__breader *r);
/* Each read fails with CZ_EFORMAT ("<what> runs past the end of the section") when too short. */
int cz__breader_u32(cz__breader *r, uint32_t *v, const char *what, cz_errinfo *ei);
int cz__breader_u64(cz__breader *r, uint64_t *v, const char *what, cz_errinfo *ei);
int cz__breader_bytes(cz__breader *r, const uint8_t **p, uint64_t len, const char *what,
                      cz_errinfo *ei);
/* CZ_EFORMAT when bytes are left over ("<n> trailing bytes after <what>"). */
int cz__breader_expect_end(const cz__breader *r, const char *what, cz_errinfo *ei);

/* Little-endian loads from unaligned bytes. */
static inline uint32_t cz__le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t cz__le64(const uint8_t *p) {
    return (uint64_t)cz__le32(p) | (uint64_t)cz__le32(p + 4) << 32;
}

#endif
