/*
 * A CPU model of the second GPU NTT schedule (src/gpu/gpu_ntt2.cu): it runs the exact pass, tile,
 * thread, register-group and shared-memory index maps of src/gpu/gpu_ntt2_map.h (the functions the
 * kernels call) with BN254 Fr arithmetic on the CPU, in the kernels' loop order, and compares the
 * result byte for byte with the CPU NTT (cuzk/ntt.h) for all four transform kinds, 2^3..2^14 and
 * every largest pass size 6..11 (plus 2^16 and 2^18 for a few). Along the way it asserts what
 * the kernels rely on: every pass reads and writes each index once, every shared-memory slot is
 * written once per exchange before it is read, twiddle exponents stay below n/2, the twiddle-1
 * skip only happens where e = 0, register pairs are 2^k apart in the tile, and every 128-bit
 * shared access of a quarter warp touches 8 distinct 16-byte bank groups. Needs no GPU.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/field.h"
#include "cuzk/ntt.h"
#include "gpu/gpu_ntt2_map.h"
#include "test.h"

typedef cz_bn254_fr fr;

static uint64_t prng = 0x9e3779b97f4a7c15ULL;

static uint64_t next64(void) {
    uint64_t z = (prng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Model failures of the map invariants (counted once per transform, reported by CHECK). */
