/*
 * The NTT over Fr on the GPU, for BN254 and BLS12-381 (see cuzk/gpu.h for the transforms; they
 * match cuzk/ntt.h exactly: natural order in and out, ffjavascript's roots).
 *
 * Algorithm: radix-2 decimation in time. One bit-reversal pass (in place, pairwise swaps), then
 * the log_n butterfly stages in groups of at most 10: one launch per group, each block loads 2^s
 * elements spaced 2^t apart (t = the first stage of the group) into shared memory, runs the s
 * stages there with a barrier between stages, and writes them back. An element is 32 bytes, one
 * DRAM sector, so the strided loads of the later groups still use every byte fetched. 2^24 takes
 * 1 + 3 passes over the data, 2^27 takes 1 + 3.
 *
 * Twiddles: the stage with half-size h uses ω_n^(j·n/2h), read from one table ω^k, k < n/2, per
 * direction. The table is generated on the device from two small host tables (x^k for k < 1024 and
 * x^(1024m)), one multiplication per entry, and cached per (device, curve, log_n) until
 * cz_gpu_release: 2 · 16·n bytes. Coset shifts and the n⁻¹ scaling use the same two-level tables
 * (a[j] ·= hi[j >> 10]·lo[j & 1023]), with n⁻¹ folded into the lo table of g⁻¹, so an inverse coset
 * transform costs no extra pass for the scaling.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ntt.h"
#include "gpu_common.cuh"
#include "gpu_field.cuh"

#define NTT_MAX_DEV  16
#define NTT_LO_BITS  10
#define NTT_LO_SIZE  (1u << NTT_LO_BITS)
#define NTT_MAX_TILE 10 /* 2^10 elements (32 KiB) per block of 512 threads */

/* ---- kernels ---- */

template <class C> __global__ void ntt_bitrev_kern(fe<C> *a, unsigned log_n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >> log_n)
        return;
    size_t j = __brevll((unsigned long long)i) >> (64 - log_n);
    if (i < j) {
        fe<C> x = fe_load(&a[i]), y = fe_load(&a[j]);
        fe_store(&a[i], y);
        fe_store(&a[j], x);
    }
}

/* Stages t .. t+s-1 (see the file comment); blockDim.x = 2^(s-1), dynamic shared 2^s elements. */
template <class C>
__global__ void __launch_bounds__(512)
    ntt_stages_kern(fe<C> *a, const fe<C> *tw, unsigned log_n, unsigned t, unsigned s) {
    extern __shared__ uint4 ntt_smem[];
    fe<C> *sh = reinterpret_cast<fe<C> *>(ntt_smem);
    const size_t b = blockIdx.x;
    const size_t lo = b & (((size_t)1 << t) - 1);
    const size_t base = ((b >> t) << (t + s)) | lo;
    const unsigned u = threadIdx.x, half = 1u << (s - 1);

    sh[u] = fe_load(&a[base + ((size_t)u << t)]);
    sh[u + half] = fe_load(&a[base + ((size_t)(u + half) << t)]);
    __syncthreads();
    for (unsigned k = 0; k < s; k++) {
        const unsigned h = 1u << k, j = u & (h - 1);
        const unsigned i0 = ((u >> k) << (k + 1)) + j, i1 = i0 + h;
        const size_t e = (((size_t)j << t) + lo) << (log_n - (t + k) - 1);
        fe<C> w = fe_load(&tw[e]), x = sh[i0], y = sh[i1];
        fe_mul(y, y, w);
        fe_add(sh[i0], x, y);
        fe_sub(sh[i1], x, y);
        __syncthreads();
    }
    fe_store(&a[base + ((size_t)u << t)], sh[u]);
    fe_store(&a[base + ((size_t)(u + half) << t)], sh[u + half]);
}

/* tw[k] = hi[k >> 10] · lo[k & 1023] for k < count. */
template <class C>
__global__ void ntt_table_kern(fe<C> *tw, const fe<C> *lo, const fe<C> *hi, size_t count) {
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= count)
        return;
    fe<C> r, x = fe_load(&hi[k >> NTT_LO_BITS]), y = fe_load(&lo[k & (NTT_LO_SIZE - 1)]);
    fe_mul(r, x, y);
    fe_store(&tw[k], r);
}

