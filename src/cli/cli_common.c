/*
 * Helpers shared by the `cuzk` subcommands (cli.h).
 */
#include "cli/cli.h"
#include "core/hex.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cz__cli_report(const char *cmd, const cz_errinfo *ei) {
    fprintf(stderr, "cuzk %s: %s (%s)\n", cmd, ei->msg[0] ? ei->msg : cz_strerror(ei->code),
            cz_err_name(ei->code));
    switch (ei->code) {
    case CZ_EVERIFY:
        return CZ_EXIT_INVALID;
    case CZ_ENOMEM:
    case CZ_EINTERNAL:
    case CZ_ENOGPU:
    case CZ_EGPU:
        return CZ_EXIT_INTERNAL;
    case CZ_EINVAL:
        return CZ_EXIT_USAGE;
    default:
        return CZ_EXIT_INPUT;
    }
}

int cz__cli_usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "cuzk %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'cuzk %s --help'.\n", cmd);
    return CZ_EXIT_USAGE;
}

int cz__cli_parse_threads(size_t *out, const char *s) {
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v > 4096)
        return CZ_EINVAL;
    *out = (size_t)v;
    return CZ_OK;
}

int cz__cli_parse_device(int *out, const char *s) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 0 || v > 1024)
        return CZ_EINVAL;
    *out = (int)v;
    return CZ_OK;
}

int cz__cli_parse_hex32(uint8_t out[32], const char *s) {
    if (strncmp(s, "0x", 2) == 0)
        s += 2;
    size_t len = strlen(s);
    if (len == 0 || len > 64)
        return CZ_EINVAL;
    memset(out, 0, 32);
    for (size_t i = 0; i < len; i++) {
        int d = cz__hex_digit((unsigned char)s[len - 1 - i]);
        if (d < 0)
            return CZ_EINVAL;
        out[i / 2] |= (uint8_t)(d << (4 * (i % 2)));
    }
    return CZ_OK;
}
