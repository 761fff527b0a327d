/*
 * .r1cs version 1 reader (see cuzk/r1cs_file.h). Section 2 is walked twice: the first pass checks
 * every count, wire and coefficient and counts the terms (so allocations are bounded by the file
 * size, never by a count read from it), the second fills the arrays.
 */
#include "cuzk/r1cs_file.h"

#include <stdlib.h>
#include <string.h>

#include "formats/binfile.h"
#include "formats/fmt_curve.h"

enum { SECT_HEADER = 1, SECT_CONSTRAINTS = 2, SECT_LABELS = 3, SECT_CG_LIST = 4, SECT_CG_USES = 5 };
#define R1CS_N8    32
#define TERM_BYTES (4 + R1CS_N8)

struct cz__r1cs_priv {
    char *name;
    cz_r1cs_constraint *constraints;
    cz_r1cs_term *terms;
    uint64_t *labels;
};

static int read_header(cz_r1cs_file *rf, const cz__binfile *bf, const cz__curve_info **ci,
                       cz_errinfo *ei) {
    cz__bsect s;
    cz__breader r;
    uint32_t n8;
    const uint8_t *prime = NULL;
    int rc = cz__binfile_find(bf, SECT_HEADER, 1, &s, ei);
    if (rc != CZ_OK)
        return rc;
    cz__breader_init(&r, bf, &s);
    if ((rc = cz__breader_u32(&r, &n8, "n8", ei)) != CZ_OK)
        return rc;
    uint64_t poff = r.pos;
    if ((rc = cz__breader_bytes(&r, &prime, n8, "prime", ei)) != CZ_OK)
        return rc;
    *ci = cz__curve_by_r(prime, n8);
    if (*ci == NULL) {
        return cz__binfile_fail(bf, ei, CZ_ECURVE, SECT_HEADER, poff,
                                "the %u-byte prime is the scalar field of neither BN254 nor "
                                "BLS12-381",
                                n8);
    }
    rf->curve = (*ci)->id;
    uint64_t woff = r.pos;
    if ((rc = cz__breader_u32(&r, &rf->nwires, "nWires", ei)) != CZ_OK ||
        (rc = cz__breader_u32(&r, &rf->npub_out, "nPubOut", ei)) != CZ_OK ||
        (rc = cz__breader_u32(&r, &rf->npub_in, "nPubIn", ei)) != CZ_OK ||
        (rc = cz__breader_u32(&r, &rf->nprv_in, "nPrvIn", ei)) != CZ_OK ||
        (rc = cz__breader_u64(&r, &rf->nlabels, "nLabels", ei)) != CZ_OK ||
        (rc = cz__breader_u32(&r, &rf->nconstraints, "nConstraints", ei)) != CZ_OK ||
        (rc = cz__breader_expect_end(&r, "the r1cs header", ei)) != CZ_OK)
        return rc;
    uint64_t named = 1 + (uint64_t)rf->npub_out + rf->npub_in + rf->nprv_in;
    if (named > rf->nwires)
        return cz__binfile_fail(bf, ei, CZ_EFORMAT, SECT_HEADER, woff,
                                "1 + %u outputs + %u public + %u private inputs exceed nWires = %u",
                                rf->npub_out, rf->npub_in, rf->nprv_in, rf->nwires);
    return CZ_OK;
}

/*
 * Walks section 2. Without output arrays (cons == NULL) it checks everything and counts terms;
 * with them it fills cons[nconstraints] and terms[*nterms] (the file is known good by then).
 */
static int walk_constraints(const cz_r1cs_file *rf, const cz__binfile *bf, const cz__bsect *s,
                            const cz__curve_info *ci, cz_r1cs_constraint *cons, cz_r1cs_term *terms,
                            size_t *nterms, cz_errinfo *ei) {
    static const char *lc_names[3] = {"A", "B", "C"};
    cz__breader r;
    size_t t = 0;
    int rc;
    cz__breader_init(&r, bf, s);
    for (uint32_t i = 0; i < rf->nconstraints; i++) {
        for (int m = 0; m < 3; m++) {
            uint32_t n;
            const uint8_t *p = NULL;
            uint64_t off = r.pos;
            if ((rc = cz__breader_u32(&r, &n, "term count", ei)) != CZ_OK)
                return rc;
            /* n × TERM_BYTES fits in u64; the reader checks it against the section end. */
            uint64_t base = r.pos;
            if ((rc = cz__breader_bytes(&r, &p, (uint64_t)n * TERM_BYTES, "terms", ei)) != CZ_OK)
                return cz__binfile_fail(bf, ei, CZ_EFORMAT, SECT_CONSTRAINTS, off,
                                        "constraint %u, LC %s: %u terms", i, lc_names[m], n);
            if (cons != NULL) {
                cz_r1cs_lc *lc = m == 0 ? &cons[i].a : m == 1 ? &cons[i].b : &cons[i].c;
                lc->nterms = n;
                lc->terms = terms + t;
            }
            for (uint32_t k = 0; k < n; k++, t++) {
                const uint8_t *e = p + (size_t)k * TERM_BYTES;
                uint32_t wire = cz__le32(e);
                if (cons != NULL) {
                    terms[t].wire = wire;
                    for (int l = 0; l < 4; l++)
                        terms[t].coef[l] = cz__le64(e + 4 + 8 * l);
                    continue;
                }
                uint64_t eoff = base + (uint64_t)k * TERM_BYTES;
                if (wire >= rf->nwires)
                    return cz__binfile_fail(bf, ei, CZ_EFORMAT, SECT_CONSTRAINTS, eoff,
                                            "constraint %u, LC %s, term %u: wire %u is not below "
                                            "nWires %u",
                                            i, lc_names[m], k, wire, rf->nwires);
                if (!cz__le_lt(e + 4, ci->r, R1CS_N8 / 8))
                    return cz__binfile_fail(bf, ei, CZ_ENONCANON, SECT_CONSTRAINTS, eoff + 4,
                                            "constraint %u, LC %s, term %u: coefficient is not "
                                            "below the prime",
                                            i, lc_names[m], k);
            }
        }
    }
    *nterms = t;
    return cz__breader_expect_end(&r, "the constraints", ei);
}

