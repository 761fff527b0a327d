/*
 * Timeline tests (include/cuzk/timeline.h): no GPU, no timing assertions.
 *
 * - The emitter: lines from concurrent threads are whole and parse back to the events emitted
 *   (every (thread, sequence number) once, in order per thread); the log sink; disabled emitters.
 * - The analysis against an independent oracle: random logs of GPU and synthesis intervals on an
 *   integer millisecond grid (overlapping across the workers of a GPU, touching or not within a
 *   worker), whose busy time, gaps and per-job figures the test computes by marking a boolean
 *   array per GPU, one cell per millisecond, and scanning it.
 * - Malformed lines fail with the line's number; random mutations of a log never crash.
 * - The SVG: balanced tags, one rect per interval and per gap, numbers that parse; xmllint when
 *   it is installed; the timeline command's exit codes.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/log.h"
#include "cuzk/timeline.h"
#include "test.h"

static uint64_t rng_state = 0x243f6a8885a308d3u;

static uint64_t rnd(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static unsigned rndu(unsigned n) {
    return (unsigned)(rnd() % n);
}

/* The whole content of f (rewound). */
static char *slurp(FILE *f, size_t *len) {
    fflush(f);
    long n = ftell(f);
    char *buf = malloc((size_t)n + 1);
    rewind(f);
    *len = fread(buf, 1, (size_t)n, f);
    buf[*len] = '\0';
    return buf;
}

/* ---- emitter -------------------------------------------------------------------------------- */

#define NTHREADS 6
#define NPAIRS   200

typedef struct targ {
    cz_timeline_emitter *em;
    int id;
} targ;

static void *emit_thread(void *p) {
    const targ *a = p;
    char job[16], worker[16];
    snprintf(job, sizeof job, "job%d", a->id);
    snprintf(worker, sizeof worker, "synth%d", a->id);
    for (int i = 0; i < NPAIRS; i++) {
        cz_timeline_emitf(a->em, CZ_TL_SYNTH_START, job, i % 10, worker, "seq=%d", 2 * i);
        if (i % 7 == 0)
            cz_timeline_emit_stage(a->em, job, i % 10, worker, CZ_TL_STAGE_PREP, 1.25 * i);
        cz_timeline_emitf(a->em, CZ_TL_SYNTH_END, job, i % 10, worker, "seq=%d", 2 * i + 1);
    }
    return NULL;
}

static void test_emitter_threads(void) {
    FILE *f = tmpfile();
    cz_timeline_emitter *em = NULL;
    CHECK_ERR(cz_timeline_emitter_create(&em, f, 0), CZ_OK);
    pthread_t th[NTHREADS];
    targ args[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        args[t] = (targ){em, t};
        pthread_create(&th[t], NULL, emit_thread, &args[t]);
    }
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    cz_timeline_emitter_destroy(em);

    size_t len;
    char *text = slurp(f, &len);
    /* Every line whole and in the exact format; per thread the sequence numbers in order. */
    int next_seq[NTHREADS] = {0}, nstage = 0, bad = 0;
    double last_ms = -1.0;
    size_t nlines = 0;
    for (char *line = text; *line != '\0';) {
        char *nl = strchr(line, '\n');
        if (nl == NULL) {
            bad++;
            break;
        }
        *nl = '\0';
        nlines++;
        double ms, dur;
        char ev[16];
        int job, p, w, seq, n = -1;
        if (sscanf(line, "TIMELINE,%lf,%15[A-Z_],job%d,p=%d,w=synth%d,seq=%d%n", &ms, ev, &job, &p,
                   &w, &seq, &n) == 6 &&
            n == (int)strlen(line)) {
            int want_ev = seq % 2 == 0 ? 0 : 1;
            if (job < 0 || job >= NTHREADS || w != job || seq != next_seq[job] ||
                strcmp(ev, want_ev == 0 ? "SYNTH_START" : "SYNTH_END") != 0 || p != seq / 2 % 10)
                bad++;
            else
                next_seq[job]++;
        } else if (sscanf(line, "TIMELINE,%lf,STAGE,job%d,p=%d,w=synth%d,stage=prep,dur=%lf%n", &ms,
                          &job, &p, &w, &dur, &n) == 5 &&
                   n == (int)strlen(line)) {
            nstage++;
        } else {
            bad++;
        }
        if (ms < last_ms) /* the clock is read under the lock: times never go backwards */
            bad++;
        last_ms = ms;
        line = nl + 1;
    }
    CHECK_EQ_INT(bad, 0);
    for (int t = 0; t < NTHREADS; t++)
        CHECK_EQ_INT(next_seq[t], 2 * NPAIRS);
    CHECK_EQ_INT(nstage, NTHREADS * ((NPAIRS + 6) / 7));
    CHECK_EQ_INT(nlines, (size_t)(NTHREADS * 2 * NPAIRS + nstage));
    free(text);

    /* The reader sees the same: one interval per pair, per worker, and the stage records. */
    text = slurp(f, &len);
    cz_timeline *tl = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_timeline_parse(&tl, text, len, "threads", &ei), CZ_OK);
    if (tl != NULL) {
        CHECK_EQ_INT(tl->nintervals, NTHREADS * NPAIRS);
        CHECK_EQ_INT(tl->nworkers, NTHREADS);
        CHECK_EQ_INT(tl->njobs, NTHREADS);
        CHECK_EQ_INT(tl->nstages, (size_t)nstage);
        CHECK_EQ_INT(tl->ngpus, 0);
        for (size_t k = 0; k < tl->nworkers; k++) {
            CHECK_EQ_INT(tl->workers[k].nintervals, NPAIRS);
            CHECK_EQ_INT(tl->workers[k].kind, CZ_TL_WORKER_SYNTH);
            CHECK_EQ_INT(tl->workers[k].slot, (int)k); /* ordered by number */
        }
        for (size_t j = 0; j < tl->njobs; j++)
            CHECK(tl->jobs[j].npartitions == 10 && tl->jobs[j].state == CZ_TL_JOB_OPEN);
    }
    cz_timeline_free(tl);
    free(text);
    fclose(f);
}

