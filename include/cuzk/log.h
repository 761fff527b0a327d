/*
 * cuzk logging: one line per message on stderr (or a FILE* of the caller's choice),
 *
 *   2026-11-29T19:10:00.123Z INFO  srs: loaded 12 GiB in 4.2 s
 *
 * that is an ISO-8601 UTC timestamp with milliseconds, the level padded to five columns, and the
 * message. Lines from several threads never interleave: each line is formatted into one buffer
 * and written with one locked fwrite.
 *
 * The level is a process-wide setting (default CZ_LOG_LEVEL_INFO). The CZ_LOG_* macros test it
 * before they evaluate their arguments, so a disabled CZ_LOG_DEBUG(...) in a loop costs one
 * relaxed load and a branch; the arguments are not evaluated at all.
 */
#ifndef CUZK_LOG_H
#define CUZK_LOG_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Levels, most severe first: a message is written when its level <= the current level. */
typedef enum {
    CZ_LOG_LEVEL_ERROR = 0,
    CZ_LOG_LEVEL_WARN = 1,
    CZ_LOG_LEVEL_INFO = 2,
    CZ_LOG_LEVEL_DEBUG = 3,
    CZ_LOG_LEVEL_TRACE = 4,
} cz_log_level;

/* Sets the level; values outside the enum are clamped to the nearest level. */
void cz_log_set_level(cz_log_level level);
cz_log_level cz_log_get_level(void);

/*
 * Parses "error", "warn" (or "warning"), "info", "debug", "trace", in any case. CZ_OK and *level
 * set, or CZ_EINVAL (NULL, empty or unknown name) with *level untouched.
 */
int cz_log_level_parse(cz_log_level *level, const char *name);
/* cz_log_level_parse + cz_log_set_level; CZ_EINVAL for an unknown name, the level unchanged. */
int cz_log_set_level_by_name(const char *name);
/* "error", "warn", "info", "debug", "trace"; "?" for a value outside the enum. */
const char *cz_log_level_name(cz_log_level level);

/*
 * Sends lines to out (NULL means stderr) and returns the previous output. The caller keeps
 * ownership of out and must not close it while it is the output.
 */
FILE *cz_log_set_output(FILE *out);

/* Writes one line at level, unconditionally of the level (the macros check it). A trailing
 * newline in the message is dropped; the line always ends with exactly one. Control characters
 * in the message (a newline in a client's job id or path) are written escaped as by
 * cz_log_escape, so a message is always one line and cannot forge another. */
void cz_log_write(cz_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Copies the n bytes at src into dst (cap bytes, NUL-terminated when cap > 0, truncated to fit)
 * with every control character (below 0x20, and 0x7f) escaped: "\n", "\r", "\t", else
 * "\xHH". Other bytes, backslashes and UTF-8 included, are copied as they are. Returns the
 * length of the whole escaped text (without the NUL), like snprintf; dst may be NULL when cap is 0.
 */
size_t cz_log_escape(char *dst, size_t cap, const char *src, size_t n);

/* The current level, read without a lock; exposed only for the macros below. */
extern int cz__log_level;

static inline int cz_log_enabled(cz_log_level level) {
    return (int)level <= __atomic_load_n(&cz__log_level, __ATOMIC_RELAXED);
}

#define CZ_LOG(level, ...)                                                                         \
    do {                                                                                           \
        if (cz_log_enabled(level))                                                                 \
            cz_log_write((level), __VA_ARGS__);                                                    \
    } while (0)

#define CZ_LOG_ERROR(...) CZ_LOG(CZ_LOG_LEVEL_ERROR, __VA_ARGS__)
#define CZ_LOG_WARN(...)  CZ_LOG(CZ_LOG_LEVEL_WARN, __VA_ARGS__)
#define CZ_LOG_INFO(...)  CZ_LOG(CZ_LOG_LEVEL_INFO, __VA_ARGS__)
#define CZ_LOG_DEBUG(...) CZ_LOG(CZ_LOG_LEVEL_DEBUG, __VA_ARGS__)
#define CZ_LOG_TRACE(...) CZ_LOG(CZ_LOG_LEVEL_TRACE, __VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif
