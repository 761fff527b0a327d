/*
 * A rank-1 constraint system resident on the device (cuzk/gpu.h, "a rank-1 constraint system
 * resident on the device"): the A, B and C matrices of a BLS12-381 circuit are uploaded once, and
 * each witness then gives a = A·w, b = B·w, c = C·w on the device, where the Groth16 prover's NTTs
 * use them. A proof then moves its witness over PCIe instead of three vectors of its rows.
 *
 * Layout. Per matrix: row pointers as u32 (nrows + 1 of them; a matrix of more than 2^32 - 1
 * terms is refused with CZ_ERANGE, every real circuit has far fewer), variable indices as u32
 * and coefficient indices as u16 when the coefficient table has at most 65536 entries, else as
 * u32 (the kernel is a template over that width). Once per system: the coefficient table (32
 * bytes an entry, Montgomery form) and one byte per coefficient saying whether it is +1, -1 or
 * another value. So a term costs 6 bytes (8 with the wide indices) and a row 12 bytes for the
 * three matrices: a 2^27-row PoRep partition (722 M terms) holds about 5.9 GB. The host's u64
 * row pointers and u32 coefficient indices are narrowed through a small staging buffer, piece by
 * piece, so the upload needs no host copy of a whole matrix.
 *
 * Evaluation. One launch: blockIdx.y picks the matrix, each thread makes one element of its
 * output vector, so the stores of a warp are consecutive 32-byte elements. Row i < nrows sums its
 * terms coefs[coef[t]]·w[var[t]] in Montgomery form: a coefficient +1 adds w, -1 subtracts it, any
 * other is skipped when w is 0, added as it is when w is 1 (most of a Filecoin witness is bits)
 * and multiplied otherwise. The witness is gathered at random (32-byte loads, one DRAM sector
 * each, through the read-only cache), the index arrays are read nearly in order. The rows nrows ..
 * nrows + ninput - 1 are bellperson's input constraints (a = w[j], b = c = 0) and the rest up to n
 * zero, written in full: the output may hold anything before. Results are fully reduced and equal
 * byte for byte to cz_r1cs_eval's with CZ_R1CS_EVAL_INPUT_ROWS.
 *
 * Compact witnesses. With the system's booleans (cz_gpu_r1cs_host.booleans) resident, a bit
 * per variable and the count of non-booleans before each 64-variable word, cz_gpu_r1cs_expand
 * makes w of a compact witness: one thread per variable, a boolean from its bit, another from
 * vals at its word's count plus the non-booleans below it in the word. The witness then crosses
 * PCIe as about 70 MB for a PoRep partition instead of 4.2 GB.
 *
 * Lifecycle. cz_bls12381_gpu_r1cs_upload checks the host arrays first (CZ_EINVAL naming the
 * matrix, row and term) and then allocates and copies everything or nothing; the handle owns its
 * device arrays until cz_gpu_r1cs_free. Evaluations only read it, so threads may share one handle.
 * Every call runs on the legacy default stream and returns when its work is done.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/field.h"
#include "gpu_common.cuh"
#include "gpu_field.cuh"

#define R1CS_THREADS 256
/* Values narrowed and copied per piece of an upload (16 MiB of u32). */
#define R1CS_STAGE_ELEMS ((size_t)1 << 22)
/* The most coefficients that u16 indices reach. */
#define R1CS_NARROW_COEFS 65536u

typedef fe<gbls12381_fr_cfg> fr;

/* What a coefficient is, for the kernel's shortcuts. */
enum { COEF_OTHER = 0, COEF_ONE = 1, COEF_MINUS_ONE = 2 };

static const char mat_name[3] = {'A', 'B', 'C'};

struct cz_gpu_r1cs {
    int dev;
    uint32_t nrows, nvars, ninput, ncoefs;
    int wide_coef;      /* coefficient indices are u32 (more than R1CS_NARROW_COEFS entries) */
    uint64_t nterms[3]; /* terms of A, B, C */
    uint32_t *d_row_ptr[3];
    uint32_t *d_var[3];
    void *d_coef[3]; /* uint16_t, or uint32_t when wide_coef */
    fr *d_coefs;
    uint8_t *d_kind;  /* COEF_* per coefficient */
    uint64_t *d_bool; /* NULL, or the booleans: (nvars + 63) / 64 words */
    uint32_t *d_rank; /* per word of d_bool: the non-booleans before it */
    uint32_t nvals;   /* non-booleans (nvars without booleans) */
    size_t bytes;     /* device bytes of all of the above */
};

