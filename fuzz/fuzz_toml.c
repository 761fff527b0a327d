/*
 * libFuzzer target for the daemon's TOML subset (src/daemon/toml.c) and the configuration on top
 * of it (src/daemon/config.c). Any text is accepted or refused with a message naming the file,
 * never a crash, a leak or an out-of-bounds read (ASan, UBSan). Checked on every input:
 *
 *   - the parser: each callback gets a line number within the text, a table name and key that are
 *     bare and shorter than 128 characters, a value of a known kind whose strings are terminated
 *     and whose arrays nest at most 8 deep; a refusal is CZ_EFORMAT with "fuzz.toml:LINE: ..."
 *     (or CZ_ENOMEM);
 *   - a lone value (cz__toml_parse_value, the command-line path) likewise;
 *   - the configuration: loading the text as a file (in /dev/shm) either fails with the file's
 *     name in the message, or succeeds, and then cz_daemon_config_write of the result loads again
 *     and writes the same text (write -> load -> write is a fixed point).
 *
 * Seeds: fuzz/corpus/fuzz_toml/ (cuzk.example.toml, a file with every key set, error cases).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/log.h"
#include "daemon/config.h"
#include "daemon/toml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct seen {
    int nlines; /* lines in the text: newlines + 1 */
    int last_line;
} seen;

static int is_bare_name(const char *s) {
    size_t n = strlen(s);
    if (n == 0 || n >= 128)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-'))
            return 0;
    return 1;
}

static void check_value(const cz__toml_value *v, int depth) {
    if (depth > 8)
        __builtin_trap();
    switch (v->kind) {
    case CZ_TOML_STRING:
        if (v->u.s == NULL)
            __builtin_trap();
        (void)strlen(v->u.s); /* terminated (ASan) */
        break;
    case CZ_TOML_INT:
    case CZ_TOML_FLOAT:
        break;
    case CZ_TOML_BOOL:
        if (v->u.b != 0 && v->u.b != 1)
            __builtin_trap();
        break;
    case CZ_TOML_ARRAY:
        if (v->u.a.n > 0 && v->u.a.items == NULL)
            __builtin_trap();
        for (size_t i = 0; i < v->u.a.n; i++)
            check_value(&v->u.a.items[i], depth + 1);
        break;
    default:
        __builtin_trap();
    }
}

static int on_item(void *arg, const char *file, int line, const char *table, const char *key,
                   const cz__toml_value *v, cz_errinfo *ei) {
    (void)ei;
    seen *s = arg;
    if (strcmp(file, "fuzz.toml") != 0 || line < 1 || line > s->nlines || line < s->last_line)
        __builtin_trap();
    s->last_line = line;
    if (key == NULL) {
        if (v != NULL || !is_bare_name(table))
            __builtin_trap();
    } else {
        if (v == NULL || !is_bare_name(key) || (table[0] != '\0' && !is_bare_name(table)))
            __builtin_trap();
        check_value(v, 0);
    }
    return CZ_OK;
}

static void check_refusal(int rc, const cz_errinfo *ei, const char *name) {
    if (rc == CZ_ENOMEM)
        return;
    if (ei->code != rc || strstr(ei->msg, name) == NULL)
        __builtin_trap();
}

/* The whole text as a file at path; 0 on success. */
static int put_file(const char *path, const char *text, size_t len) {
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    size_t n = fwrite(text, 1, len, f);
    return fclose(f) != 0 || n != len ? -1 : 0;
}

static char *config_text(const cz_daemon_config *c, size_t *len) {
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (f == NULL)
        abort();
    if (cz_daemon_config_write(f, c) != CZ_OK)
        __builtin_trap();
    fclose(f);
    return buf;
}

static char path[64];

static void remove_file(void) {
    unlink(path);
}

static void check_config(const uint8_t *data, size_t size) {
    if (path[0] == '\0') { /* one scratch file per process, in memory where /dev/shm exists */
        snprintf(path, sizeof path, "%s/fuzz_toml_%ld.toml",
                 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (long)getpid());
        atexit(remove_file);
    }
    if (put_file(path, (const char *)data, size) != 0)
        abort();
    cz_daemon_config c;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = cz_daemon_config_load(&c, path, &ei);
    if (rc != CZ_OK) {
        check_refusal(rc, &ei, path);
        cz_daemon_config_free(&c);
        return;
    }
    size_t n1, n2;
    char *t1 = config_text(&c, &n1);
    cz_daemon_config_free(&c);
    if (put_file(path, t1, n1) != 0)
        abort();
    if (cz_daemon_config_load(&c, path, &ei) != CZ_OK)
        __builtin_trap(); /* what we wrote must load */
    char *t2 = config_text(&c, &n2);
    if (n1 != n2 || memcmp(t1, t2, n1) != 0)
        __builtin_trap();
    free(t1);
    free(t2);
    cz_daemon_config_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cz_log_set_level(CZ_LOG_LEVEL_ERROR); /* deprecated keys warn */
    seen s = {1, 1};
    for (size_t i = 0; i < size; i++)
        s.nlines += data[i] == '\n';
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = cz__toml_parse((const char *)data, size, "fuzz.toml", on_item, &s, &ei);
    if (rc != CZ_OK)
        check_refusal(rc, &ei, "fuzz.toml:");

    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    cz__toml_value v;
    cz_errinfo_clear(&ei);
    rc = cz__toml_parse_value(&v, text, "fuzz value", &ei);
    if (rc == CZ_OK) {
        check_value(&v, 0);
        cz__toml_value_free(&v);
    } else {
        check_refusal(rc, &ei, "fuzz value");
    }
    free(text);

    check_config(data, size);
    return 0;
}
