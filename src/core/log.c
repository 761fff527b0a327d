/*
 * Logging (include/cuzk/log.h).
 *
 * Design: the level is one int read with relaxed atomics (the macros read it on every call; a
 * stale read only means one line more or less around a level change). A line is formatted into a
 * stack buffer -- or, when it is longer, a heap buffer of the exact size -- and written with one
 * fwrite + fflush while holding out_lock, which protects the output pointer and keeps lines whole
 * even on a FILE* that other code also writes to unlocked. Costs: clock_gettime, gmtime_r, two
 * snprintf and a locked write per line; nothing at all for a disabled level.
 */
#include "cuzk/log.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/err.h"

int cz__log_level = CZ_LOG_LEVEL_INFO;

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *out_file; /* NULL means stderr; protected by out_lock */

static const char *const level_names[] = {"error", "warn", "info", "debug", "trace"};
static const char *const level_tags[] = {"ERROR", "WARN ", "INFO ", "DEBUG", "TRACE"};
#define NLEVELS (sizeof level_names / sizeof level_names[0])

void cz_log_set_level(cz_log_level level) {
    int l = (int)level;
    if (l < CZ_LOG_LEVEL_ERROR)
        l = CZ_LOG_LEVEL_ERROR;
    if (l > CZ_LOG_LEVEL_TRACE)
        l = CZ_LOG_LEVEL_TRACE;
    __atomic_store_n(&cz__log_level, l, __ATOMIC_RELAXED);
}

cz_log_level cz_log_get_level(void) {
    return (cz_log_level)__atomic_load_n(&cz__log_level, __ATOMIC_RELAXED);
}

const char *cz_log_level_name(cz_log_level level) {
    if ((int)level < 0 || (size_t)level >= NLEVELS)
        return "?";
    return level_names[level];
}

/* strcmp ignoring ASCII case (strcasecmp would depend on the locale). */
static int name_eq(const char *a, const char *b) {
    for (; *a != '\0' && *b != '\0'; a++, b++) {
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    }
    return *a == *b;
}

int cz_log_level_parse(cz_log_level *level, const char *name) {
    if (name == NULL)
        return CZ_EINVAL;
    for (size_t i = 0; i < NLEVELS; i++) {
        if (name_eq(name, level_names[i])) {
            *level = (cz_log_level)i;
            return CZ_OK;
        }
    }
    if (name_eq(name, "warning")) {
        *level = CZ_LOG_LEVEL_WARN;
        return CZ_OK;
    }
    return CZ_EINVAL;
}

int cz_log_set_level_by_name(const char *name) {
    cz_log_level level;
    int rc = cz_log_level_parse(&level, name);
    if (rc == CZ_OK)
        cz_log_set_level(level);
    return rc;
}

FILE *cz_log_set_output(FILE *out) {
    pthread_mutex_lock(&out_lock);
    FILE *prev = out_file != NULL ? out_file : stderr;
    out_file = out;
    pthread_mutex_unlock(&out_lock);
    return prev;
}

/* Writes "YYYY-MM-DDTHH:MM:SS.mmmZ LEVEL " into buf (at least 64 bytes); returns its length. */
static size_t format_prefix(char *buf, size_t size, cz_log_level level) {
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
    const char *tag = (int)level >= 0 && (size_t)level < NLEVELS ? level_tags[level] : "?    ";
    int m = snprintf(buf + n, size - n, ".%03dZ %s ", (int)(ts.tv_nsec / 1000000), tag);
    return n + (size_t)m;
}

size_t cz_log_escape(char *dst, size_t cap, const char *src, size_t n) {
    static const char hex[] = "0123456789abcdef";
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)src[i];
        char e[4];
        size_t k = 0;
        if (c >= 0x20 && c != 0x7f) {
            e[k++] = (char)c;
        } else {
            e[k++] = '\\';
            if (c == '\n')
                e[k++] = 'n';
            else if (c == '\r')
                e[k++] = 'r';
            else if (c == '\t')
                e[k++] = 't';
            else {
                e[k++] = 'x';
                e[k++] = hex[c >> 4];
                e[k++] = hex[c & 15];
            }
        }
        for (size_t j = 0; j < k; j++, out++)
            if (out + 1 < cap)
                dst[out] = e[j];
    }
    if (cap > 0)
        dst[out < cap ? out : cap - 1] = '\0';
    return out;
}

/* Whether any of the n bytes at s is one that cz_log_escape rewrites. */
static int needs_escape(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return 1;
    return 0;
}

void cz_log_write(cz_log_level level, const char *fmt, ...) {
    char stack[1024];
    char *line = stack;
    size_t prefix = format_prefix(stack, sizeof stack, level);

    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(stack + prefix, sizeof stack - prefix, fmt, ap);
    va_end(ap);
    if (len < 0) {
        /* An encoding error in a %ls argument: log the prefix alone. */
        len = 0;
        stack[prefix] = '\0';
    }

    /* Room for the message, a newline and the terminator. */
    size_t need = prefix + (size_t)len + 2;
    if (need > sizeof stack) {
        line = malloc(need);
        if (line == NULL) {
            /* Out of memory: write the truncated line rather than nothing. */
            line = stack;
            len = (int)(sizeof stack - prefix - 2);
            stack[prefix + (size_t)len] = '\0';
        } else {
            memcpy(line, stack, prefix);
            va_start(ap, fmt);
            vsnprintf(line + prefix, need - prefix, fmt, ap);
            va_end(ap);
        }
    }
    size_t n = prefix + (size_t)len;
    while (n > prefix && line[n - 1] == '\n')
        n--;
    if (needs_escape(line + prefix, n - prefix)) {
        /* A control character (a newline in a client's job id) would forge or break a line: the
         * message is written escaped, always as one line. */
        size_t m = cz_log_escape(NULL, 0, line + prefix, n - prefix);
        char *esc = malloc(prefix + m + 2);
        if (esc != NULL) {
            memcpy(esc, line, prefix);
            cz_log_escape(esc + prefix, m + 1, line + prefix, n - prefix);
            if (line != stack)
                free(line);
            line = esc;
            n = prefix + m;
        } else {
            for (size_t i = prefix; i < n; i++) /* out of memory: blank them rather than split */
                if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
                    line[i] = ' ';
        }
    }
    line[n++] = '\n';

    pthread_mutex_lock(&out_lock);
    FILE *out = out_file != NULL ? out_file : stderr;
    fwrite(line, 1, n, out);
    fflush(out);
    pthread_mutex_unlock(&out_lock);

    if (line != stack)
        free(line);
}
