/*
 * cz_daemon_private_dir (src/daemon/statedir.c): a missing directory is made 0700 whatever the
 * umask; an existing one is accepted when it is a real directory of ours that only we can write
 * (0700, 0755), refused when it is writable by its group or others, a symbolic link (also written
 * with a trailing slash, which would make lstat follow it), a file, or another user's (run as
 * root only: it needs chown). Each refusal names the path; nothing is made through a link.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/statedir.h"
#include "test.h"

static char dir[] = "/tmp/cuzk-test-statedir-XXXXXX";

static void path(char *out, size_t cap, const char *name) {
    snprintf(out, cap, "%s/%s", dir, name);
}

static void expect(const char *p, int code, const char *what) {
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = cz_daemon_private_dir(p, &ei);
    CHECK_ERR(rc, code);
    if (code != CZ_OK && !CHECK(strstr(ei.msg, p) != NULL && strstr(ei.msg, what) != NULL))
        fprintf(stderr, "  %s: want \"%s\": %s\n", p, what, ei.msg);
}

static unsigned mode_of(const char *p) {
    struct stat st;
    return lstat(p, &st) == 0 ? (unsigned)st.st_mode & 07777 : 0xffffu;
}

static void test_made(void) {
    char p[128];
    path(p, sizeof p, "new");
    mode_t old = umask(0);
    expect(p, CZ_OK, "");
    umask(old);
    CHECK_EQ_INT(mode_of(p), 0700);
    expect(p, CZ_OK, ""); /* again: it is there and fine */
    path(p, sizeof p, "new/");
    expect(p, CZ_OK, "");
    path(p, sizeof p, "no/such");
    expect(p, CZ_EIO, "cannot create the directory");
    expect("", CZ_EINVAL, "not a directory path");
}

static void test_modes(void) {
    static const struct {
        unsigned mode;
        int code;
        const char *what;
    } m[] = {
        {0700, CZ_OK, ""},
        {0755, CZ_OK, ""},
        {0750, CZ_OK, ""},
        {0770, CZ_EINVAL, "writable by its group (mode 0770)"},
        {0702, CZ_EINVAL, "writable by others (mode 0702)"},
        {01777, CZ_EINVAL, "writable by others (mode 1777)"},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        char p[128], name[32];
        snprintf(name, sizeof name, "m%o", m[i].mode);
        path(p, sizeof p, name);
        CHECK(mkdir(p, 0700) == 0 && chmod(p, m[i].mode) == 0);
        expect(p, m[i].code, m[i].what);
        CHECK_EQ_INT(mode_of(p), m[i].mode); /* never changed */
    }
}

static void test_not_a_dir(void) {
    char p[128], target[128], f[128];
    path(target, sizeof target, "target");
    path(p, sizeof p, "link");
    CHECK(mkdir(target, 0700) == 0 && symlink(target, p) == 0);
    expect(p, CZ_EINVAL, "is a symbolic link");
    {
        char slash[130];
        cz_errinfo ei;
        snprintf(slash, sizeof slash, "%s/", p); /* named without the slash */
        cz_errinfo_clear(&ei);
        CHECK_ERR(cz_daemon_private_dir(slash, &ei), CZ_EINVAL);
        CHECK(strstr(ei.msg, p) != NULL && strstr(ei.msg, "is a symbolic link") != NULL);
    }
    path(p, sizeof p, "dangling");
    path(f, sizeof f, "nowhere");
    CHECK(symlink(f, p) == 0);
    expect(p, CZ_EINVAL, "is a symbolic link");
    CHECK(access(f, F_OK) != 0); /* nothing made through the link */
    path(f, sizeof f, "file");
    FILE *h = fopen(f, "w");
    CHECK(h != NULL);
    if (h != NULL)
        fclose(h);
    expect(f, CZ_EINVAL, "is not a directory");
}

static void test_other_owner(void) {
    char p[128];
    if (geteuid() != 0) /* only root can give a directory away */
        return;
    path(p, sizeof p, "theirs");
    CHECK(mkdir(p, 0700) == 0 && chown(p, 65534, 65534) == 0);
    expect(p, CZ_EINVAL, "is owned by uid 65534, not by this user (uid 0)");
}

static int setup(void) {
    return mkdtemp(dir) != NULL ? 0 : 1;
}

static void teardown(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_EQ_INT(system(cmd), 0);
}

static const test_case cases[] = {
    {"made", test_made},
    {"modes", test_modes},
    {"not_a_dir", test_not_a_dir},
    {"other_owner", test_other_owner},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
