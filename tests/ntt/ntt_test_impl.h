/*
 * The NTT tests for one curve, included by test_ntt.c with:
 *   TC          curve tag (bn254, bls12381)          TT   the Fr type
 *   TC_S        the 2-adicity of r - 1               TC_R the modulus r in hex (published)
 *   TC_W12/16/20, TC_WS   ffjavascript's published w[12], w[16], w[20], w[s] (big-endian hex)
 * Each transform test takes the domain's roots (cz_ntt_roots). The oracles for the transforms
 * are the O(n²) DFT (or Horner evaluation at single points) computed with the exported field
 * functions, and the DFT of tests/vectors/ntt_vectors.mjs (BigInt arithmetic in Node); the roots
 * are checked against GMP, the published ffjavascript values and the Node vectors.
 */
#define TF(name) CZ_CAT(CZ_CAT3(cz_, TC, _fr_), name)
#define TN(name) CZ_CAT(CZ_CAT3(cz_, TC, _ntt_), name)
#define TD       CZ_CAT3(cz_, TC, _ntt_domain)
#define TL(name) CZ_CAT3(name, _, TC)
#define TQ_(x)   #x
#define TQ(x)    TQ_(x)

/* A pseudo-random element below 2^253 < r (deterministic, so a failure reproduces). */
static void TL(rand_el)(TT *x) {
    uint8_t b[32];
    for (int i = 0; i < 32; i += 8) {
        uint64_t v = prng_next();
        memcpy(b + i, &v, 8);
    }
    b[31] &= 0x1f;
    CZ_ASSERT(TF(from_bytes_le)(x, b) == CZ_OK);
}

static void TL(rand_vec)(TT *a, size_t n) {
    for (size_t i = 0; i < n; i++)
        TL(rand_el)(&a[i]);
}

static int TL(vec_eq)(const TT *a, const TT *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!TF(eq)(&a[i], &b[i]))
            return 0;
    return 1;
}

static void TL(pow_u64)(TT *r, const TT *a, uint64_t e) {
    TF(pow)(r, a, &e, 1);
}

/* out[i] = c_i · Σ_j a[j]·g^j·w^(i·j) with the O(n²) definition; c_i = scale. */
static void TL(dft)(TT *out, const TT *a, size_t n, const TT *w, const TT *g, const TT *scale) {
    TT wi, x, gj, acc, t;
    TF(one)(&wi); /* w^i */
    for (size_t i = 0; i < n; i++) {
        TF(zero)(&acc);
        TF(one)(&x); /* (w^i)^j */
        TF(one)(&gj);
        for (size_t j = 0; j < n; j++) {
            TF(mul)(&t, &a[j], &gj);
            TF(mul)(&t, &t, &x);
            TF(add)(&acc, &acc, &t);
            TF(mul)(&x, &x, &wi);
            TF(mul)(&gj, &gj, g);
        }
        TF(mul)(&out[i], &acc, scale);
        TF(mul)(&wi, &wi, w);
    }
}

/* Σ_j a[j]·x^j by Horner. */
static void TL(horner)(TT *r, const TT *a, size_t n, const TT *x) {
    TT acc;
    TF(zero)(&acc);
    for (size_t j = n; j-- > 0;) {
        TF(mul)(&acc, &acc, x);
        TF(add)(&acc, &acc, &a[j]);
    }
    *r = acc;
}

/* x == the big-endian hex string h. */
static int TL(eq_hex)(const TT *x, const char *h) {
    uint8_t b[32];
    char buf[65];
    TF(to_bytes_be)(b, x);
    for (int i = 0; i < 32; i++)
        snprintf(buf + 2 * i, 3, "%02x", b[i]);
    return strcmp(buf, h) == 0;
}

/* x == the GMP integer v (mod r). */
static int TL(eq_mpz)(const TT *x, const mpz_t v) {
    uint8_t b[32], c[32] = {0};
    size_t cnt = 0;
    TF(to_bytes_be)(b, x);
    mpz_export(c + 32 - (mpz_sizeinbase(v, 256)), &cnt, 1, 1, 1, 0, v);
    return memcmp(b, c, 32) == 0;
}

/* For every k <= s against GMP: root_of_unity(k) = w[k] with w[s] = gen^((r-1) >> s) and
 * w[k] = w[k+1]^2, of exact order 2^k; coset_gen(k) = g (bellperson: 7; snarkjs: w[k+1], or 25
 * at k = s) and coset_z(k) = g^(2^k) - 1. k = s + 1 is out of range. */
