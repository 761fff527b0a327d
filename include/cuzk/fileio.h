/*
 * Whole-file reading for tools and tests (witness uploads, logs): one call, one buffer.
 */
#ifndef CUZK_FILEIO_H
#define CUZK_FILEIO_H

#include <stddef.h>

#include "cuzk/err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *data = the whole file at path (malloc'd, one extra zero byte after *len bytes, so text can be
 * used as a string); free with free(). CZ_EIO naming the path and the system's reason, CZ_ENOMEM.
 * On error *data = NULL and *len = 0. */
int cz_file_read(void **data, size_t *len, const char *path, cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
