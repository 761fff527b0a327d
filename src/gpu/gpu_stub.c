/*
 * The GPU API of cuzk/gpu.h for builds without CUDA (CZ_WITH_CUDA off or no nvcc): every entry
 * point reports CZ_ENOGPU, so the rest of the library and its callers link and can fall back to
 * the CPU. Compiled instead of the .cu files, never together with them.
 */
#include "cuzk/gpu.h"

static int no_gpu(cz_errinfo *ei) {
    return cz_fail(ei, CZ_ENOGPU, "cuzk was built without CUDA");
}

int cz_gpu_built(void) {
    return 0;
}
int cz_gpu_device_count(int *count, cz_errinfo *ei) {
    *count = 0;
    return no_gpu(ei);
}
int cz_gpu_device_info(cz_gpu_info *info, int dev, cz_errinfo *ei) {
    (void)info, (void)dev;
    return no_gpu(ei);
}
int cz_gpu_mem_info(size_t *free_bytes, size_t *total_bytes, int dev, cz_errinfo *ei) {
    (void)dev;
    *free_bytes = *total_bytes = 0;
    return no_gpu(ei);
}
int cz_gpu_release(int dev, cz_errinfo *ei) {
    (void)dev;
    return no_gpu(ei);
}
int cz_gpu_alloc(void **d_ptr, size_t bytes, int dev, cz_errinfo *ei) {
    (void)bytes, (void)dev;
    *d_ptr = NULL;
    return no_gpu(ei);
}
void cz_gpu_free(void *d_ptr, int dev) {
    (void)d_ptr, (void)dev;
}
int cz_gpu_upload(void *d_dst, const void *src, size_t bytes, int dev, cz_errinfo *ei) {
    (void)d_dst, (void)src, (void)bytes, (void)dev;
    return no_gpu(ei);
}
int cz_gpu_download(void *dst, const void *d_src, size_t bytes, int dev, cz_errinfo *ei) {
    (void)dst, (void)d_src, (void)bytes, (void)dev;
    return no_gpu(ei);
}
int cz_gpu_host_alloc(void **out, size_t bytes, cz_errinfo *ei) {
    (void)bytes;
    *out = NULL;
    return no_gpu(ei);
}
void cz_gpu_host_free(void *p) {
    (void)p;
}
int cz_gpu_host_register(void *p, size_t bytes, int read_only, cz_errinfo *ei) {
    (void)p, (void)bytes, (void)read_only;
    return no_gpu(ei);
}
int cz_gpu_host_unregister(void *p, cz_errinfo *ei) {
    (void)p;
    return no_gpu(ei);
}
int cz_gpu_host_is_pinned(const void *p) {
    (void)p;
    return 0;
}
int cz_gpu_upload_start(cz_gpu_copy **out, void *d_dst, const void *src, size_t bytes, int dev,
                        cz_errinfo *ei) {
    (void)d_dst, (void)src, (void)bytes, (void)dev;
    *out = NULL;
    return no_gpu(ei);
}
int cz_gpu_zero_start(cz_gpu_copy **out, void *d_dst, size_t bytes, int dev, cz_errinfo *ei) {
    (void)d_dst, (void)bytes, (void)dev;
    *out = NULL;
    return no_gpu(ei);
}
int cz_gpu_copy_wait(cz_gpu_copy *c, cz_errinfo *ei) {
    (void)c, (void)ei;
    return CZ_OK;
}

