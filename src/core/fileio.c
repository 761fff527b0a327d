/* Whole-file reading (include/cuzk/fileio.h). */
#include "cuzk/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cz_file_read(void **data, size_t *len, const char *path, cz_errinfo *ei) {
    FILE *f;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    *data = NULL;
    *len = 0;
    if ((f = fopen(path, "rb")) == NULL)
        return cz_fail(ei, CZ_EIO, "%s: %s", path, strerror(errno));
    for (;;) {
        if (cap - n < 2) {
            size_t ncap = cap ? 2 * cap : 1 << 16;
            char *nb = realloc(buf, ncap);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                return cz_fail(ei, CZ_ENOMEM, "%s: %zu bytes", path, ncap);
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        return cz_fail(ei, CZ_EIO, "%s: read error: %s", path, strerror(e));
    }
    fclose(f);
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return CZ_OK;
}

/* ---- cz_file_load and file identity ---- */

static const char *file_type_name(mode_t mode) {
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    return "not a plain file";
}

static void id_from_stat(cz_file_id *id, const struct stat *st) {
    id->dev = (uint64_t)st->st_dev;
    id->ino = (uint64_t)st->st_ino;
    id->size = (uint64_t)st->st_size;
    id->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

static int check_regular(const struct stat *st, const char *path, cz_errinfo *ei) {
    if (!S_ISREG(st->st_mode))
        return cz_fail(ei, CZ_EIO, "%s: not a regular file (%s)", path,
                       file_type_name(st->st_mode));
    return CZ_OK;
}

int cz_file_id_get(cz_file_id *id, const char *path, cz_errinfo *ei) {
    struct stat st;
    memset(id, 0, sizeof *id);
    if (stat(path, &st) != 0)
        return cz_fail(ei, CZ_EIO, "%s: %s", path, strerror(errno));
    int rc = check_regular(&st, path, ei);
    if (rc == CZ_OK)
        id_from_stat(id, &st);
    return rc;
}

int cz_file_id_same(const cz_file_id *a, const cz_file_id *b) {
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns;
}

void cz_file_id_describe_change(char *buf, size_t n, const cz_file_id *was, const cz_file_id *now) {
    if (was->dev != now->dev || was->ino != now->ino)
        snprintf(buf, n, "replaced by another file (inode %" PRIu64 " -> %" PRIu64 ")", was->ino,
                 now->ino);
    else if (was->size != now->size)
        snprintf(buf, n, "size %" PRIu64 " -> %" PRIu64 " bytes", was->size, now->size);
    else if (was->mtime_ns != now->mtime_ns)
        snprintf(buf, n, "modified (mtime %" PRId64 ".%09" PRId64 " -> %" PRId64 ".%09" PRId64 ")",
                 was->mtime_ns / 1000000000, was->mtime_ns % 1000000000, now->mtime_ns / 1000000000,
                 now->mtime_ns % 1000000000);
    else
        snprintf(buf, n, "unchanged");
}

static void *heap_alloc(void *arg, size_t bytes) {
    (void)arg;
    return malloc(bytes);
}

static void heap_free(void *arg, void *p, size_t bytes) {
    (void)arg, (void)bytes;
    free(p);
}

int cz_file_open(int *fd, cz_file_id *id, const char *path, cz_errinfo *ei) {
    struct stat st;
    int rc = CZ_OK;
    *fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (*fd < 0)
        return cz_fail(ei, CZ_EIO, "%s: cannot open: %s", path, strerror(errno));
    if (fstat(*fd, &st) != 0)
        rc = cz_fail(ei, CZ_EIO, "%s: cannot stat: %s", path, strerror(errno));
    else if ((rc = check_regular(&st, path, ei)) == CZ_OK) {
        /* O_NONBLOCK was only for the open: a regular file's reads do not block on it anyway. */
        (void)fcntl(*fd, F_SETFL, fcntl(*fd, F_GETFL) & ~O_NONBLOCK);
        if (id != NULL)
            id_from_stat(id, &st);
    }
    if (rc != CZ_OK) {
        close(*fd);
        *fd = -1;
    }
    return rc;
}

int cz_file_pread(int fd, void *buf, size_t len, uint64_t off, const char *path, cz_errinfo *ei) {
    uint8_t *p = buf;
    size_t done = 0;
    if (len > (uint64_t)INT64_MAX || off > (uint64_t)INT64_MAX - len)
        return cz_fail(ei, CZ_EINVAL, "%s: %zu bytes at offset %llu are past any file's end", path,
                       len, (unsigned long long)off);
    while (done < len) {
        size_t want = len - done < CZ_FILE_CHUNK ? len - done : CZ_FILE_CHUNK;
        ssize_t got = pread(fd, p + done, want, (off_t)(off + done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return cz_fail(ei, CZ_EIO, "%s: read error at byte %llu: %s", path,
                           (unsigned long long)(off + done), strerror(errno));
        if (got == 0)
            return cz_fail(ei, CZ_EIO,
                           "%s: the file ends at byte %llu, inside the %zu bytes read at offset "
                           "%llu (it changed after it was opened)",
                           path, (unsigned long long)(off + done), len, (unsigned long long)off);
        done += (size_t)got;
    }
    return CZ_OK;
}

int cz_file_check_unchanged(int fd, const cz_file_id *id, const char *path, cz_errinfo *ei) {
    /* Grown, rewritten or truncated and regrown while we read: what we hold is no version of it. */
    struct stat st;
    cz_file_id now;
    uint8_t extra;
    ssize_t more = pread(fd, &extra, 1, (off_t)id->size);
    if (more != 0 || fstat(fd, &st) != 0 || (id_from_stat(&now, &st), !cz_file_id_same(id, &now)))
        return cz_fail(ei, CZ_EIO, "%s: the file changed while being read", path);
    return CZ_OK;
}

int cz_file_load(void **data, size_t *len, cz_file_id *id, const char *path,
                 const cz_file_alloc *mem, cz_errinfo *ei) {
    const cz_file_alloc heap = {heap_alloc, heap_free, NULL, NULL};
    if (mem == NULL || mem->alloc == NULL)
        mem = &heap;
    *data = NULL;
    *len = 0;
    int fd;
    cz_file_id a;
    int rc = cz_file_open(&fd, &a, path, ei);
    if (rc != CZ_OK)
        return rc;
    uint8_t *buf = NULL;
    size_t size = 0;
    if (a.size > (uint64_t)SIZE_MAX - 1) {
        rc = cz_fail(ei, CZ_ENOMEM, "%s: %llu bytes do not fit in memory", path,
                     (unsigned long long)a.size);
        goto out;
    }
    size = (size_t)a.size;
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    if ((buf = mem->alloc(mem->arg, size ? size : 1)) == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "%s: cannot allocate %zu bytes to read it", path, size);
        goto out;
    }
    if ((rc = cz_file_pread(fd, buf, size, 0, path, ei)) != CZ_OK ||
        (rc = cz_file_check_unchanged(fd, &a, path, ei)) != CZ_OK)
        goto out;
    if (id != NULL)
        *id = a;
    if (mem->filled != NULL)
        mem->filled(mem->arg, buf, size ? size : 1);
out:
    close(fd);
    if (rc != CZ_OK) {
        if (buf != NULL)
            mem->free(mem->arg, buf, size ? size : 1);
        return rc;
    }
    *data = buf;
    *len = size;
    return CZ_OK;
}
