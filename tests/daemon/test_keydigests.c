/*
 * The remembered key digests (src/daemon/keydigests.c). A digest stored for a file's version is
 * found for that version and path only; a file rewritten (same size, its modification time set
 * back by utimensat: the change time still moves), appended to, or replaced by another inode
 * finds nothing; a version that changed between the stat and the store is not stored; storing a
 * second key keeps the first one's line, storing a key again replaces its line; a malformed store
 * finds nothing and is rewritten whole on the next store; a path with a line break is refused.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/keydigests.h"
#include "test.h"

static char dir[] = "/tmp/cuzk-test-keydigests-XXXXXX";
static const char D1[] = "0123456789abcdef0123456789abcdef",
                  D2[] = "fedcba9876543210fedcba9876543210";

static void path(char *out, size_t cap, const char *name) {
    snprintf(out, cap, "%s/%s", dir, name);
}

static void write_file(const char *p, const char *text) {
    FILE *fp = fopen(p, "w");
    if (fp == NULL)
        abort();
    fputs(text, fp);
    fclose(fp);
}

static int found(const char *store, const char *key, const char *want) {
    struct stat st;
    char d[CZ_PARAM_DIGEST_HEX + 1] = "";
    if (cz_daemon_key_version(&st, key) != 0)
        return 0;
    return cz_daemon_key_digest_find(d, store, key, &st) && strcmp(d, want) == 0;
}

static void store_now(const char *store, const char *key, const char *digest) {
    struct stat st;
    if (CHECK_EQ_INT(cz_daemon_key_version(&st, key), 0))
        CHECK_EQ_INT(cz_daemon_key_digest_store(store, key, &st, digest, NULL), CZ_OK);
}

static void test_versions(void) {
    char store[128], a[128], b[128], c[128];
    struct stat st, was;
    path(store, sizeof store, "key-digests");
    path(a, sizeof a, "a.params");
    path(b, sizeof b, "b.params");
    path(c, sizeof c, "c.params");
    write_file(a, "key a");
    write_file(b, "key b");
    CHECK(!found(store, a, D1)); /* no store yet */
    store_now(store, a, D1);
    CHECK(found(store, a, D1));
    CHECK(!found(store, b, D1)); /* another path */
    store_now(store, b, D2);
    CHECK(found(store, a, D1) && found(store, b, D2)); /* a's line kept */
    store_now(store, b, D1);
    CHECK(found(store, b, D1) && !found(store, b, D2)); /* replaced */

    /* rewritten in place, same size, the modification time set back */
    CHECK_EQ_INT(stat(a, &was), 0);
    usleep(20000);
    write_file(a, "KEY A");
    struct timespec times[2] = {was.st_atim, was.st_mtim};
    CHECK_EQ_INT(utimensat(AT_FDCWD, a, times, 0), 0);
    CHECK_EQ_INT(stat(a, &st), 0);
    CHECK(st.st_size == was.st_size && st.st_mtim.tv_nsec == was.st_mtim.tv_nsec);
    CHECK(!found(store, a, D1));
    /* appended to */
    store_now(store, a, D1);
    write_file(a, "KEY A and more");
    CHECK(!found(store, a, D1));
    /* replaced by another file (rename: another inode) */
    store_now(store, a, D1);
    write_file(c, "KEY A and more");
    CHECK_EQ_INT(rename(c, a), 0);
    CHECK(!found(store, a, D1));
    /* changed between its stat and the store: not stored */
    CHECK_EQ_INT(cz_daemon_key_version(&st, a), 0);
    usleep(20000);
    write_file(a, "changed while hashed");
    CHECK_EQ_INT(cz_daemon_key_digest_store(store, a, &st, D2, NULL), CZ_OK);
    CHECK(!found(store, a, D2));
    CHECK(found(store, b, D1));
}

static void test_bad(void) {
    char store[128], a[128], nl[128];
    cz_errinfo ei;
    path(store, sizeof store, "bad-digests");
    path(a, sizeof a, "a.params");
    path(nl, sizeof nl, "x\ny.params");
    write_file(store, "not a line\n0123 1 2 3 4 5 short\n");
    CHECK(!found(store, a, D1));
    store_now(store, a, D1);
    CHECK(found(store, a, D1));
    {
        FILE *fp = fopen(store, "r");
        char line[512];
        int n = 0;
        while (fp != NULL && fgets(line, sizeof line, fp) != NULL)
            n++;
        if (fp != NULL)
            fclose(fp);
        CHECK_EQ_INT(n, 1); /* the malformed lines are gone */
    }
    write_file(nl, "key");
    cz_errinfo_clear(&ei);
    struct stat st;
    if (CHECK_EQ_INT(cz_daemon_key_version(&st, nl), 0)) {
        CHECK_ERR(cz_daemon_key_digest_store(store, nl, &st, D1, &ei), CZ_EINVAL);
        CHECK(strstr(ei.msg, "line break") != NULL);
    }
    unlink(nl);
}

static const test_case cases[] = {{"versions", test_versions}, {"bad", test_bad}};

int main(int argc, char **argv) {
    if (mkdtemp(dir) == NULL)
        return 1;
    int rc = test_main(argc, argv, cases, TEST_COUNT(cases));
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", dir);
    return rc;
}