#define STUB_NTT(curve)                                                                            \
    int cz_##curve##_gpu_ntt(cz_##curve##_fr *a, unsigned log_n, cz_ntt_roots roots,               \
                             cz_gpu_ntt_kind kind, int dev, cz_errinfo *ei) {                      \
        (void)a, (void)log_n, (void)roots, (void)kind, (void)dev;                                  \
        return no_gpu(ei);                                                                         \
    }                                                                                              \
    int cz_##curve##_gpu_ntt_dev(void *d_a, unsigned log_n, cz_ntt_roots roots,                    \
                                 cz_gpu_ntt_kind kind, int dev, cz_errinfo *ei) {                  \
        (void)d_a, (void)log_n, (void)roots, (void)kind, (void)dev;                                \
        return no_gpu(ei);                                                                         \
    }                                                                                              \
    int cz_##curve##_gpu_fr_mul_dev(void *d_r, const void *d_a, const void *d_b, size_t n,         \
                                    int dev, cz_errinfo *ei) {                                     \
        (void)d_r, (void)d_a, (void)d_b, (void)n, (void)dev;                                       \
        return no_gpu(ei);                                                                         \
    }                                                                                              \
    int cz_##curve##_gpu_fr_mul_sub_dev(void *d_r, const void *d_a, const void *d_b,               \
                                        const void *d_c, size_t n, int dev, cz_errinfo *ei) {      \
        (void)d_r, (void)d_a, (void)d_b, (void)d_c, (void)n, (void)dev;                            \
        return no_gpu(ei);                                                                         \
    }                                                                                              \
    int cz_##curve##_gpu_ntt_quotient_dev(void *d_a, void *d_b, void *d_c, unsigned log_n,         \
                                          cz_ntt_roots roots, int dev, cz_errinfo *ei) {           \
        (void)d_a, (void)d_b, (void)d_c, (void)log_n, (void)roots, (void)dev;                      \
        return no_gpu(ei);                                                                         \
    }                                                                                              \
    int cz_##curve##_gpu_fr_scale_dev(void *d_a, const cz_##curve##_fr *k, size_t n, int dev,      \
                                      cz_errinfo *ei) {                                            \
        (void)d_a, (void)k, (void)n, (void)dev;                                                    \
        return no_gpu(ei);                                                                         \
    }                                                                                              \
    int cz_##curve##_gpu_fr_to_mont_dev(void *d_a, size_t n, int dev, cz_errinfo *ei) {            \
        (void)d_a, (void)n, (void)dev;                                                             \
        return no_gpu(ei);                                                                         \
    }

STUB_NTT(bn254)
STUB_NTT(bls12381)

/* The MSM of group g (g1 or g2) of one curve. */
#define STUB_MSM(curve, g)                                                                         \
    int cz_##curve##_gpu_##g##_bases_upload(cz_gpu_bases **b,                                      \
                                            const cz_##curve##_##g##_affine *bases, size_t n,      \
                                            int dev, cz_errinfo *ei) {                             \
        (void)bases, (void)n, (void)dev;                                                           \
        *b = NULL;                                                                                 \
        return no_gpu(ei);                                                                         \
    }                                                                                              \
    int cz_##curve##_gpu_##g##_bases_upload_start(cz_gpu_bases **b, cz_gpu_copy **cp,              \
                                                  const cz_##curve##_##g##_affine *bases,          \
                                                  size_t n, int dev, cz_errinfo *ei) {             \
        (void)bases, (void)n, (void)dev;                                                           \
        *b = NULL;                                                                                 \
        *cp = NULL;                                                                                \
        return no_gpu(ei);                                                                         \
    }                                                                                              \
    int cz_##curve##_gpu_##g##_bases_progression(                                                  \
        cz_gpu_bases **b, const cz_##curve##_##g##_affine *p0,                                     \
        const cz_##curve##_##g##_affine *step, size_t n, int dev, cz_errinfo *ei) {                \
        (void)p0, (void)step, (void)n, (void)dev;                                                  \
        *b = NULL;                                                                                 \
        return no_gpu(ei);                                                                         \
    }                                                                                              \
    int cz_##curve##_gpu_##g##_msm(cz_##curve##_##g##_jacobian *ret, const cz_gpu_bases *b,        \
                                   const cz_##curve##_fr *scalars, size_t n, cz_errinfo *ei) {     \
        (void)ret, (void)b, (void)scalars, (void)n;                                                \
        return no_gpu(ei);                                                                         \
    }                                                                                              \
    int cz_##curve##_gpu_##g##_msm_dev(cz_##curve##_##g##_jacobian *ret, const cz_gpu_bases *b,    \
                                       const void *d_scalars, size_t n, cz_errinfo *ei) {          \
        (void)ret, (void)b, (void)d_scalars, (void)n;                                              \
        return no_gpu(ei);                                                                         \
    }                                                                                              \
    int cz_##curve##_gpu_##g##_msm_dev_lent(                                                       \
        cz_##curve##_##g##_jacobian *ret, const cz_gpu_bases *b, const void *d_scalars, size_t n,  \
        void *d_lent, size_t lent_bytes, cz_errinfo *ei) {                                         \
        (void)ret, (void)b, (void)d_scalars, (void)n, (void)d_lent, (void)lent_bytes;              \
        return no_gpu(ei);                                                                         \
    }                                                                                              \
    size_t cz_##curve##_gpu_##g##_msm_min_bytes(size_t n) {                                        \
        (void)n;                                                                                   \
        return 0;                                                                                  \
    }

