/*
 * A minimal test harness. A test binary counts its checks and ends with the line
 * "N passed, N failed" (what CI reads); main returns non-zero when anything failed.
 *
 *   int main(void) { CHECK(1 + 1 == 2); CHECK_EQ_MEM(a, b, 32); return test_finish(); }
 */
#ifndef CUZK_TESTS_TEST_H
#define CUZK_TESTS_TEST_H

#include <stdio.h>
#include <string.h>

static unsigned long test_passed_count, test_failed_count;

/* Records one check; prints the failing expression (the first 50 failures only). */
static inline int test_check(int ok, const char *expr, const char *file, int line) {
    if (ok) {
        test_passed_count++;
    } else {
        if (test_failed_count < 50)
            fprintf(stderr, "FAIL %s:%d: %s\n", file, line, expr);
        test_failed_count++;
    }
    return ok;
}

#define CHECK(cond) test_check(!!(cond), #cond, __FILE__, __LINE__)
#define CHECK_EQ_MEM(a, b, n)                                                                      \
    test_check(memcmp((a), (b), (n)) == 0, #a " == " #b, __FILE__, __LINE__)
#define CHECK_ERR(expr, code) test_check((expr) == (code), #expr " == " #code, __FILE__, __LINE__)

/* Exit status for a test that cannot run here (no GPU, no node): ctest counts it as skipped. */
#define TEST_SKIP 77

static inline int test_finish(void) {
    printf("%lu passed, %lu failed\n", test_passed_count, test_failed_count);
    return test_failed_count == 0 ? 0 : 1;
}

#endif