static void TL(check_roots)(cz_ntt_roots roots, unsigned long gen) {
    mpz_t r, e, w, prev, g, z;
    mpz_inits(r, e, w, prev, g, z, NULL);
    mpz_set_str(r, TC_R, 16);
    mpz_sub_ui(e, r, 1);
    mpz_fdiv_q_2exp(e, e, TC_S);
    mpz_set_ui(w, gen);
    mpz_powm(w, w, e, r);
    TT wk, t, one, minus_one;
    TF(one)(&one);
    TF(neg)(&minus_one, &one);
    for (int k = TC_S; k >= 0; k--) {
        CHECK_ERR(TN(root_of_unity)(&wk, (unsigned)k, roots), CZ_OK);
        CHECK(TL(eq_mpz)(&wk, w));
        /* exact order 2^k: w^(2^(k-1)) = -1 (k >= 1) and w^(2^k) = 1 */
        t = wk;
        for (int i = 0; i + 1 < k; i++)
            TF(sqr)(&t, &t);
        if (k >= 1)
            CHECK(TF(eq)(&t, &minus_one));
        if (k >= 1)
            TF(sqr)(&t, &t);
        CHECK(TF(eq)(&t, &one));

        if (roots == CZ_NTT_ROOTS_BELLPERSON)
            mpz_set_ui(g, 7);
        else if (k == TC_S)
            mpz_set_ui(g, 25);
        else
            mpz_set(g, prev);
        CHECK_ERR(TN(coset_gen)(&t, (unsigned)k, roots), CZ_OK);
        CHECK(TL(eq_mpz)(&t, g));
        mpz_set_ui(e, 1);
        mpz_mul_2exp(e, e, (mp_bitcnt_t)k);
        mpz_powm(z, g, e, r);
        mpz_sub_ui(z, z, 1);
        mpz_mod(z, z, r);
        CHECK_ERR(TN(coset_z)(&t, (unsigned)k, roots), CZ_OK);
        CHECK(TL(eq_mpz)(&t, z));
        CHECK(!TF(is_zero)(&t)); /* g^n != 1: the coset is disjoint from the domain */

        mpz_set(prev, w);
        mpz_mul(w, w, w);
        mpz_mod(w, w, r);
    }
    CHECK_ERR(TN(root_of_unity)(&wk, TC_S + 1, roots), CZ_ERANGE);
    CHECK_ERR(TN(coset_gen)(&wk, TC_S + 1, roots), CZ_ERANGE);
    CHECK_ERR(TN(coset_z)(&wk, TC_S + 1, roots), CZ_ERANGE);

    /* A domain's root is w[k], and it knows its roots. */
    TD *dom = NULL;
    TT d;
    CHECK_ERR(TN(domain_create)(&dom, 9, roots, NULL, NULL), CZ_OK);
    TN(domain_root)(&d, dom);
    CHECK(TN(root_of_unity)(&wk, 9, roots) == CZ_OK && TF(eq)(&d, &wk));
    CHECK(TN(domain_size)(dom) == 512 && TN(domain_log_n)(dom) == 9);
    CHECK(TN(domain_roots)(dom) == roots);
    TN(domain_destroy)(dom);
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK(TN(domain_create)(&dom, TC_S + 1, roots, NULL, &ei) == CZ_ERANGE && dom == NULL);
    CHECK_ERR(ei.code, CZ_ERANGE);
    mpz_clears(r, e, w, prev, g, z, NULL);
}

