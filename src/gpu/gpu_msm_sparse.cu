/*
 * Sparse MSM bases (cuzk/gpu.h, cz_gpu_bases_stored / cz_gpu_bases_restrict): a handle may keep
 * only its finite points, with their indices. A Groth16 key's B bases are infinity for every
 * variable that B does not touch (about 75 % of a PoRep partition's), and the MSM would otherwise
 * read, sort and add all of them: at 2^27 the G2 MSM took 0.30 s of the 1.6 s device region.
 *
 * Layout: d_pts holds `stored` points in index order and d_idx[j] is the index of point j in the
 * full array of n (ascending, 32 bits: n < 2^31 is checked by the MSM). d_idx NULL means dense
 * (stored = n). An MSM over the first k of the n bases (gpu_msm_impl.cuh, msm_run) counts the
 * stored points below k (a binary search on the device), gathers their scalars s[d_idx[j]] into a
 * temporary array and runs unchanged on the stored points: the result is the same group element,
 * infinity terms contributing nothing.
 *
 * Made by bases_upload (gpu_msm_bases.cuh) when at least an eighth of the points are infinity
 * (cz_tuning.gpu_bases_compact: never, or whenever one is): one pass flags the finite points, a CUB
 * exclusive sum gives their positions, one pass writes the indices, one gather copies the points
 * into an exact-size buffer, and the dense one is freed (so the device holds both for a moment;
 * without room for that the handle stays dense, with a warning).
 * cz_gpu_bases_restrict keeps only the positions another handle stores (the benchmark key's B1,
 * made dense on the device, takes B2's, which a real key shares: the same variables are in B).
 */
#include <cub/device/device_scan.cuh>

#include "cuzk/log.h"
#include "cuzk/tuning.h"
#include "gpu_msm.cuh"

/* flags[i] = 1 when point i (words 64-bit words) is not all-zero, the affine infinity. */
static __global__ void __launch_bounds__(256)
    sparse_flag_kern(uint32_t *flags, const uint64_t *pts, unsigned words, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint64_t any = 0;
    for (unsigned w = 0; w < words; w++)
        any |= pts[i * words + w];
    flags[i] = any != 0;
}

/* idx[pos[i]] = i for every flagged i. */
static __global__ void __launch_bounds__(256)
    sparse_index_kern(uint32_t *idx, const uint32_t *flags, const uint32_t *pos, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && flags[i])
        idx[pos[i]] = (uint32_t)i;
}

/* out[j] = in[idx[j]] for j < m, elements of words 64-bit words (one thread per word). */
static __global__ void __launch_bounds__(256)
    sparse_gather_kern(uint64_t *out, const uint64_t *in, const uint32_t *idx, unsigned words,
                       size_t total) {
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= total)
        return;
    size_t j = t / words, w = t % words;
    out[t] = in[(size_t)idx[j] * words + w];
}

/* *m = the number of idx[0 .. nidx) below k (idx ascending): one thread's binary search. */
static __global__ void sparse_count_below_kern(uint32_t *m, const uint32_t *idx, uint32_t nidx,
                                               uint32_t k) {
    *m = lower_bound_u32(idx, nidx, k);
}

int cz__gpu_gather(void *out, const void *in, const uint32_t *idx, size_t m, size_t elem,
                   cudaStream_t st, cz_errinfo *ei) {
    int rc = CZ_OK;
    unsigned words = (unsigned)(elem / 8);
    size_t total = m * words;
    if (total == 0)
        return CZ_OK;
    sparse_gather_kern<<<cz__gpu_blocks(total, 256), 256, 0, st>>>(
        (uint64_t *)out, (const uint64_t *)in, idx, words, total);
    CZ_CUDA_LAUNCHED();
out:
    return rc;
}

