/*
 * snarkjs .zkey writer (see formats/zkey_write.h). Buffered stdio; every size is announced up
 * front, so the file is written in one forward pass without seeking back.
 */
#include "formats/zkey_write.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "formats/fmt_curve.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the zkey writer writes limbs as file bytes: little-endian hosts only"
#endif

enum { SECT_PROTOCOL = 1, SECT_HEADER = 2, SECT_MPC = 10, PROTOCOL_GROTH16 = 1 };

size_t cz__zkey_g1_bytes(cz_curve_id curve) {
    return 2 * (size_t)cz__curve_info_of(curve)->n8q;
}

size_t cz__zkey_g2_bytes(cz_curve_id curve) {
    return 4 * (size_t)cz__curve_info_of(curve)->n8q;
}

static int put_raw(cz__zkey_writer *w, const void *data, size_t len, cz_errinfo *ei) {
    if (len != 0 && fwrite(data, 1, len, w->f) != len)
        return cz_fail(ei, CZ_EIO, "%s: write failed: %s", w->path, strerror(errno));
    return CZ_OK;
}

static int put_le(cz__zkey_writer *w, uint64_t v, size_t bytes, cz_errinfo *ei) {
    uint8_t b[8];
    for (size_t i = 0; i < bytes; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    return put_raw(w, b, bytes, ei);
}

int cz__zkey_writer_open(cz__zkey_writer *w, const char *path, uint32_t nsections, cz_errinfo *ei) {
    int rc;
    memset(w, 0, sizeof *w);
    w->path = strdup(path);
    if (w->path == NULL)
        return cz_fail(ei, CZ_ENOMEM, "%s: out of memory", path);
    w->f = fopen(path, "wb");
    if (w->f == NULL) {
        rc = cz_fail(ei, CZ_EIO, "%s: cannot create: %s", path, strerror(errno));
        free(w->path);
        w->path = NULL;
        return rc;
    }
    w->nsect_total = nsections;
    rc = put_raw(w, "zkey", 4, ei);
    if (rc == CZ_OK)
        rc = put_le(w, 1, 4, ei); /* version */
    if (rc == CZ_OK)
        rc = put_le(w, nsections, 4, ei);
    return rc;
}

int cz__zkey_writer_begin(cz__zkey_writer *w, uint32_t id, uint64_t size, cz_errinfo *ei) {
    if (w->in_section || w->nsect_done >= w->nsect_total)
        return cz_fail(ei, CZ_EINTERNAL, "%s: section %u begun out of turn", w->path, id);
    int rc = put_le(w, id, 4, ei);
    if (rc == CZ_OK)
        rc = put_le(w, size, 8, ei);
    w->in_section = 1;
    w->sect_id = id;
    w->sect_left = size;
    return rc;
}

int cz__zkey_writer_put(cz__zkey_writer *w, const void *data, size_t len, cz_errinfo *ei) {
    if (!w->in_section || len > w->sect_left)
        return cz_fail(ei, CZ_EINTERNAL, "%s: section %u: %zu bytes beyond its size", w->path,
                       w->sect_id, len);
    w->sect_left -= len;
    return put_raw(w, data, len, ei);
}

int cz__zkey_writer_put_u32(cz__zkey_writer *w, uint32_t v, cz_errinfo *ei) {
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return cz__zkey_writer_put(w, b, 4, ei);
}

int cz__zkey_writer_end(cz__zkey_writer *w, cz_errinfo *ei) {
    if (!w->in_section || w->sect_left != 0)
        return cz_fail(ei, CZ_EINTERNAL, "%s: section %u ends %llu bytes short", w->path,
                       w->sect_id, (unsigned long long)w->sect_left);
    w->in_section = 0;
    w->nsect_done++;
    return CZ_OK;
}

void cz__zkey_writer_abort(cz__zkey_writer *w) {
    if (w->f != NULL) {
        fclose(w->f);
        w->f = NULL;
        if (w->path != NULL)
            remove(w->path);
    }
    free(w->path);
    w->path = NULL;
}

int cz__zkey_writer_close(cz__zkey_writer *w, cz_errinfo *ei) {
    int rc = CZ_OK;
    if (w->in_section || w->nsect_done != w->nsect_total)
        rc = cz_fail(ei, CZ_EINTERNAL, "%s: %u of %u sections written", w->path, w->nsect_done,
                     w->nsect_total);
    if (rc == CZ_OK && (fflush(w->f) != 0 || ferror(w->f)))
        rc = cz_fail(ei, CZ_EIO, "%s: write failed: %s", w->path, strerror(errno));
    if (rc != CZ_OK) {
        cz__zkey_writer_abort(w);
        return rc;
    }
    if (fclose(w->f) != 0) {
        w->f = NULL;
        rc = cz_fail(ei, CZ_EIO, "%s: close failed: %s", w->path, strerror(errno));
        remove(w->path);
    }
    w->f = NULL;
    free(w->path);
    w->path = NULL;
    return rc;
}

int cz__zkey_write_protocol(cz__zkey_writer *w, cz_errinfo *ei) {
    int rc = cz__zkey_writer_begin(w, SECT_PROTOCOL, 4, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put_u32(w, PROTOCOL_GROTH16, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_end(w, ei);
    return rc;
}

int cz__zkey_write_header(cz__zkey_writer *w, const cz__zkey_header *h, cz_errinfo *ei) {
    const cz__curve_info *ci = cz__curve_info_of(h->curve);
    size_t g1 = cz__zkey_g1_bytes(h->curve), g2 = cz__zkey_g2_bytes(h->curve);
    uint64_t size = 4 + ci->n8q + 4 + ci->n8r + 3 * 4 + 3 * g1 + 3 * g2;
    int rc = cz__zkey_writer_begin(w, SECT_HEADER, size, ei);
    /* The moduli are limb arrays, least significant first: on a little-endian host their bytes
     * are the file's little-endian integers. */
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put_u32(w, ci->n8q, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put(w, ci->q, ci->n8q, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put_u32(w, ci->n8r, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put(w, ci->r, ci->n8r, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put_u32(w, h->nvars, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put_u32(w, h->npublic, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put_u32(w, h->domain_size, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put(w, h->alpha1, g1, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put(w, h->beta1, g1, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put(w, h->beta2, g2, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put(w, h->gamma2, g2, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put(w, h->delta1, g1, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put(w, h->delta2, g2, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_end(w, ei);
    return rc;
}

int cz__zkey_write_mpc_empty(cz__zkey_writer *w, const uint8_t cs_hash[64], cz_errinfo *ei) {
    int rc = cz__zkey_writer_begin(w, SECT_MPC, 64 + 4, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put(w, cs_hash, 64, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_put_u32(w, 0, ei);
    if (rc == CZ_OK)
        rc = cz__zkey_writer_end(w, ei);
    return rc;
}
