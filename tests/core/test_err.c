/*
 * Error codes and cz_errinfo: the X-macro table yields distinct names and texts, cz_fail formats,
 * nests ("outer: inner") and truncates long messages safely (ASan watches the buffers).
 */
#include <stdio.h>
#include <string.h>

#include "cuzk/err.h"
#include "test.h"

struct entry {
    int value;
    const char *name;
    const char *text;
};

static const struct entry table[] = {
#define ENTRY(name, value, text) {value, #name, text},
    CZ_ERR_TABLE(ENTRY)
#undef ENTRY
};
#define NCODES (sizeof table / sizeof table[0])

static void test_table(void) {
    CHECK(NCODES >= 2);
    CHECK_EQ_INT(CZ_OK, 0);
    for (size_t i = 0; i < NCODES; i++) {
        const struct entry *e = &table[i];
        /* Every code but CZ_OK is negative. */
        CHECK(i == 0 ? e->value == 0 : e->value < 0);
        /* Names and texts come from the table, not from a second copy. */
        CHECK_EQ_STR(cz_err_name(e->value), e->name);
        CHECK_EQ_STR(cz_strerror(e->value), e->text);
        CHECK(strlen(e->text) > 0);
        for (size_t j = 0; j < i; j++) {
            CHECK(e->value != table[j].value);
            CHECK(strcmp(cz_err_name(e->value), cz_err_name(table[j].value)) != 0);
            CHECK(strcmp(cz_strerror(e->value), cz_strerror(table[j].value)) != 0);
        }
    }
    /* Codes outside the table. */
    CHECK_EQ_STR(cz_err_name(1), "CZ_E?");
    CHECK_EQ_STR(cz_err_name(-100000), "CZ_E?");
    CHECK_EQ_STR(cz_strerror(-100000), "unknown error");
}

static void test_fail_formats(void) {
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK(ei.code == CZ_OK && ei.msg[0] == '\0');

    CHECK_ERR(cz_fail(&ei, CZ_EFORMAT, "zkey: section %u ends past %s", 7u, "EOF"), CZ_EFORMAT);
    CHECK_ERR(ei.code, CZ_EFORMAT);
    CHECK_EQ_STR(ei.msg, "zkey: section 7 ends past EOF");

    /* A second failure wraps the first. */
    CHECK_ERR(cz_fail(&ei, CZ_EIO, "loading %s", "a.zkey"), CZ_EIO);
    CHECK_ERR(ei.code, CZ_EIO);
    CHECK_EQ_STR(ei.msg, "loading a.zkey: zkey: section 7 ends past EOF");

    /* Three levels. */
    cz_fail(&ei, CZ_EINTERNAL, "job %d", 3);
    CHECK_EQ_STR(ei.msg, "job 3: loading a.zkey: zkey: section 7 ends past EOF");

    /* Clearing starts over. */
    cz_errinfo_clear(&ei);
    cz_fail(&ei, CZ_ERANGE, "x=%d", -1);
    CHECK_EQ_STR(ei.msg, "x=-1");

    /* An error code with an empty message is replaced, not wrapped. */
    cz_errinfo_clear(&ei);
    ei.code = CZ_EIO;
    cz_fail(&ei, CZ_EINVAL, "fresh");
    CHECK_EQ_STR(ei.msg, "fresh");

    /* NULL ei: the code comes back, nothing is written. */
    CHECK_ERR(cz_fail(NULL, CZ_ENOMEM, "nothing %d", 1), CZ_ENOMEM);
    cz_errinfo_clear(NULL);
}

static void test_truncation(void) {
    static char big[4 * CZ_ERRINFO_MSG_MAX];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';

    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    cz_fail(&ei, CZ_EFORMAT, "%s", big);
    CHECK_EQ_INT(strlen(ei.msg), CZ_ERRINFO_MSG_MAX - 1);
    CHECK(ei.msg[0] == 'a' && ei.msg[CZ_ERRINFO_MSG_MAX - 2] == 'a');

    /* Wrapping a full message: the outer text comes first, the result stays terminated. */
    cz_fail(&ei, CZ_EIO, "outer");
    CHECK_EQ_INT(strlen(ei.msg), CZ_ERRINFO_MSG_MAX - 1);
    CHECK(strncmp(ei.msg, "outer: aaa", 10) == 0);

    /* A long outer message over a long inner one. */
    memset(big, 'b', 3 * CZ_ERRINFO_MSG_MAX);
    cz_fail(&ei, CZ_EIO, "%s", big);
    CHECK_EQ_INT(strlen(ei.msg), CZ_ERRINFO_MSG_MAX - 1);
    CHECK(ei.msg[0] == 'b' && ei.msg[CZ_ERRINFO_MSG_MAX - 2] == 'b');

    /* A short inner message under a long outer one, many times: never grows past the buffer. */
    for (int i = 0; i < 100; i++)
        cz_fail(&ei, CZ_EIO, "level %d", i);
    CHECK_EQ_INT(strlen(ei.msg), CZ_ERRINFO_MSG_MAX - 1);
    CHECK(strncmp(ei.msg, "level 99: level 98: ", 20) == 0);
}

static const test_case cases[] = {
    {"table", test_table},
    {"fail_formats", test_fail_formats},
    {"truncation", test_truncation},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
