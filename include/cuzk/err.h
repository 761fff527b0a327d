/*
 * cuzk error codes and error context.
 *
 * Every error is a negative number; CZ_OK is 0. One X-macro table below produces the enum,
 * cz_err_name() and cz_strerror(), so a code, its name and its text cannot drift apart.
 *
 * Functions that can fail on user input return a cz_err and, when the caller passes a
 * cz_errinfo, fill it with a message that names what is wrong and where. The caller owns the
 * cz_errinfo; a NULL pointer means "code only".
 */
#ifndef CUZK_ERR_H
#define CUZK_ERR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* X(name, value, text) */
#define CZ_ERR_TABLE(X)                                                                            \
    X(CZ_OK, 0, "success")                                                                         \
    X(CZ_EINVAL, -1, "invalid argument")                                                           \
    X(CZ_ENOMEM, -2, "out of memory")                                                              \
    X(CZ_EIO, -3, "input/output error")                                                            \
    X(CZ_EFORMAT, -4, "malformed input")                                                           \
    X(CZ_ERANGE, -5, "value out of range")                                                         \
    X(CZ_ENONCANON, -6, "non-canonical field element")                                             \
    X(CZ_ENOTONCURVE, -7, "point is not on the curve")                                             \
    X(CZ_ENOTINSUBGROUP, -8, "point is not in the prime-order subgroup")                           \
    X(CZ_EFLAGS, -9, "invalid encoding flags")                                                     \
    X(CZ_ENOSQRT, -10, "no square root exists")                                                    \
    X(CZ_EUNSUPPORTED, -11, "unsupported")                                                         \
    X(CZ_ECURVE, -12, "wrong curve")                                                               \
    X(CZ_EVERIFY, -13, "verification failed")                                                      \
    X(CZ_ECANCELED, -14, "canceled")                                                               \
    X(CZ_ENOTFOUND, -15, "not found")                                                              \
    X(CZ_EEXIST, -16, "already exists")                                                            \
    X(CZ_EBUSY, -17, "resource busy")                                                              \
    X(CZ_ETIMEDOUT, -18, "timed out")                                                              \
    X(CZ_EGPU, -19, "GPU error")                                                                   \
    X(CZ_ENOGPU, -20, "no GPU available")                                                          \
    X(CZ_EINTERNAL, -21, "internal error")                                                         \
    X(CZ_EDEVICE, -22, "GPU failed")

typedef enum {
#define CZ_ERR_ENUM(name, value, text) name = value,
    CZ_ERR_TABLE(CZ_ERR_ENUM)
#undef CZ_ERR_ENUM
} cz_err;

/* The symbolic name of a code ("CZ_EFORMAT"), or "CZ_E?" for an unknown one. */
const char *cz_err_name(int code);
/* A short English text for a code. */
const char *cz_strerror(int code);

#define CZ_ERRINFO_MSG_MAX 512

typedef struct cz_errinfo {
    int code;
    char msg[CZ_ERRINFO_MSG_MAX];
} cz_errinfo;

/* Resets ei (may be NULL) to CZ_OK with an empty message. */
void cz_errinfo_clear(cz_errinfo *ei);

/*
 * Records code and a printf-style message in ei (may be NULL) and returns code, so that
 * `return cz_fail(ei, CZ_EFORMAT, "zkey: section %u ends past end of file", id);` reads as one
 * step. If ei already holds an error, the new message is prefixed to it ("outer: inner").
 */
int cz_fail(cz_errinfo *ei, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Broken invariant: logs file:line and aborts. Always on; never used for user input. */
#define CZ_ASSERT(cond)                                                                            \
    do {                                                                                           \
        if (!(cond))                                                                               \
            cz__assert_fail(#cond, __FILE__, __LINE__);                                            \
    } while (0)

void cz__assert_fail(const char *expr, const char *file, int line) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif

#endif
