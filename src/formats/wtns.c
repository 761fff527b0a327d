/*
 * .wtns version 2 reader and writer (see cuzk/wtns.h). Opening checks every value (< r) in one
 * pass; the writer produces the same bytes as snarkjs's `wtns calculate`.
 */
#include "cuzk/wtns.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/binfile.h"
#include "formats/fmt_curve.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the wtns reader exposes file bytes as limbs: little-endian hosts only"
#endif

enum { SECT_HEADER = 1, SECT_VALUES = 2 };
#define WTNS_N8 32

struct cz__wtns_priv {
    cz__binfile bf;
    uint64_t *copy; /* aligned copy of section 2, when it is not 8-byte aligned */
};

static int read_wtns(cz_wtns *w, cz__binfile *bf, cz_errinfo *ei) {
    cz__bsect s;
    cz__breader r;
    uint32_t n8, n;
    const uint8_t *prime = NULL, *vals = NULL;
    int rc = cz__binfile_find(bf, SECT_HEADER, 1, &s, ei);
    if (rc != CZ_OK)
        return rc;
    cz__breader_init(&r, bf, &s);
    if ((rc = cz__breader_u32(&r, &n8, "n8", ei)) != CZ_OK)
        return rc;
    uint64_t poff = r.pos;
    if ((rc = cz__breader_bytes(&r, &prime, n8, "prime", ei)) != CZ_OK)
        return rc;
    const cz__curve_info *ci = cz__curve_by_r(prime, n8);
    if (ci == NULL) {
        return cz__binfile_fail(bf, ei, CZ_ECURVE, SECT_HEADER, poff,
                                "the %u-byte prime is the scalar field of neither BN254 nor "
                                "BLS12-381",
                                n8);
    }
    if ((rc = cz__breader_u32(&r, &n, "nWitness", ei)) != CZ_OK ||
        (rc = cz__breader_expect_end(&r, "the witness header", ei)) != CZ_OK)
        return rc;
    if ((rc = cz__binfile_find(bf, SECT_VALUES, 1, &s, ei)) != CZ_OK)
        return rc;
    uint64_t want = (uint64_t)n * WTNS_N8;
    if (s.size != want)
        return cz__binfile_fail(bf, ei, CZ_EFORMAT, SECT_VALUES, s.off,
                                "section has %llu bytes, expected %llu for %u values",
                                (unsigned long long)s.size, (unsigned long long)want, n);
    cz__breader_init(&r, bf, &s);
    if ((rc = cz__breader_bytes(&r, &vals, want, "values", ei)) != CZ_OK)
        return rc;
    size_t bad = cz__first_noncanonical(vals, n, ci->r, WTNS_N8 / 8);
    if (bad != n)
        return cz__binfile_fail(bf, ei, CZ_ENONCANON, SECT_VALUES, s.off + bad * WTNS_N8,
                                "witness %zu is not below the prime", bad);
    if ((uintptr_t)vals % sizeof(uint64_t) == 0) {
        w->values = (const uint64_t *)(const void *)vals;
    } else {
        w->priv->copy = malloc(want ? want : 1);
        if (w->priv->copy == NULL)
            return cz_fail(ei, CZ_ENOMEM, "%s: out of memory for %u witness values", bf->name, n);
        memcpy(w->priv->copy, vals, want);
        w->values = w->priv->copy;
    }
    w->curve = ci->id;
    w->nwitness = n;
    return CZ_OK;
}

static int open_common(cz_wtns **out, const char *name, const void *data, size_t size,
                       cz_errinfo *ei) {
    *out = NULL;
    cz_wtns *w = calloc(1, sizeof *w);
    struct cz__wtns_priv *pv = calloc(1, sizeof *pv);
    if (w == NULL || pv == NULL) {
        free(w);
        free(pv);
        return cz_fail(ei, CZ_ENOMEM, "%s: out of memory", name);
    }
    w->priv = pv;
    int rc = data != NULL ? cz__binfile_open_mem(&pv->bf, data, size, name, "wtns", 2, ei)
                          : cz__binfile_open(&pv->bf, name, "wtns", 2, ei);
    if (rc != CZ_OK) {
        free(pv);
        free(w);
        return rc;
    }
    if ((rc = read_wtns(w, &pv->bf, ei)) != CZ_OK) {
        cz_wtns_close(w);
        return rc;
    }
    *out = w;
    return CZ_OK;
}

