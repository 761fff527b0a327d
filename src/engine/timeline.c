/*
 * Timeline emitter (include/cuzk/timeline.h): the writing half.
 *
 * Design: an emitter is a FILE* (or the log), a start time and an enabled flag. A line is
 * written by formatting it into a stack buffer and writing it with one fwrite (or one
 * cz_log_write) while holding `lock`; the clock is read under the same lock, so times in the
 * output never go backwards and two threads' lines never interleave. The job id and worker name
 * are copied with ',' and whitespace replaced by '_' so that a line always splits into its
 * fields. Lines longer than the buffer (a very long extra) are cut, never torn.
 *
 * Costs: a disabled or NULL emitter costs one relaxed load and a branch; an enabled one a
 * clock_gettime, one snprintf and a locked fwrite + fflush (a few microseconds) -- the engine
 * writes a handful of lines per partition, which takes seconds.
 *
 * Lifecycle: create, emit from any thread, destroy after the last emit has returned. The FILE*
 * stays the caller's.
 */
#include "cuzk/timeline.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/log.h"

struct cz_timeline_emitter {
    pthread_mutex_t lock; /* protects writes to out and the clock read before them */
    FILE *out;            /* NULL: through the log */
    uint64_t start_ns;
    int enabled; /* atomic */
};

static const char *const event_names[CZ_TL_NEVENTS] = {
    "SYNTH_START", "SYNTH_END", "GPU_QUEUE", "GPU_PICKUP", "GPU_START", "GPU_END",
    "FINALIZE",    "DONE",      "FAILED",    "CANCELLED",  "STAGE",
};

static const char *const stage_names[CZ_TL_NSTAGES] = {
    "prep",      "ntt_h",     "batch_add", "tail_msm", "g2_msm",
    "lock_wait", "lock_held", "upload",    "device",
};

const char *cz_timeline_event_name(cz_timeline_event ev) {
    if ((int)ev < 0 || (int)ev >= CZ_TL_NEVENTS)
        return "?";
    return event_names[ev];
}

const char *cz_timeline_stage_name(cz_timeline_stage st) {
    if ((int)st < 0 || (int)st >= CZ_TL_NSTAGES)
        return "?";
    return stage_names[st];
}

int cz_timeline_emitter_create(cz_timeline_emitter **ret, FILE *out, uint64_t start_ns) {
    cz_timeline_emitter *em = calloc(1, sizeof *em);
    if (em == NULL)
        return CZ_ENOMEM;
    pthread_mutex_init(&em->lock, NULL);
    em->out = out;
    em->start_ns = start_ns != 0 ? start_ns : cz_clock_now_ns();
    em->enabled = 1;
    *ret = em;
    return CZ_OK;
}

void cz_timeline_emitter_destroy(cz_timeline_emitter *em) {
    if (em == NULL)
        return;
    pthread_mutex_destroy(&em->lock);
    free(em);
}

void cz_timeline_emitter_set_enabled(cz_timeline_emitter *em, int on) {
    if (em != NULL)
        __atomic_store_n(&em->enabled, on != 0, __ATOMIC_RELAXED);
}

int cz_timeline_emitter_enabled(const cz_timeline_emitter *em) {
    return em != NULL && __atomic_load_n(&em->enabled, __ATOMIC_RELAXED);
}

/* Copies s into dst (size bytes) with ',' and whitespace replaced; "-" for NULL or empty. */
static void copy_token(char *dst, size_t size, const char *s) {
    if (s == NULL || *s == '\0')
        s = "-";
    size_t n = 0;
    for (; s[n] != '\0' && n + 1 < size; n++) {
        unsigned char c = (unsigned char)s[n];
        dst[n] = (c == ',' || c <= ' ' || c == 0x7f) ? '_' : (char)c;
    }
    dst[n] = '\0';
}

/* Writes "TIMELINE,<ms>,<EV>,<job>,<detail>" with detail = <head>[,<extra>]. */
static void write_line(cz_timeline_emitter *em, cz_timeline_event ev, const char *job,
                       const char *head, const char *extra) {
    char jobtok[96];
    char line[1024];
    copy_token(jobtok, sizeof jobtok, job);
    const char *sep = (head[0] != '\0' && extra != NULL && extra[0] != '\0') ? "," : "";
    if (extra == NULL)
        extra = "";

    pthread_mutex_lock(&em->lock);
    uint64_t now = cz_clock_now_ns();
    double ms = now > em->start_ns ? (double)(now - em->start_ns) * 1e-6 : 0.0;
    int n = snprintf(line, sizeof line, "TIMELINE,%.3f,%s,%s,%s%s%s", ms, event_names[ev], jobtok,
                     head, sep, extra);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof line - 1 ? (size_t)n : sizeof line - 2;
    /* A newline inside extra would start a line the reader cannot place: replace it. */
    for (size_t i = 0; i < len; i++)
        if (line[i] == '\n' || line[i] == '\r')
            line[i] = ' ';
    if (em->out != NULL) {
        line[len++] = '\n';
        fwrite(line, 1, len, em->out);
        fflush(em->out);
    } else {
        line[len] = '\0';
        cz_log_write(CZ_LOG_LEVEL_INFO, "%s", line);
    }
    pthread_mutex_unlock(&em->lock);
}

/* "p=<partition>,w=<worker>" with the absent keys left out. */
static void format_head(char *head, size_t size, int partition, const char *worker) {
    char wtok[40];
    int n = 0;
    head[0] = '\0';
    if (partition >= 0)
        n = snprintf(head, size, "p=%d", partition);
    if (worker != NULL && worker[0] != '\0') {
        copy_token(wtok, sizeof wtok, worker);
        snprintf(head + n, size - (size_t)n, "%sw=%s", n > 0 ? "," : "", wtok);
    }
}

void cz_timeline_emit(cz_timeline_emitter *em, cz_timeline_event ev, const char *job, int partition,
                      const char *worker, const char *extra) {
    if (!cz_timeline_emitter_enabled(em) || (int)ev < 0 || (int)ev >= CZ_TL_NEVENTS)
        return;
    char head[64];
    format_head(head, sizeof head, partition, worker);
    write_line(em, ev, job, head, extra);
}

void cz_timeline_emitf(cz_timeline_emitter *em, cz_timeline_event ev, const char *job,
                       int partition, const char *worker, const char *fmt, ...) {
    if (!cz_timeline_emitter_enabled(em) || (int)ev < 0 || (int)ev >= CZ_TL_NEVENTS)
        return;
    char head[64];
    char extra[512];
    format_head(head, sizeof head, partition, worker);
    extra[0] = '\0';
    if (fmt != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(extra, sizeof extra, fmt, ap);
        va_end(ap);
    }
    write_line(em, ev, job, head, extra);
}

void cz_timeline_emit_stage(cz_timeline_emitter *em, const char *job, int partition,
                            const char *worker, cz_timeline_stage st, double duration_ms) {
    if (!cz_timeline_emitter_enabled(em) || (int)st < 0 || (int)st >= CZ_TL_NSTAGES)
        return;
    char head[64];
    char extra[64];
    format_head(head, sizeof head, partition, worker);
    if (!(duration_ms >= 0.0)) /* negative or NaN: a caller's clock mix-up; record 0 */
        duration_ms = 0.0;
    if (duration_ms > 1e12) /* keeps the number short; no stage runs 30 years */
        duration_ms = 1e12;
    snprintf(extra, sizeof extra, "stage=%s,dur=%.3f", stage_names[st], duration_ms);
    write_line(em, CZ_TL_STAGE, job, head, extra);
}
