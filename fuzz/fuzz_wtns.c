/*
 * libFuzzer target for the .wtns reader (accept or refuse with a message, never crash); accepted
 * witnesses are read completely and written back, and the written file must read back equal.
 * Seeds: fuzz/corpus/fuzz_wtns/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/wtns.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cz_wtns *w = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (cz_wtns_open_mem(&w, data, size, "fuzz.wtns", &ei) != CZ_OK) {
        if (ei.code == CZ_OK || strstr(ei.msg, "fuzz.wtns") == NULL)
            __builtin_trap();
        return 0;
    }
    char path[64];
    snprintf(path, sizeof path, "/tmp/cz_fuzz_wtns_%d", (int)getpid());
    if (cz_wtns_write(path, w->curve, w->values, w->nwitness, &ei) != CZ_OK)
        __builtin_trap();
    cz_wtns *back = NULL;
    if (cz_wtns_open(&back, path, &ei) != CZ_OK || back->curve != w->curve ||
        back->nwitness != w->nwitness ||
        memcmp(back->values, w->values, (size_t)w->nwitness * CZ_WTNS_LIMBS * 8) != 0)
        __builtin_trap();
    cz_wtns_close(back);
    unlink(path);
    cz_wtns_close(w);
    return 0;
}