static void test_emitter_sink_and_off(void) {
    /* Through the log: the log's prefix in front, the reader finds the records behind it. */
    FILE *f = tmpfile();
    FILE *prev = cz_log_set_output(f);
    cz_timeline_emitter *em = NULL;
    CHECK_ERR(cz_timeline_emitter_create(&em, NULL, 0), CZ_OK);
    cz_log_write(CZ_LOG_LEVEL_INFO, "an ordinary line mentioning STAGE, and xTIMELINE,1,DONE,x,");
    cz_timeline_emit(em, CZ_TL_GPU_START, "a,b c", 3, "gpu1.0", NULL);
    cz_timeline_emit(em, CZ_TL_GPU_END, "a,b c", 3, "gpu1.0", "gpu_ms=1");
    cz_timeline_emit(em, CZ_TL_DONE, "a,b c", -1, NULL, "");
    cz_timeline_emitter_set_enabled(em, 0);
    CHECK(!cz_timeline_emitter_enabled(em));
    cz_timeline_emit(em, CZ_TL_FAILED, "a,b c", -1, NULL, "msg=late");
    cz_timeline_emitter_destroy(em);
    cz_log_set_output(prev);

    size_t len;
    char *text = slurp(f, &len);
    CHECK(strstr(text, "INFO  TIMELINE,") != NULL);
    CHECK(strstr(text, ",GPU_START,a_b_c,p=3,w=gpu1.0\n") != NULL);
    CHECK(strstr(text, ",DONE,a_b_c,\n") != NULL);
    CHECK(strstr(text, "FAILED") == NULL);
    cz_timeline *tl = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_timeline_parse(&tl, text, len, "log", &ei), CZ_OK);
    if (tl != NULL) {
        CHECK(tl->nlines == 4 && tl->nevents == 3);
        CHECK(tl->nintervals == 1 && tl->ngpus == 1 && tl->gpus[0].gpu == 1);
        CHECK(tl->njobs == 1 && tl->njobs_done == 1 && strcmp(tl->jobs[0].id, "a_b_c") == 0);
        CHECK(tl->intervals[0].partition == 3 && !tl->intervals[0].open);
    }
    cz_timeline_free(tl);
    free(text);
    fclose(f);

    /* A NULL emitter is off and costs nothing. */
    cz_timeline_emit(NULL, CZ_TL_DONE, "x", 0, NULL, NULL);
    cz_timeline_emit_stage(NULL, "x", 0, NULL, CZ_TL_STAGE_G2_MSM, 1.0);
    CHECK(!cz_timeline_emitter_enabled(NULL));
    CHECK_EQ_STR(cz_timeline_event_name(CZ_TL_CANCELLED), "CANCELLED");
    CHECK_EQ_STR(cz_timeline_event_name(CZ_TL_NEVENTS), "?");
    CHECK_EQ_STR(cz_timeline_stage_name(CZ_TL_STAGE_LOCK_HELD), "lock_held");
    CHECK_EQ_STR(cz_timeline_stage_name((cz_timeline_stage)-1), "?");
}

/* ---- analysis against a grid oracle ------------------------------------------------------ */

#define T_MAX     6000 /* ms */
#define MAX_LINES 4000
#define MAX_JOBS  8

typedef struct ev {
    int t, order; /* order of generation: a worker's events in their order, DONE last */
    char text[96];
} ev;

static int cmp_ev(const void *a, const void *b) {
    const ev *x = a, *y = b;
    if (x->t != y->t)
        return x->t - y->t;
    return x->order - y->order;
}