/* a[k] ·= hi[k >> 10] · lo[k & 1023] for k < n. */
template <class C>
__global__ void ntt_mul_powers_kern(fe<C> *a, const fe<C> *lo, const fe<C> *hi, size_t n) {
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n)
        return;
    fe<C> r, x = fe_load(&hi[k >> NTT_LO_BITS]), y = fe_load(&lo[k & (NTT_LO_SIZE - 1)]);
    fe_mul(r, x, y);
    x = fe_load(&a[k]);
    fe_mul(r, r, x);
    fe_store(&a[k], r);
}

/* a[k] ·= c for k < n. */
template <class C> __global__ void ntt_scale_kern(fe<C> *a, fe<C> c, size_t n) {
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n)
        return;
    fe<C> x = fe_load(&a[k]);
    fe_mul(x, x, c);
    fe_store(&a[k], x);
}

/* ---- host side: per-curve host arithmetic ---- */

struct ntt_bn254 {
    typedef cz_bn254_fr fr;
    typedef gbn254_fr_cfg cfg;
    enum { id = 0, two_adicity = 28 };
    static void mul(fr *r, const fr *a, const fr *b) {
        cz_bn254_fr_mul(r, a, b);
    }
    static void inv(fr *r, const fr *a) {
        cz_bn254_fr_inv(r, a);
    }
    static void one(fr *r) {
        cz_bn254_fr_one(r);
    }
    static void from_u64(fr *r, uint64_t v) {
        cz_bn254_fr_from_u64(r, v);
    }
    static int root(fr *r, unsigned k) {
        return cz_bn254_ntt_root_of_unity(r, k);
    }
    static int coset_gen(fr *r, unsigned k) {
        return cz_bn254_ntt_coset_gen(r, k);
    }
};
struct ntt_bls12381 {
    typedef cz_bls12381_fr fr;
    typedef gbls12381_fr_cfg cfg;
    enum { id = 1, two_adicity = 32 };
    static void mul(fr *r, const fr *a, const fr *b) {
        cz_bls12381_fr_mul(r, a, b);
    }
    static void inv(fr *r, const fr *a) {
        cz_bls12381_fr_inv(r, a);
    }
    static void one(fr *r) {
        cz_bls12381_fr_one(r);
    }
    static void from_u64(fr *r, uint64_t v) {
        cz_bls12381_fr_from_u64(r, v);
    }
    static int root(fr *r, unsigned k) {
        return cz_bls12381_ntt_root_of_unity(r, k);
    }
    static int coset_gen(fr *r, unsigned k) {
        return cz_bls12381_ntt_coset_gen(r, k);
    }
};

/* A cached domain: device tables of one (device, curve, log_n). All fr-sized (32 bytes). */
struct ntt_dom {
    void *tw_fwd, *tw_inv; /* n/2 entries each */
    void *g_lo, *g_hi;     /* g^k */
    void *gi_lo, *gi_hi;   /* n⁻¹·g^-k (n⁻¹ folded into lo) */
    uint8_t ninv[32];      /* n⁻¹, Montgomery */
};

static pthread_mutex_t ntt_cache_lock = PTHREAD_MUTEX_INITIALIZER; /* protects ntt_cache */
static ntt_dom *ntt_cache[NTT_MAX_DEV][2][CZ_GPU_NTT_MAX_LOG + 1];

static void dom_free(ntt_dom *d) {
    if (d == NULL)
        return;
    cudaFree(d->tw_fwd);
    cudaFree(d->tw_inv);
    cudaFree(d->g_lo);
    cudaFree(d->g_hi);
    cudaFree(d->gi_lo);
    cudaFree(d->gi_hi);
    free(d);
}

