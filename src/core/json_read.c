/*
 * The JSON pull reader (json_read.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/hex.h"
#include "core/json_read.h"

void cz__jr_init(cz__jr *jr, const uint8_t *data, size_t len, int base64) {
    memset(jr, 0, sizeof *jr);
    jr->p = data;
    jr->end = data + len;
    jr->base64 = base64;
}

int cz__jr_fail(cz__jr *jr, const char *fmt, ...) {
    if (jr->rc != CZ_OK)
        return -1;
    va_list ap;
    int n = snprintf(jr->msg, sizeof jr->msg, "offset %llu: ", (unsigned long long)jr->off);
    va_start(ap, fmt);
    vsnprintf(jr->msg + n, sizeof jr->msg - (size_t)n, fmt, ap);
    va_end(ap);
    jr->rc = CZ_EFORMAT;
    return -1;
}

int cz__jr_status(const cz__jr *jr, const char *what, cz_errinfo *ei) {
    if (jr->rc == CZ_OK)
        return CZ_OK;
    return cz_fail(ei, jr->rc, "%s: json: %s", what, jr->msg);
}

/* ---- the source ---- */

/* One base64 symbol: 0..63, 64 for '=', -1 not base64, -2 the end of the text. */
static int b64_symbol(cz__jr *jr) {
    if (jr->p == jr->end)
        return -2;
    int c = *jr->p++;
    if (c == '\\' && jr->p < jr->end && *jr->p == '/') {
        jr->p++;
        c = '/';
    }
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : c == '=' ? 64 : -1;
}

/* Decodes the next block of base64 into buf; 0 at the end of the text, -1 on a fault. */
static int b64_refill(cz__jr *jr) {
    jr->pos = jr->len = 0;
    while (jr->len + 3 <= sizeof jr->buf) {
        int s[4], n = 0;
        while (n < 4 && (s[n] = b64_symbol(jr)) >= 0 && s[n] < 64)
            n++;
        if (n < 4 && s[n] == -1)
            return cz__jr_fail(jr, "base64: a character outside the alphabet");
        if (n == 1)
            return cz__jr_fail(jr, "base64: the text ends inside a group");
        if (n >= 2)
            jr->buf[jr->len++] = (uint8_t)(s[0] << 2 | s[1] >> 4);
        if (n >= 3)
            jr->buf[jr->len++] = (uint8_t)(s[1] << 4 | s[2] >> 2);
        if (n == 4) {
            jr->buf[jr->len++] = (uint8_t)(s[2] << 6 | s[3]);
            continue;
        }
        /* n < 4: padding or the end; what follows may only be the rest of the padding */
        if (s[n] == 64) {
            int pad = 1;
            while (jr->p < jr->end && *jr->p == '=')
                jr->p++, pad++;
            if (n + pad != 4 || jr->p != jr->end)
                return cz__jr_fail(jr, "base64: misplaced padding");
        }
        jr->end = jr->p; /* nothing is left */
        break;
    }
    return jr->len > 0;
}

/* The next byte of the document without taking it, or -1 at its end. */
static inline int peek(cz__jr *jr) {
    if (!jr->base64)
        return jr->p < jr->end ? *jr->p : -1;
    if (jr->pos == jr->len && (jr->rc != CZ_OK || b64_refill(jr) <= 0))
        return -1;
    return jr->buf[jr->pos];
}

static inline void take(cz__jr *jr) {
    if (jr->base64)
        jr->pos++;
    else
        jr->p++;
    jr->off++;
}

static inline int skip_ws(cz__jr *jr) {
    int c;
    while ((c = peek(jr)) == ' ' || c == '\n' || c == '\r' || c == '\t')
        take(jr);
    return c;
}

static int expect(cz__jr *jr, int want, const char *what) {
    if (jr->rc != CZ_OK)
        return -1;
    if (skip_ws(jr) != want)
        return cz__jr_fail(jr, "expected %s", what);
    take(jr);
    return 0;
}

/* ---- containers ---- */

