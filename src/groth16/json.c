/*
 * proof.json, public.json and verification_key.json (cuzk/groth16_json.h) with jansson.
 *
 * The curve dispatch happens once, in the small table of point codecs below; everything else
 * walks the JSON the same way for both curves. Points are read through the curve layer's
 * decimal-triple decoders, which check canonical coordinates, the curve and the subgroup.
 */
#include "cuzk/groth16_json.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/encoding.h"
#include "cuzk/pairing.h"
#include "cuzk/tower.h"

/* ---- point codecs per curve ---------------------------------------------------------------- */

typedef struct {
    int (*g1_from_dec)(void *ret, const char *const xyz[3], cz_errinfo *ei);
    int (*g2_from_dec)(void *ret, const char *const xyz[6], cz_errinfo *ei);
    void (*g1_to_dec)(char out[3][CZ_FIELD_DEC_MAX], const void *p);
    void (*g2_to_dec)(char out[6][CZ_FIELD_DEC_MAX], const void *p);
    int (*fr_from_dec)(uint64_t out[4], const char *s);
} point_codec;

static int bn254_g1_in(void *r, const char *const xyz[3], cz_errinfo *ei) {
    return cz_bn254_g1_from_dec(r, xyz, ei);
}
static int bn254_g2_in(void *r, const char *const xyz[6], cz_errinfo *ei) {
    return cz_bn254_g2_from_dec(r, xyz, ei);
}
static void bn254_g1_out(char out[3][CZ_FIELD_DEC_MAX], const void *p) {
    cz_bn254_g1_to_dec(out, p);
}
static void bn254_g2_out(char out[6][CZ_FIELD_DEC_MAX], const void *p) {
    cz_bn254_g2_to_dec(out, p);
}
static int bls12381_g1_in(void *r, const char *const xyz[3], cz_errinfo *ei) {
    return cz_bls12381_g1_from_dec(r, xyz, ei);
}
static int bls12381_g2_in(void *r, const char *const xyz[6], cz_errinfo *ei) {
    return cz_bls12381_g2_from_dec(r, xyz, ei);
}
static void bls12381_g1_out(char out[3][CZ_FIELD_DEC_MAX], const void *p) {
    cz_bls12381_g1_to_dec(out, p);
}
static void bls12381_g2_out(char out[6][CZ_FIELD_DEC_MAX], const void *p) {
    cz_bls12381_g2_to_dec(out, p);
}

/* A scalar in standard form: parse as a field element, then take its canonical limbs. */
static int bn254_fr_in(uint64_t out[4], const char *s) {
    cz_bn254_fr x;
    uint8_t le[32];
    int rc = cz_bn254_fr_from_dec(&x, s);
    if (rc != CZ_OK)
        return rc;
    cz_bn254_fr_to_bytes_le(le, &x);
    memcpy(out, le, sizeof le);
    return CZ_OK;
}
static int bls12381_fr_in(uint64_t out[4], const char *s) {
    cz_bls12381_fr x;
    uint8_t le[32];
    int rc = cz_bls12381_fr_from_dec(&x, s);
    if (rc != CZ_OK)
        return rc;
    cz_bls12381_fr_to_bytes_le(le, &x);
    memcpy(out, le, sizeof le);
    return CZ_OK;
}

static const point_codec codecs[] = {
    [CZ_CURVE_BN254] = {bn254_g1_in, bn254_g2_in, bn254_g1_out, bn254_g2_out, bn254_fr_in},
    [CZ_CURVE_BLS12381] = {bls12381_g1_in, bls12381_g2_in, bls12381_g1_out, bls12381_g2_out,
                           bls12381_fr_in},
};

/* ---- reading ------------------------------------------------------------------------------- */

/* Messages name the file, the place and what is wrong, never the file's text: jansson's own
 * message quotes the token where parsing stopped ("invalid token near 'root:x:0'"), so only its
 * error code is used, and values that are refused are described, not shown. */