/* The fixed-base multiplication of group g of BLS12-381. */
#define STUB_FIXED(g)                                                                              \
    int cz_bls12381_gpu_##g##_fixed_mul(                                                           \
        cz_bls12381_##g##_affine *out, const cz_bls12381_##g##_affine *table, unsigned w,          \
        unsigned nwin, const cz_bls12381_fr *k, size_t n, int dev, cz_errinfo *ei) {               \
        (void)out, (void)table, (void)w, (void)nwin, (void)k, (void)n, (void)dev;                  \
        return no_gpu(ei);                                                                         \
    }

STUB_FIXED(g1)
STUB_FIXED(g2)

STUB_MSM(bn254, g1)
STUB_MSM(bls12381, g1)
STUB_MSM(bn254, g2)
STUB_MSM(bls12381, g2)

int cz_gpu_bases_upload_end(cz_gpu_bases *b, cz_gpu_copy *cp, cz_errinfo *ei) {
    (void)b, (void)cp;
    return no_gpu(ei);
}
void cz_gpu_bases_free(cz_gpu_bases *b) {
    (void)b;
}
size_t cz_gpu_bases_count(const cz_gpu_bases *b) {
    (void)b;
    return 0;
}
size_t cz_gpu_bases_stored(const cz_gpu_bases *b) {
    (void)b;
    return 0;
}
size_t cz_gpu_bases_bytes(const cz_gpu_bases *b) {
    (void)b;
    return 0;
}
int cz_gpu_bases_restrict(cz_gpu_bases *b, const cz_gpu_bases *like, cz_errinfo *ei) {
    (void)b, (void)like;
    return no_gpu(ei);
}
int cz_gpu_bases_spread(cz_gpu_bases *b, const uint32_t *idx, size_t n, cz_errinfo *ei) {
    (void)b, (void)idx, (void)n;
    return no_gpu(ei);
}

int cz_bls12381_gpu_r1cs_upload(cz_gpu_r1cs **out, const cz_gpu_r1cs_host *h, int dev,
                                cz_errinfo *ei) {
    (void)h, (void)dev;
    *out = NULL;
    return no_gpu(ei);
}
void cz_gpu_r1cs_free(cz_gpu_r1cs *m) {
    (void)m;
}
size_t cz_gpu_r1cs_bytes(const cz_gpu_r1cs *m) {
    (void)m;
    return 0;
}
int cz_gpu_r1cs_device(const cz_gpu_r1cs *m) {
    (void)m;
    return -1;
}
uint32_t cz_gpu_r1cs_nvals(const cz_gpu_r1cs *m) {
    (void)m;
    return 0;
}
int cz_gpu_r1cs_expand(const cz_gpu_r1cs *m, void *d_w, const void *d_bits, const void *d_vals,
                       cz_errinfo *ei) {
    (void)m, (void)d_w, (void)d_bits, (void)d_vals;
    return no_gpu(ei);
}
int cz_gpu_r1cs_eval(const cz_gpu_r1cs *m, void *d_abc, size_t n, const void *d_w, cz_errinfo *ei) {
    (void)m, (void)d_abc, (void)n, (void)d_w;
    return no_gpu(ei);
}
