/*
 * cz_zkey_validate_points: on-curve (and optionally subgroup) checks of every point of an opened
 * key, through the curve layer (cuzk/curve_api.h). The group is picked once per section; the
 * per-point switch is cheap next to the curve arithmetic it selects.
 */
#include <stdint.h>
#include <string.h>

#include "cuzk/zkey.h"
#include "formats/zkey_internal.h"

typedef enum { BN254_G1, BN254_G2, BLS12381_G1, BLS12381_G2 } group_id;

/* CZ_OK, CZ_ENOTONCURVE or CZ_ENOTINSUBGROUP for point i of array pts of group g. */
static int check_point(group_id g, const void *pts, size_t i, int sub) {
    int on = 1, in = 1;
    switch (g) {
    case BN254_G1: {
        const cz_bn254_g1_affine *p = (const cz_bn254_g1_affine *)pts + i;
        on = cz_bn254_g1_on_curve(p);
        in = !sub || !on || cz_bn254_g1_in_subgroup(p);
        break;
    }
    case BN254_G2: {
        const cz_bn254_g2_affine *p = (const cz_bn254_g2_affine *)pts + i;
        on = cz_bn254_g2_on_curve(p);
        in = !sub || !on || cz_bn254_g2_in_subgroup(p);
        break;
    }
    case BLS12381_G1: {
        const cz_bls12381_g1_affine *p = (const cz_bls12381_g1_affine *)pts + i;
        on = cz_bls12381_g1_on_curve(p);
        in = !sub || !on || cz_bls12381_g1_in_subgroup(p);
        break;
    }
    case BLS12381_G2: {
        const cz_bls12381_g2_affine *p = (const cz_bls12381_g2_affine *)pts + i;
        on = cz_bls12381_g2_on_curve(p);
        in = !sub || !on || cz_bls12381_g2_in_subgroup(p);
        break;
    }
    }
    return !on ? CZ_ENOTONCURVE : !in ? CZ_ENOTINSUBGROUP : CZ_OK;
}

/* The twelve point groups of a key, in file order within section 2. */
static const struct {
    const char *what;
    uint32_t section;
    int g2;
} parts[12] = {
    {"alpha1", 2, 0}, {"beta1", 2, 0},  {"beta2", 2, 1}, {"gamma2", 2, 1},
    {"delta1", 2, 0}, {"delta2", 2, 1}, {"IC", 3, 0},    {"A", 5, 0},
    {"B1", 6, 0},     {"B2", 7, 1},     {"C", 8, 0},     {"H", 9, 0},
};

int cz_zkey_validate_points(const cz_zkey *zk, int check_subgroup, cz_errinfo *ei) {
    const struct cz__zkey_priv *pv = zk->priv;
    int bn = zk->curve == CZ_CURVE_BN254;
    size_t g1 = bn ? 64 : 96, g2 = 2 * g1;
    size_t nv = zk->nvars, np = (size_t)zk->npublic + 1;
    const size_t counts[12] = {1, 1, 1, 1, 1, 1, np, nv, nv, nv, nv - np, zk->domain_size};
    const void *pts[12];
    if (bn) {
        const cz_zkey_bn254 *k = &zk->u.bn254;
        const void *v[12] = {&k->alpha1, &k->beta1, &k->beta2, &k->gamma2, &k->delta1, &k->delta2,
                             k->ic,      k->a,      k->b1,     k->b2,      k->c,       k->h};
        memcpy(pts, v, sizeof v);
    } else {
        const cz_zkey_bls12381 *k = &zk->u.bls12381;
        const void *v[12] = {&k->alpha1, &k->beta1, &k->beta2, &k->gamma2, &k->delta1, &k->delta2,
                             k->ic,      k->a,      k->b1,     k->b2,      k->c,       k->h};
        memcpy(pts, v, sizeof v);
    }
    uint64_t header_off = pv->header_points_off;
    for (size_t j = 0; j < 12; j++) {
        size_t bytes = parts[j].g2 ? g2 : g1;
        uint64_t off = parts[j].section == 2 ? header_off : pv->sect_off[parts[j].section];
        if (parts[j].section == 2)
            header_off += bytes;
        group_id g =
            bn ? (parts[j].g2 ? BN254_G2 : BN254_G1) : (parts[j].g2 ? BLS12381_G2 : BLS12381_G1);
        for (size_t i = 0; i < counts[j]; i++) {
            int rc = check_point(g, pts[j], i, check_subgroup);
            if (rc != CZ_OK)
                return cz__binfile_fail(&pv->bf, ei, rc, parts[j].section, off + i * bytes,
                                        "%s point %zu is %s", parts[j].what, i,
                                        rc == CZ_ENOTONCURVE ? "not on the curve"
                                                             : "not in the prime-order subgroup");
        }
    }
    return CZ_OK;
}
