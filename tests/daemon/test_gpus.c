/*
 * The daemon's GPU selection and per-device status on real devices (src/daemon/gpus.c); skipped
 * (77) without a GPU. The selection rules themselves are tested without one in test_config.c.
 *
 * Against the CUDA runtime as the oracle: "all" selects every visible device, one past the last
 * is refused; an engine on the selected devices reports, per slot, the CUDA index, the device's
 * name and total memory as cz_gpu_device_info says, free memory at most the total, the workers
 * per device and no busy time; a porep-synth job of 2 partitions (2^12) run on device 0 completes
 * (the engine verifies its proof) and leaves busy time on that device only; the metrics text
 * names each device with its index and name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/curve_id.h"
#include "cuzk/engine.h"
#include "cuzk/gpu.h"
#include "cuzk/workload.h"
#include "daemon/gpus.h"
#include "test.h"

static int visible;

static int setup(void) {
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (cz_gpu_device_count(&visible, &ei) != CZ_OK || visible == 0) {
        printf("skipped: %s\n", ei.msg);
        return TEST_SKIP;
    }
    return 0;
}

/* Devices chosen from the configuration, their status and metrics before and after a job. */
static void test_select_and_status(void) {
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    cz_daemon_config dc;
    cz_daemon_config_defaults(&dc);
    CHECK_ERR(cz_daemon_config_set(&dc, "gpus.devices", "all", &ei), CZ_OK);
    cz_engine_config cfg;
    memset(&cfg, 0, sizeof cfg);
    char note[256];
    CHECK_ERR(cz_daemon_gpus_select(cfg.devices, &cfg.ndevices, note, sizeof note, &dc, visible,
                                    NULL, &ei),
              CZ_OK);
    CHECK_EQ_INT(cfg.ndevices, (visible < CZ_ENGINE_MAX_DEVICES ? visible : CZ_ENGINE_MAX_DEVICES));
    printf("%s\n", note);
    {
        char list[16];
        int d[CZ_ENGINE_MAX_DEVICES], n;
        snprintf(list, sizeof list, "%d", visible);
        CHECK_ERR(cz_daemon_config_set(&dc, "gpus.devices", list, &ei), CZ_OK);
        CHECK(cz_daemon_gpus_select(d, &n, NULL, 0, &dc, visible, NULL, &ei) == CZ_ERANGE &&
              strstr(ei.msg, "there is no GPU") != NULL);
    }
    cz_daemon_config_free(&dc);

    cfg.workers_per_device = 2;
    cfg.partition_workers = 2;
    cfg.budget.total_bytes = 4ull << 30;
    cz_engine *e = NULL;
    CHECK_ERR(cz_engine_create(&e, &cfg, &ei), CZ_OK);
    if (e == NULL) {
        fprintf(stderr, "engine: %s\n", ei.msg);
        return;
    }
    cz_engine_stats st;
    cz_daemon_gpu_status gs[CZ_ENGINE_MAX_DEVICES];
    cz_engine_stats_get(&st, e);
    CHECK_EQ_INT(cz_daemon_gpus_status(gs, &st), cfg.ndevices);
    for (int i = 0; i < cfg.ndevices; i++) {
        cz_gpu_info info;
        CHECK_ERR(cz_gpu_device_info(&info, cfg.devices[i], &ei), CZ_OK);
        CHECK(gs[i].slot == i && gs[i].index == cfg.devices[i]);
        CHECK_EQ_STR(gs[i].name, info.name);
        CHECK_EQ_INT(gs[i].mem_total_bytes, info.global_mem);
        CHECK(gs[i].mem_free_bytes > 0 && gs[i].mem_free_bytes <= gs[i].mem_total_bytes);
        CHECK(gs[i].workers == 2 && gs[i].busy == 0 && gs[i].busy_ms == 0);
        printf("GPU %d: %s, %.1f of %.1f GiB free\n", gs[i].index, gs[i].name,
               (double)gs[i].mem_free_bytes / (1u << 30),
               (double)gs[i].mem_total_bytes / (1u << 30));
    }

    /* one job; with one device it runs there (more devices: any of them) */
    cz_porep_synth_ctx *ctx = NULL;
    cz_workload wl;
    cz_job *job = NULL;
    CHECK_ERR(cz_porep_synth_ctx_create(&ctx, CZ_CURVE_BLS12381, 12, "/tmp/cz-test-gpus-cache",
                                        NULL, &ei),
              CZ_OK);
    if (ctx != NULL && cz_workload_porep_synth(&wl, ctx, 2, 7, NULL, &ei) == CZ_OK) {
        CHECK_ERR(cz_engine_submit(NULL, e, "gpus-job", CZ_PRIO_NORMAL, &wl, &ei), CZ_OK);
        CHECK_ERR(cz_engine_await(&job, e, "gpus-job", 120000, &ei), CZ_OK);
        CHECK(job != NULL && cz_job_state_get(job) == CZ_JOB_DONE);
        cz_job_unref(job);
    } else {
        CHECK(0);
        fprintf(stderr, "porep-synth: %s\n", ei.msg);
    }
    cz_engine_stats_get(&st, e);
    cz_daemon_gpus_status(gs, &st);
    double busy = 0;
    for (int i = 0; i < cfg.ndevices; i++)
        busy += gs[i].busy_ms;
    CHECK(busy > 0 && gs[0].busy == 0);
    if (cfg.ndevices == 1)
        CHECK(gs[0].busy_ms > 0);

    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cz_daemon_gpus_metrics(f, &st, 1);
    fclose(f);
    char want[400];
    snprintf(want, sizeof want, "cuzk_gpu_info{device=\"0\",index=\"%d\",name=\"%s\"} 1\n",
             cfg.devices[0], gs[0].name);
    CHECK(text != NULL && strstr(text, want) != NULL);
    free(text);
    cz_engine_destroy(e);
    cz_porep_synth_ctx_free(ctx);
}

static const test_case cases[] = {
    {"select_and_status", test_select_and_status},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, NULL);
}