/* The device arrays of the three matrices, as the kernel takes them. */
template <class CI> struct r1cs_mats {
    const uint32_t *row_ptr[3];
    const uint32_t *var[3];
    const CI *coef[3];
};

/* ---- kernel ---- */

/* x0, x1 or x2 for k = 0, 1, 2: constant indices only, so kernel parameters stay in param space. */
template <class T> static __device__ __forceinline__ T pick3(T x0, T x1, T x2, unsigned k) {
    return k == 0 ? x0 : k == 1 ? x1 : x2;
}

/* An element through the read-only data cache (two 16-byte loads, one 32-byte sector). */
static __device__ __forceinline__ fr fr_ldg(const fr *p) {
    const uint4 *q = reinterpret_cast<const uint4 *>(p);
    const uint4 lo = __ldg(q), hi = __ldg(q + 1);
    fr r;
    r.l[0] = lo.x, r.l[1] = lo.y, r.l[2] = lo.z, r.l[3] = lo.w;
    r.l[4] = hi.x, r.l[5] = hi.y, r.l[6] = hi.z, r.l[7] = hi.w;
    return r;
}

/* acc = Σ coefs[coef[t]]·w[var[t]] over the terms [lo, hi) of one row (see the file comment for
 * the shortcuts; each gives the product's value, so the sum is the same). */
template <class CI>
static __device__ __forceinline__ void row_sum(fr &acc, const uint32_t *var, const CI *coef,
                                               uint32_t lo, uint32_t hi, const fr *w,
                                               const fr *coefs, const uint8_t *kind) {
    fr one;
    fe_one(one);
    fe_zero(acc);
#pragma unroll 2
    for (uint32_t t = lo; t < hi; t++) {
        const uint32_t ci = __ldg(&coef[t]);
        const fr v = fr_ldg(&w[__ldg(&var[t])]);
        const uint8_t kd = __ldg(&kind[ci]);
        if (kd == COEF_ONE) {
            fe_add(acc, acc, v);
        } else if (kd == COEF_MINUS_ONE) {
            fe_sub(acc, acc, v);
        } else if (!fe_is_zero(v)) {
            fr c = fr_ldg(&coefs[ci]);
            if (!fe_eq(v, one))
                fe_mul(c, c, v);
            fe_add(acc, acc, c);
        }
    }
}

/* abc[k·n + i] for matrix k = blockIdx.y and row i: the row's sum for i < nrows, the input
 * constraint's a = w[i - nrows] (b = c = 0) for the next ninput rows, zero after them. */
template <class CI>
__global__ void __launch_bounds__(R1CS_THREADS)
    r1cs_eval_kern(fr *abc, size_t n, const fr *__restrict__ w, r1cs_mats<CI> m,
                   const fr *__restrict__ coefs, const uint8_t *__restrict__ kind, uint32_t nrows,
                   uint32_t ninput) {
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned k = blockIdx.y;
    fr acc;
    if (i >= n)
        return;
    if (i < nrows) {
        const uint32_t *row_ptr = pick3(m.row_ptr[0], m.row_ptr[1], m.row_ptr[2], k);
        row_sum(acc, pick3(m.var[0], m.var[1], m.var[2], k),
                pick3(m.coef[0], m.coef[1], m.coef[2], k), __ldg(&row_ptr[i]),
                __ldg(&row_ptr[i + 1]), w, coefs, kind);
    } else if (k == 0 && i - nrows < ninput) {
        acc = fr_ldg(&w[i - nrows]);
    } else {
        fe_zero(acc);
    }
    fe_store(&abc[(size_t)k * n + i], acc);
}

/* w[v] for variable v < nvars of a compact witness (the file comment). */
__global__ void __launch_bounds__(R1CS_THREADS)
    r1cs_expand_kern(fr *w, uint32_t nvars, const uint64_t *__restrict__ booleans,
                     const uint32_t *__restrict__ rank, const uint64_t *__restrict__ bits,
                     const fr *__restrict__ vals) {
    const uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    fr x;
    if (v >= nvars)
        return;
    const uint32_t word = v / 64, b = v % 64;
    const uint64_t bw = __ldg(&booleans[word]);
    if ((bw >> b) & 1u) {
        if ((__ldg(&bits[word]) >> b) & 1u)
            fe_one(x);
        else
            fe_zero(x);
    } else {
        const uint64_t below = ~bw & ((UINT64_C(1) << b) - 1);
        x = fr_ldg(&vals[__ldg(&rank[word]) + (uint32_t)__popcll(below)]);
    }
    fe_store(&w[v], x);
}

