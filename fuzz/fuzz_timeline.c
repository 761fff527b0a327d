/*
 * libFuzzer target for the timeline reader (src/engine/timeline_read.c): any text is accepted or
 * refused with a message naming the input, never a crash; an accepted log's intervals and GPU
 * figures are re-checked (each interval inside the run window, busy % within 0..100), and the
 * SVG renderer draws it to /dev/null. Seeds: fuzz/corpus/fuzz_timeline/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/timeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static FILE *devnull;
    if (devnull == NULL)
        devnull = fopen("/dev/null", "w");
    cz_timeline *tl = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (cz_timeline_parse(&tl, (const char *)data, size, "fuzz.log", &ei) != CZ_OK) {
        if (ei.code == CZ_OK || strstr(ei.msg, "fuzz.log") == NULL || tl != NULL)
            __builtin_trap();
        return 0;
    }
    for (size_t i = 0; i < tl->nintervals; i++) {
        const cz_timeline_interval *iv = &tl->intervals[i];
        if (iv->start_ms > iv->end_ms || iv->start_ms < tl->run_start_ms ||
            iv->end_ms > tl->run_end_ms || iv->worker >= tl->nworkers || iv->job >= tl->njobs)
            __builtin_trap();
    }
    for (size_t g = 0; g < tl->ngpus; g++)
        if (!(tl->gpus[g].busy_pct_run >= 0.0 && tl->gpus[g].busy_pct_run <= 100.0 + 1e-9) ||
            !(tl->gpus[g].busy_pct_steady >= 0.0 && tl->gpus[g].busy_pct_steady <= 100.0 + 1e-9))
            __builtin_trap();
    if (devnull != NULL && cz_timeline_render_svg(devnull, tl, NULL, &ei) != CZ_OK)
        __builtin_trap();
    cz_timeline_free(tl);
    return 0;
}