static int open_container(cz__jr *jr, int c, const char *what) {
    if (expect(jr, c, what) != 0)
        return -1;
    if (jr->depth == CZ__JR_MAX_DEPTH)
        return cz__jr_fail(jr, "nested deeper than %d levels", CZ__JR_MAX_DEPTH);
    jr->first[jr->depth++] = 1;
    return 0;
}

/* Before an element of the open container that closes with close: 1 (an element follows, its
 * separator taken), 0 (closed), -1. */
static int next_in(cz__jr *jr, int close) {
    if (jr->rc != CZ_OK)
        return -1;
    int c = skip_ws(jr);
    if (jr->depth == 0)
        return cz__jr_fail(jr, "no open object or array");
    if (c == close) {
        take(jr);
        jr->depth--;
        return 0;
    }
    if (!jr->first[jr->depth - 1]) {
        if (c != ',')
            return cz__jr_fail(jr, "expected ',' or '%c'", close);
        take(jr);
        if (skip_ws(jr) == close)
            return cz__jr_fail(jr, "a ',' before '%c'", close);
    }
    jr->first[jr->depth - 1] = 0;
    return 1;
}

int cz__jr_object(cz__jr *jr) {
    return open_container(jr, '{', "an object");
}

int cz__jr_array(cz__jr *jr) {
    return open_container(jr, '[', "an array");
}

int cz__jr_next(cz__jr *jr) {
    return next_in(jr, ']');
}

int cz__jr_member(cz__jr *jr, char *key, size_t cap) {
    int r = next_in(jr, '}');
    if (r != 1)
        return r;
    if (cz__jr_string(jr, key, cap) != 0 || expect(jr, ':', "':' after a key") != 0)
        return -1;
    return 1;
}

/* ---- values ---- */

int cz__jr_u64(cz__jr *jr, uint64_t *out, uint64_t max) {
    uint64_t v = 0;
    int c, ndig = 0;
    if (jr->rc != CZ_OK)
        return -1;
    c = skip_ws(jr);
    if (c < '0' || c > '9')
        return cz__jr_fail(jr, c == '-' ? "a negative number" : "expected an unsigned integer");
    while ((c = peek(jr)) >= '0' && c <= '9') {
        if (ndig++ == 1 && v == 0)
            return cz__jr_fail(jr, "a number with a leading zero");
        const uint64_t d = (uint64_t)(c - '0');
        if (d > max || v > (max - d) / 10) /* v·10 + d > max */
            return cz__jr_fail(jr, "a number above %llu", (unsigned long long)max);
        v = v * 10 + d;
        take(jr);
    }
    if (c == '.' || c == 'e' || c == 'E')
        return cz__jr_fail(jr, "a number that is not an integer");
    *out = v;
    return 0;
}

int cz__jr_bytes(cz__jr *jr, uint8_t *out, size_t n) {
    size_t i = 0;
    int r;
    if (cz__jr_array(jr) != 0)
        return -1;
    while ((r = cz__jr_next(jr)) == 1) {
        uint64_t v;
        if (i == n)
            return cz__jr_fail(jr, "more than %zu bytes", n);
        if (cz__jr_u64(jr, &v, 255) != 0)
            return -1;
        out[i++] = (uint8_t)v;
    }
    if (r == 0 && i != n)
        return cz__jr_fail(jr, "%zu bytes, not %zu", i, n);
    return r == 0 ? 0 : -1;
}

/* One escape after the backslash: its ASCII byte. */
static int read_escape(cz__jr *jr) {
    int c = peek(jr), v = 0;
    take(jr);
    switch (c) {
    case '"':
    case '\\':
    case '/':
        return c;
    case 'b':
        return '\b';
    case 'f':
        return '\f';
    case 'n':
        return '\n';
    case 'r':
        return '\r';
    case 't':
        return '\t';
    case 'u':
        for (int k = 0; k < 4; k++) {
            int d = cz__hex_digit(peek(jr));
            if (d < 0)
                return cz__jr_fail(jr, "a \\u escape without 4 hex digits");
            take(jr);
            v = v * 16 + d;
        }
        if (v == 0 || v > 0x7f)
            return cz__jr_fail(jr, "a \\u escape outside ASCII");
        return v;
    default:
        return cz__jr_fail(jr, "an unknown escape");
    }
}

