/*
 * The batch-affine bucket accumulation schedule of src/gpu/gpu_msm_affine.cuh, run on the CPU
 * with the CPU field and curve code (needs no GPU): a line-by-line C copy of msm_acc_aff_kern's
 * chunk body (pairing by parity from the run start, validity, prefix products, the shared
 * inversion walked downward, flushes to buckets / part / owner) plus the combine step, on sorted
 * (key, base | sign) pairs with long and short runs, empty buckets, infinity bases, repeated
 * bases with equal and opposite signs and a base next to its negation. Oracle: each bucket's sum
 * by plain Jacobian additions. Chunk lengths 4 .. 1000 move the chunk edges across every case.
 * BLS12-381 G1 (the 12-limb case the GPU path is for).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/curve.h"
#include "cuzk/field.h"
#include "gpu_test_util.h"
#include "test.h"

typedef cz_bls12381_fp fp;
typedef cz_bls12381_g1_affine aff;
typedef cz_bls12381_g1_xyzz xyzz;
typedef cz_bls12381_g1_jacobian jac;

#define NO_OWNER 0xffffffffu
#define NBASES   24
#define NB       96   /* buckets */
#define V        3000 /* sorted pairs */

static int load(fp *x, fp *y, const uint32_t *vals, const aff *pts, uint32_t k, int sign) {
    uint32_t v = vals[k];
    const aff *p = &pts[v & 0x7fffffffu];
    *x = p->x;
    *y = p->y;
    if (cz_bls12381_fp_is_zero(x) && cz_bls12381_fp_is_zero(y))
        return 0;
    if (sign && (v >> 31) != 0)
        cz_bls12381_fp_neg(y, y);
    return 1;
}

static void flush(xyzz *buckets, xyzz *part, uint32_t *owner, const uint32_t *start, uint32_t t,
                  uint32_t key, uint32_t lo, uint32_t hi, const xyzz *acc) {
    uint32_t sb = start[key], eb = start[key + 1];
    if (sb < lo) {
        part[2 * (size_t)t] = *acc;
    } else if (eb > hi) {
        part[2 * (size_t)t + 1] = *acc;
        owner[t] = key;
    } else {
        buckets[key] = *acc;
    }
}

static void madd(xyzz *acc, const fp *x, const fp *y) {
    aff p;
    p.x = *x;
    p.y = *y;
    cz_bls12381_g1_xyzz_add_mixed(acc, acc, &p);
}

/* msm_acc_aff_kern's body for chunk t. */
static void chunk(xyzz *buckets, xyzz *part, uint32_t *owner, fp *pre, const uint32_t *start,
                  const uint32_t *keys, const uint32_t *vals, const aff *pts, uint32_t nb,
                  uint32_t len, uint32_t t) {
    uint32_t nvalid = start[nb];
    owner[t] = NO_OWNER;
    uint32_t lo = t * len;
    if (lo >= nvalid)
        return;
    uint32_t hi = nvalid - lo > len ? lo + len : nvalid;

    fp prod;
    cz_bls12381_fp_one(&prod);
    uint32_t np = 0;
    for (uint32_t k = lo; k < hi;) {
        uint32_t re = start[keys[k] + 1];
        if (k + 1 < hi && k + 1 < re) {
            fp x1, y1, x2, y2;
            int ok1 = load(&x1, &y1, vals, pts, k, 0);
            int ok2 = load(&x2, &y2, vals, pts, k + 1, 0);
            cz_bls12381_fp_sub(&x2, &x2, &x1);
            if (ok1 && ok2 && !cz_bls12381_fp_is_zero(&x2)) {
                cz_bls12381_fp_mul(&prod, &prod, &x2);
                pre[np] = prod;
                np++;
            }
            k += 2;
        } else {
            k += 1;
        }
    }

    fp inv;
    if (np > 0)
        cz_bls12381_fp_inv(&inv, &prod);
    else
        cz_bls12381_fp_zero(&inv);
    xyzz acc;
    memset(&acc, 0, sizeof acc);
    uint32_t key = keys[hi - 1];
    for (uint32_t k = hi; k > lo;) {
        uint32_t e = k - 1, kk = keys[e];
        if (kk != key) {
            flush(buckets, part, owner, start, t, key, lo, hi, &acc);
            key = kk;
            memset(&acc, 0, sizeof acc);
        }
        uint32_t rs = start[kk];
        rs = rs < lo ? lo : rs;
        fp x, y;
        int have = load(&x, &y, vals, pts, e, 1);
        k = e;
        if (((e - rs) & 1) != 0) {
            fp x1, y1, dx;
            int ok1 = load(&x1, &y1, vals, pts, e - 1, 1);
            cz_bls12381_fp_sub(&dx, &x, &x1);
            if (ok1 && have && !cz_bls12381_fp_is_zero(&dx)) {
                fp ik, lam, t2, x3;
                np--;
                if (np > 0)
                    cz_bls12381_fp_mul(&ik, &inv, &pre[np - 1]);
                else
                    ik = inv;
                cz_bls12381_fp_mul(&inv, &inv, &dx);
                cz_bls12381_fp_sub(&t2, &y, &y1);
                cz_bls12381_fp_mul(&lam, &t2, &ik);
                cz_bls12381_fp_sqr(&t2, &lam);
                cz_bls12381_fp_sub(&t2, &t2, &x1);
                cz_bls12381_fp_sub(&x3, &t2, &x);
                cz_bls12381_fp_sub(&t2, &x1, &x3);
                cz_bls12381_fp_mul(&t2, &lam, &t2);
                cz_bls12381_fp_sub(&y, &t2, &y1);
                x = x3;
                k = e - 1;
            }
        }
        if (have)
            madd(&acc, &x, &y);
    }
    flush(buckets, part, owner, start, t, key, lo, hi, &acc);
    CHECK(np == 0); /* every prefix product was used */
}

