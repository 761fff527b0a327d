/*
 * cuzk curve identifiers: which pairing-friendly curve a key, witness or proof belongs to, and the
 * names snarkjs writes for them ("bn128", "bls12381") in JSON files and on its command line.
 */
#ifndef CUZK_CURVE_ID_H
#define CUZK_CURVE_ID_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { CZ_CURVE_BN254, CZ_CURVE_BLS12381 } cz_curve_id;

/* The snarkjs name: "bn128" or "bls12381" ("?" for a value outside the enum). */
const char *cz_curve_name(cz_curve_id curve);

/*
 * Parses a curve name the way snarkjs's getCurveFromName does (letters and digits only, any case):
 * "bn128", "bn254", "alt_bn128" and "bls12381", "BLS12-381". CZ_OK or CZ_ECURVE.
 */
int cz_curve_from_name(cz_curve_id *out, const char *name);

#ifdef __cplusplus
}
#endif

#endif
