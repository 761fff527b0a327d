/*
 * Fixed-base scalar multiplication [k]G of one group's generator for many scalars k, written once
 * and included by setup_impl.h after defining CURVE (bn254 | bls12381) and GRP (g1 | g2).
 *
 * Table: the scalar is cut into nwin = ceil(256/w) windows of w bits; window j holds the affine
 * points d·2^(w·j)·G for d = 1 .. 2^w - 1, so [k]G = Σ_j table[j][digit_j(k)] costs one mixed
 * addition per non-zero digit (about 256/w of them) and no doubling. Building the table costs
 * nwin·2^w additions and one inversion per FB_BUILD_CHUNK points; w is picked to minimise
 * nwin·(npoints + 2^w) with the table under FB_MAX_TABLE_BYTES. The products of a chunk of
 * FB_CHUNK scalars are accumulated in affine coordinates straight in the output, window by
 * window, each window's additions sharing one inversion (batch_add_affine: about 6
 * multiplications an addition where a mixed Jacobian one takes 11). Tasks run on the thread pool:
 * one per table window, one per chunk.
 * Zero scalars give the point at infinity (all-zero bytes, as snarkjs writes it).
 */
#define GQ(name)    CZ_CAT3(CZ_CAT3(CURVE, _, GRP), _, name)
#define FB(name)    CZ_CAT3(CZ_CAT3(CURVE, _, GRP), _fb_, name)
#define FB_AFF      CZ_CAT3(CZ_CAT(cz_, CURVE), _, CZ_CAT(GRP, _affine))
#define FB_JAC      CZ_CAT3(CZ_CAT(cz_, CURVE), _, CZ_CAT(GRP, _jacobian))
#define FB_FR       CZ_CAT3(CZ_CAT(cz_, CURVE), _, fr)
#define FB_FR_FROM  CZ_CAT3(CURVE, _, fr_from_mont)
#define FB_COORD_g1 fp
#define FB_COORD_g2 fp2
#define FB_F_T      CZ_CAT3(CZ_CAT(cz_, CURVE), _, CZ_CAT(FB_COORD_, GRP))

typedef struct FB(table) {
    unsigned w;    /* window bits */
    unsigned nwin; /* windows */
    size_t per;    /* points per window: 2^w - 1 */
    FB_AFF *pts;   /* nwin · per points; window j, digit d at pts[j·per + d - 1] */
} FB(table);

/* The window width for npoints multiplications (see the file comment). */
static unsigned FB(pick_window)(size_t npoints) {
    unsigned best = 4;
    double best_cost = 0;
    for (unsigned w = 4; w <= 16; w++) {
        size_t nwin = (256 + w - 1) / w;
        if ((double)nwin * (double)(((size_t)1 << w) - 1) * sizeof(FB_AFF) > FB_MAX_TABLE_BYTES)
            break;
        double cost = (double)nwin * ((double)npoints + (double)((size_t)1 << w));
        if (w == 4 || cost < best_cost) {
            best = w;
            best_cost = cost;
        }
    }
    return best;
}

static void FB(build_task)(void *arg, size_t j) {
    FB(table) *t = arg;
    FB_AFF g;
    FB_JAC base, acc, tmp[FB_BUILD_CHUNK];
    GQ(generator)(&g);
    GQ(from_affine)(&base, &g);
    for (size_t i = 0; i < j * t->w; i++)
        GQ(dbl)(&base, &base); /* 2^(w·j)·G */
    acc = base;
    for (size_t d0 = 0; d0 < t->per; d0 += FB_BUILD_CHUNK) {
        size_t cnt = t->per - d0 < FB_BUILD_CHUNK ? t->per - d0 : FB_BUILD_CHUNK;
        for (size_t i = 0; i < cnt; i++) {
            tmp[i] = acc; /* (d0 + i + 1)·base */
            GQ(add)(&acc, &acc, &base);
        }
        GQ(batch_to_affine)(t->pts + j * t->per + d0, tmp, cnt);
    }
}

/* Builds the table for about npoints multiplications. CZ_ENOMEM. */
static int FB(build)(FB(table) * t, size_t npoints, cz_threadpool *pool, cz_errinfo *ei) {
    t->w = FB(pick_window)(npoints);
    t->nwin = (256 + t->w - 1) / t->w;
    t->per = ((size_t)1 << t->w) - 1;
    t->pts = malloc(t->nwin * t->per * sizeof *t->pts);
    if (t->pts == NULL)
        return cz_fail(ei, CZ_ENOMEM, "setup: cannot allocate a %u-bit window table", t->w);
    cz_threadpool_run(pool, FB(build_task), t, t->nwin);
    return CZ_OK;
}

static void FB(free)(FB(table) * t) {
    free(t->pts);
    t->pts = NULL;
}

typedef struct FB(mul_ctx) {
    const FB(table) * t;
    FB_AFF *out;
    const FB_FR *k;
    size_t n;
} FB(mul_ctx);

/* Bits [pos, pos + w) of a 4-limb little-endian scalar (bits past 255 read as zero). */
static inline unsigned FB(digit)(const uint64_t *k, unsigned pos, unsigned w) {
    unsigned li = pos / 64, sh = pos % 64;
    uint64_t v = k[li] >> sh;
    if (sh + w > 64 && li + 1 < 4)
        v |= k[li + 1] << (64 - sh);
    return (unsigned)(v & (((uint64_t)1 << w) - 1));
}

static void FB(mul_task)(void *arg, size_t task) {
    const FB(mul_ctx) *c = arg;
    const FB(table) *t = c->t;
    size_t i0 = task * FB_CHUNK, cnt = c->n - i0 < FB_CHUNK ? c->n - i0 : FB_CHUNK;
    uint64_t k[FB_CHUNK][4];
    const FB_AFF *add[FB_CHUNK];
    FB_F_T scratch[FB_CHUNK];
    FB_AFF *acc = c->out + i0;
    for (size_t i = 0; i < cnt; i++) {
        FB_FR_FROM(k[i], &c->k[i0 + i]);
        GQ(affine_set_infinity)(&acc[i]);
    }
    for (unsigned j = 0; j < t->nwin; j++) {
        for (size_t i = 0; i < cnt; i++) {
            unsigned d = FB(digit)(k[i], j * t->w, t->w);
            add[i] = d == 0 ? NULL : &t->pts[j * t->per + d - 1];
        }
        GQ(batch_add_affine)(acc, add, cnt, scratch);
    }
}

/* out[i] = [k[i]]G for i < n (k in Montgomery form). */
static void FB(mul_many)(FB_AFF *out, const FB(table) * t, const FB_FR *k, size_t n,
                         cz_threadpool *pool) {
    FB(mul_ctx) c = {t, out, k, n};
    if (n == 0)
        return;
    cz_threadpool_run(pool, FB(mul_task), &c, (n + FB_CHUNK - 1) / FB_CHUNK);
}

#undef GQ
#undef FB
#undef FB_AFF
#undef FB_JAC
#undef FB_FR
#undef FB_FR_FROM
#undef FB_COORD_g1
#undef FB_COORD_g2
#undef FB_F_T
