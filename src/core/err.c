/*
 * Error names, texts and the cz_errinfo helpers. The table lives in include/cuzk/err.h.
 */
#include "cuzk/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cz_err_name(int code) {
    switch (code) {
#define CZ_ERR_NAME(name, value, text)                                                             \
    case value:                                                                                    \
        return #name;
        CZ_ERR_TABLE(CZ_ERR_NAME)
#undef CZ_ERR_NAME
    default:
        return "CZ_E?";
    }
}

const char *cz_strerror(int code) {
    switch (code) {
#define CZ_ERR_TEXT(name, value, text)                                                             \
    case value:                                                                                    \
        return text;
        CZ_ERR_TABLE(CZ_ERR_TEXT)
#undef CZ_ERR_TEXT
    default:
        return "unknown error";
    }
}

void cz_errinfo_clear(cz_errinfo *ei) {
    if (ei == NULL)
        return;
    ei->code = CZ_OK;
    ei->msg[0] = '\0';
}

int cz_fail(cz_errinfo *ei, int code, const char *fmt, ...) {
    if (ei == NULL)
        return code;
    char buf[CZ_ERRINFO_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (ei->code != CZ_OK && ei->msg[0] != '\0') {
        /* Wrap the inner message: "outer: inner". */
        char joined[2 * CZ_ERRINFO_MSG_MAX + 2];
        snprintf(joined, sizeof joined, "%s: %s", buf, ei->msg);
        memcpy(ei->msg, joined, sizeof ei->msg - 1);
        ei->msg[sizeof ei->msg - 1] = '\0';
    } else {
        memcpy(ei->msg, buf, sizeof ei->msg);
    }
    ei->code = code;
    return code;
}

void cz__assert_fail(const char *expr, const char *file, int line) {
    fprintf(stderr, "cuzk: assertion failed: %s (%s:%d)\n", expr, file, line);
    fflush(stderr);
    abort();
}
