/*
 * A minimal test harness. A test binary counts its checks and ends with the line
 * "N passed, N failed" (what CI reads); main returns non-zero when anything failed.
 *
 * A test is a table of named cases, each a void function, run by test_main:
 *
 *   static void test_add(void) { CHECK_EQ_INT(1 + 1, 2); }
 *   static void test_bytes(void) { CHECK_EQ_MEM(a, b, 32); }
 *   static const test_case cases[] = {{"add", test_add}, {"bytes", test_bytes}};
 *   int main(int argc, char **argv) { return test_main(argc, argv, cases, TEST_COUNT(cases)); }
 *
 * Arguments: none runs every case in table order; `--case NAME` (repeatable) runs only the cases
 * named, in table order; `--list` prints the case names, one per line. An unknown name or option
 * is a usage error: exit 2, a message naming it. A failed case is named on stderr at its end.
 *
 * Set-up shared by the cases (a thread pool, a key, a temporary directory) goes in the setup and
 * teardown functions given to test_main_fixture: they run once, around the cases that run, and
 * not at all for `--list`. setup returns 0, or TEST_SKIP when the test cannot run here (then the
 * binary exits 77, which ctest counts as skipped), or another non-zero value to fail the binary
 * (exit 1, after the counts line) without running any case.
 *
 * A case whose size buys run time and no coverage under a sanitizer (a 32 GiB shape counted row
 * by row, an 8 MiB graph hashed: the same code as a smaller case of the same test, five to eight
 * times slower under ASan) starts with `if (test_plain_only("what")) return;`: a sanitizer build
 * (TEST_SANITIZED) skips it with a line saying so, the plain build runs it. This keeps `make test`
 * within its time on CI's two cores.
 *
 * A main that does not use the table (`int main(void) { ...; return test_finish(); }`) works as
 * before.
 *
 * Checks: CHECK(cond) prints the expression; the CHECK_EQ_* forms also print the two values
 * compared, "FAIL file:line: a == b (got X, expected Y)", the first argument being the value
 * found and the second the one expected. Every check returns whether it held, so
 * `if (CHECK(p != NULL)) use(p);` works. Only the first 50 failures are printed.
 */
#ifndef CUZK_TESTS_TEST_H
#define CUZK_TESTS_TEST_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/err.h"

static unsigned long test_passed_count, test_failed_count;

/* Counts one check; returns whether its failure should be printed (the first 50 only). */
static inline int test_count(int ok) {
    if (ok) {
        test_passed_count++;
        return 0;
    }
    return test_failed_count++ < 50;
}

/* Records one check; prints the failing expression. */
static inline int test_check(int ok, const char *expr, const char *file, int line) {
    if (test_count(ok))
        fprintf(stderr, "FAIL %s:%d: %s\n", file, line, expr);
    return ok;
}

/* got and want as long long (a bijection for 64-bit integers, so equality is unchanged); each is
 * printed as unsigned when its type is. */
static inline int test_check_i64(long long got, long long want, int got_u, int want_u,
                                 const char *a, const char *b, const char *file, int line) {
    int ok = got == want;
    if (test_count(ok)) {
        char g[24], w[24];
        snprintf(g, sizeof g, got_u ? "%llu" : "%lld", got);
        snprintf(w, sizeof w, want_u ? "%llu" : "%lld", want);
        fprintf(stderr, "FAIL %s:%d: %s == %s (got %s, expected %s)\n", file, line, a, b, g, w);
    }
    return ok;
}

static inline int test_check_u64(uint64_t got, uint64_t want, const char *a, const char *b,
                                 const char *file, int line) {
    int ok = got == want;
    if (test_count(ok))
        fprintf(stderr,
                "FAIL %s:%d: %s == %s (got %" PRIu64 " = 0x%" PRIx64 ", expected %" PRIu64
                " = 0x%" PRIx64 ")\n",
                file, line, a, b, got, got, want, want);
    return ok;
}

static inline int test_check_size(size_t got, size_t want, const char *a, const char *b,
                                  const char *file, int line) {
    int ok = got == want;
    if (test_count(ok))
        fprintf(stderr, "FAIL %s:%d: %s == %s (got %zu, expected %zu)\n", file, line, a, b, got,
                want);
    return ok;
}

