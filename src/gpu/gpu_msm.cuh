/*
 * Internal to the GPU MSM (gpu_msm.cu, gpu_msm_bases.cu): the bases handle and the per-group
 * traits (G1 and G2 of both curves) that tie the device field configs to the host point types and
 * CPU curve calls.
 */
#ifndef CUZK_GPU_MSM_CUH
#define CUZK_GPU_MSM_CUH

#include "cuzk/curve.h"
#include "gpu_common.cuh"
#include "gpu_curve.cuh"

struct cz_gpu_bases {
    int dev;
    int curve;       /* 0 = BN254, 1 = BLS12-381 */
    int group;       /* 1 = G1, 2 = G2 */
    size_t n;        /* bases the handle stands for */
    size_t elem;     /* bytes of one affine point */
    void *d_pts;     /* the stored host-layout affine points: n, or `stored` when d_idx is set */
    uint32_t *d_idx; /* NULL: dense; else the ascending indices of the stored points (sparse) */
    size_t stored;   /* points in d_pts when d_idx is set (gpu_msm_sparse.cu) */
};

/* The first position in the ascending keys[0 .. n) holding a value >= v (n if none), in index
 * type I: the bucket bounds of the sorted pairs (gpu_msm_impl.cuh, size_t) and the stored points
 * below an index of sparse bases (gpu_msm_sparse.cu, uint32_t). */
template <class I>
static __device__ __forceinline__ I lower_bound_u32(const uint32_t *keys, I n, uint32_t v) {
    I lo = 0, hi = n;
    while (lo < hi) {
        I mid = lo + (hi - lo) / 2;
        if (keys[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* gpu_msm_sparse.cu: compacts b to its finite points when enough of them are infinity (see
 * there); counts the stored points of the sparse b below index k (*m); gathers out[j] = in[idx[j]]
 * (j < m, elements of elem bytes, a multiple of 8) on stream st. */
int cz__gpu_bases_compact(cz_gpu_bases *b, cz_errinfo *ei);
int cz__gpu_bases_stored_below(size_t *m, const cz_gpu_bases *b, size_t k, cudaStream_t st,
                               cz_errinfo *ei);
int cz__gpu_gather(void *out, const void *in, const uint32_t *idx, size_t m, size_t elem,
                   cudaStream_t st, cz_errinfo *ei);

/* The traits of one group for the MSM templates: fp = the device coordinate field (an Fp config
 * for G1, fp2_cfg<Fp config> for G2), rf = the field the accumulation and ones sum compute in (fp
 * for G1, the lane-pair fp2s_cfg<Fp config> for G2: gpu_fp2_split.cuh), fr = the scalar field, the
 * host point types and the CPU calls the host side needs (doubling, addition, XYZZ to Jacobian), id
 * = curve, bits of r. */
#define CZ_GPU_MSM_TRAITS(NAME, CURVE, G, FP, RF, FR, ID, GROUP, BITS)                             \
    struct NAME {                                                                                  \
        typedef FP fp;                                                                             \
        typedef RF rf;                                                                             \
        typedef FR fr;                                                                             \
        typedef cz_##CURVE##_##G##_affine aff;                                                     \
        typedef cz_##CURVE##_##G##_jacobian jac;                                                   \
        typedef cz_##CURVE##_##G##_xyzz xyzz;                                                      \
        typedef cz_##CURVE##_fr scalar;                                                            \
        enum { id = ID, group = GROUP, bits = BITS };                                              \
        static void dbl(jac *r, const jac *p) {                                                    \
            cz_##CURVE##_##G##_dbl(r, p);                                                          \
        }                                                                                          \
        static void add(jac *r, const jac *a, const jac *b) {                                      \
            cz_##CURVE##_##G##_add(r, a, b);                                                       \
        }                                                                                          \
        static void to_jac(jac *r, const xyzz *p) {                                                \
            cz_##CURVE##_##G##_xyzz_to_jacobian(r, p);                                             \
        }                                                                                          \
    }

CZ_GPU_MSM_TRAITS(msm_bn254, bn254, g1, gbn254_fp_cfg, gbn254_fp_cfg, gbn254_fr_cfg, 0, 1, 254);
CZ_GPU_MSM_TRAITS(msm_bls12381, bls12381, g1, gbls12381_fp_cfg, gbls12381_fp_cfg, gbls12381_fr_cfg,
                  1, 1, 255);
CZ_GPU_MSM_TRAITS(msm_bn254_g2, bn254, g2, gbn254_fp2_cfg, gbn254_fp2s_cfg, gbn254_fr_cfg, 0, 2,
                  254);
CZ_GPU_MSM_TRAITS(msm_bls12381_g2, bls12381, g2, gbls12381_fp2_cfg, gbls12381_fp2s_cfg,
                  gbls12381_fr_cfg, 1, 2, 255);

#endif
