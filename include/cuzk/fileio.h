/*
 * Reading files whole.
 *
 * cz_file_read: tools and tests (witness uploads, logs): any readable file, one malloc'd buffer.
 *
 * cz_file_load: the loading path of keys (zkeys, and every reader of the iden3 container), and of
 * anything else a long-running process keeps in memory. It reads a regular file into memory the
 * caller owns, so nothing is served from a mapping that another process can truncate (a mapped
 * file that shrinks makes the next read of a lost page fault with SIGBUS). The file is opened with
 * O_NONBLOCK and checked to be a regular file before anything is read, so a FIFO, a device or a
 * socket at the path is refused at once instead of blocking the reader. It returns the file's
 * identity (cz_file_id) as it was read; a later cz_file_id_get of the path tells whether the file
 * on disk is still the one in memory. A file that changes while it is being read (another size,
 * another modification time) is refused.
 */
#ifndef CUZK_FILEIO_H
#define CUZK_FILEIO_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *data = the whole file at path (malloc'd, one extra zero byte after *len bytes, so text can be
 * used as a string); free with free(). CZ_EIO naming the path and the system's reason, CZ_ENOMEM.
 * On error *data = NULL and *len = 0. */
int cz_file_read(void **data, size_t *len, const char *path, cz_errinfo *ei);

/* What tells one version of a file from another: the file system and inode (a file replaced by
 * rename or cp to a new file), the size (truncated, appended) and the modification time (rewritten
 * in place). */
typedef struct cz_file_id {
    uint64_t dev, ino;
    uint64_t size;
    int64_t mtime_ns;
} cz_file_id;

/* The identity of the regular file at path (stat, which follows symbolic links). CZ_EIO naming
 * the path and the reason ("No such file or directory", "not a regular file (a FIFO)"). */
int cz_file_id_get(cz_file_id *id, const char *path, cz_errinfo *ei);
/* 1 when a and b are the same version of the same file. */
int cz_file_id_same(const cz_file_id *a, const cz_file_id *b);
/* What changed from was to now, for a log line: "size 1024 -> 512 bytes", "replaced (inode 12 ->
 * 40)", "modified (mtime ...)". */
void cz_file_id_describe_change(char *buf, size_t n, const cz_file_id *was, const cz_file_id *now);

/* Allocator for cz_file_load: NULL alloc = malloc/free. */
typedef struct cz_file_alloc {
    void *(*alloc)(void *arg, size_t bytes);
    void (*free)(void *arg, void *p, size_t bytes);
    void *arg;
} cz_file_alloc;

/* Reads the regular file at path into one buffer from mem (NULL = malloc/free); *data and *len
 * are the caller's, freed with mem's free (with *len). *id (may be NULL) is the file's identity
 * as read. Errors, each naming the path and the reason, never the file's bytes: CZ_EIO (cannot
 * open, not a regular file, a read error, the file changed while being read), CZ_ENOMEM. On
 * error *data = NULL and *len = 0. An empty file gives a 1-byte buffer and *len = 0. */
int cz_file_load(void **data, size_t *len, cz_file_id *id, const char *path,
                 const cz_file_alloc *mem, cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