/* NULL equals only NULL. */
static inline int test_check_str(const char *got, const char *want, const char *a, const char *b,
                                 const char *file, int line) {
    int ok = got == NULL || want == NULL ? got == want : strcmp(got, want) == 0;
    if (test_count(ok))
        fprintf(stderr, "FAIL %s:%d: %s == %s (got \"%s\", expected \"%s\")\n", file, line, a, b,
                got ? got : "(null)", want ? want : "(null)");
    return ok;
}

/* Prints up to 16 bytes from the first difference, both sides. */
static inline int test_check_mem(const void *got, const void *want, size_t n, const char *a,
                                 const char *b, const char *file, int line) {
    const unsigned char *g = (const unsigned char *)got, *w = (const unsigned char *)want;
    size_t off = 0;
    while (off < n && g[off] == w[off])
        off++;
    int ok = off == n;
    if (test_count(ok)) {
        size_t end = n - off > 16 ? off + 16 : n;
        fprintf(stderr, "FAIL %s:%d: %s == %s (%zu bytes; first difference at offset %zu: got",
                file, line, a, b, n, off);
        for (size_t i = off; i < end; i++)
            fprintf(stderr, " %02x", g[i]);
        fprintf(stderr, ", expected");
        for (size_t i = off; i < end; i++)
            fprintf(stderr, " %02x", w[i]);
        fprintf(stderr, "%s)\n", end < n ? " ..." : "");
    }
    return ok;
}

static inline int test_check_err(int got, int want, const char *a, const char *b, const char *file,
                                 int line) {
    int ok = got == want;
    if (test_count(ok))
        fprintf(stderr, "FAIL %s:%d: %s == %s (got %s (%d), expected %s (%d))\n", file, line, a, b,
                cz_err_name(got), got, cz_err_name(want), want);
    return ok;
}

/* Whether x has a floating type; whether integer x has an unsigned type (once promoted).
 * (clang-format would take _Generic's associations for labels.) */
/* clang-format off */
#define TEST_FLOAT(x)    _Generic((x), float: 1, double: 1, long double: 1, default: 0)
#define TEST_UNSIGNED(x) _Generic((x) + 0, unsigned: 1, unsigned long: 1, unsigned long long: 1, default: 0)
/* clang-format on */
/* A compile error unless x is an integer (or enum): a pointer cannot be multiplied, and a
 * floating value would be truncated by the integer checks. x is not evaluated. */
#define TEST_INTEGER(x) (void)(sizeof(0 * (x)) + sizeof(char[1 - 2 * TEST_FLOAT(x)]))

#define CHECK(cond) test_check(!!(cond), #cond, __FILE__, __LINE__)
/* Integers of any type up to 64 bits, equal as a == b would find them; unsigned ones print as
 * unsigned. */
#define CHECK_EQ_INT(a, b)                                                                         \
    (TEST_INTEGER(a), TEST_INTEGER(b),                                                             \
     test_check_i64((long long)(a), (long long)(b), TEST_UNSIGNED(a), TEST_UNSIGNED(b), #a, #b,    \
                    __FILE__, __LINE__))
