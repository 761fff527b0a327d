/*
 * Fixed-base scalar multiplication on the device (cuzk/gpu.h, "fixed-base multiplication"): the
 * kernel and the host loop, templates over gpu_msm.cuh's group traits. Included by
 * gpu_fixed_base.cu (G1) and gpu_fixed_g2_bls12381.cu (G2), which instantiate FIXED_API.
 *
 * The caller's window table holds T[j·(2^w - 1) + d - 1] = d·2^(w·j)·P, so [k]P is the sum of
 * one table point per non-zero w-bit digit of k: about 255/w mixed additions and no doubling.
 * The work goes in rounds of FIXED_ROUND points: the round's scalars are copied in, thread t owns
 * FIXED_K consecutive points, adds up each point in XYZZ coordinates into the round's scratch
 * and converts its FIXED_K points to affine with one inversion (xyzz_batch_to_affine); the
 * affine points are copied out. The table stays on the device for the whole call.
 */
#ifndef CUZK_GPU_FIXED_BASE_CUH
#define CUZK_GPU_FIXED_BASE_CUH

#include "gpu_msm.cuh"

#define FIXED_K     32u
#define FIXED_ROUND ((size_t)1 << 22)

/* Bits [pos, pos + w) of the canonical scalar s (w <= 16; bits past the top read as zero). */
template <class FR>
static __device__ __forceinline__ uint32_t fixed_digit(const fe<FR> &s, unsigned pos, unsigned w) {
    unsigned li = pos / 32, sh = pos % 32;
    if (li >= (unsigned)FR::N)
        return 0;
    uint32_t v = s.l[li] >> sh;
    if (sh + w > 32 && li + 1 < (unsigned)FR::N)
        v |= s.l[li + 1] << (32 - sh);
    return v & ((1u << w) - 1u);
}

template <class FP, class FR>
__global__ void __launch_bounds__(128)
    fixed_mul_kern(ec_aff<FP> *out, ec_xyzz<FP> *tmp, fe<FP> *pre, const ec_aff<FP> *table,
                   const fe<FR> *k, unsigned w, unsigned nwin, size_t n) {
    size_t i0 = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * FIXED_K;
    if (i0 >= n)
        return;
    uint32_t cnt = (uint32_t)(n - i0 < FIXED_K ? n - i0 : FIXED_K);
    size_t per = ((size_t)1 << w) - 1;
    for (uint32_t j = 0; j < cnt; j++) {
        fe<FR> s = fe_load(&k[i0 + j]);
        fe_from_mont(s, s);
        ec_xyzz<FP> q;
        xyzz_set_inf(q);
        for (unsigned win = 0; win < nwin; win++) {
            uint32_t d = fixed_digit(s, win * w, w);
            if (d == 0)
                continue;
            const ec_aff<FP> *p = &table[win * per + d - 1];
            fe<FP> x = fe_load(&p->x), y = fe_load(&p->y);
            xyzz_add_affine(q, x, y, false);
        }
        xyzz_store(&tmp[i0 + j], q);
    }
    xyzz_batch_to_affine(out + i0, tmp + i0, pre + i0, cnt);
}

template <class H>
static int fixed_mul(typename H::aff *out, const typename H::aff *table, unsigned w, unsigned nwin,
                     const typename H::scalar *k, size_t n, int dev, cz_errinfo *ei) {
    typedef typename H::fp FP;
    typedef typename H::fr FR;
    int rc = CZ_OK;
    ec_aff<FP> *d_table = NULL, *d_out = NULL;
    ec_xyzz<FP> *d_tmp = NULL;
    fe<FP> *d_pre = NULL;
    fe<FR> *d_k = NULL;
    size_t round = n < FIXED_ROUND ? n : FIXED_ROUND, tpoints;
    if (w < 1 || w > 16)
        return cz_fail(ei, CZ_EINVAL, "gpu fixed-base: window width %u is not 1 .. 16", w);
    if ((size_t)nwin * w < (size_t)H::bits || (size_t)nwin * w >= 32u * FR::N + w)
        return cz_fail(ei, CZ_EINVAL,
                       "gpu fixed-base: %u windows of %u bits do not fit a %d-bit scalar (the "
                       "windows must cover it, none of them past bit %d)",
                       nwin, w, (int)H::bits, 32 * FR::N);
    if (n == 0)
        return CZ_OK;
    if (out == NULL || table == NULL || k == NULL)
        return cz_fail(ei, CZ_EINVAL, "gpu fixed-base: NULL array for %zu points", n);
    if ((rc = cz__gpu_select(dev, ei)) != CZ_OK)
        return rc;
    tpoints = (size_t)nwin * (((size_t)1 << w) - 1);
    CZ_CUDA_TRY(cudaMalloc((void **)&d_table, tpoints * sizeof *d_table));
    CZ_CUDA_TRY(cudaMalloc((void **)&d_out, round * sizeof *d_out));
    CZ_CUDA_TRY(cudaMalloc((void **)&d_tmp, round * sizeof *d_tmp));
    CZ_CUDA_TRY(cudaMalloc((void **)&d_pre, round * sizeof *d_pre));
    CZ_CUDA_TRY(cudaMalloc((void **)&d_k, round * sizeof *d_k));
    CZ_CUDA_TRY(cudaMemcpy(d_table, table, tpoints * sizeof *d_table, cudaMemcpyHostToDevice));
    for (size_t first = 0; first < n; first += round) {
        size_t cnt = n - first < round ? n - first : round;
        size_t threads = (cnt + FIXED_K - 1) / FIXED_K;
        CZ_CUDA_TRY(cudaMemcpy(d_k, k + first, cnt * sizeof *d_k, cudaMemcpyHostToDevice));
        fixed_mul_kern<FP, FR><<<cz__gpu_blocks(threads, 128), 128>>>(d_out, d_tmp, d_pre, d_table,
                                                                      d_k, w, nwin, cnt);
        CZ_CUDA_LAUNCHED();
        CZ_CUDA_TRY(cudaMemcpy(out + first, d_out, cnt * sizeof *d_out, cudaMemcpyDeviceToHost));
    }
out:
    cudaFree(d_table);
    cudaFree(d_out);
    cudaFree(d_tmp);
    cudaFree(d_pre);
    cudaFree(d_k);
    return rc;
}

/* The extern "C" entry point of one group of one curve (cuzk/gpu.h). */
#define FIXED_API(CURVE, G, H)                                                                     \
    extern "C" int cz_##CURVE##_gpu_##G##_fixed_mul(                                               \
        cz_##CURVE##_##G##_affine *out, const cz_##CURVE##_##G##_affine *table, unsigned w,        \
        unsigned nwin, const cz_##CURVE##_fr *k, size_t n, int dev, cz_errinfo *ei) {              \
        return fixed_mul<H>(out, table, w, nwin, k, n, dev, ei);                                   \
    }

#endif