static void TL(test_roots)(void) {
    TT wk, g, t;
    TL(check_roots)(CZ_NTT_ROOTS_SNARKJS, 5);

    /* ffjavascript's published values. */
    CHECK(TN(root_of_unity)(&wk, 12, CZ_NTT_ROOTS_SNARKJS) == CZ_OK && TL(eq_hex)(&wk, TC_W12));
    CHECK(TN(root_of_unity)(&wk, 16, CZ_NTT_ROOTS_SNARKJS) == CZ_OK && TL(eq_hex)(&wk, TC_W16));
    CHECK(TN(root_of_unity)(&wk, 20, CZ_NTT_ROOTS_SNARKJS) == CZ_OK && TL(eq_hex)(&wk, TC_W20));
    CHECK(TN(root_of_unity)(&wk, TC_S, CZ_NTT_ROOTS_SNARKJS) == CZ_OK && TL(eq_hex)(&wk, TC_WS));

    /* snarkjs's odd coset: g^n = w[k+1]^(2^k) = -1, so Z = x^n - 1 is -2 on it. */
    TF(from_u64)(&t, 2);
    TF(neg)(&t, &t);
    CHECK(TN(coset_z)(&g, 10, CZ_NTT_ROOTS_SNARKJS) == CZ_OK && TF(eq)(&g, &t));

    /* Roots that are not an enum value are refused everywhere. */
    cz_ntt_roots bad = (cz_ntt_roots)CZ_NTT_ROOTS_COUNT;
    TD *dom = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(TN(root_of_unity)(&wk, 4, bad), CZ_EINVAL);
    CHECK_ERR(TN(coset_gen)(&wk, 4, bad), CZ_EINVAL);
    CHECK_ERR(TN(coset_z)(&wk, 4, bad), CZ_EINVAL);
    CHECK_ERR(TN(root_of_unity)(&wk, 4, (cz_ntt_roots)-1), CZ_EINVAL);
    CHECK(TN(domain_create)(&dom, 4, bad, NULL, &ei) == CZ_EINVAL && dom == NULL);
    CHECK_ERR(ei.code, CZ_EINVAL);
}

/* Every transform against the O(n²) DFT for n = 2^0 .. 2^8. */
static void TL(test_small)(cz_threadpool *pool, cz_ntt_roots roots) {
    size_t nmax = 256;
    TT *a = malloc(nmax * sizeof *a), *x = malloc(nmax * sizeof *x);
    TT *ref = malloc(nmax * sizeof *ref);
    CZ_ASSERT(a && x && ref);
    for (unsigned k = 0; k <= 8; k++) {
        size_t n = (size_t)1 << k;
        TD *dom = NULL;
        CHECK_ERR(TN(domain_create)(&dom, k, roots, pool, NULL), CZ_OK);
        TT w, w_inv, one, g, g_inv, n_inv, nel;
        CHECK_ERR(TN(root_of_unity)(&w, k, roots), CZ_OK);
        TF(inv)(&w_inv, &w);
        TF(one)(&one);
        CHECK_ERR(TN(coset_gen)(&g, k, roots), CZ_OK);
        TF(inv)(&g_inv, &g);
        TF(from_u64)(&nel, n);
        TF(inv)(&n_inv, &nel);
        TL(rand_vec)(a, n);

        memcpy(x, a, n * sizeof *a); /* forward */
        TN(forward)(x, dom, pool);
        TL(dft)(ref, a, n, &w, &one, &one);
        CHECK(TL(vec_eq)(x, ref, n));

        memcpy(x, a, n * sizeof *a); /* inverse */
        TN(inverse)(x, dom, pool);
        TL(dft)(ref, a, n, &w_inv, &one, &n_inv);
        CHECK(TL(vec_eq)(x, ref, n));

        memcpy(x, a, n * sizeof *a); /* coset forward */
        TN(coset_forward)(x, dom, &g, pool);
        TL(dft)(ref, a, n, &w, &g, &one);
        CHECK(TL(vec_eq)(x, ref, n));

        /* coset inverse: a[j] = g^-j · n⁻¹ Σ_i A[i] w^-ij; the DFT oracle applies the g^-j
         * factor in the wrong place, so apply it afterwards with plain multiplications. */
        memcpy(x, a, n * sizeof *a);
        TN(coset_inverse)(x, dom, &g, pool);
        TL(dft)(ref, a, n, &w_inv, &one, &n_inv);
        TT gj;
        TF(one)(&gj);
        for (size_t j = 0; j < n; j++) {
            TF(mul)(&ref[j], &ref[j], &gj);
            TF(mul)(&gj, &gj, &g_inv);
        }
        CHECK(TL(vec_eq)(x, ref, n));
        TN(domain_destroy)(dom);
    }
    free(a);
    free(x);
    free(ref);
}