/* Unsigned integers, compared as uint64_t (printed in decimal and hex). */
#define CHECK_EQ_U64(a, b)                                                                         \
    (TEST_INTEGER(a), TEST_INTEGER(b),                                                             \
     test_check_u64((uint64_t)(a), (uint64_t)(b), #a, #b, __FILE__, __LINE__))
/* Sizes and counts, compared as size_t. */
#define CHECK_EQ_SIZE(a, b)                                                                        \
    (TEST_INTEGER(a), TEST_INTEGER(b),                                                             \
     test_check_size((size_t)(a), (size_t)(b), #a, #b, __FILE__, __LINE__))
/* Terminated strings (strcmp); NULL equals only NULL. */
#define CHECK_EQ_STR(a, b) test_check_str((a), (b), #a, #b, __FILE__, __LINE__)
/* n bytes (memcmp); a failure prints the offset and bytes of the first difference. */
#define CHECK_EQ_MEM(a, b, n) test_check_mem((a), (b), (n), #a, #b, __FILE__, __LINE__)
/* A cz error code (CZ_OK, CZ_E...); a failure prints both codes' names. */
#define CHECK_ERR(expr, code) test_check_err((expr), (code), #expr, #code, __FILE__, __LINE__)

/* Exit status for a test that cannot run here (no GPU, no node): ctest counts it as skipped. */
#define TEST_SKIP 77

static inline int test_finish(void) {
    printf("%lu passed, %lu failed\n", test_passed_count, test_failed_count);
    return test_failed_count == 0 ? 0 : 1;
}

/* One named case of a test binary. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TEST_SANITIZED 1
#else
#define TEST_SANITIZED 0
#endif

/* 1 (after a line naming what is skipped) in a sanitizer build, 0 in the plain one. */
static inline int test_plain_only(const char *what) {
    if (TEST_SANITIZED)
        printf("skipped under a sanitizer (the plain build runs it): %s\n", what);
    return TEST_SANITIZED;
}

typedef struct test_case {
    const char *name;
    void (*fn)(void);
} test_case;

/* Runs the cases the arguments select (see the top of this file) between setup and teardown
 * (either may be NULL); returns main's exit status. */
/* Hex string to bytes (two digits per byte); the byte count, or -1 for an odd length, a bad
 * digit or more than cap bytes. */
static inline int test_unhex(uint8_t *out, size_t cap, const char *s) {
    size_t n = strlen(s);
    if (n % 2 != 0 || n / 2 > cap)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (uint8_t)v;
    }
    return (int)(n / 2);
}

/* A watchdog for a call that must not block (a FIFO opened without O_NONBLOCK): after seconds,
 * "FAIL: <what> blocked" on stderr and exit 1 instead of a hung test; 0 disarms it. what must
 * outlive the watchdog. */
static const char *test_watchdog_what;
static inline void test_watchdog_fire(int sig) {
    (void)sig;
    const char *w = test_watchdog_what != NULL ? test_watchdog_what : "a call";
    if (write(2, "FAIL: ", 6) < 0 || write(2, w, strlen(w)) < 0 || write(2, " blocked\n", 9) < 0)
        _exit(1);
    _exit(1);
}
static inline void test_watchdog(unsigned seconds, const char *what) {
    test_watchdog_what = what;
    signal(SIGALRM, test_watchdog_fire);
    alarm(seconds);
}

/* A scratch directory for a test's files: tmpl is a mkdtemp template ("/tmp/cuzk-x-XXXXXX"),
 * made in place; test_tmpdir_remove deletes it with everything in it. 0 or -1. */
static inline int test_tmpdir(char *tmpl) {
    return mkdtemp(tmpl) != NULL ? 0 : -1;
}

static inline void test_tmpdir_remove(const char *dir) {
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

static inline int test_main_fixture(int argc, char **argv, const test_case *cases, size_t ncases,
                                    int (*setup)(void), void (*teardown)(void)) {
    /* selected[i]: case i runs; none named means all. */
    unsigned char *selected = (unsigned char *)calloc(ncases ? ncases : 1, 1);
    int named = 0, rc = 0;
    if (selected == NULL)
        return 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            for (size_t c = 0; c < ncases; c++)
                printf("%s\n", cases[c].name);
            free(selected);
            return 0;
        }
        if (strcmp(argv[i], "--case") != 0 || i + 1 == argc) {
            if (strcmp(argv[i], "--case") == 0)
                fprintf(stderr, "%s: --case needs a name\n", argv[0]);
            else
                fprintf(stderr, "%s: unknown argument \"%s\"\n", argv[0], argv[i]);
            fprintf(stderr, "usage: %s [--list | --case NAME ...]\n", argv[0]);
            free(selected);
            return 2;
        }
        const char *name = argv[++i];
        size_t c = 0;
        while (c < ncases && strcmp(cases[c].name, name) != 0)
            c++;
        if (c == ncases) {
            fprintf(stderr, "%s: no case named \"%s\" (--list shows them)\n", argv[0], name);
            free(selected);
            return 2;
        }
        selected[c] = 1;
        named = 1;
    }
    if (setup != NULL && (rc = setup()) != 0) {
        free(selected);
        if (rc == TEST_SKIP)
            return rc;
        fprintf(stderr, "%s: set-up failed\n", argv[0]);
        test_finish();
        return 1;
    }
    for (size_t c = 0; c < ncases; c++) {
        if (named && !selected[c])
            continue;
        unsigned long failed = test_failed_count;
        cases[c].fn();
        if (test_failed_count != failed)
            fprintf(stderr, "case %s: %lu failed (rerun: --case %s)\n", cases[c].name,
                    test_failed_count - failed, cases[c].name);
    }
    if (teardown != NULL)
        teardown();
    free(selected);
    return test_finish();
}

static inline int test_main(int argc, char **argv, const test_case *cases, size_t ncases) {
    return test_main_fixture(argc, argv, cases, ncases, NULL, NULL);
}

/* The number of elements of an array (of cases). */
#define TEST_COUNT(a) (sizeof(a) / sizeof((a)[0]))

#endif
