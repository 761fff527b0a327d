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
 *
 * cz_file_open, cz_file_pread, cz_file_check_unchanged: the same path in pieces, for a reader that
 * decodes a file too large to hold twice (bellperson's .params, 44 GiB) straight into memory of
 * its own: cz_file_open opens and checks the file as cz_file_load does (cz_file_load is built on
 * it), cz_file_pread reads a range of it, and cz_file_check_unchanged tells, after the last read,
 * whether the file is still the version that was opened.
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

/* Allocator for cz_file_load: NULL alloc = malloc/free. filled (may be NULL) is called once on
 * each buffer whose contents are complete, before the reader hands it out: the engine's pinned
 * memory registers a buffer's pages there, after the reader's threads have touched them. */
typedef struct cz_file_alloc {
    void *(*alloc)(void *arg, size_t bytes);
    void (*free)(void *arg, void *p, size_t bytes);
    void *arg;
    void (*filled)(void *arg, void *p, size_t bytes);
} cz_file_alloc;

/* Reads the regular file at path into one buffer from mem (NULL = malloc/free); *data and *len
 * are the caller's, freed with mem's free (with *len). *id (may be NULL) is the file's identity
 * as read. Errors, each naming the path and the reason, never the file's bytes: CZ_EIO (cannot
 * open, not a regular file, a read error, the file changed while being read), CZ_ENOMEM. On
 * error *data = NULL and *len = 0. An empty file gives a 1-byte buffer and *len = 0. */
int cz_file_load(void **data, size_t *len, cz_file_id *id, const char *path,
                 const cz_file_alloc *mem, cz_errinfo *ei);

/* The most bytes cz_file_pread asks of one read(2): large, so 44 GiB takes ~700 calls. */
#define CZ_FILE_CHUNK ((size_t)64 << 20)

/* Opens the regular file at path read-only, as cz_file_load does: with O_NONBLOCK (so a FIFO, a
 * device or a socket is refused at once, never waited on), checked with fstat to be a regular
 * file, then set to blocking reads. *fd is the caller's to close(2); *id (may be NULL) is the
 * file's identity when opened. CZ_EIO naming the path and the reason ("cannot open: No such file
 * or directory", "not a regular file (a FIFO)"); on error *fd = -1. */
int cz_file_open(int *fd, cz_file_id *id, const char *path, cz_errinfo *ei);
/* Reads len bytes at offset off of fd into buf, in reads of at most CZ_FILE_CHUNK bytes (short
 * reads and EINTR are retried); safe to call from several threads on one fd. CZ_EIO naming path:
 * a read error (with its offset and reason), or a file that ends before off + len ("the file
 * ends at byte E, inside the N bytes read at offset O"). Callers check their ranges against the
 * size the open saw, so an early end means that the file shrank after it was opened. */
int cz_file_pread(int fd, void *buf, size_t len, uint64_t off, const char *path, cz_errinfo *ei);
/* After the last read: CZ_OK when the file behind fd is still version id (fstat: same inode,
 * size and modification time) and holds no byte past id->size; else CZ_EIO naming path ("the
 * file changed while being read"). */
int cz_file_check_unchanged(int fd, const cz_file_id *id, const char *path, cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
