/*
 * cz_sched_list: the copy of every tracked job (queued, running, retained) in submission order,
 * with per-partition outcomes and times from an injected clock, checked against the reports the
 * test made itself; pruned jobs leave the listing; an empty scheduler lists nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/engine.h"
#include "test.h"

static uint64_t fake_now = 1000;
static uint64_t fake_clock(void *arg) {
    (void)arg;
    return fake_now;
}

static void test_list(void) {
    cz_sched_config cfg = {0};
    cz_sched *s = NULL;
    cz_job *a = NULL, *b = NULL;
    cz_job_info *l = NULL;
    size_t n = 99;
    cz_errinfo ei;
    cfg.retention_ms = 500;
    cfg.clock = fake_clock;
    CHECK_ERR(cz_sched_create(&s, &cfg, &ei), CZ_OK);
    CHECK_ERR(cz_sched_list(&l, &n, s, &ei), CZ_OK);
    CHECK(n == 0 && l == NULL);

    /* seq 1: low, 3 partitions; seq 2: high, 2 partitions; seq 3: normal, 1 partition */
    CHECK_ERR(cz_sched_submit(NULL, s, "low-3", CZ_PRIO_LOW, 3, NULL, NULL, &ei), CZ_OK);
    fake_now = 1010;
    CHECK_ERR(cz_sched_submit(NULL, s, "high-2", CZ_PRIO_HIGH, 2, NULL, NULL, &ei), CZ_OK);
    fake_now = 1020;
    CHECK_ERR(cz_sched_submit(NULL, s, "normal-1", CZ_PRIO_NORMAL, 1, NULL, NULL, &ei), CZ_OK);
    fake_now = 1100;
    CHECK_ERR(cz_sched_next(&a, s, 0, &ei), CZ_OK); /* high-2, started at 1100 */
    CHECK_EQ_STR(cz_job_key(a), "high-2");
    CHECK_EQ_INT(cz_job_part_report(a, 1, CZ_OK, NULL), 0);
    fake_now = 1200;
    CHECK_ERR(cz_sched_next(&b, s, 0, &ei), CZ_OK);            /* normal-1, started at 1200 */
    CHECK_EQ_INT(cz_job_part_report(b, 0, CZ_EIO, "boom"), 0); /* failed, finished at 1200 */
    fake_now = 1300;

    CHECK_ERR(cz_sched_list(&l, &n, s, &ei), CZ_OK);
    CHECK_EQ_INT(n, 3);
    if (n == 3) {
        CHECK(strcmp(l[0].key, "low-3") == 0 && l[0].seq == 1 && l[0].prio == CZ_PRIO_LOW);
        CHECK(l[0].state == CZ_JOB_QUEUED && l[0].nparts == 3);
        CHECK(l[0].ndone == 0 && l[0].nfailed == 0 && l[0].nskipped == 0);
        CHECK(l[0].wait_ms == 300 && l[0].run_ms == 0);
        CHECK(l[0].parts[0] == CZ_PART_PENDING && l[0].parts[2] == CZ_PART_PENDING);

        CHECK(strcmp(l[1].key, "high-2") == 0 && l[1].seq == 2 && l[1].prio == CZ_PRIO_HIGH);
        CHECK(l[1].state == CZ_JOB_RUNNING && l[1].nparts == 2 && l[1].ndone == 1);
        CHECK(l[1].wait_ms == 90 && l[1].run_ms == 200);
        CHECK(l[1].parts[0] == CZ_PART_PENDING && l[1].parts[1] == CZ_PART_DONE);

        CHECK(strcmp(l[2].key, "normal-1") == 0 && l[2].state == CZ_JOB_FAILED);
        CHECK(l[2].nfailed == 1 && l[2].ndone == 0 && l[2].parts[0] == CZ_PART_FAILED);
        CHECK(l[2].wait_ms == 180 && l[2].run_ms == 0);
    }
    free(l);

    /* cancel the running job: its pending partition is reported skipped */
    CHECK_ERR(cz_sched_cancel(s, "high-2", &ei), CZ_OK);
    CHECK_EQ_INT(cz_job_part_report(a, 0, CZ_ECANCELED, NULL), 0);
    CHECK_ERR(cz_sched_list(&l, &n, s, &ei), CZ_OK);
    CHECK(n == 3 && l[1].state == CZ_JOB_CANCELLED && l[1].nskipped == 1 && l[1].ndone == 1);
    CHECK(n == 3 && l[1].parts[0] == CZ_PART_SKIPPED && l[1].run_ms == 200);
    free(l);

    /* past retention the finished jobs leave the listing; the queued one stays */
    fake_now = 1300 + 600;
    CHECK_ERR(cz_sched_list(&l, &n, s, &ei), CZ_OK);
    CHECK(n == 1 && strcmp(l[0].key, "low-3") == 0 && l[0].wait_ms == 900);
    free(l);
    CHECK_EQ_STR(cz_part_state_name(CZ_PART_SKIPPED), "skipped");

    cz_job_unref(a);
    cz_job_unref(b);
    cz_sched_cancel(s, "low-3", &ei);
    cz_sched_destroy(s);
}

static const test_case cases[] = {
    {"list", test_list},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