static const char *json_reason(const json_error_t *jerr) {
#if JANSSON_VERSION_HEX >= 0x020b00
    switch (json_error_code(jerr)) {
    case json_error_invalid_utf8:
        return "invalid UTF-8";
    case json_error_premature_end_of_input:
        return "the file ends inside a value";
    case json_error_end_of_input_expected:
        return "text after the JSON value";
    case json_error_stack_overflow:
        return "nested too deep";
    case json_error_null_character:
    case json_error_null_byte_in_key:
        return "a NUL character";
    case json_error_duplicate_key:
        return "a key appears twice in an object";
    case json_error_numeric_overflow:
        return "a number out of range";
    default:
        break;
    }
#else
    (void)jerr;
#endif
    return "invalid syntax";
}

static int load_json(json_t **out, const char *path, cz_errinfo *ei) {
    json_error_t jerr;
    errno = 0;
    *out = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (*out != NULL)
        return CZ_OK;
    if (jerr.line < 0)
        return cz_fail(ei, CZ_EIO, "%s: cannot open: %s", path,
                       errno != 0 ? strerror(errno) : "read error");
    return cz_fail(ei, CZ_EFORMAT, "%s:%d:%d: not valid JSON: %s", path, jerr.line, jerr.column,
                   json_reason(&jerr));
}

/* The string at arr[i], or NULL with an error naming path and key. */
static const char *get_str(json_t *arr, size_t i, const char *path, const char *key,
                           cz_errinfo *ei) {
    json_t *v = json_array_get(arr, i);
    if (!json_is_string(v)) {
        cz_fail(ei, CZ_EFORMAT, "%s: %s[%zu]: expected a decimal string", path, key, i);
        return NULL;
    }
    return json_string_value(v);
}

static int expect_array(json_t *v, size_t len, const char *path, const char *key, cz_errinfo *ei) {
    if (!json_is_array(v) || json_array_size(v) != len)
        return cz_fail(ei, CZ_EFORMAT, "%s: %s: expected an array of %zu elements", path, key, len);
    return CZ_OK;
}

static int read_g1(void *out, cz_curve_id curve, json_t *v, const char *path, const char *key,
                   cz_errinfo *ei) {
    const char *xyz[3];
    int rc = expect_array(v, 3, path, key, ei);
    if (rc != CZ_OK)
        return rc;
    for (size_t i = 0; i < 3; i++)
        if ((xyz[i] = get_str(v, i, path, key, ei)) == NULL)
            return CZ_EFORMAT;
    rc = codecs[curve].g1_from_dec(out, xyz, ei);
    if (rc != CZ_OK)
        return cz_fail(ei, rc, "%s: %s", path, key);
    return CZ_OK;
}

static int read_g2(void *out, cz_curve_id curve, json_t *v, const char *path, const char *key,
                   cz_errinfo *ei) {
    const char *xyz[6];
    char sub[64];
    int rc = expect_array(v, 3, path, key, ei);
    if (rc != CZ_OK)
        return rc;
    for (size_t i = 0; i < 3; i++) {
        json_t *pair = json_array_get(v, i);
        snprintf(sub, sizeof sub, "%s[%zu]", key, i);
        if ((rc = expect_array(pair, 2, path, sub, ei)) != CZ_OK)
            return rc;
        for (size_t j = 0; j < 2; j++)
            if ((xyz[2 * i + j] = get_str(pair, j, path, sub, ei)) == NULL)
                return CZ_EFORMAT;
    }
    rc = codecs[curve].g2_from_dec(out, xyz, ei);
    if (rc != CZ_OK)
        return cz_fail(ei, rc, "%s: %s", path, key);
    return CZ_OK;
}

