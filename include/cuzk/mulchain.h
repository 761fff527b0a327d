/*
 * The multiplication-chain test circuit, written straight to circom's .r1cs and snarkjs's .wtns
 * files without circom: the same bytes as bench/gen_mulchain.mjs (and as circom would give for
 * `x[i+1] <== x[i]*x[i] + b`), for BN254 ("bn128") and BLS12-381, any number of constraints.
 *
 *   wires: 0 = 1, 1 = out = x_n (public output), 2 = b (public input), 3 = x_0 (private input),
 *          4 .. n+2 = x_1 .. x_(n-1)
 *   constraint i (0 <= i < n): (x_i) · (x_i) = (x_(i+1) - b)
 *
 * With n = 2^k - 3 constraints the Groth16 domain (constraints + public inputs + 1) is exactly 2^k
 * (cz_mulchain_n_for_log_domain). gen_mulchain.mjs uses x_0 = 3, b = 7.
 *
 * Cost: both files are streamed through stdio buffers (156 bytes of r1cs and 32 of witness per
 * constraint); no memory grows with n. The witness takes one field squaring and addition per
 * constraint. Files: about 190·n bytes in all (2^20 constraints: 190 MB).
 */
#ifndef CUZK_MULCHAIN_H
#define CUZK_MULCHAIN_H

#include <stdint.h>

#include "cuzk/curve_id.h"
#include "cuzk/err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The constraint count whose Groth16 domain is exactly 2^log_domain: 2^log_domain - 3 (0 when
 * log_domain < 2 or > 31, which has no such circuit). */
uint32_t cz_mulchain_n_for_log_domain(unsigned log_domain);

/*
 * Writes the n-constraint chain with inputs x0 and b (reduced mod r) to r1cs_path and wtns_path;
 * either path may be NULL to skip that file. 1 <= n <= 2^32 - 4. On error, the files this call
 * created are removed. Errors: CZ_EINVAL (curve, n), CZ_EIO (ei names the file).
 */
int cz_mulchain_write(const char *r1cs_path, const char *wtns_path, cz_curve_id curve, uint32_t n,
                      uint64_t x0, uint64_t b, cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
