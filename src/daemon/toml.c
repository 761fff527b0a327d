/*
 * The strict TOML subset of toml.h: a one-pass recursive-descent parser over the whole text.
 *
 * Design: the parser walks the text once, keeping the current line number for messages, and hands
 * each table header and each key-value pair to a callback as soon as it is read; it builds no
 * document tree. It remembers the table names seen (to refuse a table opened twice) and the keys
 * of the current table (to refuse a key given twice); both lists are tiny, so they are linear
 * arrays. A value (strings, arrays) is allocated while it is read and freed right after the
 * callback. Anything outside the subset is an error rather than a guess: a configuration file
 * that is not understood must stop the daemon, not half-apply.
 *
 * Costs: linear in the text; a config file is a few KiB.
 */
#include "core/hex.h"
#include "daemon/toml.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY_MAX         128
#define ARRAY_DEPTH_MAX 8

typedef struct parser {
    const char *p, *end;
    const char *file;
    int line;
    int show_line; /* 0: parsing a lone value (cz__toml_parse_value), no line in messages */
    cz_errinfo *ei;
} parser;

typedef struct strlist {
    char **v;
    size_t n, cap;
} strlist;

__attribute__((format(printf, 2, 3))) static int perr(parser *ps, const char *fmt, ...) {
    char msg[CZ_ERRINFO_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (ps->show_line)
        return cz_fail(ps->ei, CZ_EFORMAT, "%s:%d: %s", ps->file, ps->line, msg);
    return cz_fail(ps->ei, CZ_EFORMAT, "%s: %s", ps->file, msg);
}

const char *cz__toml_kind_name(cz__toml_kind k) {
    switch (k) {
    case CZ_TOML_STRING:
        return "string";
    case CZ_TOML_INT:
        return "integer";
    case CZ_TOML_FLOAT:
        return "float";
    case CZ_TOML_BOOL:
        return "boolean";
    case CZ_TOML_ARRAY:
        return "array";
    }
    return "?";
}

void cz__toml_value_free(cz__toml_value *v) {
    if (!v)
        return;
    if (v->kind == CZ_TOML_STRING) {
        free(v->u.s);
        v->u.s = NULL;
    } else if (v->kind == CZ_TOML_ARRAY) {
        for (size_t i = 0; i < v->u.a.n; i++)
            cz__toml_value_free(&v->u.a.items[i]);
        free(v->u.a.items);
        v->u.a.items = NULL;
        v->u.a.n = 0;
    }
}

static int strlist_has(const strlist *l, const char *s) {
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return 1;
    return 0;
}

static int strlist_add(strlist *l, const char *s) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return CZ_ENOMEM;
        l->v = v;
        l->cap = cap;
    }
    if (!(l->v[l->n] = strdup(s)))
        return CZ_ENOMEM;
    l->n++;
    return CZ_OK;
}

static void strlist_clear(strlist *l) {
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    l->n = 0;
}

static void strlist_free(strlist *l) {
    strlist_clear(l);
    free(l->v);
    l->v = NULL;
    l->cap = 0;
}

