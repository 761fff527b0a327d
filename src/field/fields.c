/*
 * The public field API: cz_<field>_* wrappers around the inline arithmetic of field/field.h.
 */
#include "field/field.h"

#ifdef CZ_FIELD_ADX
#include <cpuid.h>

int cz__field_adx;

/* mont_adx.h's products need BMI2 (mulx) and ADX (adcx, adox): cpuid leaf 7, EBX. */
__attribute__((constructor)) static void detect_adx(void) {
    unsigned eax, ebx, ecx, edx;
    cz__field_adx =
        __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (ebx & bit_BMI2) && (ebx & bit_ADX);
}
#endif

#define F_PREFIX bls12381_fp
#define F_T      cz_bls12381_fp
#include "field/mont_export.h"
#include "field/mont_undef.h"

#define F_PREFIX bls12381_fr
#define F_T      cz_bls12381_fr
#include "field/mont_export.h"
#include "field/mont_undef.h"

#define F_PREFIX bn254_fp
#define F_T      cz_bn254_fp
#include "field/mont_export.h"
#include "field/mont_undef.h"

#define F_PREFIX bn254_fr
#define F_T      cz_bn254_fr
#include "field/mont_export.h"
#include "field/mont_undef.h"

int cz_bls12381_fp_sqrt(cz_bls12381_fp *ret, const cz_bls12381_fp *a) {
    return bls12381_fp_sqrt(ret, a);
}

int cz_bn254_fp_sqrt(cz_bn254_fp *ret, const cz_bn254_fp *a) {
    return bn254_fp_sqrt(ret, a);
}

#define E2_PREFIX bls12381_fp2
#define E2_T      cz_bls12381_fp2
#define E2_BASE_T cz_bls12381_fp
#include "field/fp2_export.h"
#include "field/fp2_undef.h"

#define E2_PREFIX bn254_fp2
#define E2_T      cz_bn254_fp2
#define E2_BASE_T cz_bn254_fp
#include "field/fp2_export.h"
#include "field/fp2_undef.h"
