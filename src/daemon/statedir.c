/*
 * Private directories (statedir.h): mkdir 0700, then lstat, so that a symbolic link put in the
 * directory's place (before or after the mkdir) is seen, never followed.
 */
#include "daemon/statedir.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cz_daemon_private_dir(const char *path, cz_errinfo *ei) {
    char p[4096];
    struct stat st;
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof p)
        return cz_fail(ei, CZ_EINVAL, "\"%s\": not a directory path", path);
    /* lstat("link/") would follow the link: without the trailing slashes it does not */
    memcpy(p, path, n + 1);
    while (n > 1 && p[n - 1] == '/')
        p[--n] = '\0';
    if (mkdir(p, 0700) != 0 && errno != EEXIST)
        return cz_fail(ei, CZ_EIO, "%s: cannot create the directory: %s", p, strerror(errno));
    if (lstat(p, &st) != 0)
        return cz_fail(ei, CZ_EIO, "%s: %s", p, strerror(errno));
    if (S_ISLNK(st.st_mode))
        return cz_fail(ei, CZ_EINVAL, "%s is a symbolic link, not a directory of its own", p);
    if (!S_ISDIR(st.st_mode))
        return cz_fail(ei, CZ_EINVAL, "%s is not a directory", p);
    if (st.st_uid != geteuid())
        return cz_fail(ei, CZ_EINVAL, "%s is owned by uid %u, not by this user (uid %u)", p,
                       (unsigned)st.st_uid, (unsigned)geteuid());
    if ((st.st_mode & 022) != 0)
        return cz_fail(ei, CZ_EINVAL,
                       "%s is writable by %s (mode %04o): another user could put a key there "
                       "(chmod go-w)",
                       p, (st.st_mode & 002) ? "others" : "its group",
                       (unsigned)st.st_mode & 07777);
    return CZ_OK;
}