/* Buckets after the accumulation and the combine step (owner's part[2t + 1] + the heads of the
 * chunks its bucket reaches), for chunk length len. */
static void run_schedule(xyzz *buckets, const uint32_t *start, const uint32_t *keys,
                         const uint32_t *vals, const aff *pts, uint32_t len) {
    uint32_t nvalid = start[NB], nchunks = (nvalid + len - 1) / len;
    xyzz *part = calloc(2 * (size_t)nchunks, sizeof *part);
    uint32_t *owner = malloc(nchunks * sizeof *owner);
    fp *pre = malloc((len / 2 + 1) * sizeof *pre);
    CZ_ASSERT(part && owner && pre);
    memset(buckets, 0, NB * sizeof *buckets);
    for (uint32_t t = 0; t < nchunks; t++)
        chunk(buckets, part, owner, pre, start, keys, vals, pts, NB, len, t);
    for (uint32_t t = 0; t < nchunks; t++) {
        if (owner[t] == NO_OWNER)
            continue;
        uint32_t key = owner[t], last = (start[key + 1] - 1) / len;
        xyzz acc = part[2 * (size_t)t + 1];
        for (uint32_t c = t + 1; c <= last; c++)
            cz_bls12381_g1_xyzz_add(&acc, &acc, &part[2 * (size_t)c]);
        buckets[key] = acc;
    }
    free(part);
    free(owner);
    free(pre);
}

int main(void) {
    aff pts[NBASES];
    uint32_t *keys = malloc(V * sizeof *keys), *vals = malloc(V * sizeof *vals);
    uint32_t start[NB + 1];
    xyzz *buckets = malloc(NB * sizeof *buckets);
    jac want[NB];
    CZ_ASSERT(keys && vals && buckets);
    {
        aff g;
        jac ga, p;
        cz_bls12381_fr k;
        cz_bls12381_g1_generator(&g);
        cz_bls12381_g1_from_affine(&ga, &g);
        for (int i = 0; i < NBASES; i++) {
            gpu_random_fr_limbs(k.l);
            cz_bls12381_g1_mul(&p, &ga, &k);
            cz_bls12381_g1_to_affine(&pts[i], &p);
        }
        memset(&pts[3], 0, sizeof pts[3]);           /* infinity */
        cz_bls12381_g1_affine_neg(&pts[5], &pts[4]); /* 5 = -4 */
        pts[7] = pts[6];                             /* 7 = 6 */
        cz_bls12381_g1_affine_neg(&pts[9], &pts[8]); /* 9 = -8 */
    }
    /* keys: runs of random lengths (some empty, some single, a few long ones), sorted */
    {
        uint32_t k = 0, key = 0;
        while (k < V) {
            uint64_t r = gpu_prng_next();
            uint32_t run = (r % 8 == 0) ? (uint32_t)(r >> 8) % 400 : (uint32_t)(r >> 8) % 9;
            if (key == NB - 1)
                run = V - k;
            for (uint32_t j = 0; j < run && k < V; j++)
                keys[k++] = key;
            key++;
        }
        for (uint32_t b = 0; b <= NB; b++) {
            uint32_t lo = 0;
            while (lo < V && keys[lo] < b)
                lo++;
            start[b] = lo;
        }
    }
    /* values: mostly random bases and signs; with probability 1/4 an exceptional neighbour of
     * the previous element (same base, same or opposite sign, base 4/5 or 8/9, infinity) */
    for (uint32_t k = 0; k < V; k++) {
        uint64_t r = gpu_prng_next();
        uint32_t b = (uint32_t)(r % NBASES), s = (uint32_t)(r >> 20) & 1;
        if (k > 0 && (r >> 24) % 4 == 0) {
            uint32_t pb = vals[k - 1] & 0x7fffffffu, ps = vals[k - 1] >> 31;
            switch ((r >> 28) % 5) {
            case 0:
                b = pb, s = ps;
                break; /* P + P */
            case 1:
                b = pb, s = ps ^ 1;
                break; /* P + (-P) */
            case 2:
                b = pb == 4 ? 5 : 4, s = ps;
                break;
            case 3:
                b = 3;
                break; /* infinity */
            default:
                b = pb == 6 ? 7 : 6, s = ps;
                break;
            }
        }
        vals[k] = b | (s << 31);
    }
    /* oracle: Jacobian sums per bucket */
    for (uint32_t b = 0; b < NB; b++) {
        memset(&want[b], 0, sizeof want[b]);
        for (uint32_t k = start[b]; k < start[b + 1]; k++) {
            jac p;
            cz_bls12381_g1_from_affine(&p, &pts[vals[k] & 0x7fffffffu]);
            if (vals[k] >> 31)
                cz_bls12381_g1_neg(&p, &p);
            cz_bls12381_g1_add(&want[b], &want[b], &p);
        }
    }
    static const uint32_t lens[] = {4, 5, 6, 7, 8, 13, 16, 31, 64, 100, 257, 512, 1000, 4096};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        int bad = 0;
        run_schedule(buckets, start, keys, vals, pts, lens[li]);
        for (uint32_t b = 0; b < NB; b++) {
            jac got;
            cz_bls12381_g1_xyzz_to_jacobian(&got, &buckets[b]);
            bad += !CHECK(cz_bls12381_g1_eq(&got, &want[b]));
        }
        if (bad)
            fprintf(stderr, "  len %u: %d buckets differ\n", lens[li], bad);
    }
    free(keys);
    free(vals);
    free(buckets);
    return test_finish();
}
