/*
 * The remembered key digests (keydigests.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/keydigests.h"

int cz_daemon_key_version(struct stat *st, const char *key_path) {
    return stat(key_path, st);
}

static int64_t ns_of(const struct timespec *t) {
    return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

/* The version's line fields after the digest, as written. */
static void version_text(char *out, size_t n, const struct stat *st) {
    snprintf(out, n, "%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64 " %" PRId64,
             (uint64_t)st->st_dev, (uint64_t)st->st_ino, (uint64_t)st->st_size, ns_of(&st->st_mtim),
             ns_of(&st->st_ctim));
}

/* Splits a line "DIGEST V1 V2 V3 V4 V5 PATH\n" (modified in place): 1 with its parts, 0 when
 * malformed. */
static int line_parse(char *line, char **digest, char **version, char **path) {
    char *sp = strchr(line, ' '), *p = sp;
    size_t n = strlen(line);
    if (n > 0 && line[n - 1] == '\n')
        line[n - 1] = '\0';
    if (sp == NULL || sp - line != CZ_PARAM_DIGEST_HEX)
        return 0;
    for (int i = 0; i < 5 && p != NULL; i++)
        p = strchr(p + 1, ' ');
    if (p == NULL || p[1] == '\0')
        return 0;
    *sp = '\0';
    *p = '\0';
    *digest = line;
    *version = sp + 1;
    *path = p + 1;
    return strspn(line, "0123456789abcdef") == CZ_PARAM_DIGEST_HEX;
}

int cz_daemon_key_digest_find(char digest[CZ_PARAM_DIGEST_HEX + 1], const char *store,
                              const char *key_path, const struct stat *st) {
    FILE *fp = fopen(store, "r");
    char *line = NULL, want[128];
    size_t cap = 0;
    int found = 0;
    if (fp == NULL)
        return 0;
    version_text(want, sizeof want, st);
    while (!found && getline(&line, &cap, fp) > 0) {
        char *d, *v, *p;
        if (line_parse(line, &d, &v, &p) && strcmp(p, key_path) == 0 && strcmp(v, want) == 0) {
            memcpy(digest, d, CZ_PARAM_DIGEST_HEX + 1);
            found = 1;
        }
    }
    free(line);
    fclose(fp);
    return found;
}

int cz_daemon_key_digest_store(const char *store, const char *key_path, const struct stat *before,
                               const char *digest, cz_errinfo *ei) {
    struct stat now;
    char ver[128], *tmp, *line = NULL;
    size_t cap = 0;
    FILE *in, *out;
    int ok;
    if (strchr(key_path, '\n') != NULL)
        return cz_fail(ei, CZ_EINVAL, "%s: a key path with a line break is not remembered", store);
    if (strlen(digest) != CZ_PARAM_DIGEST_HEX)
        return cz_fail(ei, CZ_EINVAL, "%s: a digest of %zu digits", store, strlen(digest));
    if (stat(key_path, &now) != 0)
        return CZ_OK; /* gone since it was hashed: nothing to remember */
    version_text(ver, sizeof ver, &now);
    {
        char was[128];
        version_text(was, sizeof was, before);
        if (strcmp(ver, was) != 0)
            return CZ_OK; /* changed while it was hashed */
    }
    if ((tmp = malloc(strlen(store) + 8)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "%s: out of memory", store);
    sprintf(tmp, "%s.new", store);
    if ((out = fopen(tmp, "w")) == NULL) {
        int e = errno;
        free(tmp);
        return cz_fail(ei, CZ_EIO, "%s: %s", store, strerror(e));
    }
    ok = fprintf(out, "%s %s %s\n", digest, ver, key_path) > 0;
    if ((in = fopen(store, "r")) != NULL) {
        while (ok && getline(&line, &cap, in) > 0) {
            char *d, *v, *p;
            if (line_parse(line, &d, &v, &p) && strcmp(p, key_path) != 0)
                ok = fprintf(out, "%s %s %s\n", d, v, p) > 0;
        }
        fclose(in);
    }
    free(line);
    ok = fclose(out) == 0 && ok;
    if (!ok || rename(tmp, store) != 0) {
        int e = errno;
        unlink(tmp);
        free(tmp);
        return cz_fail(ei, CZ_EIO, "%s: cannot write it: %s", store, strerror(e));
    }
    free(tmp);
    return CZ_OK;
}
