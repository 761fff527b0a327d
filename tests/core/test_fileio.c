/*
 * cz_file_read against stdio reading the same file byte by byte; errors name the path.
 * cz_file_load against cz_file_read (same bytes), through the caller's allocator; a FIFO, a
 * directory and /dev/null refused at once (a FIFO without a writer would block an open without
 * O_NONBLOCK: an alarm fails the test instead of hanging it); the identity against stat after
 * truncation, rewrite and replacement. cz_file_open / cz_file_pread / cz_file_check_unchanged:
 * a range against the whole file, a read past the end, a file grown after the open.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/fileio.h"
#include "test.h"

static void test_read(void) {
    const char *path = "examples/mulchain/mulchain.zkey";
    void *data = NULL;
    size_t len = 0, n = 0;
    cz_errinfo ei;
    int c, same = 1;
    FILE *f;
    CHECK_ERR(cz_file_read(&data, &len, path, &ei), CZ_OK);
    f = fopen(path, "rb");
    CHECK(f != NULL);
    while (f != NULL && (c = fgetc(f)) != EOF) {
        same &= n < len && ((unsigned char *)data)[n] == (unsigned char)c;
        n++;
    }
    if (f != NULL)
        fclose(f);
    CHECK(n == len && n > 65536 && same);    /* more than one growth step */
    CHECK_EQ_INT(((char *)data)[len], '\0'); /* the terminator past the end */
    free(data);
}

static void test_errors(void) {
    void *data = NULL;
    size_t len = 0;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_file_read(&data, &len, "/nonexistent/cuzk-file", &ei), CZ_EIO);
    CHECK(data == NULL && len == 0 && strstr(ei.msg, "/nonexistent/cuzk-file") != NULL);
    CHECK(cz_file_read(&data, &len, "/dev/null", &ei) == CZ_OK && len == 0 && data != NULL);
    free(data);
}

static char dir[] = "/tmp/cuzk-fileio-XXXXXX";

static int setup(void) {
    return test_tmpdir(dir) == 0 ? 0 : 1;
}

static void teardown(void) {
    test_tmpdir_remove(dir);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL && fputs(text, f) >= 0 && fclose(f) == 0);
}

typedef struct {
    int allocs, frees, filled;
    size_t bytes;
    uint8_t head[16]; /* the buffer's first bytes when filled is called */
} counting;

static void *count_alloc(void *arg, size_t bytes) {
    counting *c = arg;
    c->allocs++;
    c->bytes = bytes;
    return malloc(bytes);
}

static void count_filled(void *arg, void *p, size_t bytes) {
    counting *c = arg;
    c->filled++;
    CHECK_EQ_SIZE(bytes, c->bytes);
    memcpy(c->head, p, bytes < sizeof c->head ? bytes : sizeof c->head);
}

static void count_free(void *arg, void *p, size_t bytes) {
    counting *c = arg;
    c->frees++;
    CHECK_EQ_SIZE(bytes, c->bytes);
    free(p);
}

static void test_load(void) {
    const char *path = "examples/mulchain/mulchain.zkey";
    void *want, *got;
    size_t wlen, glen;
    CHECK_ERR(cz_file_read(&want, &wlen, path, NULL), CZ_OK);
    counting c = {0};
    cz_file_alloc mem = {count_alloc, count_free, &c, count_filled};
    cz_file_id id, st;
    CHECK_ERR(cz_file_load(&got, &glen, &id, path, &mem, NULL), CZ_OK);
    CHECK(glen == wlen && memcmp(got, want, wlen) == 0 && c.allocs == 1 && c.bytes == wlen);
    /* filled: once, with the file's bytes already in the buffer */
    CHECK(c.filled == 1 && wlen >= sizeof c.head && memcmp(c.head, want, sizeof c.head) == 0);
    CHECK_ERR(cz_file_id_get(&st, path, NULL), CZ_OK);
    CHECK(cz_file_id_same(&id, &st) && id.size == wlen);
    mem.free(mem.arg, got, glen);
    CHECK_EQ_INT(c.frees, 1);
    free(want);

    /* The default allocator, and an empty file (a 1-byte buffer, length 0). */
    char empty[96];
    snprintf(empty, sizeof empty, "%s/empty", dir);
    write_file(empty, "");
    CHECK_ERR(cz_file_load(&got, &glen, NULL, empty, NULL, NULL), CZ_OK);
    CHECK(got != NULL && glen == 0);
    free(got);
}

/* The pieces of cz_file_load: a range read equals the same bytes of the whole file; a read past
 * the end, and a file grown after the open, are refused with the path. */