typedef struct oracle {
    int ngpus, nworkers_per_gpu, nsynth, njobs;
    unsigned char busy[3][T_MAX + 1000];
    int gpu_lo, gpu_hi; /* first GPU start, last GPU end */
    int job_first[MAX_JOBS], job_done[MAX_JOBS], job_maxp[MAX_JOBS];
    long job_synth[MAX_JOBS], job_gpu[MAX_JOBS];
    long worker_busy[3 * 3 + 4];
} oracle;

static ev evs[MAX_LINES];

static void add_ev(size_t *n, int t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_ev(size_t *n, int t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    evs[*n].t = t;
    evs[*n].order = (int)*n;
    vsnprintf(evs[*n].text, sizeof evs[*n].text, fmt, ap);
    va_end(ap);
    (*n)++;
}

/* Intervals of one worker: non-overlapping; touching and zero-length ones when min_gap is 0.
 * The steady window includes zero-length GPU intervals (first GPU_START .. last GPU_END). */
static void gen_worker(size_t *n, oracle *o, int gpu, int slot, int min_gap) {
    int t = (int)rndu(400);
    while (*n + 2 < MAX_LINES - MAX_JOBS) {
        /* Zero-length intervals only in file order (shuffled, END could precede START). */
        int len = min_gap == 0 && rndu(10) == 0 ? 0 : 1 + (int)rndu(600);
        if (t + len > T_MAX)
            break;
        int job = (int)rndu((unsigned)o->njobs), p = (int)rndu(10);
        const char *kind = gpu >= 0 ? "GPU" : "SYNTH";
        char w[32];
        if (gpu >= 0)
            snprintf(w, sizeof w, "gpu%d.%d", gpu, slot);
        else
            snprintf(w, sizeof w, "synth%d", slot);
        add_ev(n, t, "TIMELINE,%d.000,%s_START,job%d,p=%d,w=%s", t, kind, job, p, w);
        add_ev(n, t + len, "TIMELINE,%d.000,%s_END,job%d,p=%d,w=%s,x_ms=%d", t + len, kind, job, p,
               w, len);
        if (o->job_first[job] < 0 || t < o->job_first[job])
            o->job_first[job] = t;
        if (t + len > o->job_done[job])
            o->job_done[job] = t + len;
        if (p > o->job_maxp[job])
            o->job_maxp[job] = p;
        int wi = gpu >= 0 ? o->nsynth + gpu * o->nworkers_per_gpu + slot : slot;
        o->worker_busy[wi] += len;
        if (gpu >= 0) {
            o->job_gpu[job] += len;
            for (int c = t; c < t + len; c++)
                o->busy[gpu][c] = 1;
            if (o->gpu_lo < 0 || t < o->gpu_lo)
                o->gpu_lo = t;
            if (t + len > o->gpu_hi)
                o->gpu_hi = t + len;
        } else {
            o->job_synth[job] += len;
        }
        t += len + min_gap + (int)rndu(rndu(4) == 0 ? 900 : 60);
    }
}

static int near(double a, double b) {
    return fabs(a - b) < 1e-6;
}

static void check_svg(const char *svg, size_t len, const cz_timeline *tl, size_t ngaps);

static void test_analysis_random(int round) {
    static oracle o;
    memset(&o, 0, sizeof o);
    o.ngpus = 1 + (int)rndu(3);
    o.nworkers_per_gpu = 1 + (int)rndu(3);
    o.nsynth = 1 + (int)rndu(4);
    o.njobs = 1 + (int)rndu(MAX_JOBS);
    o.gpu_lo = -1;
    for (int j = 0; j < o.njobs; j++)
        o.job_first[j] = -1, o.job_done[j] = 0, o.job_maxp[j] = -1;
    int shuffled = round % 2; /* lines out of order: then no two events of a worker share a time */
    size_t n = 0;
    for (int s = 0; s < o.nsynth; s++)
        gen_worker(&n, &o, -1, s, shuffled);
    for (int g = 0; g < o.ngpus; g++)
        for (int w = 0; w < o.nworkers_per_gpu; w++)
            gen_worker(&n, &o, g, w, shuffled);
    int run_lo = T_MAX, run_hi = 0;
    for (size_t i = 0; i < n; i++) {
        run_lo = evs[i].t < run_lo ? evs[i].t : run_lo;
        run_hi = evs[i].t > run_hi ? evs[i].t : run_hi;
    }
    for (int j = 0; j < o.njobs; j++) {
        if (o.job_first[j] < 0)
            continue; /* a job with no interval has no lines */
        o.job_done[j] += (int)rndu(50);
        add_ev(&n, o.job_done[j], "TIMELINE,%d.000,DONE,job%d,", o.job_done[j], j);
        run_hi = o.job_done[j] > run_hi ? o.job_done[j] : run_hi;
    }
    if (shuffled) {
        for (size_t i = n; i > 1; i--) {
            size_t k = rndu((unsigned)i);
            ev tmp = evs[i - 1];
            evs[i - 1] = evs[k];
            evs[k] = tmp;
        }
    } else {
        qsort(evs, n, sizeof evs[0], cmp_ev);
    }
    /* The log, with unrelated lines among the records. */
    size_t cap = n * 100 + 1000, len = 0;
    char *text = malloc(cap);
    for (size_t i = 0; i < n; i++) {
        if (rndu(8) == 0)
            len += (size_t)snprintf(text + len, cap - len, "%s\n",
                                    rndu(2) ? "2026-01-01T00:00:00.000Z INFO  srs: loaded"
                                            : "noise STAGE,1,2 xTIMELINE,3,DONE,j,");
        len += (size_t)snprintf(text + len, cap - len, "%s\n", evs[i].text);
    }
    cz_timeline *tl = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = cz_timeline_parse(&tl, text, len, "random", &ei);
    CHECK_ERR(rc, CZ_OK);
    if (rc != CZ_OK) {
        fprintf(stderr, "round %d: %s\n", round, ei.msg);
        free(text);
        return;
    }
    CHECK(near(tl->run_start_ms, run_lo) && near(tl->run_end_ms, run_hi));
    CHECK_EQ_INT(tl->ngpus, (size_t)o.ngpus);
    CHECK_EQ_INT(tl->nworkers, (size_t)(o.nsynth + o.ngpus * o.nworkers_per_gpu));
    if (o.gpu_lo >= 0)
        CHECK(near(tl->steady_start_ms, o.gpu_lo) && near(tl->steady_end_ms, o.gpu_hi));
    size_t total_gaps = 0;
    for (int g = 0; g < o.ngpus && (size_t)g < tl->ngpus; g++) {
        const cz_timeline_gpu *gp = &tl->gpus[g];
        long busy = 0, busy_steady = 0, ngaps = 0, gap_total = 0, gap_max = 0, run = 0;
        long nshort = 0, nmid = 0, nlong = 0;
        int first = -1, last = -1;
        for (int c = 0; c < T_MAX + 1000; c++) {
            if (!o.busy[g][c])
                continue;
            busy++;
            busy_steady += c >= o.gpu_lo && c < o.gpu_hi;
            first = first < 0 ? c : first;
            last = c;
        }
        for (int c = first; first >= 0 && c <= last + 1; c++) {
            if (c <= last && !o.busy[g][c]) {
                run++;
                continue;
            }
            if (run > 0) {
                ngaps++;
                gap_total += run;
                gap_max = run > gap_max ? run : gap_max;
                nshort += run < 50;
                nmid += run >= 50 && run <= 500;
                nlong += run > 500;
            }
            run = 0;
        }
        CHECK(gp->gpu == g && gp->nworkers == (size_t)o.nworkers_per_gpu);
        CHECK(near(gp->busy_ms_run, (double)busy));
        CHECK(near(gp->busy_ms_steady, (double)busy_steady));
        CHECK(near(gp->busy_pct_run, 100.0 * (double)busy / (run_hi - run_lo)));
        if (o.gpu_hi > o.gpu_lo)
            CHECK(near(gp->busy_pct_steady, 100.0 * (double)busy_steady / (o.gpu_hi - o.gpu_lo)));
        CHECK_EQ_INT(gp->ngaps, (size_t)ngaps);
        CHECK(near(gp->gap_ms_total, (double)gap_total) && near(gp->gap_ms_max, (double)gap_max));
        CHECK(gp->ngaps_short == (size_t)nshort && gp->ngaps_mid == (size_t)nmid &&
              gp->ngaps_long == (size_t)nlong);
        total_gaps += gp->ngaps;
    }
    /* Workers in lane order: synth0.., then gpu0.0, gpu0.1, .., gpu1.0, ... */
    for (size_t k = 0; k < tl->nworkers; k++) {
        const cz_timeline_worker *w = &tl->workers[k];
        int synth = k < (size_t)o.nsynth;
        CHECK_EQ_INT(w->kind, (synth ? CZ_TL_WORKER_SYNTH : CZ_TL_WORKER_GPU));
        if (!synth)
            CHECK(w->gpu == (int)(k - (size_t)o.nsynth) / o.nworkers_per_gpu &&
                  w->slot == (int)(k - (size_t)o.nsynth) % o.nworkers_per_gpu);
        CHECK(near(w->busy_ms, (double)o.worker_busy[k]));
        for (size_t i = 1; i < w->nintervals; i++) /* sorted, non-overlapping */
            CHECK(tl->intervals[w->first + i].start_ms >= tl->intervals[w->first + i - 1].end_ms);
    }
    for (size_t j = 0; j < tl->njobs; j++) {
        const cz_timeline_job *job = &tl->jobs[j];
        int id = atoi(job->id + 3);
        CHECK_EQ_INT(job->state, CZ_TL_JOB_DONE);
        CHECK(near(job->first_ms, o.job_first[id]) && near(job->end_ms, o.job_done[id]));
        CHECK(near(job->wall_ms, o.job_done[id] - o.job_first[id]));
        CHECK(near(job->synth_ms, (double)o.job_synth[id]) &&
              near(job->gpu_ms, (double)o.job_gpu[id]));
        CHECK_EQ_INT(job->npartitions, o.job_maxp[id] + 1);
    }

    /* The picture of the same log. */
    char *svg = NULL;
    size_t svg_len = 0;
    FILE *mf = open_memstream(&svg, &svg_len);
    cz_timeline_svg_opts opts = {.width_px = 900 + (int)rndu(600)};
    CHECK_ERR(cz_timeline_render_svg(mf, tl, round % 3 ? &opts : NULL, &ei), CZ_OK);
    fclose(mf);
    check_svg(svg, svg_len, tl, total_gaps);
    free(svg);
    cz_timeline_free(tl);
    free(text);
}

/* FAILED with w= ends the worker's interval; open intervals are cut at the end of the log. */
static void test_failed_and_open(void) {
    const char *log = "TIMELINE,0.000,GPU_START,a,p=0,w=gpu0.0\n"
                      "TIMELINE,5.000,GPU_START,b,p=1,w=gpu0.1\n"
                      "TIMELINE,10.000,FAILED,a,w=gpu0.0,msg=out of memory, retry later\n"
                      "TIMELINE,20.000,GPU_START,c,p=2,w=gpu0.0\n"
                      "TIMELINE,40.000,CANCELLED,b,\n";
    cz_timeline *tl = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_timeline_parse(&tl, log, strlen(log), "f", &ei), CZ_OK);
    if (tl == NULL)
        return;
    CHECK(tl->nintervals == 3 && tl->njobs == 3 && tl->njobs_failed == 2);
    const cz_timeline_interval *iv = tl->intervals; /* gpu0.0: a, c; gpu0.1: b */
    CHECK(iv[0].failed && !iv[0].open && near(iv[0].end_ms, 10));
    CHECK(iv[1].open && near(iv[1].start_ms, 20) && near(iv[1].end_ms, 40));
    CHECK(iv[2].open && near(iv[2].start_ms, 5) && near(iv[2].end_ms, 40)); /* no w= on CANCELLED */
    CHECK(tl->jobs[0].state == CZ_TL_JOB_FAILED && tl->jobs[1].state == CZ_TL_JOB_CANCELLED);
    CHECK(tl->jobs[2].state == CZ_TL_JOB_OPEN && near(tl->jobs[2].wall_ms, 0));
    /* union [0,10] u [5,40] u [20,40] = [0,40]: fully busy, no gap */
    CHECK(near(tl->gpus[0].busy_ms_run, 40) && tl->gpus[0].ngaps == 0);
    cz_timeline_free(tl);
}

