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

#define LOAD_CHUNK ((size_t)64 << 20) /* bytes per read(2): large, so 44 GiB takes ~700 calls */

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

/* Reads size bytes of fd into buf; CZ_EIO when the file ends early or a read fails. */
static int read_all(int fd, uint8_t *buf, size_t size, const char *path, cz_errinfo *ei) {
    size_t done = 0;
    while (done < size) {
        size_t want = size - done < LOAD_CHUNK ? size - done : LOAD_CHUNK;
        ssize_t got = pread(fd, buf + done, want, (off_t)done);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return cz_fail(ei, CZ_EIO, "%s: read error at byte %zu: %s", path, done,
                           strerror(errno));
        if (got == 0)
            return cz_fail(ei, CZ_EIO,
                           "%s: the file changed while being read (it ended at byte %zu of %zu)",
                           path, done, size);
        done += (size_t)got;
    }
    return CZ_OK;
}

int cz_file_load(void **data, size_t *len, cz_file_id *id, const char *path,
                 const cz_file_alloc *mem, cz_errinfo *ei) {
    const cz_file_alloc heap = {heap_alloc, heap_free, NULL};
    if (mem == NULL || mem->alloc == NULL)
        mem = &heap;
    *data = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return cz_fail(ei, CZ_EIO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st, st2;
    uint8_t *buf = NULL;
    size_t size = 0;
    int rc;
    if (fstat(fd, &st) != 0) {
        rc = cz_fail(ei, CZ_EIO, "%s: cannot stat: %s", path, strerror(errno));
        goto out;
    }
    if ((rc = check_regular(&st, path, ei)) != CZ_OK)
        goto out;
    if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX - 1) {
        rc = cz_fail(ei, CZ_ENOMEM, "%s: %lld bytes do not fit in memory", path,
                     (long long)st.st_size);
        goto out;
    }
    size = (size_t)st.st_size;
    (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    if ((buf = mem->alloc(mem->arg, size ? size : 1)) == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "%s: cannot allocate %zu bytes to read it", path, size);
        goto out;
    }
    if ((rc = read_all(fd, buf, size, path, ei)) != CZ_OK)
        goto out;
    /* Grown, rewritten or truncated and regrown while we read: what we hold is no version of it. */
    uint8_t extra;
    ssize_t more = pread(fd, &extra, 1, (off_t)size);
    cz_file_id a, b;
    id_from_stat(&a, &st);
    if (more != 0 || fstat(fd, &st2) != 0 || (id_from_stat(&b, &st2), !cz_file_id_same(&a, &b))) {
        rc = cz_fail(ei, CZ_EIO, "%s: the file changed while being read", path);
        goto out;
    }
    if (id != NULL)
        *id = a;
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
