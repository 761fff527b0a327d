/*
 * Benchmarks of one group, instantiated by cuzk_bench_curve.c after defining B_G (internal prefix,
 * e.g. bls12381_g1), B_AFF, B_JAC, B_XYZZ, B_FR_T, B_CURVE ("bls12381"), B_GN ("g1").
 * Each operation runs in chains of NOPS dependent calls (the output feeds the next call, as in an
 * MSM bucket), repeated NREP times; the JSON line gives the median, min and max ns per call.
 */
#include "field/cz_macros.h"

#define BG(name) CZ_CAT3(B_G, _, name)
#define BB(name) CZ_CAT3(B_G, _bench_, name)

static void BB(run)(void) {
    enum { NPTS = 256 };
    static B_AFF pts[NPTS];
    static B_JAC jpts[NPTS];
    double t[NREP];
    B_JAC acc, g;
    B_XYZZ xacc;
    B_FR_T k;
    uint64_t st = 1;

    /* distinct points [5 + i]G */
    BG(generator)(&pts[0]);
    BG(from_affine)(&g, &pts[0]);
    BG(dbl)(&acc, &g);
    BG(dbl)(&acc, &acc);
    for (int i = 0; i < NPTS; i++) {
        BG(add)(&acc, &acc, &g);
        jpts[i] = acc;
    }
    BG(batch_to_affine)(pts, jpts, NPTS);

    acc = jpts[0];
    for (int r = 0; r < NREP; r++) {
        double t0 = now_ns();
        for (int i = 0; i < NOPS; i++)
            BG(add_mixed)(&acc, &acc, &pts[i % NPTS]);
        t[r] = (now_ns() - t0) / NOPS;
    }
    report(B_CURVE, B_GN "_add_mixed", t, &acc, sizeof acc);

    acc = jpts[0];
    for (int r = 0; r < NREP; r++) {
        double t0 = now_ns();
        for (int i = 0; i < NOPS; i++)
            BG(add)(&acc, &acc, &jpts[i % NPTS]);
        t[r] = (now_ns() - t0) / NOPS;
    }
    report(B_CURVE, B_GN "_add", t, &acc, sizeof acc);

    acc = jpts[0];
    for (int r = 0; r < NREP; r++) {
        double t0 = now_ns();
        for (int i = 0; i < NOPS; i++)
            BG(dbl)(&acc, &acc);
        t[r] = (now_ns() - t0) / NOPS;
    }
    report(B_CURVE, B_GN "_dbl", t, &acc, sizeof acc);

    BG(xyzz_from_affine)(&xacc, &pts[0]);
    for (int r = 0; r < NREP; r++) {
        double t0 = now_ns();
        for (int i = 0; i < NOPS; i++)
            BG(xyzz_add_mixed)(&xacc, &xacc, &pts[i % NPTS]);
        t[r] = (now_ns() - t0) / NOPS;
    }
    report(B_CURVE, B_GN "_xyzz_add_mixed", t, &xacc, sizeof xacc);

    for (int r = 0; r < NREP; r++) {
        double t0 = now_ns();
        for (int i = 0; i < NMUL; i++) {
            for (size_t l = 0; l < sizeof k.l / 8; l++)
                k.l[l] = bench_rand64(&st);
            k.l[sizeof k.l / 8 - 1] &= 0x0fffffffffffffffULL; /* below r */
            BG(mul)(&acc, &acc, &k);
        }
        t[r] = (now_ns() - t0) / NMUL;
    }
    report(B_CURVE, B_GN "_mul", t, &acc, sizeof acc);
}

#undef BG
#undef BB