/* ---- malformed input ----------------------------------------------------------------------- */

static void test_malformed(void) {
    static const struct {
        const char *text;
        int line;
        const char *what;
    } cases[] = {
        {"TIMELINE,abc,DONE,j,\n", 1, "time"},
        {"x\nTIMELINE,-1,DONE,j,\n", 2, "time"},
        {"x\ny\nTIMELINE,nan,DONE,j,\n", 3, "time"},
        {"TIMELINE,inf,DONE,j,\n", 1, "time"},
        {"TIMELINE,1e999,DONE,j,\n", 1, "time"},
        {"TIMELINE,2e12,DONE,j,\n", 1, "time"},
        {"TIMELINE,,DONE,j,\n", 1, "time"},
        {"TIMELINE,1,DONE,j\n", 1, "fields"},
        {"TIMELINE,1\n", 1, "fields"},
        {"TIMELINE,\n", 1, "fields"},
        {"ok\nTIMELINE,1,BOGUS,j,\n", 2, "unknown event"},
        {"TIMELINE,1,DONE,,\n", 1, "job"},
        {"TIMELINE,1,SYNTH_START,j,p=x,w=synth0\n", 1, "partition"},
        {"TIMELINE,1,SYNTH_START,j,p=99999,w=synth0\n", 1, "partition"},
        {"TIMELINE,1,SYNTH_START,j,p=1,w=\n", 1, "worker"},
        {"TIMELINE,1,SYNTH_START,j,p=1\n", 1, "w=<worker>"},
        {"TIMELINE,1,SYNTH_END,j,p=1,w=synth0\n", 1, "without a start"},
        {"TIMELINE,1,GPU_START,j,p=1,w=gpu0\n", 1, "gpu<G>.<W>"},
        {"TIMELINE,1,GPU_START,j,p=1,w=gpuX.1\n", 1, "gpu<G>.<W>"},
        {"TIMELINE,1,GPU_START,j,p=1,w=gpu0.0\nTIMELINE,2,GPU_START,j,p=2,w=gpu0.0\n", 2, "line 1"},
        {"TIMELINE,1,GPU_START,j,p=1,w=gpu0.0\n\nTIMELINE,2,GPU_END,k,p=1,w=gpu0.0\n", 3,
         "another job"},
        {"TIMELINE,1,GPU_START,j,p=1,w=gpu0.0\nTIMELINE,2,GPU_END,j,p=2,w=gpu0.0\n", 2,
         "another partition"},
        {"TIMELINE,1,SYNTH_START,j,p=1,w=gpu0.0\n", 1, "named like a GPU worker"},
        {"TIMELINE,1,GPU_START,j,p=1,w=synth0\n", 1, "gpu<G>.<W>"},
        {"TIMELINE,1,SYNTH_START,j,p=1,w=s0\nTIMELINE,2,GPU_START,j,p=1,w=s0\n", 2,
         "synthesis worker"},
        {"TIMELINE,1,STAGE,j,p=1,stage=ntt_h\n", 1, "dur="},
        {"TIMELINE,1,STAGE,j,p=1,stage=warp,dur=1\n", 1, "unknown stage"},
        {"TIMELINE,1,STAGE,j,p=1,stage=prep,dur=-3\n", 1, "duration"},
        {"2026 INFO  TIMELINE,1,DONE,j,\n2026 INFO  TIMELINE,x,DONE,j,\n", 2, "time"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cz_timeline *tl = NULL;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        char want[64];
        snprintf(want, sizeof want, "bad.log:%d: ", cases[i].line);
        int rc = cz_timeline_parse(&tl, cases[i].text, strlen(cases[i].text), "bad.log", &ei);
        int ok = rc == CZ_EFORMAT && tl == NULL && strstr(ei.msg, want) != NULL &&
                 strstr(ei.msg, cases[i].what) != NULL;
        if (!ok)
            fprintf(stderr, "case %zu: rc %d msg '%s'\n", i, rc, ei.msg);
        CHECK(ok);
    }
    /* A long line, a NUL byte. */
    char longl[700];
    memset(longl, 'j', sizeof longl);
    memcpy(longl, "TIMELINE,1,DONE,", 16);
    longl[sizeof longl - 2] = ',';
    longl[sizeof longl - 1] = '\n';
    cz_timeline *tl = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_timeline_parse(&tl, longl, sizeof longl, "long", &ei), CZ_EFORMAT);
    CHECK(strstr(ei.msg, "long:1: ") != NULL);
    static const char nul[] = "TIMELINE,1,DONE,j\0x,\n";
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_timeline_parse(&tl, nul, sizeof nul - 1, "nul", &ei), CZ_EFORMAT);
    CHECK(strstr(ei.msg, "nul:1: ") != NULL);
    /* A missing file. */
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_timeline_read(&tl, "/nonexistent/timeline.log", &ei), CZ_EIO);
    /* No records at all: an empty timeline, not an error. */
    CHECK_ERR(cz_timeline_parse(&tl, "hello\n", 6, "empty", &ei), CZ_OK);
    if (tl != NULL)
        CHECK(tl->nevents == 0 && tl->nintervals == 0 && tl->nlines == 1);
    cz_timeline_free(tl);
}

