/*
 * snarkjs Groth16 .zkey reader (see cuzk/zkey.h for the format and the guarantees).
 *
 * Sections read: 1 protocol, 2 header, 3 IC, 4 coefficients, 5 A, 6 B1, 7 B2, 8 C, 9 H. Section 10
 * (MPC transcript) and unknown ids are ignored. Every check is one pass over the section; points
 * are exposed in place (or from an aligned copy), never converted.
 */
#include "cuzk/zkey.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/binfile.h"
#include "formats/fmt_curve.h"
#include "formats/zkey_internal.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the zkey reader exposes file bytes as limbs: little-endian hosts only"
#endif
_Static_assert(sizeof(cz_bn254_g1_affine) == 64 && sizeof(cz_bn254_g2_affine) == 128,
               "BN254 affine points must match snarkjs LEM layout");
_Static_assert(sizeof(cz_bls12381_g1_affine) == 96 && sizeof(cz_bls12381_g2_affine) == 192,
               "BLS12-381 affine points must match snarkjs LEM layout");

enum {
    SECT_PROTOCOL = 1,
    SECT_HEADER = 2,
    SECT_IC = 3,
    SECT_COEFS = 4,
    SECT_A = 5,
    SECT_B1 = 6,
    SECT_B2 = 7,
    SECT_C = 8,
    SECT_H = 9,
};
enum { PROTOCOL_GROTH16 = 1, PROTOCOL_PLONK = 2, PROTOCOL_FFLONK = 10 };

typedef struct open_ctx {
    cz_zkey *zk;
    cz__binfile *bf;
    const cz__curve_info *ci;
    size_t g1_bytes, g2_bytes;
    cz_errinfo *ei;
} open_ctx;

/* Checks that n points of `coords` Fq coordinates each, at absolute offset off, are all < q. */
static int check_canonical(const open_ctx *c, uint32_t id, uint64_t off, size_t n, size_t coords) {
    size_t nlimbs = c->ci->n8q / 8;
    size_t bad = cz__first_noncanonical(c->bf->data + off, n * coords, c->ci->q, nlimbs);
    if (bad == n * coords)
        return CZ_OK;
    return cz__binfile_fail(c->bf, c->ei, CZ_ENONCANON, id, off + bad * c->ci->n8q,
                            "point %zu: coordinate %zu is not below q", bad / coords, bad % coords);
}

/* Reads one header point of `bytes` bytes into dst (a struct of the same layout). */
static int read_header_point(open_ctx *c, cz__breader *r, void *dst, size_t bytes,
                             const char *what) {
    const uint8_t *p = NULL;
    uint64_t off = r->pos;
    int rc = cz__breader_bytes(r, &p, bytes, what, c->ei);
    if (rc != CZ_OK)
        return rc;
    size_t bad = cz__first_noncanonical(p, bytes / c->ci->n8q, c->ci->q, c->ci->n8q / 8);
    if (bad != bytes / c->ci->n8q)
        return cz__binfile_fail(c->bf, c->ei, CZ_ENONCANON, SECT_HEADER, off + bad * c->ci->n8q,
                                "%s: coordinate %zu is not below q", what, bad);
    memcpy(dst, p, bytes);
    return CZ_OK;
}

/* Finds a point section of exactly n points of `bytes` bytes, checks it and exposes it. */
static int map_points(open_ctx *c, uint32_t id, size_t n, size_t bytes, const char *what,
                      const void **out) {
    cz__bsect s;
    int rc = cz__binfile_find(c->bf, id, 1, &s, c->ei);
    if (rc != CZ_OK)
        return rc;
    uint64_t want = (uint64_t)n * bytes;
    if (s.size != want)
        return cz__binfile_fail(
            c->bf, c->ei, CZ_EFORMAT, id, s.off,
            "%s section has %llu bytes, expected %llu (%zu points of %zu bytes)", what,
            (unsigned long long)s.size, (unsigned long long)want, n, bytes);
    rc = check_canonical(c, id, s.off, n, bytes / c->ci->n8q);
    if (rc != CZ_OK)
        return rc;
    c->zk->priv->sect_off[id] = s.off;
    const uint8_t *p = c->bf->data + s.off;
    if ((uintptr_t)p % sizeof(uint64_t) == 0) {
        *out = p;
        return CZ_OK;
    }
    struct cz__zkey_priv *pv = c->zk->priv;
    CZ_ASSERT(pv->ncopies < CZ__ZKEY_MAX_COPIES);
    void *copy = malloc(want ? want : 1);
    if (copy == NULL)
        return cz_fail(c->ei, CZ_ENOMEM, "%s: out of memory copying %llu bytes of section %u",
                       c->bf->name, (unsigned long long)want, id);
    memcpy(copy, p, want);
    pv->copies[pv->ncopies++] = copy;
    *out = copy;
    return CZ_OK;
}