static int read_protocol(json_t *root, const char *path, cz_errinfo *ei) {
    json_t *proto = json_object_get(root, "protocol");
    if (!json_is_string(proto) || strcmp(json_string_value(proto), "groth16") != 0)
        return cz_fail(ei, CZ_EFORMAT, "%s: \"protocol\" is not \"groth16\"", path);
    return CZ_OK;
}

static int read_curve(cz_curve_id *curve, json_t *root, const char *path, cz_errinfo *ei) {
    json_t *name = json_object_get(root, "curve");
    int rc = read_protocol(root, path, ei);
    if (rc != CZ_OK)
        return rc;
    if (!json_is_string(name))
        return cz_fail(ei, CZ_EFORMAT, "%s: \"curve\" is %s", path,
                       name == NULL ? "missing" : "not a string");
    if (cz_curve_from_name(curve, json_string_value(name)) != CZ_OK)
        return cz_fail(ei, CZ_ECURVE, "%s: \"curve\" names no known curve (bn128, bls12381)", path);
    return CZ_OK;
}

/* A proof whose curve the caller knows: "curve" may be absent (rapidsnark writes none) but, when
 * present, must name that curve. */
static int read_curve_as(cz_curve_id want, json_t *root, const char *path, cz_errinfo *ei) {
    cz_curve_id got;
    int rc;
    if (json_object_get(root, "curve") == NULL)
        return read_protocol(root, path, ei);
    if ((rc = read_curve(&got, root, path, ei)) != CZ_OK)
        return rc;
    if (got != want)
        return cz_fail(ei, CZ_ECURVE,
                       "%s: the proof's \"curve\" is \"%s\" but the verification key's is %s", path,
                       cz_curve_name(got), cz_curve_name(want));
    return CZ_OK;
}

/* Pointers to the three points of a proof, whatever its curve. */
static void proof_points(const cz_groth16_proof *p, const void **a, const void **b,
                         const void **c) {
    if (p->curve == CZ_CURVE_BN254) {
        *a = &p->u.bn254.a, *b = &p->u.bn254.b, *c = &p->u.bn254.c;
    } else {
        *a = &p->u.bls12381.a, *b = &p->u.bls12381.b, *c = &p->u.bls12381.c;
    }
}

/* The points, once proof->curve is set. */
static int read_proof_points(cz_groth16_proof *proof, json_t *root, const char *path,
                             cz_errinfo *ei) {
    const void *a, *b, *c;
    proof_points(proof, &a, &b, &c);
    int rc = read_g1((void *)a, proof->curve, json_object_get(root, "pi_a"), path, "pi_a", ei);
    if (rc == CZ_OK)
        rc = read_g2((void *)b, proof->curve, json_object_get(root, "pi_b"), path, "pi_b", ei);
    if (rc == CZ_OK)
        rc = read_g1((void *)c, proof->curve, json_object_get(root, "pi_c"), path, "pi_c", ei);
    return rc;
}

/* A proof file: its curve from the file (want NULL) or the caller's (read_curve_as). */
static int read_proof(cz_groth16_proof *proof, const cz_curve_id *want, const char *path,
                      cz_errinfo *ei) {
    json_t *root = NULL;
    int rc = load_json(&root, path, ei);
    if (rc != CZ_OK)
        return rc;
    if (want == NULL) {
        rc = read_curve(&proof->curve, root, path, ei);
    } else {
        rc = read_curve_as(*want, root, path, ei);
        if (rc == CZ_OK)
            proof->curve = *want;
    }
    if (rc == CZ_OK)
        rc = read_proof_points(proof, root, path, ei);
    json_decref(root);
    return rc;
}

int cz_groth16_proof_read_json(cz_groth16_proof *proof, const char *path, cz_errinfo *ei) {
    return read_proof(proof, NULL, path, ei);
}

int cz_groth16_proof_read_json_as(cz_groth16_proof *proof, cz_curve_id curve, const char *path,
                                  cz_errinfo *ei) {
    if ((unsigned)curve >= sizeof codecs / sizeof codecs[0])
        return cz_fail(ei, CZ_EINVAL, "%s: no such curve (%d)", path, (int)curve);
    return read_proof(proof, &curve, path, ei);
}