/* Random mutations of a valid log: parse succeeds or fails with a located message. */
static void test_mutations(void) {
    static const char base[] = "TIMELINE,0.000,SYNTH_START,j1,p=0,w=synth0\n"
                               "TIMELINE,10.500,SYNTH_END,j1,p=0,w=synth0,synth_ms=10.5\n"
                               "TIMELINE,11.000,GPU_START,j1,p=0,w=gpu0.0\n"
                               "2026-01-01 INFO  TIMELINE,12.000,GPU_START,j2,p=1,w=gpu0.1\n"
                               "TIMELINE,13.000,STAGE,j1,p=0,w=gpu0.0,stage=ntt_h,dur=2.0\n"
                               "TIMELINE,20.000,GPU_END,j1,p=0,w=gpu0.0\n"
                               "TIMELINE,30.000,GPU_END,j2,p=1,w=gpu0.1\n"
                               "TIMELINE,31.000,DONE,j1,\n";
    static const char alphabet[] = ",=.\n 0123456789TIMELINE_GPUSTARpw-\r";
    char buf[sizeof base + 64];
    size_t nok = 0, nerr = 0, bad = 0;
    for (int it = 0; it < 3000; it++) {
        size_t len = sizeof base - 1;
        memcpy(buf, base, len);
        for (int m = 1 + (int)rndu(4); m > 0; m--) {
            size_t at = rndu((unsigned)len);
            switch (rndu(4)) {
            case 0:
                buf[at] = alphabet[rndu(sizeof alphabet - 1)];
                break;
            case 1:
                buf[at] = (char)rndu(256);
                break;
            case 2: /* delete */
                memmove(buf + at, buf + at + 1, len - at - 1);
                len--;
                break;
            default: /* truncate */
                len = at;
            }
            if (len == 0)
                break;
        }
        cz_timeline *tl = NULL;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        int rc = cz_timeline_parse(&tl, buf, len, "mut", &ei);
        if (rc == CZ_OK) {
            nok++;
            bad += tl == NULL;
            char *svg = NULL;
            size_t svg_len = 0;
            FILE *mf = open_memstream(&svg, &svg_len);
            bad += cz_timeline_render_svg(mf, tl, NULL, &ei) != CZ_OK;
            fclose(mf);
            free(svg);
        } else {
            nerr++;
            bad += rc != CZ_EFORMAT || tl != NULL || strncmp(ei.msg, "mut:", 4) != 0;
        }
        cz_timeline_free(tl);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(nok > 0 && nerr > 0); /* both outcomes were exercised */
}

/* ---- SVG ------------------------------------------------------------------------------------ */

static size_t count(const char *s, const char *sub) {
    size_t n = 0;
    for (const char *p = strstr(s, sub); p != NULL; p = strstr(p + 1, sub))
        n++;
    return n;
}

/* Balanced tags (a stack of names), attribute numbers that parse, rect counts. */
static void check_svg(const char *svg, size_t len, const cz_timeline *tl, size_t ngaps) {
    CHECK(strncmp(svg, "<?xml", 5) == 0);
    CHECK(len > 8 && strcmp(svg + len - 7, "</svg>\n") == 0);
    CHECK_EQ_INT(strlen(svg), len);
    char stack[32][16];
    int depth = 0, bad = 0, nroot = 0;
    for (const char *p = strchr(svg, '<'); p != NULL; p = strchr(p + 1, '<')) {
        const char *gt = strchr(p, '>');
        if (gt == NULL) {
            bad++;
            break;
        }
        if (p[1] == '?')
            continue;
        char name[16] = {0};
        if (p[1] == '/') {
            sscanf(p + 2, "%15[a-z]", name);
            if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
                bad++;
            else
                depth--;
            continue;
        }
        sscanf(p + 1, "%15[a-z]", name);
        if (name[0] == '\0')
            bad++;
        nroot += depth == 0;
        for (const char *q = p; q < gt; q++) /* no stray '<' inside a tag */
            if (q != p && *q == '<')
                bad++;
        if (gt[-1] != '/') {
            if (depth == 32)
                bad++;
            else
                snprintf(stack[depth++], sizeof stack[0], "%s", name);
        }
        static const char *const attrs[] = {" x=\"", " y=\"", " width=\"", " height=\""};
        for (size_t a = 0; a < 4; a++) {
            const char *v = strstr(p, attrs[a]);
            if (v == NULL || v > gt)
                continue;
            char *end;
            double x = strtod(v + strlen(attrs[a]), &end);
            if (*end != '"' || !isfinite(x) || x < 0 ||
                (a >= 2 && strcmp(name, "rect") == 0 && x <= 0))
                bad++;
        }
    }
    CHECK(bad == 0 && depth == 0 && nroot == 1);
    CHECK_EQ_INT(count(svg, "<rect class=\"iv\""), tl->nintervals);
    CHECK_EQ_INT(count(svg, "<rect class=\"gap\""), ngaps);
    CHECK_EQ_INT(count(svg, "<title>"), tl->nintervals + ngaps);
}

/* xmllint, when installed, must accept the picture. */
static void xmllint_check(const char *svg, size_t len) {
    if (system("command -v xmllint >/dev/null 2>&1") != 0)
        return;
    char path[] = "/tmp/cz_timeline_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return;
    CHECK_EQ_INT(write(fd, svg, len), (ssize_t)len);
    close(fd);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "xmllint --noout %s", path);
    CHECK_EQ_INT(system(cmd), 0);
    unlink(path);
}