/* ---- upload ---- */

/* Matrix k of h: row pointers from 0, never decreasing, at most 2^32 - 1 terms, every index in
 * range. */
static int validate_mat(const cz_gpu_r1cs_host *h, int k, cz_errinfo *ei) {
    const uint64_t *rp = h->row_ptr[k];
    const uint32_t *var = h->var[k], *coef = h->coef[k];
    const char name = mat_name[k];
    uint64_t nterms;
    if (rp == NULL)
        return cz_fail(ei, CZ_EINVAL, "gpu r1cs: %c has no row pointers", name);
    if (rp[0] != 0)
        return cz_fail(ei, CZ_EINVAL, "gpu r1cs: %c row 0 starts at term %llu, not 0", name,
                       (unsigned long long)rp[0]);
    for (uint32_t i = 0; i < h->nrows; i++)
        if (rp[i + 1] < rp[i])
            return cz_fail(ei, CZ_EINVAL,
                           "gpu r1cs: %c row %u ends at term %llu, before its start %llu", name, i,
                           (unsigned long long)rp[i + 1], (unsigned long long)rp[i]);
    nterms = rp[h->nrows];
    if (nterms > UINT32_MAX)
        return cz_fail(ei, CZ_ERANGE,
                       "gpu r1cs: %c has %llu terms; the device's u32 row pointers reach 2^32 - 1",
                       name, (unsigned long long)nterms);
    if (nterms > 0 && (var == NULL || coef == NULL))
        return cz_fail(ei, CZ_EINVAL, "gpu r1cs: %c has %llu terms but no %s indices", name,
                       (unsigned long long)nterms, var == NULL ? "variable" : "coefficient");
    for (uint32_t i = 0; i < h->nrows; i++) {
        for (uint64_t t = rp[i]; t < rp[i + 1]; t++) {
            if (var[t] >= h->nvars)
                return cz_fail(ei, CZ_EINVAL,
                               "gpu r1cs: %c row %u term %llu: variable %u out of range (%u "
                               "variables)",
                               name, i, (unsigned long long)(t - rp[i]), var[t], h->nvars);
            if (coef[t] >= h->ncoefs)
                return cz_fail(ei, CZ_EINVAL,
                               "gpu r1cs: %c row %u term %llu: coefficient %u out of range (%u "
                               "coefficients)",
                               name, i, (unsigned long long)(t - rp[i]), coef[t], h->ncoefs);
        }
    }
    return CZ_OK;
}

static int validate(const cz_gpu_r1cs_host *h, cz_errinfo *ei) {
    int rc = CZ_OK;
    if (h->ninput > h->nvars)
        return cz_fail(ei, CZ_EINVAL, "gpu r1cs: %u input variables but %u variables in all",
                       h->ninput, h->nvars);
    if (h->ncoefs > 0 && h->coefs == NULL)
        return cz_fail(ei, CZ_EINVAL, "gpu r1cs: %u coefficients but no table", h->ncoefs);
    for (uint32_t v = 0; h->booleans != NULL && v < h->ninput; v++)
        if ((h->booleans[v / 64] >> (v % 64)) & 1u)
            return cz_fail(ei, CZ_EINVAL, "gpu r1cs: input variable %u is marked boolean", v);
    for (int k = 0; k < 3 && rc == CZ_OK; k++)
        rc = validate_mat(h, k, ei);
    return rc;
}

/* *d = bytes of device memory for what, counted in m->bytes. */
static int r1cs_alloc(void **d, size_t bytes, cz_gpu_r1cs *m, const char *what, cz_errinfo *ei) {
    cudaError_t e = cudaMalloc(d, bytes ? bytes : 1);
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        *d = NULL;
        return cz_fail(ei, CZ_ENOMEM, "gpu r1cs: no device memory for %s (%zu bytes; %zu held)",
                       what, bytes, m->bytes);
    }
    if (e != cudaSuccess) {
        *d = NULL;
        return cz__gpu_fail(ei, e, what, __FILE__, __LINE__);
    }
    m->bytes += bytes;
    return CZ_OK;
}

/* d_dst[i] = src[i] for i < count, narrowed from S to D (every value fits: validated), through
 * stage (R1CS_STAGE_ELEMS values of D). */