/* lo[k] = c·x^k (k < 1024), hi[m] = x^(1024m) (m < nhi), in host memory. */
template <class H>
static void host_tables(typename H::fr *lo, typename H::fr *hi, size_t nhi, const typename H::fr *x,
                        const typename H::fr *c) {
    typename H::fr p, x1024;
    lo[0] = *c;
    p = *x;
    for (unsigned k = 1; k < NTT_LO_SIZE; k++)
        H::mul(&lo[k], &lo[k - 1], x);
    H::one(&x1024);
    for (unsigned k = 0; k < NTT_LO_SIZE; k++)
        H::mul(&x1024, &x1024, &p);
    H::one(&hi[0]);
    for (size_t m = 1; m < nhi; m++)
        H::mul(&hi[m], &hi[m - 1], &x1024);
}

/* Uploads lo/hi tables of x (lo scaled by c) to fresh device buffers. */
template <class H>
static int upload_tables(void **d_lo, void **d_hi, size_t count, const typename H::fr *x,
                         const typename H::fr *c, cz_errinfo *ei) {
    typedef typename H::fr fr;
    int rc = CZ_OK;
    size_t nhi = (count + NTT_LO_SIZE - 1) / NTT_LO_SIZE;
    fr *lo = (fr *)malloc(NTT_LO_SIZE * sizeof(fr)), *hi = (fr *)malloc(nhi * sizeof(fr));
    if (lo == NULL || hi == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "gpu ntt: host tables");
        goto out;
    }
    host_tables<H>(lo, hi, nhi, x, c);
    CZ_CUDA_TRY(cudaMalloc(d_lo, NTT_LO_SIZE * sizeof(fr)));
    CZ_CUDA_TRY(cudaMalloc(d_hi, nhi * sizeof(fr)));
    CZ_CUDA_TRY(cudaMemcpy(*d_lo, lo, NTT_LO_SIZE * sizeof(fr), cudaMemcpyHostToDevice));
    CZ_CUDA_TRY(cudaMemcpy(*d_hi, hi, nhi * sizeof(fr), cudaMemcpyHostToDevice));
out:
    free(lo);
    free(hi);
    return rc;
}

/* Expands x's tables into a full twiddle table of count entries at *d_tw. */
template <class H>
static int make_twiddles(void **d_tw, size_t count, const typename H::fr *x, cz_errinfo *ei) {
    typedef fe<typename H::cfg> F;
    void *d_lo = NULL, *d_hi = NULL;
    typename H::fr one;
    int rc;
    H::one(&one);
    rc = upload_tables<H>(&d_lo, &d_hi, count, x, &one, ei);
    if (rc != CZ_OK)
        goto out;
    CZ_CUDA_TRY(cudaMalloc(d_tw, count * sizeof(F)));
    ntt_table_kern<typename H::cfg>
        <<<cz__gpu_blocks(count, 256), 256>>>((F *)*d_tw, (F *)d_lo, (F *)d_hi, count);
    CZ_CUDA_LAUNCHED();
    CZ_CUDA_TRY(cudaDeviceSynchronize());
out:
    cudaFree(d_lo);
    cudaFree(d_hi);
    return rc;
}

template <class H> static int dom_build(ntt_dom **out_dom, unsigned log_n, cz_errinfo *ei) {
    typedef typename H::fr fr;
    size_t n = (size_t)1 << log_n;
    fr w, wi, g, gi, nn, ninv;
    int rc = CZ_OK;
    ntt_dom *d = (ntt_dom *)calloc(1, sizeof *d);
    if (d == NULL)
        return cz_fail(ei, CZ_ENOMEM, "gpu ntt: domain");
    if (H::root(&w, log_n) != CZ_OK || H::coset_gen(&g, log_n) != CZ_OK) {
        rc = cz_fail(ei, CZ_ERANGE, "gpu ntt: log_n %u too large", log_n);
        goto out;
    }
    H::inv(&wi, &w);
    H::inv(&gi, &g);
    H::from_u64(&nn, n);
    H::inv(&ninv, &nn);
    memcpy(d->ninv, &ninv, sizeof ninv);
    if ((rc = make_twiddles<H>(&d->tw_fwd, n / 2, &w, ei)) != CZ_OK)
        goto out;
    if ((rc = make_twiddles<H>(&d->tw_inv, n / 2, &wi, ei)) != CZ_OK)
        goto out;
    {
        fr one;
        H::one(&one);
        if ((rc = upload_tables<H>(&d->g_lo, &d->g_hi, n, &g, &one, ei)) != CZ_OK)
            goto out;
    }
    if ((rc = upload_tables<H>(&d->gi_lo, &d->gi_hi, n, &gi, &ninv, ei)) != CZ_OK)
        goto out;
out:
    if (rc != CZ_OK) {
        dom_free(d);
        d = NULL;
    }
    *out_dom = d;
    return rc;
}

