/*
 * libFuzzer target for the PoRep C1 readers (src/filecoin/porep_c1.h, porep_c1_bincode.h) at
 * 2 KiB (registered proof 5): the input is a C1 in either form, JSON (bare, or Curio's envelope)
 * when its first byte that is not white space is '{', else bincode. Any input must be accepted or
 * refused with an error naming the C1 reader, never crash or read outside the buffer. An accepted
 * bincode C1 writes back to the same bytes; an accepted JSON one writes a text that reads back to
 * a C1 that writes that text again; the native check answers (accepted or refused) on every
 * accepted C1. Seeds: fuzz/corpus/fuzz_porep_c1/ (a 2 KiB sector from `cuzk filecoin seal-2k`, in
 * both forms).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep_c1.h"
#include "filecoin/porep_c1_bincode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cz__porep_c1 c1, back;
    cz__porep_envelope env;
    cz__porep_shape shape;
    cz__porep_graph g;
    cz_errinfo ei;
    uint8_t *t1 = NULL, *t2 = NULL, porep_id[32];
    size_t n1 = 0, n2 = 0, i = 0;
    int json;
    while (i < size && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t'))
        i++;
    json = i < size && data[i] == '{';
    cz_errinfo_clear(&ei);
    if (cz__porep_c1_read_any(&c1, &env, data, size, 5, &ei) != CZ_OK) {
        if (ei.code == CZ_OK || strstr(ei.msg, "porep c1") == NULL)
            __builtin_trap(); /* every error names the reader */
        cz__porep_c1_free(&c1);
        return 0;
    }
    if (json) {
        if (cz__porep_c1_write(&t1, &n1, &c1, NULL) != CZ_OK ||
            cz__porep_c1_read(&back, NULL, t1, n1, NULL) != CZ_OK ||
            cz__porep_c1_write(&t2, &n2, &back, NULL) != CZ_OK || n1 != n2 ||
            memcmp(t1, t2, n1) != 0)
            __builtin_trap(); /* what was accepted writes a text that reads back the same */
        cz__porep_c1_free(&back);
    } else if (cz__porep_c1_write_bincode(&t1, &n1, &c1, NULL) != CZ_OK || n1 != size ||
               memcmp(t1, data, size) != 0) {
        __builtin_trap(); /* bincode is canonical: it writes back as it was read */
    }
    cz__porep_shape_get(&shape, 2048, NULL);
    cz__porep_id(porep_id, 5);
    cz__porep_graph_init(&g, shape.nodes, porep_id, 0);
    (void)cz__porep_vanilla_check(&c1, &shape, &g, 0, NULL);
    free(t1);
    free(t2);
    cz__porep_c1_free(&c1);
    return 0;
}