static int read_protocol(open_ctx *c) {
    cz__bsect s;
    cz__breader r;
    uint32_t protocol;
    int rc = cz__binfile_find(c->bf, SECT_PROTOCOL, 1, &s, c->ei);
    if (rc != CZ_OK)
        return rc;
    cz__breader_init(&r, c->bf, &s);
    if ((rc = cz__breader_u32(&r, &protocol, "protocol id", c->ei)) != CZ_OK ||
        (rc = cz__breader_expect_end(&r, "the protocol id", c->ei)) != CZ_OK)
        return rc;
    if (protocol == PROTOCOL_GROTH16)
        return CZ_OK;
    const char *name = protocol == PROTOCOL_PLONK    ? "a PLONK key"
                       : protocol == PROTOCOL_FFLONK ? "an FFLONK key"
                                                     : "an unknown protocol";
    return cz__binfile_fail(c->bf, c->ei, CZ_EUNSUPPORTED, SECT_PROTOCOL, s.off,
                            "protocol %u (%s) is not supported: only Groth16 (1) keys are",
                            protocol, name);
}

static int read_header(open_ctx *c) {
    cz_zkey *zk = c->zk;
    cz__bsect s;
    cz__breader r;
    uint32_t n8q, n8r, domain;
    const uint8_t *q = NULL, *rr = NULL;
    int rc = cz__binfile_find(c->bf, SECT_HEADER, 1, &s, c->ei);
    if (rc != CZ_OK)
        return rc;
    cz__breader_init(&r, c->bf, &s);
    if ((rc = cz__breader_u32(&r, &n8q, "n8q", c->ei)) != CZ_OK)
        return rc;
    uint64_t qoff = r.pos;
    if ((rc = cz__breader_bytes(&r, &q, n8q, "q", c->ei)) != CZ_OK)
        return rc;
    c->ci = cz__curve_by_q(q, n8q);
    if (c->ci == NULL) {
        return cz__binfile_fail(c->bf, c->ei, CZ_ECURVE, SECT_HEADER, qoff,
                                "unknown curve: the %u-byte q is the base field of neither "
                                "BN254 nor BLS12-381",
                                n8q);
    }
    if ((rc = cz__breader_u32(&r, &n8r, "n8r", c->ei)) != CZ_OK)
        return rc;
    uint64_t roff = r.pos;
    if ((rc = cz__breader_bytes(&r, &rr, n8r, "r", c->ei)) != CZ_OK)
        return rc;
    if (cz__curve_by_r(rr, n8r) != c->ci) {
        return cz__binfile_fail(c->bf, c->ei, CZ_ECURVE, SECT_HEADER, roff,
                                "the %u-byte r is not the scalar field of %s", n8r,
                                cz_curve_name(c->ci->id));
    }
    zk->curve = c->ci->id;
    c->g1_bytes = 2 * (size_t)c->ci->n8q;
    c->g2_bytes = 4 * (size_t)c->ci->n8q;
    uint64_t noff = r.pos;
    if ((rc = cz__breader_u32(&r, &zk->nvars, "nVars", c->ei)) != CZ_OK ||
        (rc = cz__breader_u32(&r, &zk->npublic, "nPublic", c->ei)) != CZ_OK ||
        (rc = cz__breader_u32(&r, &domain, "domainSize", c->ei)) != CZ_OK)
        return rc;
    if (zk->nvars == 0 || zk->npublic >= zk->nvars)
        return cz__binfile_fail(c->bf, c->ei, CZ_EFORMAT, SECT_HEADER, noff,
                                "nPublic = %u must be below nVars = %u", zk->npublic, zk->nvars);
    if (domain == 0 || (domain & (domain - 1)) != 0)
        return cz__binfile_fail(c->bf, c->ei, CZ_EFORMAT, SECT_HEADER, noff + 8,
                                "domainSize = %u is not a power of two", domain);
    zk->domain_size = domain;
    zk->log_domain_size = (uint32_t)__builtin_ctz(domain);
    if (zk->log_domain_size > c->ci->fr_2adicity)
        return cz__binfile_fail(c->bf, c->ei, CZ_EFORMAT, SECT_HEADER, noff + 8,
                                "domainSize = 2^%u exceeds the 2^%u roots of unity of Fr",
                                zk->log_domain_size, c->ci->fr_2adicity);
    /* Both union members have the same layout apart from widths: fill through the right one. */
    void *alpha1, *beta1, *beta2, *gamma2, *delta1, *delta2;
    if (zk->curve == CZ_CURVE_BN254) {
        cz_zkey_bn254 *k = &zk->u.bn254;
        alpha1 = &k->alpha1, beta1 = &k->beta1, beta2 = &k->beta2;
        gamma2 = &k->gamma2, delta1 = &k->delta1, delta2 = &k->delta2;
    } else {
        cz_zkey_bls12381 *k = &zk->u.bls12381;
        alpha1 = &k->alpha1, beta1 = &k->beta1, beta2 = &k->beta2;
        gamma2 = &k->gamma2, delta1 = &k->delta1, delta2 = &k->delta2;
    }
    zk->priv->header_points_off = r.pos;
    if ((rc = read_header_point(c, &r, alpha1, c->g1_bytes, "alpha1")) != CZ_OK ||
        (rc = read_header_point(c, &r, beta1, c->g1_bytes, "beta1")) != CZ_OK ||
        (rc = read_header_point(c, &r, beta2, c->g2_bytes, "beta2")) != CZ_OK ||
        (rc = read_header_point(c, &r, gamma2, c->g2_bytes, "gamma2")) != CZ_OK ||
        (rc = read_header_point(c, &r, delta1, c->g1_bytes, "delta1")) != CZ_OK ||
        (rc = read_header_point(c, &r, delta2, c->g2_bytes, "delta2")) != CZ_OK)
        return rc;
    return cz__breader_expect_end(&r, "the Groth16 header", c->ei);
}