/* The cached domain of (dev, curve H, log_n), built on first use. dev is already selected. */
template <class H> static int dom_get(ntt_dom **d, int dev, unsigned log_n, cz_errinfo *ei) {
    int rc = CZ_OK;
    if (dev >= NTT_MAX_DEV)
        return cz_fail(ei, CZ_EUNSUPPORTED, "gpu ntt: device %d beyond the cache", dev);
    pthread_mutex_lock(&ntt_cache_lock);
    *d = ntt_cache[dev][H::id][log_n];
    if (*d == NULL) {
        rc = dom_build<H>(d, log_n, ei);
        if (rc == CZ_OK)
            ntt_cache[dev][H::id][log_n] = *d;
    }
    pthread_mutex_unlock(&ntt_cache_lock);
    return rc;
}

extern "C" int cz_gpu_release(int dev, cz_errinfo *ei) {
    int rc = cz__gpu_select(dev, ei);
    if (rc != CZ_OK)
        return rc;
    if (dev >= NTT_MAX_DEV)
        return CZ_OK;
    pthread_mutex_lock(&ntt_cache_lock);
    for (int c = 0; c < 2; c++)
        for (int k = 0; k <= CZ_GPU_NTT_MAX_LOG; k++) {
            dom_free(ntt_cache[dev][c][k]);
            ntt_cache[dev][c][k] = NULL;
        }
    pthread_mutex_unlock(&ntt_cache_lock);
    return CZ_OK;
}

/* Runs the butterflies of an NTT over the bit-reversed d_a with twiddle table tw. */
template <class C> static int ntt_core(fe<C> *a, const fe<C> *tw, unsigned log_n, cz_errinfo *ei) {
    int rc = CZ_OK;
    size_t n = (size_t)1 << log_n;
    ntt_bitrev_kern<C><<<cz__gpu_blocks(n, 256), 256>>>(a, log_n);
    CZ_CUDA_LAUNCHED();
    for (unsigned t = 0; t < log_n;) {
        unsigned s = log_n - t < NTT_MAX_TILE ? log_n - t : NTT_MAX_TILE;
        size_t blocks = n >> s;
        ntt_stages_kern<C>
            <<<(unsigned)blocks, 1u << (s - 1), sizeof(fe<C>) << s>>>(a, tw, log_n, t, s);
        CZ_CUDA_LAUNCHED();
        t += s;
    }
out:
    return rc;
}