static void test_pieces(void) {
    const char *path = "examples/mulchain/mulchain.zkey";
    uint8_t *want, got[300];
    size_t wlen;
    int fd;
    cz_file_id id, st;
    cz_errinfo ei;
    CHECK_ERR(cz_file_read((void **)&want, &wlen, path, NULL), CZ_OK);
    CHECK_ERR(cz_file_open(&fd, &id, path, NULL), CZ_OK);
    CHECK_ERR(cz_file_id_get(&st, path, NULL), CZ_OK);
    CHECK(cz_file_id_same(&id, &st) && id.size == wlen && wlen > 1000);
    CHECK_ERR(cz_file_pread(fd, got, sizeof got, 700, path, NULL), CZ_OK);
    CHECK_EQ_MEM(got, want + 700, sizeof got);
    CHECK_ERR(cz_file_pread(fd, got, 0, wlen, path, NULL), CZ_OK); /* nothing, at the end */
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_file_pread(fd, got, 10, wlen - 4, path, &ei), CZ_EIO);
    char ends[64];
    snprintf(ends, sizeof ends, "the file ends at byte %zu", wlen);
    CHECK(strstr(ei.msg, path) != NULL && strstr(ei.msg, ends) != NULL);
    CHECK_ERR(cz_file_check_unchanged(fd, &id, path, NULL), CZ_OK);
    close(fd);
    free(want);

    char grown[96];
    snprintf(grown, sizeof grown, "%s/grown", dir);
    write_file(grown, "0123456789");
    CHECK_ERR(cz_file_open(&fd, &id, grown, NULL), CZ_OK);
    FILE *f = fopen(grown, "ab");
    CHECK(f != NULL && fputs("x", f) >= 0 && fclose(f) == 0);
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_file_check_unchanged(fd, &id, grown, &ei), CZ_EIO);
    CHECK(strstr(ei.msg, grown) != NULL && strstr(ei.msg, "changed while being read") != NULL);
    close(fd);
}

static void test_refused(void) {
    char fifo[96];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    struct {
        const char *path, *why;
    } bad[] = {{fifo, "not a regular file (a FIFO)"},
               {dir, "not a regular file (a directory)"},
               {"/dev/null", "not a regular file (a character device)"},
               {"/nonexistent/cuzk-key", "cannot open: No such file or directory"}};
    test_watchdog(10, "cz_file_load on a FIFO");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        void *data = (void *)1;
        size_t len = 1;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        CHECK_ERR(cz_file_load(&data, &len, NULL, bad[i].path, NULL, &ei), CZ_EIO);
        CHECK(data == NULL && len == 0);
        CHECK(strstr(ei.msg, bad[i].path) != NULL && strstr(ei.msg, bad[i].why) != NULL);
        int fd = 0; /* cz_file_open, which cz_file_load is built on, refuses the same */
        cz_errinfo_clear(&ei);
        CHECK_ERR(cz_file_open(&fd, NULL, bad[i].path, &ei), CZ_EIO);
        CHECK(fd == -1 && strstr(ei.msg, bad[i].why) != NULL);
        if (i < 3) { /* cz_file_id_get refuses the same (stat, no open) */
            cz_file_id id;
            cz_errinfo_clear(&ei);
            CHECK_ERR(cz_file_id_get(&id, bad[i].path, &ei), CZ_EIO);
            CHECK(strstr(ei.msg, bad[i].why) != NULL);
        }
    }
    test_watchdog(0, NULL);
}

static void test_identity(void) {
    char path[96], other[96], what[160];
    snprintf(path, sizeof path, "%s/key", dir);
    snprintf(other, sizeof other, "%s/key.new", dir);
    write_file(path, "0123456789abcdef");
    cz_file_id a, b;
    CHECK_ERR(cz_file_id_get(&a, path, NULL), CZ_OK);
    CHECK_ERR(cz_file_id_get(&b, path, NULL), CZ_OK);
    CHECK(cz_file_id_same(&a, &b));

    CHECK(truncate(path, 8) == 0); /* shortened in place */
    CHECK_ERR(cz_file_id_get(&b, path, NULL), CZ_OK);
    CHECK(!cz_file_id_same(&a, &b));
    cz_file_id_describe_change(what, sizeof what, &a, &b);
    CHECK_EQ_STR(what, "size 16 -> 8 bytes");

    /* Rewritten in place with the same size: only the modification time tells. */
    CHECK_ERR(cz_file_id_get(&a, path, NULL), CZ_OK);
    struct timespec ts[2] = {{0, UTIME_OMIT}, {a.mtime_ns / 1000000000 + 5, 0}};
    write_file(path, "76543210");
    CHECK(utimensat(AT_FDCWD, path, ts, 0) == 0);
    CHECK_ERR(cz_file_id_get(&b, path, NULL), CZ_OK);
    CHECK(!cz_file_id_same(&a, &b) && a.size == b.size);
    cz_file_id_describe_change(what, sizeof what, &a, &b);
    CHECK(strncmp(what, "modified (mtime ", 16) == 0);

    /* Replaced by rename: another inode. */
    CHECK_ERR(cz_file_id_get(&a, path, NULL), CZ_OK);
    write_file(other, "76543210");
    CHECK(rename(other, path) == 0);
    CHECK_ERR(cz_file_id_get(&b, path, NULL), CZ_OK);
    CHECK(!cz_file_id_same(&a, &b));
    cz_file_id_describe_change(what, sizeof what, &a, &b);
    CHECK(strncmp(what, "replaced by another file", 24) == 0);
}

static const test_case cases[] = {
    {"read", test_read},     {"errors", test_errors},   {"load", test_load},
    {"pieces", test_pieces}, {"refused", test_refused}, {"identity", test_identity},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
