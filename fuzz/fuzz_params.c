/*
 * libFuzzer target for the parameter-file name parser (cz_param_classify, cuzk/params.h), which
 * reads names from manifests that users give (`cuzk params check --manifest`), and for BLAKE2b's
 * streaming (cuzk/blake2b.h). Any input is accepted or refused, never a crash or an out-of-bounds
 * read (ASan, UBSan). Checked on every input:
 *
 *   - a name accepted is one plain path component (letters, digits, '-', '_', '.', no more than
 *     NAME_MAX bytes) that starts with v<digits>- and ends in .params, .vk or .srs, as the type
 *     returned says; a name of the built-in manifest gets the manifest's proof;
 *   - a refusal is CZ_EFORMAT with a message; for a name with a character outside that set (or
 *     empty, or too long) it is the one fixed sentence with the length, never the name's bytes;
 *   - the input hashed in one call, and fed in two pieces cut where its first byte says, gives
 *     the same digest (of the length its second byte picks, 1..64).
 *
 * Seeds: fuzz/corpus/fuzz_params/, names of the built-in manifest and a few refusals.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/blake2b.h"
#include "cuzk/params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char SAFE[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.";

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void check_name(const uint8_t *data, size_t size) {
    char *name = malloc(size + 1);
    cz_param_proof proof;
    cz_param_ext ext;
    cz_errinfo ei;
    if (name == NULL)
        return;
    memcpy(name, data, size);
    name[size] = '\0'; /* an embedded NUL ends the name, as in a C string from JSON */
    size_t len = strlen(name);
    int safe = strspn(name, SAFE) == len;
    cz_errinfo_clear(&ei);
    int rc = cz_param_classify(&proof, &ext, name, &ei);
    if (rc == CZ_OK) {
        const cz_param_file *known = cz_params_find(NULL, name);
        const char *x = ext == CZ_PARAM_EXT_VK    ? ".vk"
                        : ext == CZ_PARAM_EXT_SRS ? ".srs"
                                                  : ".params";
        if (!safe || len > NAME_MAX || name[0] != 'v' || !ends_with(name, x) ||
            (known != NULL && known->proof != proof))
            abort();
        size_t i = 1;
        while (name[i] >= '0' && name[i] <= '9')
            i++;
        if (i == 1 || name[i] != '-')
            abort();
    } else {
        if (rc != CZ_EFORMAT || ei.code != CZ_EFORMAT || ei.msg[0] == '\0')
            abort();
        if (!safe || len == 0 || len > NAME_MAX) {
            char want[CZ_ERRINFO_MSG_MAX];
            snprintf(want, sizeof want,
                     "a name of %zu bytes that is not 1 to %d letters, digits, '-', '_' and '.' "
                     "is not a parameter file name",
                     len, NAME_MAX);
            if (strcmp(ei.msg, want) != 0)
                abort();
        }
    }
    free(name);
}

static void check_blake2b(const uint8_t *data, size_t size) {
    uint8_t one[64], two[64];
    cz_blake2b s;
    size_t outlen = size > 1 ? 1 + data[1] % 64 : 64;
    size_t cut = size > 0 ? ((size_t)(size > 2 ? data[2] : 0) << 8 | data[0]) % (size + 1) : 0;
    if (cz_blake2b_hash(one, outlen, NULL, 0, data, size) != CZ_OK ||
        cz_blake2b_init(&s, outlen) != CZ_OK)
        abort();
    cz_blake2b_update(&s, data, cut);
    cz_blake2b_update(&s, data + cut, size - cut);
    cz_blake2b_final(two, &s);
    if (memcmp(one, two, outlen) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    check_name(data, size);
    check_blake2b(data, size);
    return 0;
}
