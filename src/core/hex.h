/* One hexadecimal digit's value, for the text parsers (the TOML parser's \u escapes, the CLI's
 * hex arguments): 0..15, or -1 when c is not a hex digit. */
#ifndef CUZK_CORE_HEX_H
#define CUZK_CORE_HEX_H

static inline int cz__hex_digit(int c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

#endif
