/*
 * The process-wide tuning (cuzk/tuning.h): a zeroed struct is what cz_tuning_get gives before
 * anything is set; cz_tuning_set installs a copy that cz_tuning_get returns field for field;
 * NULL restores the defaults; every out-of-range field is refused with CZ_ERANGE and a message
 * naming it, and leaves the installed settings unchanged; readers on other threads always see
 * one whole installed struct (a writer alternates two settings while readers check that the
 * fields they read belong together).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "cuzk/tuning.h"
#include "test.h"

static void test_defaults(void) {
    cz_tuning t, zero;
    memset(&zero, 0, sizeof zero);
    cz_tuning_get(&t);
    CHECK_EQ_MEM(&t, &zero, sizeof t);
}

static void test_set_get(void) {
    cz_tuning t = {0}, got;
    t.msm_split = CZ_SPLIT_ON;
    t.msm_profile = 1;
    t.gpu_msm_window_bits = 16;
    t.gpu_msm_windows = 12;
    t.gpu_copy_chunk_bytes = 1u << 20;
    t.gpu_bases_compact = CZ_COMPACT_NEVER;
    t.gpu_g2_on_cpu = 1;
    CHECK_ERR(cz_tuning_set(&t, NULL), CZ_OK);
    cz_tuning_get(&got);
    CHECK_EQ_MEM(&got, &t, sizeof t);
    CHECK_ERR(cz_tuning_set(NULL, NULL), CZ_OK);
    cz_tuning_get(&got);
    CHECK_EQ_INT(got.msm_split, CZ_SPLIT_AUTO);
    CHECK_EQ_INT(got.gpu_g2_on_cpu, 0);
}

/* one bad field each: refused, named, nothing installed */
static void test_ranges(void) {
    static const struct {
        const char *field;
        cz_tuning t;
    } bad[] = {
        {"msm_split", {.msm_split = (cz_split_mode)3}},
        {"gpu_msm_window_bits", {.gpu_msm_window_bits = 3}},
        {"gpu_msm_window_bits", {.gpu_msm_window_bits = 23}},
        {"gpu_msm_windows", {.gpu_msm_windows = 11}},
        {"gpu_msm_windows", {.gpu_msm_windows = 65}},
        {"gpu_bases_compact", {.gpu_bases_compact = (cz_compact_mode)3}},
        {"gpu_msm_accumulation", {.gpu_msm_accumulation = (cz_acc_mode)3}},
    };
    cz_tuning ok = {0}, got;
    ok.gpu_g2_on_cpu = 1;
    CHECK_ERR(cz_tuning_set(&ok, NULL), CZ_OK);
    for (size_t i = 0; i < TEST_COUNT(bad); i++) {
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        CHECK_ERR(cz_tuning_set(&bad[i].t, &ei), CZ_ERANGE);
        if (!CHECK(strstr(ei.msg, bad[i].field) != NULL))
            fprintf(stderr, "  message \"%s\" does not name %s\n", ei.msg, bad[i].field);
        cz_tuning_get(&got);
        CHECK_EQ_MEM(&got, &ok, sizeof ok);
    }
    /* the edges are fine */
    {
        cz_tuning edge = {0};
        edge.gpu_msm_window_bits = 22;
        edge.gpu_msm_windows = 64;
        CHECK_ERR(cz_tuning_check(&edge, NULL), CZ_OK);
        edge.gpu_msm_window_bits = 4;
        edge.gpu_msm_windows = 12;
        CHECK_ERR(cz_tuning_check(&edge, NULL), CZ_OK);
    }
    CHECK_ERR(cz_tuning_set(NULL, NULL), CZ_OK);
}

static atomic_int stop_readers;
static atomic_ulong torn;

/* Two settings whose fields all differ; a reader must see one or the other, never a mix. */
static void *reader(void *arg) {
    (void)arg;
    while (!atomic_load(&stop_readers)) {
        cz_tuning t;
        cz_tuning_get(&t);
        int a = t.gpu_msm_window_bits == 8 && t.gpu_msm_windows == 20 && t.gpu_g2_on_cpu == 1;
        int b = t.gpu_msm_window_bits == 12 && t.gpu_msm_windows == 30 && t.gpu_g2_on_cpu == 0;
        int z = t.gpu_msm_window_bits == 0 && t.gpu_msm_windows == 0 && t.gpu_g2_on_cpu == 0;
        if (!a && !b && !z)
            atomic_fetch_add(&torn, 1);
    }
    return NULL;
}

static void test_threads(void) {
    pthread_t th[2];
    cz_tuning a = {0}, b = {0};
    a.gpu_msm_window_bits = 8, a.gpu_msm_windows = 20, a.gpu_g2_on_cpu = 1;
    b.gpu_msm_window_bits = 12, b.gpu_msm_windows = 30;
    atomic_store(&stop_readers, 0);
    for (int i = 0; i < 2; i++)
        CZ_ASSERT(pthread_create(&th[i], NULL, reader, NULL) == 0);
    for (int k = 0; k < 20000; k++)
        CZ_ASSERT(cz_tuning_set(k % 2 ? &a : &b, NULL) == CZ_OK);
    atomic_store(&stop_readers, 1);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    CHECK_EQ_U64(atomic_load(&torn), 0);
    CHECK_ERR(cz_tuning_set(NULL, NULL), CZ_OK);
}

/* The accumulation names the benchmarks take and print: each mode's name parses back to it; a
 * value out of range has no name, an unknown name no mode. */
static void test_acc_names(void) {
    static const char *const want[] = {"auto", "madd", "batch-affine"};
    for (int m = CZ_ACC_AUTO; m <= CZ_ACC_BATCH_AFFINE; m++) {
        CHECK(strcmp(cz_acc_mode_name((cz_acc_mode)m), want[m]) == 0);
        CHECK_EQ_INT(cz_acc_mode_from_name(want[m]), m);
    }
    CHECK(cz_acc_mode_name((cz_acc_mode)3) == NULL);
    CHECK(cz_acc_mode_name((cz_acc_mode)-1) == NULL);
    CHECK_EQ_INT(cz_acc_mode_from_name("both"), -1);
    CHECK_EQ_INT(cz_acc_mode_from_name("Madd"), -1);
    CHECK_EQ_INT(cz_acc_mode_from_name(""), -1);
}

static const test_case cases[] = {{"defaults", test_defaults},
                                  {"set_get", test_set_get},
                                  {"ranges", test_ranges},
                                  {"threads", test_threads},
                                  {"acc_names", test_acc_names}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
