/*
 * The multiplication-chain circuit (cuzk/mulchain.h) as .r1cs and .wtns files, byte for byte what
 * bench/gen_mulchain.mjs writes.
 *
 * Both files are written front to back through a 1 MiB stdio buffer, one fixed-size record per
 * constraint built on the stack: nothing is allocated per constraint and memory does not grow
 * with n. The witness is in wire order, which puts out = x_n (wire 1) before the chain that
 * computes it (wires 3 ..): wire 1 is written as zero first and patched with one seek at the
 * end, so the chain is computed once. Field arithmetic is the library's Montgomery Fr; values
 * leave as canonical little-endian bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/field.h"
#include "cuzk/mulchain.h"
#include "formats/fmt_curve.h"

#define N8         32                          /* bytes of an Fr value on both curves */
#define TERM_BYTES (4 + N8)                    /* wire u32 | coefficient */
#define CONS_BYTES (3 * 4 + 4 * TERM_BYTES)    /* A: 1 term, B: 1 term, C: 2 terms */
#define WTNS_HEAD  (12 + 12 + 4 + N8 + 4 + 12) /* file header, section 1, section 2 header */
#define STDIO_BUF  ((size_t)1 << 20)

static uint8_t *put32(uint8_t *p, uint32_t v) {
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(v >> (8 * k));
    return p + 4;
}

static uint8_t *put64(uint8_t *p, uint64_t v) {
    for (int k = 0; k < 8; k++)
        p[k] = (uint8_t)(v >> (8 * k));
    return p + 8;
}

static uint8_t *put_limbs(uint8_t *p, const uint64_t *l) {
    for (int k = 0; k < 4; k++)
        p = put64(p, l[k]);
    return p;
}

/* Section header: id u32 | size u64. */
static uint8_t *put_section(uint8_t *p, uint32_t id, uint64_t size) {
    return put64(put32(p, id), size);
}

/* The wire of x_i: x_0 is wire 3, x_n is wire 1 (out), x_i for 0 < i < n is wire 3 + i. */
static uint32_t x_wire(uint32_t i, uint32_t n) {
    return i == 0 ? 3 : i == n ? 1 : 3 + i;
}

static uint8_t *put_term(uint8_t *p, uint32_t wire, const uint8_t *coef) {
    p = put32(p, wire);
    memcpy(p, coef, N8);
    return p + N8;
}

static int write_r1cs(FILE *f, const uint64_t *r, uint32_t n) {
    uint32_t nwires = n + 3;
    uint8_t head[12 + 12 + 64 + 12], *p = head;
    uint8_t one[N8] = {1}, minus_one[N8];
    uint64_t rm1[4] = {r[0] - 1, r[1], r[2], r[3]}; /* r is odd: no borrow */
    put_limbs(minus_one, rm1);

    memcpy(p, "r1cs", 4);
    p = put32(put32(p + 4, 1), 3);
    p = put_section(p, 1, 64);
    p = put32(p, N8);
    p = put_limbs(p, r);
    p = put32(put32(put32(put32(p, nwires), 1), 1), 1); /* nWires, nPubOut, nPubIn, nPrvIn */
    p = put32(put64(p, nwires), n);                     /* nLabels, nConstraints */
    p = put_section(p, 2, (uint64_t)n * CONS_BYTES);
    if (fwrite(head, 1, sizeof head, f) != sizeof head)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t rec[CONS_BYTES], *q = rec;
        uint32_t xi = x_wire(i, n);
        q = put_term(put32(q, 1), xi, one);
        q = put_term(put32(q, 1), xi, one);
        q = put_term(put32(q, 2), x_wire(i + 1, n), one);
        put_term(q, 2, minus_one);
        if (fwrite(rec, 1, sizeof rec, f) != sizeof rec)
            return -1;
    }
    uint8_t sect3[12];
    put_section(sect3, 3, (uint64_t)nwires * 8);
    if (fwrite(sect3, 1, sizeof sect3, f) != sizeof sect3)
        return -1;
    for (uint32_t w = 0; w < nwires; w++) {
        uint8_t label[8];
        put64(label, w);
        if (fwrite(label, 1, sizeof label, f) != sizeof label)
            return -1;
    }
    return 0;
}