int cz__gpu_bases_stored_below(size_t *m, const cz_gpu_bases *b, size_t k, cudaStream_t st,
                               cz_errinfo *ei) {
    int rc = CZ_OK;
    uint32_t *d_m = NULL, hm = 0;
    if (k >= b->n) {
        *m = b->stored;
        return CZ_OK;
    }
    CZ_CUDA_TRY(cudaMallocAsync((void **)&d_m, sizeof *d_m, st));
    sparse_count_below_kern<<<1, 1, 0, st>>>(d_m, b->d_idx, (uint32_t)b->stored, (uint32_t)k);
    CZ_CUDA_LAUNCHED();
    CZ_CUDA_TRY(cudaMemcpyAsync(&hm, d_m, sizeof hm, cudaMemcpyDeviceToHost, st));
    CZ_CUDA_TRY(cudaStreamSynchronize(st));
    *m = hm;
out:
    cudaFreeAsync(d_m, st);
    return rc;
}

/* Replaces b's points by those at d_idx (count m, owned by b from now on). */
static int sparse_adopt(cz_gpu_bases *b, uint32_t *d_idx, size_t m, cz_errinfo *ei) {
    int rc = CZ_OK;
    void *pts = NULL;
    CZ_CUDA_TRY(cudaMalloc(&pts, m ? m * b->elem : 1));
    if ((rc = cz__gpu_gather(pts, b->d_pts, d_idx, m, b->elem, 0, ei)) != CZ_OK)
        goto out;
    CZ_CUDA_TRY(cudaDeviceSynchronize());
    cudaFree(b->d_pts);
    b->d_pts = pts;
    b->d_idx = d_idx;
    b->stored = m;
    pts = NULL;
    d_idx = NULL;
out:
    cudaFree(pts);
    cudaFree(d_idx);
    return rc;
}

int cz__gpu_bases_compact(cz_gpu_bases *b, cz_errinfo *ei) {
    int rc = CZ_OK, mode = 0;
    size_t n = b->n, temp_bytes = 0, finite = 0, min_inf;
    uint32_t *flags = NULL, *pos = NULL, *idx = NULL, last[2] = {0, 0};
    void *temp = NULL;
    cz_tuning tu;
    cz_tuning_get(&tu);
    mode = tu.gpu_bases_compact == CZ_COMPACT_ALWAYS  ? 1
           : tu.gpu_bases_compact == CZ_COMPACT_NEVER ? -1
                                                      : 0;
    if (mode < 0 || b->d_idx != NULL || n == 0)
        return CZ_OK;
    min_inf = mode > 0 ? 1 : (n / 8 > 0 ? n / 8 : 1);
    CZ_CUDA_TRY(cudaMalloc((void **)&flags, n * sizeof *flags));
    CZ_CUDA_TRY(cudaMalloc((void **)&pos, n * sizeof *pos));
    sparse_flag_kern<<<cz__gpu_blocks(n, 256), 256>>>(flags, (const uint64_t *)b->d_pts,
                                                      (unsigned)(b->elem / 8), n);
    CZ_CUDA_LAUNCHED();
    CZ_CUDA_TRY(cub::DeviceScan::ExclusiveSum(NULL, temp_bytes, flags, pos, (int)n));
    CZ_CUDA_TRY(cudaMalloc(&temp, temp_bytes));
    CZ_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, flags, pos, (int)n));
    CZ_CUDA_TRY(cudaMemcpy(&last[0], pos + n - 1, 4, cudaMemcpyDeviceToHost));
    CZ_CUDA_TRY(cudaMemcpy(&last[1], flags + n - 1, 4, cudaMemcpyDeviceToHost));
    finite = (size_t)last[0] + last[1];
    if (n - finite < min_inf)
        goto out; /* dense enough: the handle stays as it is */
    CZ_CUDA_TRY(cudaMalloc((void **)&idx, finite ? finite * sizeof *idx : 1));
    sparse_index_kern<<<cz__gpu_blocks(n, 256), 256>>>(idx, flags, pos, n);
    CZ_CUDA_LAUNCHED();
    rc = sparse_adopt(b, idx, finite, ei);
    idx = NULL;