/* Large sizes: spot values by Horner, round trips, and the pool changes nothing. */
static void TL(test_large)(unsigned k, cz_threadpool *pool, int full, cz_ntt_roots roots) {
    size_t n = (size_t)1 << k;
    TT *a = malloc(n * sizeof *a), *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    CZ_ASSERT(a && x && y);
    TD *dom = NULL;
    CHECK_ERR(TN(domain_create)(&dom, k, roots, pool, NULL), CZ_OK);
    TT w, g, p, v;
    CHECK_ERR(TN(root_of_unity)(&w, k, roots), CZ_OK);
    CHECK_ERR(TN(coset_gen)(&g, k, roots), CZ_OK);
    TL(rand_vec)(a, n);

    memcpy(x, a, n * sizeof *a);
    TN(forward)(x, dom, pool);
    for (int s = 0; s < 6; s++) { /* x[i] = a(w^i) */
        size_t i = s < 3 ? (size_t)s * (n / 2 + 1) % n : (size_t)(prng_next() % n);
        TL(pow_u64)(&p, &w, i);
        TL(horner)(&v, a, n, &p);
        CHECK(TF(eq)(&x[i], &v));
    }
    if (full) {
        memcpy(y, a, n * sizeof *a); /* the calling thread alone gives the same */
        TN(forward)(y, dom, NULL);
        CHECK(TL(vec_eq)(x, y, n));
        TN(inverse)(x, dom, pool); /* inverse(forward(a)) = a */
        CHECK(TL(vec_eq)(x, a, n));

        memcpy(x, a, n * sizeof *a); /* coset: x[i] = a(g·w^i), and the round trip */
        TN(coset_forward)(x, dom, &g, pool);
        for (int s = 0; s < 3; s++) {
            size_t i = (size_t)(prng_next() % n);
            TL(pow_u64)(&p, &w, i);
            TF(mul)(&p, &p, &g);
            TL(horner)(&v, a, n, &p);
            CHECK(TF(eq)(&x[i], &v));
        }
        memcpy(y, a, n * sizeof *a);
        TN(coset_forward)(y, dom, &g, NULL);
        CHECK(TL(vec_eq)(x, y, n));
        TN(coset_inverse)(x, dom, &g, pool);
        CHECK(TL(vec_eq)(x, a, n));
    }
    TN(domain_destroy)(dom);
    free(a);
    free(x);
    free(y);
}

/* The element-wise helpers against plain loops. */
static void TL(test_pointwise)(cz_threadpool *pool) {
    size_t n = 20000; /* not a multiple of the task size */
    TT *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    TT *r = malloc(n * sizeof *r);
    CZ_ASSERT(a && b && c && r);
    TL(rand_vec)(a, n);
    TL(rand_vec)(b, n);
    TL(rand_vec)(c, n);
    TT k, g, t, gj;
    TL(rand_el)(&k);
    TL(rand_el)(&g);
    int ok = 1;

    TN(mul_sub)(r, a, b, c, n, pool);
    for (size_t j = 0; j < n; j++) {
        TF(mul)(&t, &a[j], &b[j]);
        TF(sub)(&t, &t, &c[j]);
        ok &= TF(eq)(&r[j], &t);
    }
    CHECK(ok);

    TN(mul)(r, a, b, n, pool);
    ok = 1;
    for (size_t j = 0; j < n; j++) {
        TF(mul)(&t, &a[j], &b[j]);
        ok &= TF(eq)(&r[j], &t);
    }
    CHECK(ok);

    TN(sub_scale)(r, a, b, &k, n, pool);
    ok = 1;
    for (size_t j = 0; j < n; j++) {
        TF(sub)(&t, &a[j], &b[j]);
        TF(mul)(&t, &t, &k);
        ok &= TF(eq)(&r[j], &t);
    }
    CHECK(ok);

    TN(scale)(r, a, &k, n, pool);
    ok = 1;
    for (size_t j = 0; j < n; j++) {
        TF(mul)(&t, &a[j], &k);
        ok &= TF(eq)(&r[j], &t);
    }
    CHECK(ok);

    memcpy(r, a, n * sizeof *a);
    TN(mul_powers)(r, r, &k, &g, n, pool); /* in place */
    ok = 1;
    TF(one)(&gj);
    for (size_t j = 0; j < n; j++) {
        TF(mul)(&t, &a[j], &k);
        TF(mul)(&t, &t, &gj);
        ok &= TF(eq)(&r[j], &t);
        TF(mul)(&gj, &gj, &g);
    }
    CHECK(ok);

    TN(mul_powers)(r, NULL, &k, &g, n, pool);
    TL(pow_u64)(&t, &g, n - 1);
    TF(mul)(&t, &t, &k);
    CHECK(TF(eq)(&r[0], &k) && TF(eq)(&r[n - 1], &t));
    free(a);
    free(b);
    free(c);
    free(r);
}

