/*
 * Device field-multiplication throughput, for `cuzk-bench fmul --gpu` (not a library feature: the
 * kernels only measure). See gpu_bench.h.
 */
#include "gpu_bench.h"
#include "gpu_common.cuh"
#include "gpu_field.cuh"
#include "gpu_field_eo.cuh"

/* ---- field multiplication microbenchmark (cuzk-bench fmul --gpu) ----
 * Each thread runs 4 independent chains x_k ← x_k·y (or x_k²) for iters rounds. Variant 0 is
 * fe_mul (product scanning), 1 an operand-scanning multiplication with even/odd accumulators
 * (gpu_field_eo.cuh; its results must equal variant 0's: the benchmark compares them), 2 fe_sqr.
 * Measured on the H200 the even/odd form is 3-4 % slower: ptxas already turns each mad.lo.cc /
 * madc.hi.cc pair into one IMAD.WIDE and the addc into an IADD3.X on the ALU pipe, so both forms
 * issue the same ~2N² + N wide multiplies on the IMAD pipe, which is the bound, and the even/odd
 * form adds a few IMAD.X for its carries. */

template <class C, int V> __global__ void fmul_bench_kern(fe<C> *io, size_t count, unsigned iters) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    fe<C> x[4], y = fe_load(&io[5 * i + 4]);
#pragma unroll
    for (int k = 0; k < 4; k++)
        x[k] = fe_load(&io[5 * i + k]);
    for (unsigned it = 0; it < iters; it++) {
#pragma unroll
        for (int k = 0; k < 4; k++) {
            if (V == 0)
                fe_mul(x[k], x[k], y);
            else if (V == 1)
                eo_mul(x[k], x[k], y);
            else
                fe_sqr(x[k], x[k]);
        }
    }
#pragma unroll
    for (int k = 0; k < 4; k++)
        fe_store(&io[5 * i + k], x[k]);
}

template <class C>
static int fmul_bench(fe<C> *io, size_t count, int variant, unsigned iters, cz_errinfo *ei) {
    int rc = CZ_OK;
    const unsigned blocks = cz__gpu_blocks(count, 256);
    if (variant == 0)
        fmul_bench_kern<C, 0><<<blocks, 256>>>(io, count, iters);
    else if (variant == 1)
        fmul_bench_kern<C, 1><<<blocks, 256>>>(io, count, iters);
    else
        fmul_bench_kern<C, 2><<<blocks, 256>>>(io, count, iters);
    CZ_CUDA_LAUNCHED();
    CZ_CUDA_TRY(cudaDeviceSynchronize());
out:
    return rc;
}

/* Internal (declared by bench/cuzk_bench_gpu.c): field 0 BN254 Fr, 1 BLS12-381 Fr, 2 BN254 Fp,
 * 3 BLS12-381 Fp; d_io holds 5·count elements (x0..x3, y per thread), 4·count·iters operations. */
extern "C" int cz__gpu_fmul_bench(int field, int variant, void *d_io, size_t count, unsigned iters,
                                  int dev, cz_errinfo *ei) {
    int rc;
    if ((rc = cz__gpu_select(dev, ei)) != CZ_OK)
        return rc;
    switch (field) {
    case 0:
        return fmul_bench((fe<gbn254_fr_cfg> *)d_io, count, variant, iters, ei);
    case 1:
        return fmul_bench((fe<gbls12381_fr_cfg> *)d_io, count, variant, iters, ei);
    case 2:
        return fmul_bench((fe<gbn254_fp_cfg> *)d_io, count, variant, iters, ei);
    default:
        return fmul_bench((fe<gbls12381_fp_cfg> *)d_io, count, variant, iters, ei);
    }
}