out:
    cudaFree(temp);
    cudaFree(flags);
    cudaFree(pos);
    cudaFree(idx);
    if (rc == CZ_ENOMEM) {
        /* no room for the compacted copy beside the dense one: the handle stays dense (valid,
         * only slower) */
        CZ_LOG_WARN("gpu bases: no device memory to compact %zu points (%s); kept dense", n,
                    ei != NULL ? ei->msg : "out of memory");
        cz_errinfo_clear(ei);
        (void)cudaGetLastError(); /* the failed allocation's error is not sticky; clear it */
        rc = CZ_OK;
    }
    return rc;
}

extern "C" size_t cz_gpu_bases_stored(const cz_gpu_bases *b) {
    return b == NULL ? 0 : b->d_idx != NULL ? b->stored : b->n;
}

extern "C" size_t cz_gpu_bases_bytes(const cz_gpu_bases *b) {
    if (b == NULL)
        return 0;
    return cz_gpu_bases_stored(b) * (b->elem + (b->d_idx != NULL ? sizeof(uint32_t) : 0));
}

extern "C" int cz_gpu_bases_restrict(cz_gpu_bases *b, const cz_gpu_bases *like, cz_errinfo *ei) {
    int rc = CZ_OK;
    uint32_t *idx = NULL;
    if (b == NULL || like == NULL)
        return cz_fail(ei, CZ_EINVAL, "gpu bases restrict: no bases");
    if (b->dev != like->dev || b->n != like->n)
        return cz_fail(ei, CZ_EINVAL,
                       "gpu bases restrict: %zu bases on device %d against %zu on device %d", b->n,
                       b->dev, like->n, like->dev);
    if (b->d_idx != NULL)
        return cz_fail(ei, CZ_EINVAL, "gpu bases restrict: the bases are already sparse");
    if (like->d_idx == NULL)
        return CZ_OK; /* like stores every position */
    if ((rc = cz__gpu_select(b->dev, ei)) != CZ_OK)
        return rc;
    CZ_CUDA_TRY(cudaMalloc((void **)&idx, like->stored ? like->stored * sizeof *idx : 1));
    CZ_CUDA_TRY(cudaMemcpy(idx, like->d_idx, like->stored * sizeof *idx, cudaMemcpyDeviceToDevice));
    rc = sparse_adopt(b, idx, like->stored, ei);
    idx = NULL;
out:
    cudaFree(idx);
    return rc;
}

extern "C" int cz_gpu_bases_spread(cz_gpu_bases *b, const uint32_t *idx, size_t n, cz_errinfo *ei) {
    int rc = CZ_OK;
    uint32_t *d_idx = NULL;
    size_t m;
    if (b == NULL)
        return cz_fail(ei, CZ_EINVAL, "gpu bases spread: no bases");
    m = b->n;
    if (b->d_idx != NULL)
        return cz_fail(ei, CZ_EINVAL, "gpu bases spread: the bases are already sparse");
    if (n < m || n >= ((size_t)1 << 31))
        return cz_fail(ei, CZ_EINVAL, "gpu bases spread: %zu points cannot stand for %zu bases", m,
                       n);
    for (size_t j = 0; j < m; j++)
        if (idx[j] >= n || (j > 0 && idx[j] <= idx[j - 1]))
            return cz_fail(ei, CZ_EINVAL,
                           "gpu bases spread: index %zu (%u) is not ascending below %zu", j, idx[j],
                           n);
    if ((rc = cz__gpu_select(b->dev, ei)) != CZ_OK)
        return rc;
    CZ_CUDA_TRY(cudaMalloc((void **)&d_idx, m ? m * sizeof *d_idx : 1));
    CZ_CUDA_TRY(cudaMemcpy(d_idx, idx, m * sizeof *d_idx, cudaMemcpyHostToDevice));
    b->d_idx = d_idx;
    b->stored = m;
    b->n = n;
    d_idx = NULL;
out:
    cudaFree(d_idx);
    return rc;
}
