/*
 * What the tests of an engine share (tests/engine, and the daemon's HTTP test): waiting for a
 * job's end.
 */
#ifndef CUZK_TESTS_ENGINE_TEST_UTIL_H
#define CUZK_TESTS_ENGINE_TEST_UTIL_H

#include "cuzk/pipeline.h"
#include "test.h"

/* Waits up to two minutes for the job key of e to end and returns its state; a wait that fails
 * is a CHECK failure and returns CZ_JOB_QUEUED. */
static inline cz_job_state engine_test_await(cz_engine *e, const char *key) {
    cz_job *job = NULL;
    cz_errinfo ei;
    CHECK_ERR(cz_engine_await(&job, e, key, 120000, &ei), CZ_OK);
    cz_job_state st = job != NULL ? cz_job_state_get(job) : CZ_JOB_QUEUED;
    cz_job_unref(job);
    return st;
}

#endif
