/*
 * Curve identification and canonical checks for the snarkjs readers (see fmt_curve.h).
 */
#include "formats/fmt_curve.h"

#include "field/field_consts.h"
#include "formats/binfile.h"

static const cz__curve_info curves[] = {
    {CZ_CURVE_BN254, 32, 32, BN254_FP_P, BN254_FR_P, 28},
    {CZ_CURVE_BLS12381, 48, 32, BLS12381_FP_P, BLS12381_FR_P, 32},
};

const cz__curve_info *cz__curve_info_of(cz_curve_id id) {
    for (size_t i = 0; i < sizeof curves / sizeof curves[0]; i++)
        if (curves[i].id == id)
            return &curves[i];
    return NULL;
}

static int le_equals(const uint8_t *p, uint32_t n8, const uint64_t *limbs, uint32_t want_n8) {
    if (n8 != want_n8)
        return 0;
    for (uint32_t i = 0; i < n8 / 8; i++)
        if (cz__le64(p + 8 * i) != limbs[i])
            return 0;
    return 1;
}

const cz__curve_info *cz__curve_by_q(const uint8_t *q, uint32_t n8) {
    for (size_t i = 0; i < sizeof curves / sizeof curves[0]; i++)
        if (le_equals(q, n8, curves[i].q, curves[i].n8q))
            return &curves[i];
    return NULL;
}

const cz__curve_info *cz__curve_by_r(const uint8_t *r, uint32_t n8) {
    for (size_t i = 0; i < sizeof curves / sizeof curves[0]; i++)
        if (le_equals(r, n8, curves[i].r, curves[i].n8r))
            return &curves[i];
    return NULL;
}

int cz__le_lt(const uint8_t *p, const uint64_t *mod, size_t nlimbs) {
    for (size_t i = nlimbs; i-- > 0;) {
        uint64_t v = cz__le64(p + 8 * i);
        if (v != mod[i])
            return v < mod[i];
    }
    return 0; /* equal */
}

size_t cz__first_noncanonical(const uint8_t *p, size_t n, const uint64_t *mod, size_t nlimbs) {
    for (size_t i = 0; i < n; i++)
        if (!cz__le_lt(p + 8 * nlimbs * i, mod, nlimbs))
            return i;
    return n;
}
