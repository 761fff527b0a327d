/* Whole-file reading (include/cuzk/fileio.h). */
#include "cuzk/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cz_file_read(void **data, size_t *len, const char *path, cz_errinfo *ei) {
    FILE *f;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    *data = NULL;
    *len = 0;
    if ((f = fopen(path, "rb")) == NULL)
        return cz_fail(ei, CZ_EIO, "%s: %s", path, strerror(errno));
    for (;;) {
        if (cap - n < 2) {
            size_t ncap = cap ? 2 * cap : 1 << 16;
            char *nb = realloc(buf, ncap);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                return cz_fail(ei, CZ_ENOMEM, "%s: %zu bytes", path, ncap);
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        return cz_fail(ei, CZ_EIO, "%s: read error: %s", path, strerror(e));
    }
    fclose(f);
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return CZ_OK;
}
