/*
 * The socket lock (socklock.h): flock on PATH.lock, checked to be the file at the path after
 * locking (a daemon that exits unlinks its lock file, and a lock on an unlinked file would guard
 * nothing), with the holder's PID in it for the message of the next one.
 */
#include "daemon/socklock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct cz_daemon_socklock {
    char path[512]; /* the socket */
    char lock_path[520];
    int fd; /* holds flock(LOCK_EX) on lock_path */
};

static int mkdir_parents(const char *path) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", path);
    char *slash = strrchr(buf, '/');
    if (slash == NULL || slash == buf)
        return 0;
    *slash = 0;
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* Takes the lock of l->lock_path. */
static int lock(cz_daemon_socklock *l, const char *addr, cz_errinfo *ei) {
    for (int tries = 0; tries < 10; tries++) {
        int fd = open(l->lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd < 0)
            return cz_fail(ei, CZ_EIO, "listen address %s: lock file %s: %s", addr, l->lock_path,
                           strerror(errno));
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            char pid[32] = "";
            ssize_t n = pread(fd, pid, sizeof pid - 1, 0);
            close(fd);
            if (e != EWOULDBLOCK)
                return cz_fail(ei, CZ_EIO, "listen address %s: lock file %s: %s", addr,
                               l->lock_path, strerror(e));
            pid[n > 0 ? n : 0] = '\0';
            pid[strcspn(pid, "\n")] = '\0';
            return cz_fail(ei, CZ_EBUSY,
                           "listen address %s: another daemon (PID %s) holds %s; not starting",
                           addr, pid[0] ? pid : "unknown", l->lock_path);
        }
        struct stat a, b;
        if (fstat(fd, &a) != 0 || stat(l->lock_path, &b) != 0 || a.st_dev != b.st_dev ||
            a.st_ino != b.st_ino) {
            close(fd); /* unlinked by its exiting owner meanwhile: take the new one */
            continue;
        }
        char pid[32];
        int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
        if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
            int e = errno;
            unlink(l->lock_path);
            close(fd);
            return cz_fail(ei, CZ_EIO, "listen address %s: lock file %s: %s", addr, l->lock_path,
                           strerror(e));
        }
        l->fd = fd;
        return CZ_OK;
    }
    return cz_fail(ei, CZ_EBUSY, "listen address %s: lock file %s keeps changing", addr,
                   l->lock_path);
}

int cz_daemon_socklock_take(cz_daemon_socklock **out, const char *addr, cz_errinfo *ei) {
    *out = NULL;
    if (strncmp(addr, "unix:", 5) != 0)
        return CZ_OK;
    const char *path = addr + (strncmp(addr, "unix://", 7) == 0 ? 7 : 5);
    cz_daemon_socklock *l = calloc(1, sizeof *l);
    int rc;
    if (l == NULL)
        return cz_fail(ei, CZ_ENOMEM, "socket lock");
    l->fd = -1;
    if (path[0] == 0 || strlen(path) >= sizeof l->path) {
        rc = cz_fail(ei, CZ_EINVAL, "listen address %s: bad socket path", addr);
        goto fail;
    }
    snprintf(l->path, sizeof l->path, "%s", path);
    snprintf(l->lock_path, sizeof l->lock_path, "%s.lock", path);
    if (mkdir_parents(path) != 0) {
        rc = cz_fail(ei, CZ_EIO, "listen address %s: cannot create the directory (%s)", addr,
                     strerror(errno));
        goto fail;
    }
    if ((rc = lock(l, addr, ei)) != CZ_OK)
        goto fail;
    *out = l;
    return CZ_OK;
fail:
    free(l);
    return rc;
}

const char *cz_daemon_socklock_path(const cz_daemon_socklock *l) {
    return l->path;
}

void cz_daemon_socklock_release(cz_daemon_socklock *l) {
    if (l == NULL)
        return;
    unlink(l->lock_path); /* while still holding it */
    close(l->fd);
    free(l);
}