template <class H>
static int ntt_dev(void *d_a, unsigned log_n, cz_gpu_ntt_kind kind, int dev, cz_errinfo *ei) {
    typedef typename H::cfg C;
    typedef fe<C> F;
    ntt_dom *d = NULL;
    F *a = (F *)d_a;
    size_t n = (size_t)1 << log_n;
    int rc;
    if (log_n < 1 || log_n > CZ_GPU_NTT_MAX_LOG || log_n > (unsigned)H::two_adicity)
        return cz_fail(ei, CZ_ERANGE, "gpu ntt: log_n %u outside 1..%d", log_n, CZ_GPU_NTT_MAX_LOG);
    if ((unsigned)kind > CZ_GPU_NTT_COSET_INVERSE)
        return cz_fail(ei, CZ_EINVAL, "gpu ntt: unknown kind %d", (int)kind);
    if ((rc = cz__gpu_select(dev, ei)) != CZ_OK)
        return rc;
    if ((rc = dom_get<H>(&d, dev, log_n, ei)) != CZ_OK)
        return rc;
    switch (kind) {
    case CZ_GPU_NTT_FORWARD:
        rc = ntt_core<C>(a, (const F *)d->tw_fwd, log_n, ei);
        break;
    case CZ_GPU_NTT_COSET_FORWARD:
        ntt_mul_powers_kern<C>
            <<<cz__gpu_blocks(n, 256), 256>>>(a, (const F *)d->g_lo, (const F *)d->g_hi, n);
        CZ_CUDA_LAUNCHED();
        rc = ntt_core<C>(a, (const F *)d->tw_fwd, log_n, ei);
        break;
    case CZ_GPU_NTT_INVERSE: {
        F ninv;
        memcpy(&ninv, d->ninv, sizeof ninv);
        if ((rc = ntt_core<C>(a, (const F *)d->tw_inv, log_n, ei)) != CZ_OK)
            goto out;
        ntt_scale_kern<C><<<cz__gpu_blocks(n, 256), 256>>>(a, ninv, n);
        CZ_CUDA_LAUNCHED();
        break;
    }
    case CZ_GPU_NTT_COSET_INVERSE:
        if ((rc = ntt_core<C>(a, (const F *)d->tw_inv, log_n, ei)) != CZ_OK)
            goto out;
        ntt_mul_powers_kern<C>
            <<<cz__gpu_blocks(n, 256), 256>>>(a, (const F *)d->gi_lo, (const F *)d->gi_hi, n);
        CZ_CUDA_LAUNCHED();
        break;
    }
    if (rc != CZ_OK)
        goto out;
    CZ_CUDA_TRY(cudaDeviceSynchronize());
out:
    return rc;
}

template <class H>
static int ntt_host(typename H::fr *a, unsigned log_n, cz_gpu_ntt_kind kind, int dev,
                    cz_errinfo *ei) {
    void *d_a = NULL;
    size_t bytes;
    int rc;
    if (log_n < 1 || log_n > CZ_GPU_NTT_MAX_LOG)
        return cz_fail(ei, CZ_ERANGE, "gpu ntt: log_n %u outside 1..%d", log_n, CZ_GPU_NTT_MAX_LOG);
    bytes = sizeof(typename H::fr) << log_n;
    if ((rc = cz__gpu_select(dev, ei)) != CZ_OK)
        return rc;
    CZ_CUDA_TRY(cudaMalloc(&d_a, bytes));
    CZ_CUDA_TRY(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    if ((rc = ntt_dev<H>(d_a, log_n, kind, dev, ei)) != CZ_OK)
        goto out;
    CZ_CUDA_TRY(cudaMemcpy(a, d_a, bytes, cudaMemcpyDeviceToHost));
out:
    cudaFree(d_a);
    return rc;
}

extern "C" int cz_bn254_gpu_ntt(cz_bn254_fr *a, unsigned log_n, cz_gpu_ntt_kind kind, int dev,
                                cz_errinfo *ei) {
    return ntt_host<ntt_bn254>(a, log_n, kind, dev, ei);
}
extern "C" int cz_bls12381_gpu_ntt(cz_bls12381_fr *a, unsigned log_n, cz_gpu_ntt_kind kind, int dev,
                                   cz_errinfo *ei) {
    return ntt_host<ntt_bls12381>(a, log_n, kind, dev, ei);
}
extern "C" int cz_bn254_gpu_ntt_dev(void *d_a, unsigned log_n, cz_gpu_ntt_kind kind, int dev,
                                    cz_errinfo *ei) {
    return ntt_dev<ntt_bn254>(d_a, log_n, kind, dev, ei);
}
extern "C" int cz_bls12381_gpu_ntt_dev(void *d_a, unsigned log_n, cz_gpu_ntt_kind kind, int dev,
                                       cz_errinfo *ei) {
    return ntt_dev<ntt_bls12381>(d_a, log_n, kind, dev, ei);
}
