/*
 * The MSM bases handle (cuzk/gpu.h): its release, and the G1 entry points (the templates are in
 * gpu_msm_bases.cuh, shared with G2, whose entry points are in gpu_msm_g2_<curve>.cu). Bases are
 * uploaded from the host or made on the device in arithmetic progression P_i = p0 + i·step
 * generated on the device (for tests and benchmarks at 2^24 .. 2^27 points, where the CPU would
 * need minutes: Σ s_i·P_i is then [Σ s_i·(a + i·d)]G for p0 = aG, step = dG).
 *
 * Generation runs in rounds of R points through a scratch buffer (R XYZZ points + R prefix
 * products). Thread t of a round owns K consecutive points: it computes its first point as
 * p0 + (first index)·step by double-and-add (at most log2 n steps), walks K - 1 mixed additions
 * of step storing each XYZZ point and the running product of u_j = ZZ_j·ZZZ_j, inverts the
 * product once (Fermat), and walks back: 1/u_j from the prefix products (Montgomery's trick),
 * x = X·ZZZ/u, y = Y·ZZ/u. About 20 multiplications a point plus one inversion per K points.
 * Points at infinity (a + i·d = 0 mod r) come out as (0, 0), the affine infinity.
 */
#include "gpu_msm_bases.cuh"

extern "C" void cz_gpu_bases_free(cz_gpu_bases *b) {
    if (b == NULL)
        return;
    if (cudaSetDevice(b->dev) == cudaSuccess) {
        cudaFree(b->d_pts);
        cudaFree(b->d_idx);
    }
    free(b);
}

extern "C" int cz_gpu_bases_upload_end(cz_gpu_bases *b, cz_gpu_copy *cp, cz_errinfo *ei) {
    int rc = cz_gpu_copy_wait(cp, ei);
    if (rc == CZ_OK && b != NULL && b->n > 0)
        rc = cz__gpu_bases_compact(b, ei); /* a key's B bases are mostly infinity */
    return rc;
}

extern "C" size_t cz_gpu_bases_count(const cz_gpu_bases *b) {
    return b ? b->n : 0;
}

BASES_API(bn254, g1, msm_bn254)
BASES_API(bls12381, g1, msm_bls12381)
