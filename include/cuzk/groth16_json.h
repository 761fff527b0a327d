/*
 * snarkjs JSON files for Groth16: proof.json, public.json and verification_key.json, read and
 * written exactly as snarkjs does (all numbers decimal strings in standard form; points affine
 * with an explicit z; G2 coordinates [c0, c1]; curve names "bn128" / "bls12381").
 *
 * Readers check everything they read and name the file and the JSON key in their errors
 * ("proof.json: pi_b[0][1]: not a decimal number below p"): CZ_EIO (cannot read), CZ_EFORMAT
 * (not JSON, missing key, wrong type, wrong protocol), CZ_ECURVE (unknown curve), CZ_ERANGE
 * (a number >= the modulus), CZ_ENOTONCURVE / CZ_ENOTINSUBGROUP (a point).
 * Writers return CZ_EIO with the path when the file cannot be written.
 */
#ifndef CUZK_GROTH16_JSON_H
#define CUZK_GROTH16_JSON_H

#include "cuzk/groth16.h"

#ifdef __cplusplus
extern "C" {
#endif

int cz_groth16_proof_write_json(const char *path, const cz_groth16_proof *proof, cz_errinfo *ei);
/* The curve is taken from the file's "curve" key. */
int cz_groth16_proof_read_json(cz_groth16_proof *proof, const char *path, cz_errinfo *ei);
/* For a caller that knows the curve (a verifier, from its key): the file's "curve" key may be
 * missing, as in rapidsnark's proof.json; one that names another curve is CZ_ECURVE (the message
 * names both). */
int cz_groth16_proof_read_json_as(cz_groth16_proof *proof, cz_curve_id curve, const char *path,
                                  cz_errinfo *ei);

int cz_groth16_public_write_json(const char *path, const cz_groth16_public *pub, cz_errinfo *ei);
/* public.json names no curve: the caller says which (the key's). Free with cz_groth16_public_free.
 */
int cz_groth16_public_read_json(cz_groth16_public *pub, cz_curve_id curve, const char *path,
                                cz_errinfo *ei);

/* Writes vk_alphabeta_12 too (e(α₁, β₂) as snarkjs computes it), though verifiers ignore it. */
int cz_groth16_vk_write_json(const char *path, const cz_groth16_vk *vk, cz_errinfo *ei);
int cz_groth16_vk_read_json(cz_groth16_vk *vk, const char *path, cz_errinfo *ei);

#ifdef __cplusplus
}
#endif

#endif
