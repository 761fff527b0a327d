/*
 * One curve's GPU NTT checks (included by test_gpu_ntt.c and test_gpu_ntt_bellperson.c with
 * TC = bn254 or bls12381), over the domain of the roots given: every transform kind against the
 * CPU NTT (cuzk/ntt.h), byte for byte (test_ntt_size_*); and at large sizes, where a CPU NTT
 * would be slow, outputs against direct polynomial evaluation (Horner on the CPU at a few
 * indices) and forward/inverse round trips; the quotient of a QAP (test_ntt_quotient_*) against
 * the CPU's chain of transforms.
 */
#define TCAT_(a, b) a##b
#define TCAT(a, b)  TCAT_(a, b)
#define TFN(name)   TCAT(TCAT(cz_, TC), _##name)
#define TFR         TCAT(TCAT(cz_, TC), _fr)
#define TDOM        TCAT(TCAT(cz_, TC), _ntt_domain)

/* One GPU call on host memory, checked: x = kind(x) over the domain 2^log_n of roots. */
static void TCAT(gpu_call_, TC)(TFR *x, unsigned log_n, cz_ntt_roots roots, cz_gpu_ntt_kind kind) {
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (!CHECK(TFN(gpu_ntt)(x, log_n, roots, kind, 0, &ei) == CZ_OK))
        fprintf(stderr, "  %s\n", ei.msg);
}

/* All four kinds over the domain 2^log_n of roots, the GPU on host memory against the CPU, byte
 * for byte (a, cpu, gpu: 2^log_n elements each). Forward and coset forward run on a random a.
 * The inverse kinds run on the CPU's forward output F, which the CPU's inverse kinds map back to
 * a exactly (tests/ntt checks that), so the GPU's must give a: the CPU's inverse of F, without
 * running it, which halves the CPU work at 2^27. */
