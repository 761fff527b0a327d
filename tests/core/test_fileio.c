/* cz_file_read against stdio reading the same file byte by byte; errors name the path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static const test_case cases[] = {
    {"read", test_read},
    {"errors", test_errors},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