static int read_labels(cz_r1cs_file *rf, const cz__binfile *bf, cz_errinfo *ei) {
    cz__bsect s;
    int rc = cz__binfile_find(bf, SECT_LABELS, 0, &s, ei);
    if (rc == CZ_ENOTFOUND)
        return CZ_OK;
    if (rc != CZ_OK)
        return rc;
    if (s.size != (uint64_t)rf->nwires * 8)
        return cz__binfile_fail(bf, ei, CZ_EFORMAT, SECT_LABELS, s.off,
                                "section has %llu bytes, expected %llu for %u wires",
                                (unsigned long long)s.size, (unsigned long long)rf->nwires * 8,
                                rf->nwires);
    uint64_t *labels = malloc(s.size ? s.size : 1);
    if (labels == NULL)
        return cz_fail(ei, CZ_ENOMEM, "%s: out of memory for %u wire labels", bf->name, rf->nwires);
    for (uint32_t i = 0; i < rf->nwires; i++)
        labels[i] = cz__le64(bf->data + s.off + 8 * (uint64_t)i);
    rf->priv->labels = labels;
    rf->wire_labels = labels;
    return CZ_OK;
}

static int parse(cz_r1cs_file *rf, const cz__binfile *bf, cz_errinfo *ei) {
    const cz__curve_info *ci;
    cz__bsect s;
    size_t nterms;
    int rc = read_header(rf, bf, &ci, ei);
    if (rc != CZ_OK)
        return rc;
    for (uint32_t id = SECT_CG_LIST; id <= SECT_CG_USES; id++) {
        rc = cz__binfile_find(bf, id, 0, &s, ei);
        if (rc == CZ_OK)
            return cz__binfile_fail(bf, ei, CZ_EUNSUPPORTED, id, s.off,
                                    "custom gates (PLONK only) are not supported");
        if (rc != CZ_ENOTFOUND)
            return rc;
    }
    if ((rc = cz__binfile_find(bf, SECT_CONSTRAINTS, 1, &s, ei)) != CZ_OK)
        return rc;
    /* Each constraint takes at least 3 term counts: bounds the allocation below. */
    if (rf->nconstraints > s.size / 12)
        return cz__binfile_fail(bf, ei, CZ_EFORMAT, SECT_CONSTRAINTS, s.off,
                                "%u constraints cannot fit in %llu bytes", rf->nconstraints,
                                (unsigned long long)s.size);
    if ((rc = walk_constraints(rf, bf, &s, ci, NULL, NULL, &nterms, ei)) != CZ_OK)
        return rc;
    rf->priv->constraints =
        calloc(rf->nconstraints ? rf->nconstraints : 1, sizeof(cz_r1cs_constraint));
    rf->priv->terms = calloc(nterms ? nterms : 1, sizeof(cz_r1cs_term));
    if (rf->priv->constraints == NULL || rf->priv->terms == NULL)
        return cz_fail(ei, CZ_ENOMEM, "%s: out of memory for %u constraints, %zu terms", bf->name,
                       rf->nconstraints, nterms);
    rc = walk_constraints(rf, bf, &s, ci, rf->priv->constraints, rf->priv->terms, &nterms, ei);
    CZ_ASSERT(rc == CZ_OK);
    rf->constraints = rf->priv->constraints;
    rf->nterms = nterms;
    return read_labels(rf, bf, ei);
}

static int open_common(cz_r1cs_file **out, const char *name, const void *data, size_t size,
                       cz_errinfo *ei) {
    *out = NULL;
    cz__binfile bf;
    cz_r1cs_file *rf = calloc(1, sizeof *rf);
    struct cz__r1cs_priv *pv = calloc(1, sizeof *pv);
    if (rf == NULL || pv == NULL || (pv->name = strdup(name)) == NULL) {
        free(pv);
        free(rf);
        return cz_fail(ei, CZ_ENOMEM, "%s: out of memory", name);
    }
    rf->priv = pv;
    int rc = data != NULL ? cz__binfile_open_mem(&bf, data, size, name, "r1cs", 1, ei)
                          : cz__binfile_open(&bf, name, "r1cs", 1, ei);
    if (rc == CZ_OK) {
        rc = parse(rf, &bf, ei);
        cz__binfile_close(&bf);
    }
    if (rc != CZ_OK) {
        cz_r1cs_close(rf);
        return rc;
    }
    *out = rf;
    return CZ_OK;
}

int cz_r1cs_open(cz_r1cs_file **out, const char *path, cz_errinfo *ei) {
    if (path == NULL) {
        *out = NULL;
        return cz_fail(ei, CZ_EINVAL, "r1cs: no file name");
    }
    return open_common(out, path, NULL, 0, ei);
}

int cz_r1cs_open_mem(cz_r1cs_file **out, const void *data, size_t size, const char *name,
                     cz_errinfo *ei) {
    static const uint8_t empty[1];
    return open_common(out, name ? name : "(buffer)", data ? data : empty, data ? size : 0, ei);
}

void cz_r1cs_close(cz_r1cs_file *rf) {
    if (rf == NULL)
        return;
    if (rf->priv != NULL) {
        free(rf->priv->constraints);
        free(rf->priv->terms);
        free(rf->priv->labels);
        free(rf->priv->name);
        free(rf->priv);
    }
    free(rf);
}