/* x = the 64 hex digits at h (canonical, big-endian); 0 when malformed or not below r. */
static int TL(from_hex)(TT *x, const char *h) {
    uint8_t b[32];
    for (int i = 0; i < 32; i++) {
        unsigned v;
        if (sscanf(h + 2 * i, "%2x", &v) != 1)
            return 0;
        b[i] = (uint8_t)v;
    }
    return TF(from_bytes_be)(x, b) == CZ_OK;
}

/* The Node oracle's vectors of this curve and roots (tests/vectors/ntt_vectors.mjs, read from f):
 * every "root" line (w[k], g, z for k = 0 .. s) and every "dft" block (the four transforms of one
 * input, sizes 2^0 .. 2^8), the DFT blocks run on pool. */
static void TL(test_vectors)(FILE *f, cz_ntt_roots roots, cz_threadpool *pool) {
    const char *want = cz_ntt_roots_name(roots);
    char line[512], curve[32], name[32], hw[65], hg[65], hz[65];
    unsigned k;
    int nroot = 0, ndft = 0, ok = 1;
    size_t nmax = 256;
    TT *v[5], *x = malloc(nmax * sizeof *x);
    for (int c = 0; c < 5; c++)
        CZ_ASSERT((v[c] = malloc(nmax * sizeof *v[c])) != NULL);
    CZ_ASSERT(x != NULL);
    rewind(f);
    while (fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "root %31s %31s %u %64s %64s %64s", curve, name, &k, hw, hg, hz) == 6) {
            TT w, g, z, t;
            if (strcmp(curve, TQ(TC)) != 0 || strcmp(name, want) != 0)
                continue;
            CHECK(TL(from_hex)(&w, hw) && TL(from_hex)(&g, hg) && TL(from_hex)(&z, hz));
            CHECK(TN(root_of_unity)(&t, k, roots) == CZ_OK && TF(eq)(&t, &w));
            CHECK(TN(coset_gen)(&t, k, roots) == CZ_OK && TF(eq)(&t, &g));
            CHECK(TN(coset_z)(&t, k, roots) == CZ_OK && TF(eq)(&t, &z));
            nroot++;
            continue;
        }
        if (sscanf(line, "dft %31s %31s %u", curve, name, &k) != 3 || strcmp(curve, TQ(TC)) != 0 ||
            strcmp(name, want) != 0)
            continue;
        if (!CHECK(k <= 8))
            break;
        size_t n = (size_t)1 << k;
        for (size_t j = 0; j < n; j++) { /* a F I CF CI */
            const char *p = fgets(line, sizeof line, f);
            if (!CHECK(p != NULL && strlen(line) >= 5 * 65 - 1))
                goto out;
            for (int c = 0; c < 5; c++)
                CHECK(TL(from_hex)(&v[c][j], line + 65 * c));
        }
        TD *dom = NULL;
        TT g;
        CHECK_ERR(TN(domain_create)(&dom, k, roots, pool, NULL), CZ_OK);
        CHECK_ERR(TN(coset_gen)(&g, k, roots), CZ_OK);
        for (int kind = 1; kind < 5; kind++) {
            memcpy(x, v[0], n * sizeof *x);
            if (kind == 1)
                TN(forward)(x, dom, pool);
            else if (kind == 2)
                TN(inverse)(x, dom, pool);
            else if (kind == 3)
                TN(coset_forward)(x, dom, &g, pool);
            else
                TN(coset_inverse)(x, dom, &g, pool);
            if (!TL(vec_eq)(x, v[kind], n)) {
                ok = 0;
                fprintf(stderr, "  " TQ(TC) " %s 2^%u: transform %d differs from the vectors\n",
                        want, k, kind);
            }
        }
        TN(domain_destroy)(dom);
        ndft++;
    }
out:
    CHECK(ok);
    CHECK_EQ_INT(nroot, TC_S + 1);
    CHECK_EQ_INT(ndft, 9);
    for (int c = 0; c < 5; c++)
        free(v[c]);
    free(x);
}

#undef TF
#undef TN
#undef TD
#undef TL
#undef TQ_
#undef TQ