static void test_svg_specials_and_opts(void) {
    const char *log = "TIMELINE,0,SYNTH_START,a<b&c\"d>,p=0,w=synth0\n"
                      "TIMELINE,5,SYNTH_END,a<b&c\"d>,p=0,w=synth0\n"
                      "TIMELINE,6,GPU_START,a<b&c\"d>,p=0,w=gpu0.0\n"
                      "TIMELINE,7,GPU_START,\xc3\xa9t\xc3,p=12,w=gpu0.1\n"
                      "TIMELINE,9,GPU_END,a<b&c\"d>,p=0,w=gpu0.0\n"
                      "TIMELINE,19,GPU_END,\xc3\xa9t\xc3,p=12,w=gpu0.1\n"
                      "TIMELINE,20,GPU_START,a<b&c\"d>,p=1,w=gpu0.0\n"
                      "TIMELINE,21,DONE,\xc3\xa9t\xc3,\n";
    cz_timeline *tl = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_timeline_parse(&tl, log, strlen(log), "sp", &ei), CZ_OK);
    if (tl == NULL)
        return;
    char *svg = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&svg, &len);
    cz_timeline_svg_opts o = {.title = "x<y", .lane_px = 30};
    CHECK_ERR(cz_timeline_render_svg(mf, tl, &o, &ei), CZ_OK);
    fclose(mf);
    check_svg(svg, len, tl, tl->gpus[0].ngaps);
    CHECK(strstr(svg, "a&lt;b&amp;c&quot;d&gt;") != NULL && strstr(svg, "x&lt;y") != NULL);
    xmllint_check(svg, len);
    free(svg);

    /* A window: only the intervals that reach into it are drawn. */
    mf = open_memstream(&svg, &len);
    o = (cz_timeline_svg_opts){.from_ms = 10, .to_ms = 15};
    CHECK_ERR(cz_timeline_render_svg(mf, tl, &o, &ei), CZ_OK);
    fclose(mf);
    CHECK_EQ_INT(count(svg, "<rect class=\"iv\""), 1); /* the gpu0.1 interval 7..19 */
    free(svg);

    cz_timeline_free(tl);

    /* One record far from 0: the drawn window cannot be 1 ms wide there (below an ulp). */
    static const char far[] = "TIMELINE,999999999999.5,DONE,j,\n";
    CHECK_ERR(cz_timeline_parse(&tl, far, sizeof far - 1, "far", &ei), CZ_OK);
    if (tl == NULL)
        return;
    mf = open_memstream(&svg, &len);
    CHECK_ERR(cz_timeline_render_svg(mf, tl, NULL, &ei), CZ_OK);
    fclose(mf);
    check_svg(svg, len, tl, 0);
    free(svg);

    FILE *devnull = fopen("/dev/null", "w");
    o = (cz_timeline_svg_opts){.width_px = 10};
    CHECK_ERR(cz_timeline_render_svg(devnull, tl, &o, &ei), CZ_EINVAL);
    o = (cz_timeline_svg_opts){.from_ms = 5, .to_ms = 1};
    CHECK_ERR(cz_timeline_render_svg(devnull, tl, &o, &ei), CZ_EINVAL);
    o = (cz_timeline_svg_opts){.to_ms = NAN};
    CHECK_ERR(cz_timeline_render_svg(devnull, tl, &o, &ei), CZ_EINVAL);
    CHECK_ERR(cz_timeline_render_svg(NULL, tl, NULL, &ei), CZ_EINVAL);
    fclose(devnull);
    cz_timeline_free(tl);
}