template <class D, class S>
static int copy_narrow(D *d_dst, const S *src, size_t count, D *stage, cz_errinfo *ei) {
    int rc = CZ_OK;
    for (size_t off = 0; off < count; off += R1CS_STAGE_ELEMS) {
        size_t len = count - off < R1CS_STAGE_ELEMS ? count - off : R1CS_STAGE_ELEMS;
        for (size_t i = 0; i < len; i++)
            stage[i] = (D)src[off + i];
        /* From pageable memory cudaMemcpy returns once stage is read: it may be refilled. */
        CZ_CUDA_TRY(cudaMemcpy(d_dst + off, stage, len * sizeof(D), cudaMemcpyHostToDevice));
    }
out:
    return rc;
}

/* COEF_* for every coefficient of h (malloc'd), or NULL. */
static uint8_t *coef_kinds(const cz_gpu_r1cs_host *h) {
    cz_bls12381_fr one, minus_one;
    uint8_t *kind = (uint8_t *)malloc(h->ncoefs ? h->ncoefs : 1);
    if (kind == NULL)
        return NULL;
    cz_bls12381_fr_one(&one);
    cz_bls12381_fr_neg(&minus_one, &one);
    for (uint32_t i = 0; i < h->ncoefs; i++)
        kind[i] = memcmp(&h->coefs[i], &one, sizeof one) == 0         ? COEF_ONE
                  : memcmp(&h->coefs[i], &minus_one, sizeof one) == 0 ? COEF_MINUS_ONE
                                                                      : COEF_OTHER;
    return kind;
}

/* Allocates every device array of m (sizes from m's counts). */
static int alloc_arrays(cz_gpu_r1cs *m, cz_errinfo *ei) {
    static const char *const what[3][3] = {{"A row pointers", "A variables", "A coefficients"},
                                           {"B row pointers", "B variables", "B coefficients"},
                                           {"C row pointers", "C variables", "C coefficients"}};
    const size_t coef_size = m->wide_coef ? sizeof(uint32_t) : sizeof(uint16_t);
    int rc = CZ_OK;
    for (int k = 0; k < 3 && rc == CZ_OK; k++) {
        size_t nterms = (size_t)m->nterms[k];
        rc = r1cs_alloc((void **)&m->d_row_ptr[k], ((size_t)m->nrows + 1) * sizeof(uint32_t), m,
                        what[k][0], ei);
        if (rc == CZ_OK)
            rc = r1cs_alloc((void **)&m->d_var[k], nterms * sizeof(uint32_t), m, what[k][1], ei);
        if (rc == CZ_OK)
            rc = r1cs_alloc(&m->d_coef[k], nterms * coef_size, m, what[k][2], ei);
    }
    if (rc == CZ_OK)
        rc = r1cs_alloc((void **)&m->d_coefs, (size_t)m->ncoefs * sizeof(fr), m,
                        "the coefficient table", ei);
    if (rc == CZ_OK)
        rc = r1cs_alloc((void **)&m->d_kind, m->ncoefs, m, "the coefficient kinds", ei);
    return rc;
}

/* The booleans of h and their per-word ranks on the device (m->nvals counted), when h has them. */
static int upload_booleans(cz_gpu_r1cs *m, const cz_gpu_r1cs_host *h, cz_errinfo *ei) {
    const size_t words = ((size_t)h->nvars + 63) / 64;
    uint32_t *rank = NULL;
    uint64_t *bw = NULL;
    size_t k = 0;
    int rc;
    m->nvals = h->nvars;
    if (h->booleans == NULL)
        return CZ_OK;
    rank = (uint32_t *)malloc((words ? words : 1) * sizeof *rank);
    bw = (uint64_t *)malloc((words ? words : 1) * sizeof *bw);
    if (rank == NULL || bw == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "gpu r1cs: host staging of the booleans");
        goto out;
    }
    for (size_t i = 0; i < words; i++) {
        const size_t n = i == words - 1 && h->nvars % 64 != 0 ? h->nvars % 64 : 64;
        bw[i] = h->booleans[i] & (n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1);
        rank[i] = (uint32_t)k;
        k += n - (size_t)__builtin_popcountll(bw[i]);
    }
    m->nvals = (uint32_t)k;
    if ((rc = r1cs_alloc((void **)&m->d_bool, words * sizeof *bw, m, "the booleans", ei)) !=
            CZ_OK ||
        (rc = r1cs_alloc((void **)&m->d_rank, words * sizeof *rank, m, "the booleans' ranks",
                         ei)) != CZ_OK)
        goto out;
    CZ_CUDA_TRY(cudaMemcpy(m->d_bool, bw, words * sizeof *bw, cudaMemcpyHostToDevice));
    CZ_CUDA_TRY(cudaMemcpy(m->d_rank, rank, words * sizeof *rank, cudaMemcpyHostToDevice));