/* The witness values from wire 3 on (x_0 .. x_(n-1)), then out = x_n patched into wire 1. */
#define WRITE_CHAIN(C)                                                                             \
    static int write_chain_##C(FILE *f, uint32_t n, uint64_t x0, uint64_t b) {                     \
        cz_##C##_fr x, bb;                                                                         \
        uint8_t le[N8];                                                                            \
        cz_##C##_fr_from_u64(&x, x0);                                                              \
        cz_##C##_fr_from_u64(&bb, b);                                                              \
        for (uint32_t i = 0; i < n; i++) {                                                         \
            cz_##C##_fr_to_bytes_le(le, &x);                                                       \
            if (fwrite(le, 1, N8, f) != N8)                                                        \
                return -1;                                                                         \
            cz_##C##_fr_sqr(&x, &x);                                                               \
            cz_##C##_fr_add(&x, &x, &bb);                                                          \
        }                                                                                          \
        cz_##C##_fr_to_bytes_le(le, &x);                                                           \
        if (fseek(f, WTNS_HEAD + N8, SEEK_SET) != 0 || fwrite(le, 1, N8, f) != N8)                 \
            return -1;                                                                             \
        return 0;                                                                                  \
    }
WRITE_CHAIN(bn254)
WRITE_CHAIN(bls12381)

static int write_wtns(FILE *f, const uint64_t *r, cz_curve_id curve, uint32_t n, uint64_t x0,
                      uint64_t b) {
    uint32_t nwires = n + 3;
    uint8_t head[WTNS_HEAD + 3 * N8] = {0}, *p = head;
    memcpy(p, "wtns", 4);
    p = put32(put32(p + 4, 2), 2);
    p = put_section(p, 1, 4 + N8 + 4);
    p = put32(put_limbs(put32(p, N8), r), nwires);
    p = put_section(p, 2, (uint64_t)nwires * N8);
    /* wire 0 = 1, wire 1 = out (zero until patched), wire 2 = b (< 2^64 < r: canonical) */
    uint64_t one[4] = {1, 0, 0, 0}, bl[4] = {b, 0, 0, 0};
    put_limbs(p, one);
    put_limbs(p + 2 * N8, bl);
    if (fwrite(head, 1, sizeof head, f) != sizeof head)
        return -1;
    return curve == CZ_CURVE_BN254 ? write_chain_bn254(f, n, x0, b)
                                   : write_chain_bls12381(f, n, x0, b);
}

uint32_t cz_mulchain_n_for_log_domain(unsigned log_domain) {
    return log_domain < 2 || log_domain > 31 ? 0 : ((uint32_t)1 << log_domain) - 3;
}

/* Creates path and writes it with fn; on failure removes it. */
static int write_file(const char *path, const char *what, cz_errinfo *ei,
                      int (*fn)(FILE *f, const void *arg), const void *arg) {
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return cz_fail(ei, CZ_EIO, "mulchain: cannot create %s %s: %s", what, path,
                       strerror(errno));
    setvbuf(f, NULL, _IOFBF, STDIO_BUF);
    int bad = fn(f, arg) != 0, err = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    if (bad) {
        remove(path);
        return cz_fail(ei, CZ_EIO, "mulchain: writing %s %s failed: %s", what, path, strerror(err));
    }
    return CZ_OK;
}

typedef struct {
    const uint64_t *r;
    cz_curve_id curve;
    uint32_t n;
    uint64_t x0, b;
} job;

static int r1cs_fn(FILE *f, const void *arg) {
    const job *j = arg;
    return write_r1cs(f, j->r, j->n);
}

static int wtns_fn(FILE *f, const void *arg) {
    const job *j = arg;
    return write_wtns(f, j->r, j->curve, j->n, j->x0, j->b);
}

int cz_mulchain_write(const char *r1cs_path, const char *wtns_path, cz_curve_id curve, uint32_t n,
                      uint64_t x0, uint64_t b, cz_errinfo *ei) {
    const cz__curve_info *ci = cz__curve_info_of(curve);
    if (ci == NULL)
        return cz_fail(ei, CZ_EINVAL, "mulchain: unknown curve id %d", (int)curve);
    if (n < 1 || n > UINT32_MAX - 3)
        return cz_fail(ei, CZ_EINVAL, "mulchain: %u constraints (1 .. 2^32 - 4)", n);
    job j = {ci->r, curve, n, x0, b};
    int rc;
    if (r1cs_path != NULL && (rc = write_file(r1cs_path, "r1cs", ei, r1cs_fn, &j)) != CZ_OK)
        return rc;
    if (wtns_path != NULL && (rc = write_file(wtns_path, "wtns", ei, wtns_fn, &j)) != CZ_OK) {
        if (r1cs_path != NULL)
            remove(r1cs_path);
        return rc;
    }
    return CZ_OK;
}