int cz_groth16_public_read_json(cz_groth16_public *pub, cz_curve_id curve, const char *path,
                                cz_errinfo *ei) {
    json_t *root = NULL;
    int rc = load_json(&root, path, ei);
    if (rc != CZ_OK)
        return rc;
    if (!json_is_array(root)) {
        rc = cz_fail(ei, CZ_EFORMAT, "%s: expected an array of decimal strings", path);
        goto out;
    }
    rc = cz_groth16_public_alloc(pub, curve, (uint32_t)json_array_size(root), ei);
    if (rc != CZ_OK)
        goto out;
    for (size_t i = 0; i < pub->n; i++) {
        const char *s = get_str(root, i, path, "", ei);
        if (s == NULL) {
            rc = CZ_EFORMAT;
            break;
        }
        rc = codecs[curve].fr_from_dec(pub->values[i], s);
        if (rc != CZ_OK) {
            /* Described by its length, not shown (see json_reason). */
            rc = cz_fail(ei, rc,
                         "%s: [%zu]: the value of %zu characters is not a decimal number "
                         "below r",
                         path, i, strlen(s));
            break;
        }
    }
    if (rc != CZ_OK)
        cz_groth16_public_free(pub);
out:
    json_decref(root);
    return rc;
}

/* vk accessors, whatever the curve. */
static void *vk_ic(cz_groth16_vk *vk, size_t i) {
    if (vk->curve == CZ_CURVE_BN254)
        return &vk->u.bn254.ic[i];
    return &vk->u.bls12381.ic[i];
}

int cz_groth16_vk_read_json(cz_groth16_vk *vk, const char *path, cz_errinfo *ei) {
    json_t *root = NULL, *ic, *npub;
    int rc = load_json(&root, path, ei);
    if (rc != CZ_OK)
        return rc;
    memset(vk, 0, sizeof *vk);
    rc = read_curve(&vk->curve, root, path, ei);
    if (rc != CZ_OK)
        goto out;
    npub = json_object_get(root, "nPublic");
    ic = json_object_get(root, "IC");
    if (!json_is_integer(npub) || json_integer_value(npub) < 0 ||
        json_integer_value(npub) > (json_int_t)UINT32_MAX - 1) {
        rc = cz_fail(ei, CZ_EFORMAT, "%s: \"nPublic\" is not a count", path);
        goto out;
    }
    vk->npublic = (uint32_t)json_integer_value(npub);
    if (!json_is_array(ic) || json_array_size(ic) != (size_t)vk->npublic + 1) {
        rc = cz_fail(ei, CZ_EFORMAT, "%s: \"IC\" must have nPublic + 1 = %u points", path,
                     vk->npublic + 1);
        goto out;
    }
    {
        size_t point = vk->curve == CZ_CURVE_BN254 ? sizeof(cz_bn254_g1_affine)
                                                   : sizeof(cz_bls12381_g1_affine);
        void *mem = calloc((size_t)vk->npublic + 1, point);
        if (mem == NULL) {
            rc = cz_fail(ei, CZ_ENOMEM, "%s: cannot allocate IC", path);
            goto out;
        }
        if (vk->curve == CZ_CURVE_BN254)
            vk->u.bn254.ic = mem;
        else
            vk->u.bls12381.ic = mem;
    }
    {
        void *alpha1, *beta2, *gamma2, *delta2;
        if (vk->curve == CZ_CURVE_BN254) {
            alpha1 = &vk->u.bn254.alpha1, beta2 = &vk->u.bn254.beta2;
            gamma2 = &vk->u.bn254.gamma2, delta2 = &vk->u.bn254.delta2;
        } else {
            alpha1 = &vk->u.bls12381.alpha1, beta2 = &vk->u.bls12381.beta2;
            gamma2 = &vk->u.bls12381.gamma2, delta2 = &vk->u.bls12381.delta2;
        }
        rc =
            read_g1(alpha1, vk->curve, json_object_get(root, "vk_alpha_1"), path, "vk_alpha_1", ei);
        if (rc == CZ_OK)
            rc = read_g2(beta2, vk->curve, json_object_get(root, "vk_beta_2"), path, "vk_beta_2",
                         ei);
        if (rc == CZ_OK)
            rc = read_g2(gamma2, vk->curve, json_object_get(root, "vk_gamma_2"), path, "vk_gamma_2",
                         ei);
        if (rc == CZ_OK)
            rc = read_g2(delta2, vk->curve, json_object_get(root, "vk_delta_2"), path, "vk_delta_2",
                         ei);
    }
    for (size_t i = 0; rc == CZ_OK && i <= vk->npublic; i++) {
        char key[32];
        snprintf(key, sizeof key, "IC[%zu]", i);
        rc = read_g1(vk_ic(vk, i), vk->curve, json_array_get(ic, i), path, key, ei);
    }
    if (rc != CZ_OK)
        cz_groth16_vk_free(vk);
out:
    json_decref(root);
    return rc;
}