static int read_coefs(open_ctx *c) {
    cz_zkey *zk = c->zk;
    cz__bsect s;
    cz__breader r;
    uint32_t n;
    const uint8_t *p = NULL;
    int rc = cz__binfile_find(c->bf, SECT_COEFS, 1, &s, c->ei);
    if (rc != CZ_OK)
        return rc;
    cz__breader_init(&r, c->bf, &s);
    if ((rc = cz__breader_u32(&r, &n, "coefficient count", c->ei)) != CZ_OK)
        return rc;
    uint64_t entry = 12 + (uint64_t)c->ci->n8r;
    if (cz__breader_left(&r) / entry != n || cz__breader_left(&r) % entry != 0)
        return cz__binfile_fail(
            c->bf, c->ei, CZ_EFORMAT, SECT_COEFS, s.off,
            "%u coefficients of %llu bytes need %llu bytes, the section has %llu", n,
            (unsigned long long)entry, (unsigned long long)(n * entry),
            (unsigned long long)cz__breader_left(&r));
    uint64_t base = r.pos;
    if ((rc = cz__breader_bytes(&r, &p, n * entry, "coefficients", c->ei)) != CZ_OK)
        return rc;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = p + i * entry;
        uint64_t off = base + i * entry;
        uint32_t m = cz__le32(e), row = cz__le32(e + 4), sig = cz__le32(e + 8);
        if (m > 1)
            return cz__binfile_fail(c->bf, c->ei, CZ_EFORMAT, SECT_COEFS, off,
                                    "coefficient %u: matrix %u is neither 0 (A) nor 1 (B)", i, m);
        if (row >= zk->domain_size)
            return cz__binfile_fail(c->bf, c->ei, CZ_EFORMAT, SECT_COEFS, off + 4,
                                    "coefficient %u: constraint %u is not below domainSize %u", i,
                                    row, zk->domain_size);
        if (sig >= zk->nvars)
            return cz__binfile_fail(c->bf, c->ei, CZ_EFORMAT, SECT_COEFS, off + 8,
                                    "coefficient %u: signal %u is not below nVars %u", i, sig,
                                    zk->nvars);
        if (!cz__le_lt(e + 12, c->ci->r, c->ci->n8r / 8))
            return cz__binfile_fail(c->bf, c->ei, CZ_ENONCANON, SECT_COEFS, off + 12,
                                    "coefficient %u: value is not below r", i);
    }
    zk->ncoefs = n;
    zk->coefs = p;
    return CZ_OK;
}

