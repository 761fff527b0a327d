/*
 * What zkey.c records for zkey_validate.c: the container, aligned copies, and where each point
 * section and header point lies in the file (for error messages naming the byte offset).
 */
#ifndef CUZK_FORMATS_ZKEY_INTERNAL_H
#define CUZK_FORMATS_ZKEY_INTERNAL_H

#include "formats/binfile.h"

#define CZ__ZKEY_MAX_COPIES 6  /* point sections 3, 5..9 */
#define CZ__ZKEY_NSECT      11 /* ids 0..10 */

struct cz__zkey_priv {
    cz__binfile bf;
    void *copies[CZ__ZKEY_MAX_COPIES]; /* aligned copies of unaligned point sections */
    size_t ncopies;
    uint64_t sect_off[CZ__ZKEY_NSECT]; /* payload offset of each section read */
    uint64_t header_points_off;        /* offset of alpha1 in section 2 */
};

#endif