out:
    free(rank);
    free(bw);
    return rc;
}

/* Copies h into m's device arrays. */
static int copy_arrays(cz_gpu_r1cs *m, const cz_gpu_r1cs_host *h, cz_errinfo *ei) {
    uint32_t *stage = (uint32_t *)malloc(R1CS_STAGE_ELEMS * sizeof *stage);
    uint8_t *kind = coef_kinds(h);
    int rc = CZ_OK;
    if (stage == NULL || kind == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "gpu r1cs: host staging buffers");
        goto out;
    }
    for (int k = 0; k < 3; k++) {
        size_t nterms = (size_t)m->nterms[k];
        if ((rc = copy_narrow(m->d_row_ptr[k], h->row_ptr[k], (size_t)m->nrows + 1, stage, ei)) !=
            CZ_OK)
            goto out;
        if (nterms == 0)
            continue;
        CZ_CUDA_TRY(
            cudaMemcpy(m->d_var[k], h->var[k], nterms * sizeof(uint32_t), cudaMemcpyHostToDevice));
        if (m->wide_coef)
            CZ_CUDA_TRY(cudaMemcpy(m->d_coef[k], h->coef[k], nterms * sizeof(uint32_t),
                                   cudaMemcpyHostToDevice));
        else if ((rc = copy_narrow((uint16_t *)m->d_coef[k], h->coef[k], nterms, (uint16_t *)stage,
                                   ei)) != CZ_OK)
            goto out;
    }
    if (m->ncoefs > 0) {
        CZ_CUDA_TRY(cudaMemcpy(m->d_coefs, h->coefs, (size_t)m->ncoefs * sizeof(fr),
                               cudaMemcpyHostToDevice));
        CZ_CUDA_TRY(cudaMemcpy(m->d_kind, kind, m->ncoefs, cudaMemcpyHostToDevice));
    }
    CZ_CUDA_TRY(cudaStreamSynchronize(0)); /* pageable copies may still be in flight */
out:
    free(stage);
    free(kind);
    return rc;
}