static int is_bare(int c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

static int is_ctrl(unsigned char c) {
    return (c < 0x20 && c != '\t') || c == 0x7f;
}

static void skip_blanks(parser *ps) {
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t'))
        ps->p++;
}

/* At '#': skips the comment up to (not including) the end of the line. */
static int skip_comment(parser *ps) {
    for (ps->p++; ps->p < ps->end && *ps->p != '\n'; ps->p++) {
        if (*ps->p == '\r' && ps->p + 1 < ps->end && ps->p[1] == '\n')
            continue;
        if (is_ctrl((unsigned char)*ps->p))
            return perr(ps, "control character in comment");
    }
    return CZ_OK;
}

/* Consumes a line end ("\n" or "\r\n") if there is one; 1 if it did. */
static int eat_newline(parser *ps) {
    if (ps->p < ps->end && *ps->p == '\n') {
        ps->p++;
        ps->line++;
        return 1;
    }
    if (ps->end - ps->p >= 2 && ps->p[0] == '\r' && ps->p[1] == '\n') {
        ps->p += 2;
        ps->line++;
        return 1;
    }
    return 0;
}

/* Blanks, an optional comment, then the end of the line (consumed) or of the text. */
static int expect_eol(parser *ps, const char *after) {
    skip_blanks(ps);
    if (ps->p < ps->end && *ps->p == '#') {
        int rc = skip_comment(ps);
        if (rc)
            return rc;
    }
    if (ps->p == ps->end || eat_newline(ps))
        return CZ_OK;
    return perr(ps, "unexpected text after %s", after);
}

/* Inside an array: blanks, line ends and comments. */
static int skip_array_space(parser *ps) {
    for (;;) {
        skip_blanks(ps);
        if (ps->p < ps->end && *ps->p == '#') {
            int rc = skip_comment(ps);
            if (rc)
                return rc;
        }
        if (!eat_newline(ps))
            return CZ_OK;
    }
}

static size_t put_utf8(char *o, uint32_t cp) {
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/*
 * At the opening quote of a basic ("...") or literal ('...') string on one line. The decoded
 * text is never longer than the source (an escape of n characters yields at most n bytes), so
 * one allocation of the rest of the line suffices.
 */
static int parse_string(parser *ps, cz__toml_value *v) {
    char quote = *ps->p;
    if (ps->end - ps->p >= 3 && ps->p[1] == quote && ps->p[2] == quote)
        return perr(ps, "multi-line strings are not supported");
    ps->p++;
    const char *nl = memchr(ps->p, '\n', (size_t)(ps->end - ps->p));
    size_t cap = (size_t)((nl ? nl : ps->end) - ps->p) + 1;
    char *out = malloc(cap), *o = out;
    if (!out)
        return CZ_ENOMEM;
    int rc = CZ_OK;
    for (;;) {
        if (ps->p == ps->end || *ps->p == '\n' ||
            (*ps->p == '\r' && ps->p + 1 < ps->end && ps->p[1] == '\n')) {
            rc = perr(ps, "unterminated string");
            goto out;
        }
        unsigned char c = (unsigned char)*ps->p;
        if (c == (unsigned char)quote) {
            ps->p++;
            break;
        }
        if (is_ctrl(c)) {
            rc = perr(ps, "control character in string");
            goto out;
        }
        if (c != '\\' || quote == '\'') {
            *o++ = (char)c;
            ps->p++;
            continue;
        }
        /* An escape in a basic string. */
        char e = ps->p + 1 < ps->end ? ps->p[1] : '\0';
        ps->p += 2;
        switch (e) {
        case 'b':
            *o++ = '\b';
            break;
        case 't':
            *o++ = '\t';
            break;
        case 'n':
            *o++ = '\n';
            break;
        case 'f':
            *o++ = '\f';
            break;
        case 'r':
            *o++ = '\r';
            break;
        case '"':
            *o++ = '"';
            break;
        case '\\':
            *o++ = '\\';
            break;
        case 'u':
        case 'U': {
            int nd = e == 'u' ? 4 : 8;
            uint32_t cp = 0;
            for (int i = 0; i < nd; i++) {
                int h = ps->p < ps->end ? cz__hex_digit((unsigned char)*ps->p) : -1;
                if (h < 0) {
                    rc = perr(ps, "invalid \\%c escape in string: %d hex digits expected", e, nd);
                    goto out;
                }
                cp = cp << 4 | (uint32_t)h;
                ps->p++;
            }
            if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
                rc = perr(ps, "invalid \\%c escape in string: U+%X is not a scalar value", e,
                          (unsigned)cp);
                goto out;
            }
            o += put_utf8(o, cp);
            break;
        }
        default:
            if (e == '\0' || e == '\n' || e == '\r' || is_ctrl((unsigned char)e))
                rc = perr(ps, "invalid escape at the end of a string");
            else
                rc = perr(ps, "invalid escape '\\%c' in string", e);
            goto out;
        }
    }
    *o = '\0';
    v->kind = CZ_TOML_STRING;
    v->u.s = out;
    out = NULL;
out:
    free(out);
    return rc;
}

/* Digits with single underscores between them, from s; returns the end, or NULL when malformed
 * (no digit, leading/trailing/double underscore). */
static const char *scan_digits(const char *s, const char *end) {
    const char *start = s;
    while (s < end) {
        if (*s >= '0' && *s <= '9') {
            s++;
        } else if (*s == '_' && s > start && s[-1] != '_' && s + 1 < end && s[1] >= '0' &&
                   s[1] <= '9') {
            s++;
        } else {
            break;
        }
    }
    return s > start ? s : NULL;
}

static int parse_number(parser *ps, cz__toml_value *v) {
    const char *t = ps->p, *e = t;
    /* The token: everything up to a delimiter, so that "12abc" or a date is one bad token. */
    while (e < ps->end && (is_bare((unsigned char)*e) || *e == '+' || *e == '.' || *e == ':'))
        e++;
    int tl = (int)(e - t);
    const char *s = t;
    if (s < e && (*s == '+' || *s == '-'))
        s++;
    if ((e - s == 3 && (!memcmp(s, "inf", 3) || !memcmp(s, "nan", 3))))
        return perr(ps, "inf and nan are not supported");
    if (e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o' || s[1] == 'b'))
        return perr(ps, "hexadecimal, octal and binary integers are not supported");
    const char *ie = scan_digits(s, e);
    if (!ie)
        return perr(ps, "invalid value '%.*s'", tl, t);
    if (*s == '0' && ie - s > 1)
        return perr(ps, "invalid number '%.*s': leading zero", tl, t);
    const char *q = ie;
    int is_float = 0;
    if (q < e && *q == '.') {
        q = scan_digits(q + 1, e);
        if (!q)
            return perr(ps, "invalid number '%.*s'", tl, t);
        is_float = 1;
    }
    if (q < e && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < e && (*q == '+' || *q == '-'))
            q++;
        q = scan_digits(q, e);
        if (!q)
            return perr(ps, "invalid number '%.*s'", tl, t);
        is_float = 1;
    }
    if (q != e)
        return perr(ps, "invalid number '%.*s'", tl, t);
    char buf[128];
    size_t n = 0;
    for (const char *c = t; c < e; c++) {
        if (*c == '_')
            continue;
        if (n + 1 >= sizeof buf)
            return perr(ps, "number '%.*s' is too long", tl, t);
        buf[n++] = *c;
    }
    buf[n] = '\0';
    errno = 0;
    if (is_float) {
        char *endp;
        double d = strtod(buf, &endp);
        if (errno == ERANGE && (d > 1 || d < -1))
            return perr(ps, "float '%.*s' out of range", tl, t);
        v->kind = CZ_TOML_FLOAT;
        v->u.f = d;
    } else {
        char *endp;
        long long x = strtoll(buf, &endp, 10);
        if (errno == ERANGE)
            return perr(ps, "integer '%.*s' does not fit in 64 bits", tl, t);
        v->kind = CZ_TOML_INT;
        v->u.i = (int64_t)x;
    }
    ps->p = e;
    return CZ_OK;
}

static int parse_value(parser *ps, cz__toml_value *v, int depth);

static int parse_array(parser *ps, cz__toml_value *v, int depth) {
    int open_line = ps->line, rc;
    if (depth >= ARRAY_DEPTH_MAX)
        return perr(ps, "arrays nested more than %d deep", ARRAY_DEPTH_MAX);
    ps->p++;
    v->kind = CZ_TOML_ARRAY;
    v->u.a.items = NULL;
    v->u.a.n = 0;
    size_t cap = 0;
    for (;;) {
        if ((rc = skip_array_space(ps)))
            goto fail;
        if (ps->p == ps->end)
            goto unterminated;
        if (*ps->p == ']') {
            ps->p++;
            return CZ_OK;
        }
        if (v->u.a.n == cap) {
            size_t ncap = cap ? 2 * cap : 4;
            cz__toml_value *items = realloc(v->u.a.items, ncap * sizeof *items);
            if (!items) {
                rc = CZ_ENOMEM;
                goto fail;
            }
            v->u.a.items = items;
            cap = ncap;
        }
        if ((rc = parse_value(ps, &v->u.a.items[v->u.a.n], depth + 1)))
            goto fail;
        v->u.a.n++;
        if ((rc = skip_array_space(ps)))
            goto fail;
        if (ps->p == ps->end)
            goto unterminated;
        if (*ps->p == ',') {
            ps->p++;
        } else if (*ps->p != ']') {
            rc = perr(ps, "expected ',' or ']' in array");
            goto fail;
        }
    }
unterminated:
    ps->line = open_line;
    rc = perr(ps, "unterminated array (no ']' before the end of the file)");
fail:
    cz__toml_value_free(v);
    return rc;
}

static int parse_value(parser *ps, cz__toml_value *v, int depth) {
    if (ps->p == ps->end || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '#')
        return perr(ps, "missing value");
    char c = *ps->p;
    if (c == '"' || c == '\'')
        return parse_string(ps, v);
    if (c == '[')
        return parse_array(ps, v, depth);
    if (c == '{')
        return perr(ps, "inline tables are not supported");
    const char *e = ps->p;
    while (e < ps->end && is_bare((unsigned char)*e))
        e++;
    if ((e - ps->p == 4 && !memcmp(ps->p, "true", 4)) ||
        (e - ps->p == 5 && !memcmp(ps->p, "false", 5))) {
        v->kind = CZ_TOML_BOOL;
        v->u.b = c == 't';
        ps->p = e;
        return CZ_OK;
    }
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == 'i' || c == 'n')
        return parse_number(ps, v);
    int n = (int)(e - ps->p);
    if (n == 0)
        return perr(ps, "invalid value starting with '%c'", c);
    return perr(ps, "invalid value '%.*s' (strings need quotes)", n > 40 ? 40 : n, ps->p);
}

