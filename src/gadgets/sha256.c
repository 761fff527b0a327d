/*
 * The SHA-256 gadget (sha256.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/sha256.h"
#include "gadgets/sha256.h"

/* A word that is either known (concrete) or the sum of up to 8 operands not yet added (bellperson's
 * Maybe::Deferred: the addmany happens when the word is first used, with what is added then). */
typedef struct {
    int deferred;
    cz__u32 word;
    cz__u32 ops[8];
    size_t nops;
} maybe_u32;

static cz__u32 maybe_compute(cz__cs *cs, cz__multieq *m, maybe_u32 *x, const cz__u32 *more) {
    if (!x->deferred)
        return x->word;
    if (more != NULL)
        x->ops[x->nops++] = *more;
    return cz__u32_addmany(cs, m, x->ops, x->nops);
}

/* x ^ rotr/shr(y, s2) ^ rotr/shr(y, s3) with x = rotr(y, s1): the σ and Σ functions, two xors. */
static cz__u32 sigma(cz__cs *cs, const cz__u32 *y, unsigned s1, unsigned s2, unsigned s3,
                     int shift_last) {
    cz__u32 r = cz__u32_rotr(y, s1), t = cz__u32_rotr(y, s2);
    r = cz__u32_xor(cs, &r, &t);
    t = shift_last ? cz__u32_shr(y, s3) : cz__u32_rotr(y, s3);
    return cz__u32_xor(cs, &r, &t);
}

void cz__sha256_compress(cz__cs *cs, cz__u32 out[8], const cz__bool in[512], const cz__u32 cur[8]) {
    cz__u32 *w = malloc(64 * sizeof *w), b, c, d, f, g, h;
    maybe_u32 *a = malloc(sizeof *a), *e = malloc(sizeof *e);
    cz__multieq m;
    if (w == NULL || a == NULL || e == NULL) {
        cz__cs_fail(cs, CZ_ENOMEM, "sha256: compression state");
        goto out;
    }
    cz__multieq_init(&m, cs);
    for (int i = 0; i < 16; i++)
        w[i] = cz__u32_from_bits_be(&in[32 * i]);
    for (int i = 16; i < 64; i++) {
        cz__u32 ops[4];
        ops[0] = w[i - 16];
        ops[1] = sigma(cs, &w[i - 15], 7, 18, 3, 1);
        ops[2] = w[i - 7];
        ops[3] = sigma(cs, &w[i - 2], 17, 19, 10, 1);
        w[i] = cz__u32_addmany(cs, &m, ops, 4);
    }
    a->deferred = e->deferred = 0;
    a->word = cur[0], b = cur[1], c = cur[2], d = cur[3];
    e->word = cur[4], f = cur[5], g = cur[6], h = cur[7];
    for (int i = 0; i < 64; i++) {
        cz__u32 new_e = maybe_compute(cs, &m, e, NULL), s1, ch, new_a, s0, maj, t1[5];
        s1 = sigma(cs, &new_e, 6, 11, 25, 0);
        ch = cz__u32_sha256_ch(cs, &new_e, &f, &g);
        t1[0] = h, t1[1] = s1, t1[2] = ch, t1[3] = cz__u32_const(cz_sha256_k[i]), t1[4] = w[i];
        new_a = maybe_compute(cs, &m, a, NULL);
        s0 = sigma(cs, &new_a, 2, 13, 22, 0);
        maj = cz__u32_sha256_maj(cs, &new_a, &b, &c);
        h = g, g = f, f = new_e;
        e->deferred = 1, e->nops = 6;
        memcpy(e->ops, t1, sizeof t1);
        e->ops[5] = d;
        d = c, c = b, b = new_a;
        a->deferred = 1, a->nops = 7;
        memcpy(a->ops, t1, sizeof t1);
        a->ops[5] = s0, a->ops[6] = maj;
    }
    {
        const cz__u32 *pairs[8] = {NULL, &b, &c, &d, NULL, &f, &g, &h};
        for (int k = 0; k < 8; k++) {
            if (k == 0 || k == 4) {
                out[k] = maybe_compute(cs, &m, k == 0 ? a : e, &cur[k]);
            } else {
                cz__u32 ops[2] = {cur[k], *pairs[k]};
                out[k] = cz__u32_addmany(cs, &m, ops, 2);
            }
        }
    }
    cz__multieq_finish(&m);
out:
    free(w);
    free(a);
    free(e);
}

static void words_into_bits(cz__bool out[256], const cz__u32 h[8]) {
    for (int k = 0; k < 8; k++)
        cz__u32_into_bits_be(&out[32 * k], &h[k]);
}

static void iv_words(cz__u32 h[8]) {
    for (int k = 0; k < 8; k++)
        h[k] = cz__u32_const(cz_sha256_iv[k]);
}

void cz__sha256_block(cz__cs *cs, cz__bool out[256], const cz__bool in[512]) {
    cz__u32 iv[8], h[8];
    iv_words(iv);
    cz__sha256_compress(cs, h, in, iv);
    words_into_bits(out, h);
}

void cz__sha256(cz__cs *cs, cz__bool out[256], const cz__bool *in, size_t nbits) {
    const size_t padded = (nbits + 1 + 64 + 511) / 512 * 512;
    cz__bool *p;
    cz__u32 h[8];
    if (nbits % 8 != 0) {
        cz__cs_fail(cs, CZ_EINVAL, "sha256: %zu bits, not whole bytes", nbits);
        return;
    }
    if ((p = malloc(padded * sizeof *p)) == NULL) {
        cz__cs_fail(cs, CZ_ENOMEM, "sha256: %zu padded bits", padded);
        return;
    }
    memcpy(p, in, nbits * sizeof *p);
    p[nbits] = cz__bool_const(1);
    for (size_t i = nbits + 1; i < padded - 64; i++)
        p[i] = cz__bool_const(0);
    for (int i = 0; i < 64; i++)
        p[padded - 64 + (size_t)i] = cz__bool_const((int)(((uint64_t)nbits >> (63 - i)) & 1u));
    iv_words(h);
    for (size_t blk = 0; blk < padded / 512; blk++) {
        cz__u32 next[8];
        cz__sha256_compress(cs, next, &p[512 * blk], h);
        memcpy(h, next, sizeof h);
    }
    words_into_bits(out, h);
    free(p);
}

cz__num cz__sha256_node_circuit(cz__cs *cs, const cz__num *children, size_t n) {
    cz__bool *pre = malloc(256 * n * sizeof *pre), digest[256], le[256], bits[255];
    cz__num r;
    memset(&r, 0, sizeof r);
    if (pre == NULL) {
        cz__cs_fail(cs, CZ_ENOMEM, "sha256: a node of %zu children", n);
        return r;
    }
    for (size_t i = 0; i < n; i++) {
        cz__num_to_bits_le(cs, bits, &children[i]);
        cz__bool_reverse_bytes(&pre[256 * i], bits, 255);
    }
    cz__sha256(cs, digest, pre, 256 * n);
    cz__bool_reverse_bytes(le, digest, 256);
    r = cz__pack_bits(cs, le, 254);
    free(pre);
    return r;
}
