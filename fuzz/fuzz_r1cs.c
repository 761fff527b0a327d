/*
 * libFuzzer target for the .r1cs reader (accept or refuse with a message, never crash); accepted
 * systems are walked completely and their invariants (wire < nWires) re-checked.
 * Seeds: fuzz/corpus/fuzz_r1cs/.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cuzk/r1cs_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(const cz_r1cs_file *rf, const cz_r1cs_lc *lc, size_t *count) {
    for (size_t k = 0; k < lc->nterms; k++)
        if (lc->terms[k].wire >= rf->nwires)
            __builtin_trap();
    *count += lc->nterms;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cz_r1cs_file *rf = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (cz_r1cs_open_mem(&rf, data, size, "fuzz.r1cs", &ei) != CZ_OK) {
        if (ei.code == CZ_OK || strstr(ei.msg, "fuzz.r1cs") == NULL)
            __builtin_trap();
        return 0;
    }
    size_t n = 0;
    for (uint32_t i = 0; i < rf->nconstraints; i++) {
        walk(rf, &rf->constraints[i].a, &n);
        walk(rf, &rf->constraints[i].b, &n);
        walk(rf, &rf->constraints[i].c, &n);
    }
    if (n != rf->nterms)
        __builtin_trap();
    volatile uint64_t s = 0;
    for (uint32_t i = 0; rf->wire_labels != NULL && i < rf->nwires; i++)
        s += rf->wire_labels[i];
    (void)s;
    cz_r1cs_close(rf);
    return 0;
}
