/*
 * The iden3 binary container (see binfile.h): read, check, index sections, and a bounds-checked
 * section reader. Opening a path reads the file into memory (cz_file_load) and walks the section
 * headers; payloads are not looked at here.
 */
#include "formats/binfile.h"

#include "cuzk/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_HEADER_BYTES 12 /* magic, version, nsections */
#define SECT_HEADER_BYTES 12 /* id u32, size u64 */

int cz__binfile_fail(const cz__binfile *bf, cz_errinfo *ei, int code, uint32_t id, uint64_t off,
                     const char *fmt, ...) {
    char msg[CZ_ERRINFO_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cz_fail(ei, code, "%s: section %u at offset %llu: %s", bf->name, id,
                   (unsigned long long)off, msg);
}

/* Errors in the file header, before any section. */
static int header_fail(const cz__binfile *bf, cz_errinfo *ei, int code, uint64_t off,
                       const char *what) {
    return cz_fail(ei, code, "%s: file header at offset %llu: %s", bf->name,
                   (unsigned long long)off, what);
}

/* Checks the file header and builds the section index over bf->data/size. */
static int index_sections(cz__binfile *bf, const char magic[4], uint32_t version, cz_errinfo *ei) {
    const uint8_t *d = bf->data;
    size_t size = bf->size;
    if (size < FILE_HEADER_BYTES)
        return header_fail(bf, ei, CZ_EFORMAT, 0,
                           "file is too short for the header (magic, version, section count)");
    /* Never the bytes found: the file may be anything (a client names the path), and an error
     * message must not become a way to read it. */
    if (memcmp(d, magic, 4) != 0)
        return cz_fail(ei, CZ_EFORMAT, "%s: not a .%.4s file (no \"%.4s\" magic at offset 0)",
                       bf->name, magic, magic);
    bf->version = cz__le32(d + 4);
    if (bf->version != version)
        return cz_fail(ei, CZ_EUNSUPPORTED,
                       "%s: file header at offset 4: version %u is not supported (expected %u)",
                       bf->name, bf->version, version);
    uint32_t nsects = cz__le32(d + 8);
    uint64_t pos = FILE_HEADER_BYTES;
    /* Each section needs at least its 12-byte header: bounds the allocation below. */
    if (nsects > (size - pos) / SECT_HEADER_BYTES)
        return cz_fail(ei, CZ_EFORMAT,
                       "%s: file header at offset 8: %u sections cannot fit in %zu bytes", bf->name,
                       nsects, size);
    bf->sects = calloc(nsects ? nsects : 1, sizeof *bf->sects);
    if (bf->sects == NULL)
        return cz_fail(ei, CZ_ENOMEM, "%s: out of memory for %u section entries", bf->name, nsects);
    for (uint32_t i = 0; i < nsects; i++) {
        if (SECT_HEADER_BYTES > size - pos)
            return cz_fail(ei, CZ_EFORMAT,
                           "%s: section header %u at offset %llu runs past the end of the file",
                           bf->name, i, (unsigned long long)pos);
        uint32_t id = cz__le32(d + pos);
        uint64_t len = cz__le64(d + pos + 4);
        pos += SECT_HEADER_BYTES;
        if (len > size - pos)
            return cz__binfile_fail(bf, ei, CZ_EFORMAT, id, pos,
                                    "size %llu runs past the end of the file (%llu bytes left)",
                                    (unsigned long long)len, (unsigned long long)(size - pos));
        bf->sects[i] = (cz__bsect){.id = id, .off = pos, .size = len};
        pos += len;
    }
    bf->nsects = nsects;
    return CZ_OK;
}

static int set_name(cz__binfile *bf, const char *name, cz_errinfo *ei) {
    bf->name = strdup(name ? name : "(buffer)");
    if (bf->name == NULL)
        return cz_fail(ei, CZ_ENOMEM, "out of memory");
    return CZ_OK;
}

int cz__binfile_open_owned(cz__binfile *bf, void *data, size_t size, const char *name,
                           const cz__binfile_release *release, const char magic[4],
                           uint32_t version, cz_errinfo *ei) {
    memset(bf, 0, sizeof *bf);
    bf->owned = data;
    bf->owned_len = size;
    if (release != NULL)
        bf->release = *release;
    int rc = set_name(bf, name, ei);
    if (rc == CZ_OK) {
        bf->data = data;
        bf->size = size;
        rc = index_sections(bf, magic, version, ei);
    }
    if (rc != CZ_OK)
        cz__binfile_close(bf);
    return rc;
}

int cz__binfile_open(cz__binfile *bf, const char *path, const char magic[4], uint32_t version,
                     cz_errinfo *ei) {
    void *data;
    size_t size;
    memset(bf, 0, sizeof *bf);
    int rc = cz_file_load(&data, &size, NULL, path, NULL, ei);
    if (rc != CZ_OK)
        return rc;
    const cz__binfile_release heap = {cz__binfile_release_heap, NULL};
    return cz__binfile_open_owned(bf, data, size, path, &heap, magic, version, ei);
}

int cz__binfile_open_mem(cz__binfile *bf, const void *data, size_t size, const char *name,
                         const char magic[4], uint32_t version, cz_errinfo *ei) {
    /* Not released (no release function), so never written either. */
    return cz__binfile_open_owned(bf, (void *)data, data ? size : 0, name, NULL, magic, version,
                                  ei);
}

void cz__binfile_release_heap(void *arg, void *data, size_t size) {
    (void)arg, (void)size;
    free(data);
}

void cz__binfile_close(cz__binfile *bf) {
    if (bf->release.fn != NULL)
        bf->release.fn(bf->release.arg, bf->owned, bf->owned_len);
    free(bf->sects);
    free(bf->name);
    memset(bf, 0, sizeof *bf);
}

int cz__binfile_find(const cz__binfile *bf, uint32_t id, int required, cz__bsect *out,
                     cz_errinfo *ei) {
    size_t found = 0;
    for (size_t i = 0; i < bf->nsects; i++) {
        if (bf->sects[i].id != id)
            continue;
        if (found++ > 0)
            return cz__binfile_fail(bf, ei, CZ_EFORMAT, id, bf->sects[i].off,
                                    "section appears more than once");
        *out = bf->sects[i];
    }
    if (found == 0) {
        if (!required)
            return CZ_ENOTFOUND;
        return cz_fail(ei, CZ_EFORMAT, "%s: section %u is missing", bf->name, id);
    }
    return CZ_OK;
}

void cz__breader_init(cz__breader *r, const cz__binfile *bf, const cz__bsect *s) {
    r->bf = bf;
    r->id = s->id;
    r->pos = s->off;
    r->end = s->off + s->size;
}

uint64_t cz__breader_left(const cz__breader *r) {
    return r->end - r->pos;
}

int cz__breader_bytes(cz__breader *r, const uint8_t **p, uint64_t len, const char *what,
                      cz_errinfo *ei) {
    if (len > r->end - r->pos)
        return cz__binfile_fail(
            r->bf, ei, CZ_EFORMAT, r->id, r->pos,
            "%s (%llu bytes) runs past the end of the section (%llu bytes left)", what,
            (unsigned long long)len, (unsigned long long)(r->end - r->pos));
    *p = r->bf->data + r->pos;
    r->pos += len;
    return CZ_OK;
}

int cz__breader_u32(cz__breader *r, uint32_t *v, const char *what, cz_errinfo *ei) {
    const uint8_t *p = NULL;
    int rc = cz__breader_bytes(r, &p, 4, what, ei);
    if (rc == CZ_OK)
        *v = cz__le32(p);
    return rc;
}

int cz__breader_u64(cz__breader *r, uint64_t *v, const char *what, cz_errinfo *ei) {
    const uint8_t *p = NULL;
    int rc = cz__breader_bytes(r, &p, 8, what, ei);
    if (rc == CZ_OK)
        *v = cz__le64(p);
    return rc;
}

int cz__breader_expect_end(const cz__breader *r, const char *what, cz_errinfo *ei) {
    if (r->pos != r->end)
        return cz__binfile_fail(r->bf, ei, CZ_EFORMAT, r->id, r->pos,
                                "%llu trailing bytes after %s",
                                (unsigned long long)(r->end - r->pos), what);
    return CZ_OK;
}