/* A bare key or table name at ps->p into buf; "" if there is none. */
static int read_bare(parser *ps, char *buf, const char *what) {
    const char *s = ps->p;
    while (ps->p < ps->end && is_bare((unsigned char)*ps->p))
        ps->p++;
    size_t n = (size_t)(ps->p - s);
    if (n >= KEY_MAX)
        return perr(ps, "%s longer than %d characters", what, KEY_MAX - 1);
    memcpy(buf, s, n);
    buf[n] = '\0';
    return CZ_OK;
}

static int parse_table_header(parser *ps, char *table, strlist *tables) {
    int rc;
    if (ps->p + 1 < ps->end && ps->p[1] == '[')
        return perr(ps, "arrays of tables ([[...]]) are not supported");
    ps->p++;
    skip_blanks(ps);
    if ((rc = read_bare(ps, table, "table name")))
        return rc;
    skip_blanks(ps);
    if (ps->p < ps->end && *ps->p == '.')
        return perr(ps, "nested tables ([a.b]) are not supported");
    if (!table[0] || ps->p == ps->end || *ps->p != ']')
        return perr(ps, "invalid table header (expected [name] with a bare name)");
    ps->p++;
    if (strlist_has(tables, table))
        return perr(ps, "duplicate table [%s]", table);
    if ((rc = strlist_add(tables, table)))
        return rc;
    return expect_eol(ps, "the table header");
}

