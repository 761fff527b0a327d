/*
 * A strict subset of TOML 1.0, enough for the daemon's configuration file (docs/daemon.md).
 *
 * Accepted: `[table]` headers with a bare name; `key = value` lines with a bare key; values that
 * are basic strings ("..." with the TOML escapes \b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX),
 * literal strings ('...'), decimal integers (optional sign, `_` between digits), floats
 * (fraction and/or exponent), booleans and arrays of those (over several lines, with comments and
 * a trailing comma); `#` comments and blank lines. Everything else (dotted or quoted keys,
 * nested tables, arrays of tables, inline tables, multi-line strings, dates, hex/octal/binary
 * integers, inf/nan) stops the parse with "FILE:LINE: message" and CZ_EFORMAT, and so do a
 * duplicate table, a duplicate key in one table and anything malformed.
 *
 * The parser knows nothing about the keys: it calls back once per table header and once per
 * key-value pair, with the line number, and the callback decides (unknown key, wrong type).
 * Values passed to the callback belong to the parser and live until the callback returns.
 */
#ifndef CUZK_DAEMON_TOML_H
#define CUZK_DAEMON_TOML_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"

typedef enum {
    CZ_TOML_STRING,
    CZ_TOML_INT,
    CZ_TOML_FLOAT,
    CZ_TOML_BOOL,
    CZ_TOML_ARRAY,
} cz__toml_kind;

typedef struct cz__toml_value cz__toml_value;
struct cz__toml_value {
    cz__toml_kind kind;
    union {
        char *s; /* CZ_TOML_STRING: NUL-terminated UTF-8 (an embedded \u0000 ends it early) */
        int64_t i;
        double f;
        int b;
        struct {
            cz__toml_value *items;
            size_t n;
        } a;
    } u;
};

/*
 * One call per table header (key NULL, v NULL) and per key-value pair (table "" before the first
 * header). A non-zero return stops the parse; that code is returned by cz__toml_parse. line is
 * 1-based; file is the name given to cz__toml_parse, for messages.
 */
typedef int (*cz__toml_fn)(void *arg, const char *file, int line, const char *table,
                           const char *key, const cz__toml_value *v, cz_errinfo *ei);

/* Parses text[0..len). CZ_OK, CZ_EFORMAT ("FILE:LINE: ..."), CZ_ENOMEM or the callback's code. */
int cz__toml_parse(const char *text, size_t len, const char *file, cz__toml_fn fn, void *arg,
                   cz_errinfo *ei);

/* Parses one whole value (e.g. "[0, 1]" or "8"); nothing but blanks may follow it. CZ_EFORMAT
 * with the message "what: ..." on failure. *out is freed with cz__toml_value_free. */
int cz__toml_parse_value(cz__toml_value *out, const char *text, const char *what, cz_errinfo *ei);

void cz__toml_value_free(cz__toml_value *v);

/* "string", "integer", "float", "boolean", "array". */
const char *cz__toml_kind_name(cz__toml_kind k);

#endif
