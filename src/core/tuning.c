/*
 * The process-wide tuning (include/cuzk/tuning.h): one copy under a lock. Readers take a copy
 * per call, so a setting never changes under a running MSM or upload.
 */
#include <pthread.h>
#include <string.h>

#include "cuzk/tuning.h"

static const char *const acc_mode_names[] = {"auto", "madd", "batch-affine"};

const char *cz_acc_mode_name(cz_acc_mode m) {
    return (unsigned)m <= CZ_ACC_BATCH_AFFINE ? acc_mode_names[m] : NULL;
}

int cz_acc_mode_from_name(const char *name) {
    for (int m = CZ_ACC_AUTO; m <= CZ_ACC_BATCH_AFFINE; m++)
        if (strcmp(name, acc_mode_names[m]) == 0)
            return m;
    return -1;
}

static pthread_mutex_t tuning_lock = PTHREAD_MUTEX_INITIALIZER; /* guards tuning */
static cz_tuning tuning;

int cz_tuning_check(const cz_tuning *t, cz_errinfo *ei) {
    if ((unsigned)t->msm_split > CZ_SPLIT_ON)
        return cz_fail(ei, CZ_ERANGE, "tuning: msm_split %d is not auto, off or on",
                       (int)t->msm_split);
    if (t->gpu_msm_window_bits != 0 && (t->gpu_msm_window_bits < 4 || t->gpu_msm_window_bits > 22))
        return cz_fail(ei, CZ_ERANGE, "tuning: gpu_msm_window_bits %u outside 4..22",
                       t->gpu_msm_window_bits);
    if (t->gpu_msm_windows != 0 && (t->gpu_msm_windows < 12 || t->gpu_msm_windows > 64))
        return cz_fail(ei, CZ_ERANGE, "tuning: gpu_msm_windows %u outside 12..64",
                       t->gpu_msm_windows);
    if ((unsigned)t->gpu_msm_accumulation > CZ_ACC_BATCH_AFFINE)
        return cz_fail(ei, CZ_ERANGE,
                       "tuning: gpu_msm_accumulation %d is not auto, madd or batch-affine",
                       (int)t->gpu_msm_accumulation);
    if ((unsigned)t->gpu_bases_compact > CZ_COMPACT_ALWAYS)
        return cz_fail(ei, CZ_ERANGE, "tuning: gpu_bases_compact %d is not auto, never or always",
                       (int)t->gpu_bases_compact);
    return CZ_OK;
}

int cz_tuning_set(const cz_tuning *t, cz_errinfo *ei) {
    cz_tuning d;
    if (t == NULL) {
        memset(&d, 0, sizeof d);
        t = &d;
    }
    int rc = cz_tuning_check(t, ei);
    if (rc != CZ_OK)
        return rc;
    pthread_mutex_lock(&tuning_lock);
    tuning = *t;
    pthread_mutex_unlock(&tuning_lock);
    return CZ_OK;
}

void cz_tuning_get(cz_tuning *out) {
    pthread_mutex_lock(&tuning_lock);
    *out = tuning;
    pthread_mutex_unlock(&tuning_lock);
}
