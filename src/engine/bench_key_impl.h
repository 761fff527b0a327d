/*
 * The per-curve part of the benchmark key (bench_key.c), included once per CURVE (bn254,
 * bls12381) after bench_key.c's helpers.
 */
#define I(name) CZ_CAT3(CURVE, _, name)
#define P(name) CZ_CAT3(CZ_CAT(cz_, CURVE), _, name)

/* [x]G of group g1/g2 to affine, for a scalar of two limbs. */
static void I(g1_point)(P(g1_affine) * out, uint64_t *st) {
    P(g1_affine) g;
    P(g1_jacobian) j;
    uint64_t x[2] = {splitmix(st), splitmix(st) | 1};
    P(g1_generator)(&g);
    P(g1_from_affine)(&j, &g);
    P(g1_mul_limbs)(&j, &j, x, 2);
    P(g1_to_affine)(out, &j);
}
static void I(g2_point)(P(g2_affine) * out, uint64_t *st) {
    P(g2_affine) g;
    P(g2_jacobian) j;
    uint64_t x[2] = {splitmix(st), splitmix(st) | 1};
    P(g2_generator)(&g);
    P(g2_from_affine)(&j, &g);
    P(g2_mul_limbs)(&j, &j, x, 2);
    P(g2_to_affine)(out, &j);
}

/* One chunk of B2: the touched columns of [lo, hi) get p0 + rank·d, rank from chunk_rank. */
static void I(b2_chunk)(void *arg, size_t t) {
    b2_job *b = arg;
    P(g2_affine) *out = b->out;
    const P(g2_affine) *p0 = b->p0, *d = b->d;
    P(g2_jacobian) cur, buf[B2_BATCH];
    P(g2_affine) aff[B2_BATCH];
    uint32_t col[B2_BATCH];
    size_t lo = t * b->chunk, hi = lo + b->chunk < b->n ? lo + b->chunk : b->n, nb = 0;
    uint64_t rank = b->rank[t];
    P(g2_from_affine)(&cur, d);
    P(g2_mul_limbs)(&cur, &cur, &rank, 1);
    P(g2_add_mixed)(&cur, &cur, p0);
    for (size_t s = lo; s < hi; s++) {
        if (!b->touched[s])
            continue;
        buf[nb] = cur;
        col[nb++] = (uint32_t)s;
        P(g2_add_mixed)(&cur, &cur, d);
        if (nb == B2_BATCH || s + 1 == hi) {
            P(g2_batch_to_affine)(aff, buf, nb);
            for (size_t i = 0; i < nb; i++)
                out[col[i]] = aff[i];
            nb = 0;
        }
    }
    if (nb > 0) {
        P(g2_batch_to_affine)(aff, buf, nb);
        for (size_t i = 0; i < nb; i++)
            out[col[i]] = aff[i];
    }
}

static int I(make)(cz__bench_key *bk, b2_job *b, uint64_t *st, cz_threadpool *pool,
                   cz_errinfo *ei) {
    CZ_CAT(cz_zkey_, CURVE) *z = &bk->zk.u.CURVE;
    P(g1_affine) * ic, ic_d, *p0 = (P(g1_affine) *)bk->p0, *step = (P(g1_affine) *)bk->step;
    P(g2_affine) b2_p0, b2_d;
    P(g1_jacobian) j;
    uint32_t nic = bk->zk.npublic + 1;
    I(g1_point)(&z->alpha1, st);
    I(g1_point)(&z->beta1, st);
    I(g1_point)(&z->delta1, st);
    I(g2_point)(&z->beta2, st);
    I(g2_point)(&z->gamma2, st);
    I(g2_point)(&z->delta2, st);
    for (int v = 0; v < 4; v++) {
        I(g1_point)(&p0[v], st);
        I(g1_point)(&step[v], st);
    }
    ic = calloc(nic, sizeof *ic);
    bk->b2_bytes = (uint64_t)bk->zk.nvars * sizeof(P(g2_affine));
    bk->b2 = calloc(bk->zk.nvars, sizeof(P(g2_affine)));
    bk->ic = ic;
    if (ic == NULL || bk->b2 == NULL)
        return cz_fail(ei, CZ_ENOMEM, "benchmark key: %u IC points and %llu bytes of B2", nic,
                       (unsigned long long)bk->b2_bytes);
    I(g1_point)(&ic[0], st);
    I(g1_point)(&ic_d, st);
    P(g1_from_affine)(&j, &ic[0]);
    for (uint32_t i = 1; i < nic; i++) {
        P(g1_add_mixed)(&j, &j, &ic_d);
        P(g1_to_affine)(&ic[i], &j);
    }
    I(g2_point)(&b2_p0, st);
    I(g2_point)(&b2_d, st);
    b->out = bk->b2;
    b->p0 = &b2_p0;
    b->d = &b2_d;
    cz_threadpool_run(pool, I(b2_chunk), b, b->nchunks);
    z->ic = ic;
    z->a = z->b1 = z->c = z->h = NULL;
    z->b2 = bk->b2;
    return CZ_OK;
}

#undef I
#undef P