static void test_cmd(void) {
    char logp[] = "/tmp/cz_tl_log_XXXXXX", svgp[64];
    int fd = mkstemp(logp);
    if (fd < 0)
        return;
    static const char log[] = "TIMELINE,0,GPU_START,j,p=0,w=gpu0.0\n"
                              "TIMELINE,1500,GPU_END,j,p=0,w=gpu0.0\n"
                              "TIMELINE,1600,DONE,j,\n";
    CHECK_EQ_INT(write(fd, log, sizeof log - 1), (ssize_t)(sizeof log - 1));
    close(fd);
    snprintf(svgp, sizeof svgp, "%s.svg", logp);
    char *ok[] = {"timeline", logp, "-q", "-o", svgp, "--width", "800", NULL};
    CHECK_EQ_INT(cz_timeline_cmd(7, ok), 0);
    FILE *f = fopen(svgp, "r");
    CHECK(f != NULL);
    if (f != NULL) {
        size_t len;
        fseek(f, 0, SEEK_END);
        char *svg = slurp(f, &len);
        CHECK_EQ_INT(count(svg, "<rect class=\"iv\""), 1);
        free(svg);
        fclose(f);
    }
    char *usage[] = {"timeline", NULL};
    CHECK_EQ_INT(cz_timeline_cmd(1, usage), 2);
    char *badopt[] = {"timeline", logp, "--width", "x", NULL};
    CHECK_EQ_INT(cz_timeline_cmd(4, badopt), 2);
    char *missing[] = {"timeline", "/nonexistent/log", "-q", NULL};
    CHECK_EQ_INT(cz_timeline_cmd(3, missing), 3);
    unlink(svgp);
    unlink(logp);
}

static void test_analysis(void) {
    for (int round = 0; round < 40; round++)
        test_analysis_random(round);
}

static const test_case cases[] = {
    {"emitter_threads", test_emitter_threads},
    {"emitter_sink_and_off", test_emitter_sink_and_off},
    {"analysis", test_analysis},
    {"failed_and_open", test_failed_and_open},
    {"malformed", test_malformed},
    {"mutations", test_mutations},
    {"svg_specials_and_opts", test_svg_specials_and_opts},
    {"cmd", test_cmd},
};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
