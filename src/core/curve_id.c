/*
 * Curve names as snarkjs writes and reads them (see cuzk/curve_id.h).
 */
#include "cuzk/curve_id.h"

#include <ctype.h>
#include <string.h>

#include "cuzk/err.h"

const char *cz_curve_name(cz_curve_id curve) {
    switch (curve) {
    case CZ_CURVE_BN254:
        return "bn128";
    case CZ_CURVE_BLS12381:
        return "bls12381";
    }
    return "?";
}

int cz_curve_from_name(cz_curve_id *out, const char *name) {
    /* snarkjs keeps only the letters and digits, upper-cased: "alt_bn128" -> "ALTBN128". */
    static const struct {
        const char *norm;
        cz_curve_id id;
    } names[] = {
        {"BN128", CZ_CURVE_BN254},
        {"BN254", CZ_CURVE_BN254},
        {"ALTBN128", CZ_CURVE_BN254},
        {"BLS12381", CZ_CURVE_BLS12381},
    };
    char norm[16];
    size_t n = 0;
    if (name == NULL)
        return CZ_ECURVE;
    for (const char *p = name; *p != '\0'; p++) {
        if (!isalnum((unsigned char)*p))
            continue;
        if (n == sizeof norm - 1)
            return CZ_ECURVE;
        norm[n++] = (char)toupper((unsigned char)*p);
    }
    norm[n] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(norm, names[i].norm) == 0) {
            *out = names[i].id;
            return CZ_OK;
        }
    }
    return CZ_ECURVE;
}