static int map_errors;
#define MAP(cond)                                                                                  \
    do {                                                                                           \
        if (!(cond) && map_errors++ < 5)                                                           \
            fprintf(stderr, "map: %s failed (line %d)\n", #cond, __LINE__);                        \
    } while (0)

/* Bank check: the 8 threads u0..u0+7 of a quarter warp access slots sl[0..7] with one 128-bit
 * instruction (one plane); conflict-free iff the slots are distinct mod 8. */
static void bank_check(const uint32_t *sl, unsigned cnt) {
    unsigned seen = 0;
    for (unsigned i = 0; i < cnt; i++)
        seen |= 1u << (sl[i] & 7);
    MAP((unsigned)__builtin_popcount(seen) == cnt);
}

/* One group's butterflies for thread u, in the kernel's loop order. */
static void group(fr x[8], const fr *tw, unsigned log_n, unsigned t, unsigned k0, unsigned g,
                  size_t lo, uint32_t u) {
    const size_t half = (size_t)1 << (log_n - 1);
    for (unsigned i = 0; i < g; i++)
        for (unsigned sub = 0; sub < (1u << (3 - g)); sub++)
            for (unsigned rl = 0; rl < (1u << i); rl++) {
                const uint32_t j = ntt2_j(k0, g, u, sub, rl);
                const size_t e = ntt2_tw(log_n, t, k0 + i, lo, j);
                const int one = t == 0 && k0 == 0 && rl == 0; /* the kernel's skip */
                MAP(e < half);
                if (one)
                    MAP(e == 0);
                for (unsigned rh = 0; rh < (1u << (g - 1 - i)); rh++) {
                    const unsigned r0 = (sub << g) + (rh << (i + 1)) + rl, r1 = r0 + (1u << i);
                    const uint32_t v0 = ntt2_v(k0, g, u, r0), v1 = ntt2_v(k0, g, u, r1);
                    fr y = x[r1];
                    MAP(v1 == v0 + (1u << (k0 + i)));
                    MAP(((v0 >> (k0 + i)) & 1) == 0);
                    MAP(j == (v0 & ((1u << (k0 + i)) - 1)));
                    if (!one)
                        cz_bn254_fr_mul(&y, &y, &tw[e]);
                    cz_bn254_fr_sub(&x[r1], &x[r0], &y);
                    cz_bn254_fr_add(&x[r0], &x[r0], &y);
                }
            }
}

/* The schedule on the CPU: a (natural order in and out) transformed in place. gk[k] = g^k,
 * gik[k] = n⁻¹·g^-k. */
static void model(fr *a, unsigned log_n, unsigned smax, int kind, const fr *tw, const fr *gk,
                  const fr *gik, const fr *ninv) {
    const size_t n = (size_t)1 << log_n;
    const unsigned np = ntt2_npass(log_n, smax);
    fr *scratch = malloc(n * sizeof *scratch);
    uint8_t *rd = calloc(n, 1), *wr = calloc(n, 1);
    CZ_ASSERT(scratch && rd && wr);
    for (unsigned p = 0, t = 0; p < np; p++) {
        const unsigned s = ntt2_pass_s(log_n, np, p);
        const int first = p == 0, last = p + 1 == np;
        const fr *src = first ? a : scratch;
        fr *dst = last ? a : scratch;
        const uint32_t nthr = 1u << (s - 3), tile = 1u << s;
        fr(*x)[8] = malloc(nthr * sizeof *x), *sh = malloc(tile * sizeof *sh);
        uint8_t *shw = malloc(tile);
        uint32_t *sl = malloc(nthr * sizeof *sl);
        CZ_ASSERT(x && sh && shw && sl);
        MAP(s >= NTT2_MIN_S && s <= smax && s <= NTT2_MAX_S);
        memset(rd, 0, n);
        memset(wr, 0, n);
        for (size_t b = 0; b < (n >> s); b++) {
            size_t lo, base;
            unsigned k0 = 0, g = ntt2_group_g(s, 0);
            ntt2_tile(&lo, &base, log_n, s, t, b);
            for (uint32_t u = 0; u < nthr; u++)
                for (unsigned r = 0; r < 8; r++) {
                    const size_t k = ntt2_src(log_n, s, t, b, base, ntt2_v(0, g, u, r));
                    MAP(k < n);
                    if (k >= n)
                        continue;
                    MAP(rd[k]++ == 0);
                    x[u][r] = src[k];
                    if (first && kind == 2)
                        cz_bn254_fr_mul(&x[u][r], &x[u][r], &gk[k]);
                }
            for (;;) {
                unsigned k1, g1;
                for (uint32_t u = 0; u < nthr; u++)
                    group(x[u], tw, log_n, t, k0, g, lo, u);
                k1 = k0 + g;
                if (k1 >= s)
                    break;
                g1 = ntt2_group_g(s, k1);
                /* exchange: every thread writes its 8 in layout (k0, g), barrier, reads in
                 * (k1, g1); the model checks each slot is written once, then read. */
                memset(shw, 0, tile);
                for (unsigned r = 0; r < 8; r++) {
                    for (uint32_t u = 0; u < nthr; u++) {
                        sl[u] = ntt2_slot(ntt2_v(k0, g, u, r));
                        MAP(sl[u] < tile);
                        if (sl[u] >= tile)
                            continue;
                        MAP(shw[sl[u]]++ == 0);
                        sh[sl[u]] = x[u][r];
                    }
                    for (uint32_t u = 0; u < nthr; u += 8)
                        bank_check(&sl[u], nthr < 8 ? nthr : 8);
                }
                for (unsigned r = 0; r < 8; r++) {
                    for (uint32_t u = 0; u < nthr; u++) {
                        sl[u] = ntt2_slot(ntt2_v(k1, g1, u, r));
                        MAP(sl[u] < tile && shw[sl[u] % tile] == 1);
                        x[u][r] = sh[sl[u] % tile];
                    }
                    for (uint32_t u = 0; u < nthr; u += 8)
                        bank_check(&sl[u], nthr < 8 ? nthr : 8);
                }
                k0 = k1;
                g = g1;
            }
            for (uint32_t u = 0; u < nthr; u++)
                for (unsigned r = 0; r < 8; r++) {
                    const int rev_out = last && (kind == 1 || kind == 3);
                    const size_t k = ntt2_dst(log_n, t, base, ntt2_v(k0, g, u, r), rev_out);
                    fr y = x[u][r];
                    MAP(k < n);
                    if (k >= n)
                        continue;
                    MAP(wr[k]++ == 0);
                    if (last && kind == 1)
                        cz_bn254_fr_mul(&y, &y, ninv);
                    else if (last && kind == 3)
                        cz_bn254_fr_mul(&y, &y, &gik[k]);
                    dst[k] = y;
                }
        }
        for (size_t k = 0; k < n; k++)
            MAP(rd[k] == 1 && wr[k] == 1);
        free(x);
        free(sh);
        free(shw);
        free(sl);
        t += s;
    }
    free(scratch);
    free(rd);
    free(wr);
}

/* All kinds at 2^log_n for each largest pass size in smaxs, against the CPU NTT. */
static void check_size(unsigned log_n, const unsigned *smaxs, size_t nsmax, int kinds) {
    const size_t n = (size_t)1 << log_n;
    cz_bn254_ntt_domain *dom = NULL;
    fr w, g, gi, nn, ninv, *tw = malloc(n / 2 * sizeof *tw), *gk = malloc(n * sizeof *gk),
                           *gik = malloc(n * sizeof *gik), *in = malloc(n * sizeof *in),
                           *ref = malloc(n * sizeof *ref), *got = malloc(n * sizeof *got);
    CZ_ASSERT(tw && gk && gik && in && ref && got);
    CZ_ASSERT(cz_bn254_ntt_domain_create(&dom, log_n, NULL, NULL) == CZ_OK);
    CZ_ASSERT(cz_bn254_ntt_root_of_unity(&w, log_n) == CZ_OK);
    CZ_ASSERT(cz_bn254_ntt_coset_gen(&g, log_n) == CZ_OK);
    cz_bn254_fr_inv(&gi, &g);
    cz_bn254_fr_from_u64(&nn, n);
    cz_bn254_fr_inv(&ninv, &nn);
    cz_bn254_fr_one(&tw[0]);
    for (size_t k = 1; k < n / 2; k++)
        cz_bn254_fr_mul(&tw[k], &tw[k - 1], &w);
    cz_bn254_fr_one(&gk[0]);
    gik[0] = ninv;
    for (size_t k = 1; k < n; k++) {
        cz_bn254_fr_mul(&gk[k], &gk[k - 1], &g);
        cz_bn254_fr_mul(&gik[k], &gik[k - 1], &gi);
    }
    for (int kind = 0; kind < kinds; kind++) {
        for (size_t i = 0; i < n; i++)
            cz_bn254_fr_from_u64(&in[i], next64());
        memcpy(ref, in, n * sizeof *in);
        switch (kind) {
        case 0:
            cz_bn254_ntt_forward(ref, dom, NULL);
            break;
        case 1:
            cz_bn254_ntt_inverse(ref, dom, NULL);
            break;
        case 2:
            cz_bn254_ntt_coset_forward(ref, dom, &g, NULL);
            break;
        default:
            cz_bn254_ntt_coset_inverse(ref, dom, &g, NULL);
            break;
        }
        for (size_t m = 0; m < nsmax; m++) {
            if (!ntt2_supported(log_n, smaxs[m]))
                continue;
            memcpy(got, in, n * sizeof *in);
            map_errors = 0;
            model(got, log_n, smaxs[m], kind, tw, gk, gik, &ninv);
            CHECK(map_errors == 0);
            if (!CHECK_EQ_MEM(ref, got, n * sizeof *got))
                fprintf(stderr, "  2^%u smax %u kind %d differs\n", log_n, smaxs[m], kind);
        }
    }
    cz_bn254_ntt_domain_destroy(dom);
    free(tw);
    free(gk);
    free(gik);
    free(in);
    free(ref);
    free(got);
}

int main(void) {
    static const unsigned all[] = {6, 7, 8, 9, 10, 11}, some[] = {6, 9, 11};
    /* The supported range: log_n >= 3 for every smax 6..11 (the GPU code clamps to that). */
    for (unsigned log_n = 3; log_n <= 28; log_n++)
        for (unsigned smax = 6; smax <= NTT2_MAX_S; smax++)
            CHECK(ntt2_supported(log_n, smax));
    CHECK(!ntt2_supported(2, 11) && !ntt2_supported(1, 6) && !ntt2_supported(20, 12));
    for (unsigned log_n = 3; log_n <= 14; log_n++)
        check_size(log_n, all, sizeof all / sizeof all[0], 4);
    check_size(16, some, sizeof some / sizeof some[0], 4);
    check_size(18, some, sizeof some / sizeof some[0], 1);
    return test_finish();
}