int cz_wtns_open(cz_wtns **out, const char *path, cz_errinfo *ei) {
    if (path == NULL) {
        *out = NULL;
        return cz_fail(ei, CZ_EINVAL, "wtns: no file name");
    }
    return open_common(out, path, NULL, 0, ei);
}

int cz_wtns_open_mem(cz_wtns **out, const void *data, size_t size, const char *name,
                     cz_errinfo *ei) {
    static const uint8_t empty[1];
    return open_common(out, name ? name : "(buffer)", data ? data : empty, data ? size : 0, ei);
}

void cz_wtns_close(cz_wtns *w) {
    if (w == NULL)
        return;
    if (w->priv != NULL) {
        free(w->priv->copy);
        cz__binfile_close(&w->priv->bf);
        free(w->priv);
    }
    free(w);
}

const char *cz_wtns_name(const cz_wtns *w) {
    return w->priv->bf.name;
}

int cz_wtns_check_against_zkey(const cz_wtns *w, const cz_zkey *zk, cz_errinfo *ei) {
    if (w->curve != zk->curve)
        return cz_fail(
            ei, CZ_ECURVE, "witness %s is over the scalar field of %s but proving key %s is for %s",
            cz_wtns_name(w), cz_curve_name(w->curve), cz_zkey_name(zk), cz_curve_name(zk->curve));
    if (w->nwitness != zk->nvars)
        return cz_fail(ei, CZ_EFORMAT, "witness %s has %u values but proving key %s has nVars = %u",
                       cz_wtns_name(w), w->nwitness, cz_zkey_name(zk), zk->nvars);
    return CZ_OK;
}

static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

int cz_wtns_write(const char *path, cz_curve_id curve, const uint64_t *values, uint32_t n,
                  cz_errinfo *ei) {
    const cz__curve_info *ci = cz__curve_info_of(curve);
    if (ci == NULL)
        return cz_fail(ei, CZ_EINVAL, "%s: unknown curve id %d", path, (int)curve);
    for (uint32_t i = 0; i < n; i++) {
        uint8_t le[WTNS_N8];
        for (int k = 0; k < 4; k++)
            put64(le + 8 * k, values[(size_t)i * CZ_WTNS_LIMBS + k]);
        if (!cz__le_lt(le, ci->r, 4))
            return cz_fail(ei, CZ_ENONCANON, "%s: witness %u is not below r", path, i);
    }
    /* Header: file header, section 1 (n8, prime, n), section 2 header. */
    uint8_t head[12 + 12 + 4 + WTNS_N8 + 4 + 12];
    uint8_t *p = head;
    memcpy(p, "wtns", 4);
    put32(p + 4, 2);
    put32(p + 8, 2);
    p += 12;
    put32(p, SECT_HEADER);
    put64(p + 4, 4 + WTNS_N8 + 4);
    p += 12;
    put32(p, WTNS_N8);
    for (int k = 0; k < 4; k++)
        put64(p + 4 + 8 * k, ci->r[k]);
    put32(p + 4 + WTNS_N8, n);
    p += 4 + WTNS_N8 + 4;
    put32(p, SECT_VALUES);
    put64(p + 4, (uint64_t)n * WTNS_N8);

    int rc = CZ_OK;
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return cz_fail(ei, CZ_EIO, "%s: cannot create: %s", path, strerror(errno));
    if (fwrite(head, 1, sizeof head, f) != sizeof head)
        rc = CZ_EIO;
    for (uint32_t i = 0; i < n && rc == CZ_OK; i++) {
        uint8_t le[WTNS_N8];
        for (int k = 0; k < 4; k++)
            put64(le + 8 * k, values[(size_t)i * CZ_WTNS_LIMBS + k]);
        if (fwrite(le, 1, sizeof le, f) != sizeof le)
            rc = CZ_EIO;
    }
    if (fclose(f) != 0)
        rc = CZ_EIO;
    if (rc != CZ_OK)
        return cz_fail(ei, CZ_EIO, "%s: write failed: %s", path, strerror(errno));
    return CZ_OK;
}