int cz__jr_string(cz__jr *jr, char *out, size_t cap) {
    size_t n = 0;
    if (expect(jr, '"', "a string") != 0)
        return -1;
    for (;;) {
        int c = peek(jr);
        if (c < 0)
            return cz__jr_fail(jr, "the document ends inside a string");
        take(jr);
        if (c == '"')
            break;
        if (c < 0x20)
            return cz__jr_fail(jr, "a control character in a string");
        if (c == '\\' && (c = read_escape(jr)) < 0)
            return -1;
        if (n + 1 >= cap)
            return cz__jr_fail(jr, "a string longer than %zu bytes", cap - 1);
        out[n++] = (char)c;
    }
    out[n] = 0;
    return 0;
}

int cz__jr_string_span(cz__jr *jr, const uint8_t **s, size_t *n) {
    if (jr->base64)
        return cz__jr_fail(jr, "a string span of decoded text");
    if (expect(jr, '"', "a string") != 0)
        return -1;
    const uint8_t *start = jr->p;
    while (jr->p < jr->end && *jr->p != '"') {
        if (*jr->p < 0x20)
            return cz__jr_fail(jr, "a control character in a string");
        size_t step = *jr->p == '\\' && jr->end - jr->p > 1 ? 2 : 1;
        jr->p += step;
        jr->off += step;
    }
    if (jr->p == jr->end)
        return cz__jr_fail(jr, "the document ends inside a string");
    *s = start;
    *n = (size_t)(jr->p - start);
    take(jr);
    return 0;
}

static int literal(cz__jr *jr, const char *word) {
    if (jr->rc != CZ_OK)
        return -1;
    skip_ws(jr);
    for (const char *w = word; *w; w++) {
        if (peek(jr) != *w)
            return cz__jr_fail(jr, "expected %s", word);
        take(jr);
    }
    return 0;
}

int cz__jr_null(cz__jr *jr) {
    return literal(jr, "null");
}

/* A number of any form, skipped (a JSON number's characters; its syntax is not checked). */
static int skip_number(cz__jr *jr) {
    int c, n = 0;
    while ((c = peek(jr)) == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' ||
           (c >= '0' && c <= '9'))
        take(jr), n++;
    return n > 0 ? 0 : cz__jr_fail(jr, "expected a value");
}

int cz__jr_skip(cz__jr *jr) {
    int r;
    if (jr->rc != CZ_OK)
        return -1;
    switch (skip_ws(jr)) {
    case '{':
        if (cz__jr_object(jr) != 0)
            return -1;
        while (next_in(jr, '}') == 1) {
            /* the key, of any length */
            if (expect(jr, '"', "a key") != 0)
                return -1;
            for (int c; (c = peek(jr)) != '"'; take(jr)) {
                if (c < 0)
                    return cz__jr_fail(jr, "the document ends inside a key");
                if (c == '\\')
                    take(jr);
            }
            take(jr);
            if (expect(jr, ':', "':' after a key") != 0 || cz__jr_skip(jr) != 0)
                return -1;
        }
        return jr->rc == CZ_OK ? 0 : -1;
    case '[':
        if (cz__jr_array(jr) != 0)
            return -1;
        while ((r = cz__jr_next(jr)) == 1)
            if (cz__jr_skip(jr) != 0)
                return -1;
        return r == 0 ? 0 : -1;
    case '"':
        take(jr);
        for (int c; (c = peek(jr)) != '"'; take(jr)) {
            if (c < 0x20)
                return cz__jr_fail(jr, c < 0 ? "the document ends inside a string"
                                             : "a control character in a string");
            if (c == '\\')
                take(jr);
        }
        take(jr);
        return 0;
    case 't':
        return literal(jr, "true");
    case 'f':
        return literal(jr, "false");
    case 'n':
        return literal(jr, "null");
    default:
        return skip_number(jr);
    }
}

int cz__jr_end(cz__jr *jr) {
    if (jr->rc != CZ_OK)
        return -1;
    return skip_ws(jr) < 0 ? 0 : cz__jr_fail(jr, "text after the end of the document");
}