static int read_points(open_ctx *c) {
    cz_zkey *zk = c->zk;
    size_t nv = zk->nvars, np = (size_t)zk->npublic + 1, g1 = c->g1_bytes, g2 = c->g2_bytes;
    const void *ic, *a, *b1, *b2, *cc, *h;
    int rc;
    if ((rc = map_points(c, SECT_IC, np, g1, "IC", &ic)) != CZ_OK ||
        (rc = map_points(c, SECT_A, nv, g1, "A", &a)) != CZ_OK ||
        (rc = map_points(c, SECT_B1, nv, g1, "B1", &b1)) != CZ_OK ||
        (rc = map_points(c, SECT_B2, nv, g2, "B2", &b2)) != CZ_OK ||
        (rc = map_points(c, SECT_C, nv - np, g1, "C", &cc)) != CZ_OK ||
        (rc = map_points(c, SECT_H, zk->domain_size, g1, "H", &h)) != CZ_OK)
        return rc;
    if (zk->curve == CZ_CURVE_BN254) {
        cz_zkey_bn254 *k = &zk->u.bn254;
        k->ic = ic, k->a = a, k->b1 = b1, k->b2 = b2, k->c = cc, k->h = h;
    } else {
        cz_zkey_bls12381 *k = &zk->u.bls12381;
        k->ic = ic, k->a = a, k->b1 = b1, k->b2 = b2, k->c = cc, k->h = h;
    }
    return CZ_OK;
}

/* Opens the key over bf's source: path (read into memory) when data is NULL, else data (taken
 * over when release is set). */
static int open_common(cz_zkey **out, const char *path, void *data, size_t size,
                       const cz__binfile_release *release, cz_errinfo *ei) {
    *out = NULL;
    cz_zkey *zk = calloc(1, sizeof *zk);
    struct cz__zkey_priv *pv = calloc(1, sizeof *pv);
    int rc;
    if (zk == NULL || pv == NULL) {
        free(zk);
        free(pv);
        if (data != NULL && release != NULL)
            release->fn(release->arg, data, size);
        return cz_fail(ei, CZ_ENOMEM, "%s: out of memory", path);
    }
    zk->priv = pv;
    rc = data != NULL ? cz__binfile_open_owned(&pv->bf, data, size, path, release, "zkey", 1, ei)
                      : cz__binfile_open(&pv->bf, path, "zkey", 1, ei);
    if (rc != CZ_OK) {
        free(pv);
        free(zk);
        return rc;
    }
    open_ctx c = {.zk = zk, .bf = &pv->bf, .ei = ei};
    if ((rc = read_protocol(&c)) != CZ_OK || (rc = read_header(&c)) != CZ_OK ||
        (rc = read_coefs(&c)) != CZ_OK || (rc = read_points(&c)) != CZ_OK) {
        cz_zkey_close(zk);
        return rc;
    }
    *out = zk;
    return CZ_OK;
}

int cz_zkey_open(cz_zkey **out, const char *path, cz_errinfo *ei) {
    if (path == NULL) {
        *out = NULL;
        return cz_fail(ei, CZ_EINVAL, "zkey: no file name");
    }
    return open_common(out, path, NULL, 0, NULL, ei);
}

int cz_zkey_open_mem(cz_zkey **out, const void *data, size_t size, const char *name,
                     cz_errinfo *ei) {
    static const uint8_t empty[1];
    return open_common(out, name ? name : "(buffer)", (void *)(data ? data : empty),
                       data ? size : 0, NULL, ei);
}

int cz_zkey_open_owned(cz_zkey **out, void *data, size_t size, const char *name,
                       void (*release)(void *arg, void *data, size_t size), void *arg,
                       cz_errinfo *ei) {
    static const uint8_t empty[1];
    const cz__binfile_release r = {release, arg};
    if (data == NULL) /* nothing to take over */
        return open_common(out, name ? name : "(buffer)", (void *)empty, 0, NULL, ei);
    return open_common(out, name ? name : "(buffer)", data, size, &r, ei);
}

void cz_zkey_close(cz_zkey *zk) {
    if (zk == NULL)
        return;
    struct cz__zkey_priv *pv = zk->priv;
    if (pv != NULL) {
        for (size_t i = 0; i < pv->ncopies; i++)
            free(pv->copies[i]);
        cz__binfile_close(&pv->bf);
        free(pv);
    }
    free(zk);
}

const char *cz_zkey_name(const cz_zkey *zk) {
    return zk->priv->bf.name;
}

void cz_zkey_coef_at(cz_zkey_coef *out, const cz_zkey *zk, size_t i) {
    CZ_ASSERT(i < zk->ncoefs);
    const uint8_t *e = zk->coefs + i * CZ_ZKEY_COEF_BYTES;
    out->matrix = cz__le32(e);
    out->row = cz__le32(e + 4);
    out->signal = cz__le32(e + 8);
    for (int k = 0; k < 4; k++)
        out->value[k] = cz__le64(e + 12 + 8 * k);
}