extern "C" int cz_bls12381_gpu_r1cs_upload(cz_gpu_r1cs **out, const cz_gpu_r1cs_host *h, int dev,
                                           cz_errinfo *ei) {
    cz_gpu_r1cs *m = NULL;
    int rc;
    *out = NULL;
    if (h == NULL)
        return cz_fail(ei, CZ_EINVAL, "gpu r1cs: no system");
    if ((rc = validate(h, ei)) != CZ_OK)
        return rc;
    if ((rc = cz__gpu_select(dev, ei)) != CZ_OK)
        return rc;
    if ((m = (cz_gpu_r1cs *)calloc(1, sizeof *m)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "gpu r1cs: handle");
    m->dev = dev;
    m->nrows = h->nrows;
    m->nvars = h->nvars;
    m->ninput = h->ninput;
    m->ncoefs = h->ncoefs;
    m->wide_coef = h->ncoefs > R1CS_NARROW_COEFS;
    for (int k = 0; k < 3; k++)
        m->nterms[k] = h->row_ptr[k][h->nrows];
    if ((rc = alloc_arrays(m, ei)) == CZ_OK && (rc = copy_arrays(m, h, ei)) == CZ_OK)
        rc = upload_booleans(m, h, ei);
    if (rc != CZ_OK) {
        cz_gpu_r1cs_free(m);
        return rc;
    }
    *out = m;
    return CZ_OK;
}

extern "C" void cz_gpu_r1cs_free(cz_gpu_r1cs *m) {
    if (m == NULL)
        return;
    if (cudaSetDevice(m->dev) == cudaSuccess) {
        for (int k = 0; k < 3; k++) {
            (void)cudaFree(m->d_row_ptr[k]);
            (void)cudaFree(m->d_var[k]);
            (void)cudaFree(m->d_coef[k]);
        }
        (void)cudaFree(m->d_coefs);
        (void)cudaFree(m->d_kind);
        (void)cudaFree(m->d_bool);
        (void)cudaFree(m->d_rank);
    }
    free(m);
}

extern "C" size_t cz_gpu_r1cs_bytes(const cz_gpu_r1cs *m) {
    return m != NULL ? m->bytes : 0;
}

extern "C" int cz_gpu_r1cs_device(const cz_gpu_r1cs *m) {
    return m != NULL ? m->dev : -1;
}

extern "C" uint32_t cz_gpu_r1cs_nvals(const cz_gpu_r1cs *m) {
    return m != NULL ? m->nvals : 0;
}

extern "C" int cz_gpu_r1cs_expand(const cz_gpu_r1cs *m, void *d_w, const void *d_bits,
                                  const void *d_vals, cz_errinfo *ei) {
    int rc;
    if (m == NULL || m->d_bool == NULL)
        return cz_fail(ei, CZ_EINVAL, "gpu r1cs expand: %s",
                       m == NULL ? "no system" : "the system has no booleans");
    if (d_w == NULL || d_bits == NULL || (d_vals == NULL && m->nvals != 0))
        return cz_fail(ei, CZ_EINVAL, "gpu r1cs expand: no %s",
                       d_w == NULL      ? "output"
                       : d_bits == NULL ? "bits"
                                        : "values");
    if (((uintptr_t)d_w | (uintptr_t)d_vals) % 16 != 0 || (uintptr_t)d_bits % 8 != 0)
        return cz_fail(ei, CZ_EINVAL, "gpu r1cs expand: misaligned device arrays");
    if (m->nvars == 0)
        return CZ_OK;
    if ((rc = cz__gpu_select(m->dev, ei)) != CZ_OK)
        return rc;
    r1cs_expand_kern<<<(m->nvars + R1CS_THREADS - 1) / R1CS_THREADS, R1CS_THREADS>>>(
        (fr *)d_w, m->nvars, m->d_bool, m->d_rank, (const uint64_t *)d_bits, (const fr *)d_vals);
    CZ_CUDA_LAUNCHED();
    CZ_CUDA_TRY(cudaStreamSynchronize(0));
out:
    return rc;
}

/* ---- evaluation ---- */

template <class CI>
static void launch_eval(const cz_gpu_r1cs *m, fr *abc, size_t n, const fr *w, unsigned blocks) {
    r1cs_mats<CI> mats;
    for (int k = 0; k < 3; k++) {
        mats.row_ptr[k] = m->d_row_ptr[k];
        mats.var[k] = m->d_var[k];
        mats.coef[k] = (const CI *)m->d_coef[k];
    }
    r1cs_eval_kern<CI><<<dim3(blocks, 3), R1CS_THREADS>>>(abc, n, w, mats, m->d_coefs, m->d_kind,
                                                          m->nrows, m->ninput);
}

extern "C" int cz_gpu_r1cs_eval(const cz_gpu_r1cs *m, void *d_abc, size_t n, const void *d_w,
                                cz_errinfo *ei) {
    size_t need, blocks;
    int rc;
    if (m == NULL)
        return cz_fail(ei, CZ_EINVAL, "gpu r1cs eval: no system");
    if (d_abc == NULL || d_w == NULL)
        return cz_fail(ei, CZ_EINVAL, "gpu r1cs eval: no %s",
                       d_abc == NULL ? "output vectors (d_abc)" : "witness (d_w)");
    if (((uintptr_t)d_abc | (uintptr_t)d_w) % 16 != 0)
        return cz_fail(ei, CZ_EINVAL, "gpu r1cs eval: d_abc and d_w must be 16-byte aligned");
    need = (size_t)m->nrows + m->ninput;
    if (n < need)
        return cz_fail(ei, CZ_ERANGE,
                       "gpu r1cs eval: vectors of %zu elements cannot hold %u rows and %u input "
                       "rows",
                       n, m->nrows, m->ninput);
    blocks = (n + R1CS_THREADS - 1) / R1CS_THREADS;
    if (blocks > INT32_MAX)
        return cz_fail(ei, CZ_ERANGE, "gpu r1cs eval: vectors of %zu elements are too long", n);
    if (n == 0)
        return CZ_OK;
    if ((rc = cz__gpu_select(m->dev, ei)) != CZ_OK)
        return rc;
    if (m->wide_coef)
        launch_eval<uint32_t>(m, (fr *)d_abc, n, (const fr *)d_w, (unsigned)blocks);
    else
        launch_eval<uint16_t>(m, (fr *)d_abc, n, (const fr *)d_w, (unsigned)blocks);
    CZ_CUDA_LAUNCHED();
    CZ_CUDA_TRY(cudaStreamSynchronize(0)); /* the default stream only: uploads go on */
out:
    return rc;
}
