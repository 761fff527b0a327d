/*
 * The CSPRNG, a thin loop over getrandom(2) (blocking until the kernel pool is initialized,
 * retrying on EINTR and short reads).
 */
#include "cuzk/rand.h"

#include <errno.h>
#include <stdint.h>
#include <sys/random.h>

#include "cuzk/err.h"

int cz_random_bytes(void *buf, size_t len) {
    uint8_t *p = buf;
    while (len > 0) {
        ssize_t got = getrandom(p, len, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return CZ_EIO;
        }
        p += got;
        len -= (size_t)got;
    }
    return CZ_OK;
}