static void TCAT(test_ntt_size_, TC)(TFR *a, TFR *cpu, TFR *gpu, unsigned log_n, cz_ntt_roots roots,
                                     cz_threadpool *pool) {
    size_t n = (size_t)1 << log_n, bytes = n * sizeof *a;
    TDOM *dom = NULL;
    TFR g;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (!CHECK(TFN(ntt_domain_create)(&dom, log_n, roots, pool, &ei) == CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        return;
    }
    CHECK(TFN(ntt_coset_gen)(&g, log_n, roots) == CZ_OK);
    for (size_t i = 0; i < n; i++)
        gpu_random_fr_limbs(a[i].l);
    for (int coset = 0; coset < 2; coset++) {
        cz_gpu_ntt_kind fwd = coset ? CZ_GPU_NTT_COSET_FORWARD : CZ_GPU_NTT_FORWARD;
        cz_gpu_ntt_kind inv = coset ? CZ_GPU_NTT_COSET_INVERSE : CZ_GPU_NTT_INVERSE;
        memcpy(cpu, a, bytes);
        if (coset)
            TFN(ntt_coset_forward)(cpu, dom, &g, pool);
        else
            TFN(ntt_forward)(cpu, dom, pool);
        memcpy(gpu, a, bytes);
        TCAT(gpu_call_, TC)(gpu, log_n, roots, fwd);
        if (!CHECK_EQ_MEM(cpu, gpu, bytes))
            fprintf(stderr, "  " TSTR(TC) " %s log_n %u kind %d differs\n",
                    cz_ntt_roots_name(roots), log_n, (int)fwd);
        memcpy(gpu, cpu, bytes);
        TCAT(gpu_call_, TC)(gpu, log_n, roots, inv);
        if (!CHECK_EQ_MEM(a, gpu, bytes))
            fprintf(stderr, "  " TSTR(TC) " %s log_n %u kind %d differs\n",
                    cz_ntt_roots_name(roots), log_n, (int)inv);
    }
    TFN(ntt_domain_destroy)(dom);
}

/* Sizes 2^1 .. 2^max_log (every size when every, else 1..16 and then every other one), all four
 * kinds against the CPU; device-resident calls; bad arguments refused. */
static void TCAT(test_ntt_, TC)(cz_threadpool *pool, unsigned max_log, cz_ntt_roots roots,
                                int every) {
    size_t nmax = (size_t)1 << max_log;
    TFR *a = malloc(nmax * sizeof *a), *cpu = malloc(nmax * sizeof *a),
        *gpu = malloc(nmax * sizeof *a);
    CZ_ASSERT(a && cpu && gpu);
    for (unsigned log_n = 1; log_n <= max_log; log_n++) {
        if (!every && log_n > 16 && log_n % 2)
            continue;
        TCAT(test_ntt_size_, TC)(a, cpu, gpu, log_n, roots, pool);
    }

    /* Device-resident data: forward then inverse through cz_<curve>_gpu_ntt_dev is the identity,
     * and the forward result equals the host-memory call's. */
    {
        unsigned log_n = max_log < 12 ? max_log : 12;
        size_t n = (size_t)1 << log_n, bytes = n * sizeof *a;
        void *d = NULL;
        for (size_t i = 0; i < n; i++)
            gpu_random_fr_limbs(a[i].l);
        memcpy(cpu, a, bytes);
        CHECK(TFN(gpu_ntt)(cpu, log_n, roots, CZ_GPU_NTT_FORWARD, 0, NULL) == CZ_OK);
        CHECK(cz_gpu_alloc(&d, bytes, 0, NULL) == CZ_OK);
        CHECK(cz_gpu_upload(d, a, bytes, 0, NULL) == CZ_OK);
        CHECK(TFN(gpu_ntt_dev)(d, log_n, roots, CZ_GPU_NTT_FORWARD, 0, NULL) == CZ_OK);
        CHECK(cz_gpu_download(gpu, d, bytes, 0, NULL) == CZ_OK);
        CHECK_EQ_MEM(cpu, gpu, bytes);
        CHECK(TFN(gpu_ntt_dev)(d, log_n, roots, CZ_GPU_NTT_INVERSE, 0, NULL) == CZ_OK);
        CHECK(cz_gpu_download(gpu, d, bytes, 0, NULL) == CZ_OK);
        CHECK_EQ_MEM(a, gpu, bytes);
        cz_gpu_free(d, 0);
    }
    /* Bad arguments are refused, not run. */
    CHECK(TFN(gpu_ntt)(a, 0, roots, CZ_GPU_NTT_FORWARD, 0, NULL) == CZ_ERANGE);
    CHECK(TFN(gpu_ntt)(a, CZ_GPU_NTT_MAX_LOG + 1, roots, CZ_GPU_NTT_FORWARD, 0, NULL) == CZ_ERANGE);
    CHECK(TFN(gpu_ntt)(a, 4, roots, (cz_gpu_ntt_kind)7, 0, NULL) == CZ_EINVAL);
    CHECK(TFN(gpu_ntt)(a, 4, (cz_ntt_roots)CZ_NTT_ROOTS_COUNT, CZ_GPU_NTT_FORWARD, 0, NULL) ==
          CZ_EINVAL);
    CHECK(TFN(gpu_ntt_dev)(NULL, 4, (cz_ntt_roots)-1, CZ_GPU_NTT_FORWARD, 0, NULL) == CZ_EINVAL);
    free(a);
    free(cpu);
    free(gpu);
}

/* The quotient (cz_<curve>_gpu_ntt_quotient_dev) against the CPU's chain of the same
 * transforms (inverse of a, b, c; coset forward of a and b; a·b; coset inverse; (x - c)·Z(g)⁻¹),
 * byte for byte, at 2^1 .. 2^12, 2^16, 2^20, 2^24 and 2^max_log up to max_log; then its argument
 * checks. */
static void TCAT(test_ntt_quotient_, TC)(cz_threadpool *pool, unsigned max_log,
                                         cz_ntt_roots roots) {
    size_t nmax = (size_t)1 << max_log;
    TFR *h = malloc(4 * nmax * sizeof *h);
    void *d[3] = {NULL, NULL, NULL};
    cz_errinfo ei;
    CZ_ASSERT(h != NULL);
    for (int j = 0; j < 3; j++)
        CZ_ASSERT(cz_gpu_alloc(&d[j], nmax * sizeof *h, 0, NULL) == CZ_OK);
    for (unsigned log_n = 1; log_n <= max_log; log_n++) {
        if (log_n > 12 && log_n % 4 != 0 && log_n != max_log)
            continue;
        size_t n = (size_t)1 << log_n, bytes = n * sizeof *h;
        TFR *x = h, *y = h + n, *z = h + 2 * n, *gpu = h + 3 * n, g, zg, zinv;
        TDOM *dom = NULL;
        if (!CHECK(TFN(ntt_domain_create)(&dom, log_n, roots, pool, NULL) == CZ_OK))
            break;
        CHECK(TFN(ntt_coset_gen)(&g, log_n, roots) == CZ_OK);
        CHECK(TFN(ntt_coset_z)(&zg, log_n, roots) == CZ_OK);
        TFN(fr_inv)(&zinv, &zg);
        for (size_t i = 0; i < 3 * n; i++)
            gpu_random_fr_limbs(h[i].l);
        for (int j = 0; j < 3; j++)
            CHECK(cz_gpu_upload(d[j], h + j * n, bytes, 0, NULL) == CZ_OK);
        cz_errinfo_clear(&ei);
        if (!CHECK(TFN(gpu_ntt_quotient_dev)(d[0], d[1], d[2], log_n, roots, 0, &ei) == CZ_OK))
            fprintf(stderr, "  %s\n", ei.msg);
        CHECK(cz_gpu_download(gpu, d[0], bytes, 0, NULL) == CZ_OK);
        TFN(ntt_inverse)(x, dom, pool);
        TFN(ntt_inverse)(y, dom, pool);
        TFN(ntt_inverse)(z, dom, pool);
        TFN(ntt_coset_forward)(x, dom, &g, pool);
        TFN(ntt_coset_forward)(y, dom, &g, pool);
        TFN(ntt_mul)(x, x, y, n, pool);
        TFN(ntt_coset_inverse)(x, dom, &g, pool);
        TFN(ntt_sub_scale)(x, x, z, &zinv, n, pool);
        if (!CHECK_EQ_MEM(x, gpu, bytes))
            fprintf(stderr, "  " TSTR(TC) " %s quotient 2^%u differs\n", cz_ntt_roots_name(roots),
                    log_n);
        TFN(ntt_domain_destroy)(dom);
    }
    CHECK_ERR(TFN(gpu_ntt_quotient_dev)(d[0], NULL, d[2], 4, roots, 0, &ei), CZ_EINVAL);
    CHECK(strstr(ei.msg, "vector b") != NULL);
    CHECK_ERR(TFN(gpu_ntt_quotient_dev)(d[0], d[1], d[0], 4, roots, 0, &ei), CZ_EINVAL);
    CHECK_ERR(TFN(gpu_ntt_quotient_dev)(d[0], d[1], d[2], 0, roots, 0, &ei), CZ_ERANGE);
    CHECK_ERR(TFN(gpu_ntt_quotient_dev)(d[0], d[1], d[2], 4, (cz_ntt_roots)-1, 0, &ei), CZ_EINVAL);
    for (int j = 0; j < 3; j++)
        cz_gpu_free(d[j], 0);
    free(h);
}

/* Large sizes, data on the device: forward output k equals Σ a_i ω^(ik) (Horner at npts indices:
 * n-1, 1 and random ones), coset forward output k equals Σ a_i (g ω^k)^i, and inverse ∘ forward
 * and coset inverse ∘ coset forward give the input back exactly. */
static void TCAT(test_ntt_big_, TC)(unsigned log_n, cz_ntt_roots roots, int npts) {
    size_t n = (size_t)1 << log_n, bytes = n * sizeof(TFR);
    TFR *a = malloc(bytes), *r = malloc(bytes), w, g;
    void *d = NULL;
    CZ_ASSERT(a && r);
    CHECK(TFN(ntt_root_of_unity)(&w, log_n, roots) == CZ_OK);
    CHECK(TFN(ntt_coset_gen)(&g, log_n, roots) == CZ_OK);
    for (size_t i = 0; i < n; i++)
        gpu_random_fr_limbs(a[i].l);
    CHECK(cz_gpu_alloc(&d, bytes, 0, NULL) == CZ_OK);
    for (int coset = 0; coset < 2; coset++) {
        cz_gpu_ntt_kind fwd = coset ? CZ_GPU_NTT_COSET_FORWARD : CZ_GPU_NTT_FORWARD;
        cz_gpu_ntt_kind inv = coset ? CZ_GPU_NTT_COSET_INVERSE : CZ_GPU_NTT_INVERSE;
        CHECK(cz_gpu_upload(d, a, bytes, 0, NULL) == CZ_OK);
        CHECK(TFN(gpu_ntt_dev)(d, log_n, roots, fwd, 0, NULL) == CZ_OK);
        CHECK(cz_gpu_download(r, d, bytes, 0, NULL) == CZ_OK);
        for (int p = 0; p < npts; p++) {
            uint64_t k = p == 0 ? n - 1 : p == 1 ? 1 : gpu_prng_next() & (n - 1);
            TFR x, acc = a[n - 1];
            TFN(fr_pow)(&x, &w, &k, 1);
            if (coset)
                TFN(fr_mul)(&x, &x, &g);
            for (size_t i = n - 1; i-- > 0;) {
                TFN(fr_mul)(&acc, &acc, &x);
                TFN(fr_add)(&acc, &acc, &a[i]);
            }
            if (!CHECK(TFN(fr_eq)(&acc, &r[k])))
                fprintf(stderr, "  " TSTR(TC) " 2^%u coset %d output %llu differs\n", log_n, coset,
                        (unsigned long long)k);
        }
        CHECK(TFN(gpu_ntt_dev)(d, log_n, roots, inv, 0, NULL) == CZ_OK);
        CHECK(cz_gpu_download(r, d, bytes, 0, NULL) == CZ_OK);
        if (!CHECK_EQ_MEM(a, r, bytes))
            fprintf(stderr, "  " TSTR(TC) " 2^%u coset %d round trip differs\n", log_n, coset);
    }
    cz_gpu_free(d, 0);
    free(a);
    free(r);
}

#undef TCAT_
#undef TCAT
#undef TFN
#undef TFR
#undef TDOM