/* ---- writing ------------------------------------------------------------------------------- */

static json_t *g1_json(cz_curve_id curve, const void *p) {
    char d[3][CZ_FIELD_DEC_MAX];
    codecs[curve].g1_to_dec(d, p);
    return json_pack("[sss]", d[0], d[1], d[2]);
}

static json_t *g2_json(cz_curve_id curve, const void *p) {
    char d[6][CZ_FIELD_DEC_MAX];
    codecs[curve].g2_to_dec(d, p);
    return json_pack("[[ss][ss][ss]]", d[0], d[1], d[2], d[3], d[4], d[5]);
}

/* Writes root (stolen) to path with snarkjs's layout (1-space indent, keys in insertion order). */
static int dump_json(json_t *root, const char *path, cz_errinfo *ei) {
    int rc = CZ_OK;
    if (root == NULL)
        return cz_fail(ei, CZ_ENOMEM, "%s: cannot build the JSON document", path);
    if (json_dump_file(root, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0)
        rc = cz_fail(ei, CZ_EIO, "%s: cannot write the file", path);
    json_decref(root);
    return rc;
}

int cz_groth16_proof_write_json(const char *path, const cz_groth16_proof *proof, cz_errinfo *ei) {
    const void *a, *b, *c;
    proof_points(proof, &a, &b, &c);
    json_t *root = json_pack("{s:o,s:o,s:o,s:s,s:s}", "pi_a", g1_json(proof->curve, a), "pi_b",
                             g2_json(proof->curve, b), "pi_c", g1_json(proof->curve, c), "protocol",
                             "groth16", "curve", cz_curve_name(proof->curve));
    return dump_json(root, path, ei);
}

/* Decimal string of canonical scalar limbs (< r; the public inputs were checked on the way in). */
static void scalar_dec(char out[CZ_FIELD_DEC_MAX], cz_curve_id curve, const uint64_t v[4]) {
    uint8_t le[32];
    memcpy(le, v, sizeof le);
    if (curve == CZ_CURVE_BN254) {
        cz_bn254_fr x;
        CZ_ASSERT(cz_bn254_fr_from_bytes_le(&x, le) == CZ_OK);
        cz_bn254_fr_to_dec(out, &x);
    } else {
        cz_bls12381_fr x;
        CZ_ASSERT(cz_bls12381_fr_from_bytes_le(&x, le) == CZ_OK);
        cz_bls12381_fr_to_dec(out, &x);
    }
}

int cz_groth16_public_write_json(const char *path, const cz_groth16_public *pub, cz_errinfo *ei) {
    json_t *root = json_array();
    for (uint32_t i = 0; root != NULL && i < pub->n; i++) {
        char d[CZ_FIELD_DEC_MAX];
        scalar_dec(d, pub->curve, pub->values[i]);
        json_array_append_new(root, json_string(d));
    }
    return dump_json(root, path, ei);
}

/* e(α₁, β₂) as [2][3][2] decimal strings (Fp12 = c0 + c1·w, Fp6 = c0 + c1·v + c2·v²). */
static json_t *alphabeta_json(const cz_groth16_vk *vk) {
    char d[12][CZ_FIELD_DEC_MAX];
    if (vk->curve == CZ_CURVE_BN254) {
        cz_bn254_fp12 e;
        cz_bn254_pairing(&e, &vk->u.bn254.alpha1, &vk->u.bn254.beta2);
        const cz_bn254_fp6 *f6[2] = {&e.c0, &e.c1};
        for (int i = 0; i < 2; i++) {
            const cz_bn254_fp2 *f2[3] = {&f6[i]->c0, &f6[i]->c1, &f6[i]->c2};
            for (int j = 0; j < 3; j++) {
                cz_bn254_fp_to_dec(d[6 * i + 2 * j], &f2[j]->c0);
                cz_bn254_fp_to_dec(d[6 * i + 2 * j + 1], &f2[j]->c1);
            }
        }
    } else {
        cz_bls12381_fp12 e;
        cz_bls12381_pairing(&e, &vk->u.bls12381.alpha1, &vk->u.bls12381.beta2);
        const cz_bls12381_fp6 *f6[2] = {&e.c0, &e.c1};
        for (int i = 0; i < 2; i++) {
            const cz_bls12381_fp2 *f2[3] = {&f6[i]->c0, &f6[i]->c1, &f6[i]->c2};
            for (int j = 0; j < 3; j++) {
                cz_bls12381_fp_to_dec(d[6 * i + 2 * j], &f2[j]->c0);
                cz_bls12381_fp_to_dec(d[6 * i + 2 * j + 1], &f2[j]->c1);
            }
        }
    }
    return json_pack("[[[ss][ss][ss]][[ss][ss][ss]]]", d[0], d[1], d[2], d[3], d[4], d[5], d[6],
                     d[7], d[8], d[9], d[10], d[11]);
}

int cz_groth16_vk_write_json(const char *path, const cz_groth16_vk *vk, cz_errinfo *ei) {
    const void *alpha1, *beta2, *gamma2, *delta2;
    cz_groth16_vk *m = (cz_groth16_vk *)vk; /* vk_ic takes a mutable key; nothing is written */
    if (vk->curve == CZ_CURVE_BN254) {
        alpha1 = &vk->u.bn254.alpha1, beta2 = &vk->u.bn254.beta2;
        gamma2 = &vk->u.bn254.gamma2, delta2 = &vk->u.bn254.delta2;
    } else {
        alpha1 = &vk->u.bls12381.alpha1, beta2 = &vk->u.bls12381.beta2;
        gamma2 = &vk->u.bls12381.gamma2, delta2 = &vk->u.bls12381.delta2;
    }
    json_t *ic = json_array();
    for (size_t i = 0; ic != NULL && i <= vk->npublic; i++)
        json_array_append_new(ic, g1_json(vk->curve, vk_ic(m, i)));
    json_t *root =
        json_pack("{s:s,s:s,s:I,s:o,s:o,s:o,s:o,s:o,s:o}", "protocol", "groth16", "curve",
                  cz_curve_name(vk->curve), "nPublic", (json_int_t)vk->npublic, "vk_alpha_1",
                  g1_json(vk->curve, alpha1), "vk_beta_2", g2_json(vk->curve, beta2), "vk_gamma_2",
                  g2_json(vk->curve, gamma2), "vk_delta_2", g2_json(vk->curve, delta2),
                  "vk_alphabeta_12", alphabeta_json(vk), "IC", ic);
    return dump_json(root, path, ei);
}
