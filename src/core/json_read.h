/*
 * A pull reader for large JSON documents (the PoRep C1 output: 50 MB and more, almost all of it
 * arrays of byte values), read in one pass without building a tree: the caller walks the document
 * it expects, member by member, and stores what it keeps.
 *
 * The source is bytes in memory, read in place, or the base64 text of such bytes (a JSON string's
 * content, as Go's encoding/json writes a []byte), decoded as it is read in 4 KiB blocks: the
 * decoded document is never held whole. Base64 is the standard alphabet with '=' padding; "\/"
 * (a JSON escape some writers use for '/') is read as '/'.
 *
 * Errors are sticky: the first one (a syntax error, a value of the wrong type or out of range, a
 * base64 fault) is kept with the byte offset in the decoded document where it was met, every
 * later call returns -1, and cz__jr_status reports it. The readers of values return 0 on success
 * and -1 on error; cz__jr_member and cz__jr_next return 1 (one more), 0 (the end) or -1.
 * Nesting is limited to CZ__JR_MAX_DEPTH levels.
 */
#ifndef CUZK_CORE_JSON_READ_H
#define CUZK_CORE_JSON_READ_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"

#define CZ__JR_MAX_DEPTH 64

typedef struct cz__jr {
    const uint8_t *p, *end; /* what is left of the source */
    int base64;
    uint8_t buf[4096]; /* base64: decoded bytes buf[pos..len) */
    size_t pos, len;
    uint64_t off; /* offset of the next byte in the decoded document */
    int depth;
    uint8_t first[CZ__JR_MAX_DEPTH]; /* per open container: no element read yet */
    int rc;
    char msg[200];
} cz__jr;

/* A reader of len bytes at data, JSON text (base64 0) or the base64 text of it (1). */
void cz__jr_init(cz__jr *jr, const uint8_t *data, size_t len, int base64);
/* CZ_OK, or the first error as CZ_EFORMAT with "json: offset N: message" (what prefixes it). */
int cz__jr_status(const cz__jr *jr, const char *what, cz_errinfo *ei);
/* Records an error of the caller's (a value it does not accept) at the current offset; -1. */
int cz__jr_fail(cz__jr *jr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The byte offset in the decoded document. */
static inline uint64_t cz__jr_offset(const cz__jr *jr) {
    return jr->off;
}

/* '{' of an object; then each cz__jr_member reads the next key (at most cap - 1 bytes, escapes
 * of ASCII only) and its ':', 1, or the closing '}', 0. */
int cz__jr_object(cz__jr *jr);
int cz__jr_member(cz__jr *jr, char *key, size_t cap);
/* '[' of an array; then cz__jr_next is 1 before each element, 0 after the closing ']'. */
int cz__jr_array(cz__jr *jr);
int cz__jr_next(cz__jr *jr);

/* An unsigned integer (no sign, fraction or exponent) up to max. */
int cz__jr_u64(cz__jr *jr, uint64_t *out, uint64_t max);
/* An array of exactly n integers 0..255, into out. */
int cz__jr_bytes(cz__jr *jr, uint8_t *out, size_t n);
/* A string of at most cap - 1 bytes (escapes of ASCII only), NUL-terminated. */
int cz__jr_string(cz__jr *jr, char *out, size_t cap);
/* A string's raw content in place (escapes not decoded; no control characters): *s points into
 * the source, *n bytes. Only for a reader of JSON text (base64 0). */
int cz__jr_string_span(cz__jr *jr, const uint8_t **s, size_t *n);
/* null. */
int cz__jr_null(cz__jr *jr);
/* Any value, skipped. */
int cz__jr_skip(cz__jr *jr);
/* Only whitespace is left. */
int cz__jr_end(cz__jr *jr);

#endif
