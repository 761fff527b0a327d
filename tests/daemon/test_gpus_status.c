/*
 * The daemon's per-device status of a device out of service (src/daemon/gpus.c), without a GPU:
 * engine statistics of two CPU slots, the second out of service with the error that took it out
 * (as the engine reports a device whose CUDA context was lost, tests/engine/test_devices.c).
 * The status says which slot is out and why; the metrics text has cuzk_gpu_in_service 1 for the
 * first and 0 for the second. A GPU out of service (a CUDA index, never queried then) shows the
 * name and memory remembered for its index at start-up, or "?" and 0 for an index never
 * remembered.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/gpus.h"
#include "test.h"

static void test_out_of_service(void) {
    static const char why[] = "partition 3: GPU compute: CUDA cudaErrorIllegalAddress: an illegal "
                              "memory access was encountered";
    cz_engine_stats st;
    cz_daemon_gpu_status gs[CZ_ENGINE_MAX_DEVICES];
    memset(&st, 0, sizeof st);
    st.ndevices = 2;
    st.workers_per_device = 2;
    st.device[0] = st.device[1] = -1;
    st.busy_ms[0] = 1500;
    st.busy_ms[1] = 250;
    st.failed[1] = 1;
    snprintf(st.failed_why[1], sizeof st.failed_why[1], "%s", why);
    CHECK_EQ_INT(cz_daemon_gpus_status(gs, &st), 2);
    CHECK(gs[0].out_of_service == 0 && gs[0].why[0] == 0);
    CHECK(gs[1].out_of_service == 1);
    CHECK_EQ_STR(gs[1].why, why);
    CHECK(gs[0].busy_ms == 1500 && gs[1].busy_ms == 250);

    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!CHECK(f != NULL))
        return;
    cz_daemon_gpus_metrics(f, &st, 1);
    fclose(f);
    CHECK(text != NULL && strstr(text, "# TYPE cuzk_gpu_in_service gauge\n") != NULL);
    CHECK(text != NULL && strstr(text, "cuzk_gpu_in_service{device=\"0\"} 1\n") != NULL);
    CHECK(text != NULL && strstr(text, "cuzk_gpu_in_service{device=\"1\"} 0\n") != NULL);
    free(text);
}

static void test_remembered(void) {
    cz_engine_stats st;
    cz_daemon_gpu_status gs[CZ_ENGINE_MAX_DEVICES];
    memset(&st, 0, sizeof st);
    st.ndevices = 2;
    st.workers_per_device = 2;
    st.device[0] = 3;
    st.device[1] = 5;
    st.failed[0] = st.failed[1] = 1;
    snprintf(st.failed_why[0], sizeof st.failed_why[0], "lost");
    snprintf(st.failed_why[1], sizeof st.failed_why[1], "lost too");
    cz_daemon_gpus_remember(3, "NVIDIA H200", (uint64_t)150 << 30);
    cz_daemon_gpus_remember(CZ_ENGINE_MAX_DEVICES, "beyond the table", 1); /* ignored */
    cz_daemon_gpus_remember(-1, "the CPU", 1);                             /* ignored */
    CHECK_EQ_INT(cz_daemon_gpus_status(gs, &st), 2);
    CHECK_EQ_STR(gs[0].name, "NVIDIA H200");
    CHECK(gs[0].mem_total_bytes == (uint64_t)150 << 30 && gs[0].mem_free_bytes == 0);
    CHECK(gs[0].index == 3 && gs[0].out_of_service == 1);
    CHECK_EQ_STR(gs[0].why, "lost");
    CHECK_EQ_STR(gs[1].name, "?");
    CHECK(gs[1].mem_total_bytes == 0 && gs[1].mem_free_bytes == 0);
}

static const test_case cases[] = {
    {"out_of_service", test_out_of_service},
    {"remembered", test_remembered},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