int cz__toml_parse(const char *text, size_t len, const char *file, cz__toml_fn fn, void *arg,
                   cz_errinfo *ei) {
    parser ps = {text, text + len, file ? file : "(config)", 1, 1, ei};
    strlist tables = {0}, keys = {0};
    char table[KEY_MAX] = "", key[KEY_MAX];
    int rc = CZ_OK;
    while (ps.p < ps.end) {
        skip_blanks(&ps);
        if (ps.p == ps.end)
            break;
        if (eat_newline(&ps))
            continue;
        char c = *ps.p;
        int line = ps.line;
        if (c == '#') {
            if ((rc = skip_comment(&ps)))
                goto out;
            continue;
        }
        if (c == '[') {
            if ((rc = parse_table_header(&ps, table, &tables)))
                goto out;
            strlist_clear(&keys);
            if ((rc = fn(arg, ps.file, line, table, NULL, NULL, ei)))
                goto out;
            continue;
        }
        if ((rc = read_bare(&ps, key, "key")))
            goto out;
        if (!key[0]) {
            if (c == '"' || c == '\'')
                rc = perr(&ps, "quoted keys are not supported");
            else if (c == '\r')
                rc = perr(&ps, "carriage return without a line feed");
            else
                rc = perr(&ps, "expected 'key = value', '[table]' or a comment");
            goto out;
        }
        skip_blanks(&ps);
        if (ps.p < ps.end && *ps.p == '.') {
            rc = perr(&ps, "dotted keys are not supported");
            goto out;
        }
        if (ps.p == ps.end || *ps.p != '=') {
            rc = perr(&ps, "expected '=' after key '%s'", key);
            goto out;
        }
        ps.p++;
        skip_blanks(&ps);
        if (strlist_has(&keys, key)) {
            rc = table[0] ? perr(&ps, "duplicate key '%s' in [%s]", key, table)
                          : perr(&ps, "duplicate key '%s'", key);
            goto out;
        }
        if ((rc = strlist_add(&keys, key)))
            goto out;
        cz__toml_value v;
        if ((rc = parse_value(&ps, &v, 0)))
            goto out;
        if ((rc = expect_eol(&ps, "the value"))) {
            cz__toml_value_free(&v);
            goto out;
        }
        rc = fn(arg, ps.file, line, table, key, &v, ei);
        cz__toml_value_free(&v);
        if (rc)
            goto out;
    }
out:
    strlist_free(&keys);
    strlist_free(&tables);
    return rc;
}

int cz__toml_parse_value(cz__toml_value *out, const char *text, const char *what, cz_errinfo *ei) {
    parser ps = {text, text + strlen(text), what ? what : "value", 1, 0, ei};
    skip_blanks(&ps);
    int rc = parse_value(&ps, out, 0);
    if (rc)
        return rc;
    skip_blanks(&ps);
    if (ps.p != ps.end) {
        cz__toml_value_free(out);
        return perr(&ps, "unexpected text after the value");
    }
    return CZ_OK;
}
