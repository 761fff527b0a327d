/*
 * Timeline reader and analyzer (include/cuzk/timeline.h): the reading half.
 *
 * Pass 1 reads the text line by line. A line holds a record when "TIMELINE," starts the line or
 * follows a space (the log's "<timestamp> INFO  " prefix); every other line is skipped. A record
 * is split into its fields and checked strictly (time, event name, job, known detail keys); the
 * first bad record fails the whole read with "name:LINE: what". Jobs and workers are interned
 * through a small open-addressing hash table, so a long log costs O(lines).
 *
 * Pass 2 sorts the records by time (stable: ties keep file order, which is the emitter's order)
 * and pairs START/END per worker into intervals; an END without its START, a START on a busy
 * worker or an END for another job than the open one is an error naming both lines. FAILED and
 * CANCELLED with w= end that worker's open interval. Intervals still open at the end of the log
 * are cut at its last time and marked open.
 *
 * Pass 3 orders the workers (synthesis by number, then GPU workers by GPU and slot), groups the
 * intervals by worker, and computes per worker, per job and per GPU figures. A GPU's busy time
 * is the length of the union of its workers' GPU intervals (sort by start, merge); its gaps are
 * the holes between the merged intervals. Costs: O(n log n) in the number of records.
 *
 * Ownership: the cz_timeline and its arrays are one allocation each, freed by cz_timeline_free.
 */
#include "cuzk/timeline.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELD 256  /* longest time, event, job or detail item accepted */
#define MAX_INDEX 4095 /* largest GPU, slot or partition number accepted */

typedef struct rec {
    double t, dur;
    size_t line;
    size_t job;
    long worker; /* interned worker name, or -1 */
    int ev, partition, stage;
} rec;

/* Interned names: an array of names plus an open-addressing table of indexes + 1. */
typedef struct names {
    char (*name)[80];
    size_t n, cap;
    size_t *slot;
    size_t nslots; /* power of two, at least 2 * cap */
} names;

typedef struct wtmp {
    int kind; /* -1 unknown (only PICKUP/STAGE seen), else cz_timeline_worker_kind */
    int gpu, slot;
    long open; /* index of its open interval, or -1 */
    size_t open_line;
} wtmp;

typedef struct state {
    const char *name;
    cz_errinfo *ei;
    rec *recs;
    size_t nrecs, caprecs;
    names jobs, workers;
} state;

static uint64_t hash_str(const char *s) {
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (; *s != '\0'; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap)
        return CZ_OK;
    size_t ncap = *cap != 0 ? *cap : 16;
    while (ncap < need)
        ncap *= 2;
    void *q = realloc(*p, ncap * elem);
    if (q == NULL)
        return CZ_ENOMEM;
    *p = q;
    *cap = ncap;
    return CZ_OK;
}

/* The index of s (shorter than 80 bytes) in nm, adding it when new; -1 when out of memory. */
static long intern(names *nm, const char *s) {
    if (nm->n * 2 >= nm->nslots) {
        size_t ns = nm->nslots != 0 ? nm->nslots * 2 : 64;
        size_t *slot = calloc(ns, sizeof *slot);
        if (slot == NULL)
            return -1;
        for (size_t i = 0; i < nm->n; i++) {
            size_t h = (size_t)hash_str(nm->name[i]) & (ns - 1);
            while (slot[h] != 0)
                h = (h + 1) & (ns - 1);
            slot[h] = i + 1;
        }
        free(nm->slot);
        nm->slot = slot;
        nm->nslots = ns;
    }
    size_t h = (size_t)hash_str(s) & (nm->nslots - 1);
    for (; nm->slot[h] != 0; h = (h + 1) & (nm->nslots - 1))
        if (strcmp(nm->name[nm->slot[h] - 1], s) == 0)
            return (long)(nm->slot[h] - 1);
    if (grow((void **)&nm->name, &nm->cap, nm->n + 1, sizeof nm->name[0]) != CZ_OK)
        return -1;
    snprintf(nm->name[nm->n], sizeof nm->name[0], "%s", s);
    nm->slot[h] = nm->n + 1;
    return (long)nm->n++;
}

static void names_free(names *nm) {
    free(nm->name);
    free(nm->slot);
}

/* A finite number >= 0 from the whole of s. */
static int parse_nonneg(double *v, const char *s) {
    char *end;
    if (*s == '\0' || *s == ' ' || *s == '+' || *s == '-')
        return 0;
    errno = 0;
    *v = strtod(s, &end);
    return *end == '\0' && errno == 0 && isfinite(*v) && *v >= 0.0;
}

/* A decimal integer 0..MAX_INDEX from s[0..len). */
static int parse_index(int *v, const char *s, size_t len) {
    if (len == 0 || len > 4)
        return 0;
    int x = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        x = x * 10 + (s[i] - '0');
    }
    if (x > MAX_INDEX)
        return 0;
    *v = x;
    return 1;
}

/* Names a GPU worker "gpu<G>.<W>" gives G and W. */
static int parse_gpu_worker(int *gpu, int *slot, const char *s) {
    if (strncmp(s, "gpu", 3) != 0)
        return 0;
    const char *dot = strchr(s + 3, '.');
    return dot != NULL && parse_index(gpu, s + 3, (size_t)(dot - (s + 3))) &&
           parse_index(slot, dot + 1, strlen(dot + 1));
}

/* The trailing number of a synthesis worker's name, or -1. */
static int trailing_number(const char *s) {
    size_t n = strlen(s), i = n;
    while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
        i--;
    int v;
    return parse_index(&v, s + i, n - i) ? v : -1;
}

/* Copies field [s, s+len) into buf (MAX_FIELD bytes); 0 when too long. */
static int take(char *buf, const char *s, size_t len) {
    if (len >= MAX_FIELD)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return 1;
}

/* Parses one record: rec[len] is the text after "TIMELINE,". */
static int parse_record(state *st, const char *r, size_t len, size_t line) {
    char f[3][MAX_FIELD];
    const char *what[3] = {"time", "event", "job"};
    size_t pos = 0;
    for (int i = 0; i < 3; i++) {
        const char *c = memchr(r + pos, ',', len - pos);
        if (c == NULL)
            return cz_fail(
                st->ei, CZ_EFORMAT,
                "%s:%zu: TIMELINE line has only %d of its 4 fields (ms,EVENT,job,detail)", st->name,
                line, i + 1);
        if (!take(f[i], r + pos, (size_t)(c - (r + pos))))
            return cz_fail(st->ei, CZ_EFORMAT, "%s:%zu: %s field longer than %d bytes", st->name,
                           line, what[i], MAX_FIELD - 1);
        pos = (size_t)(c - r) + 1;
    }
    rec rc = {.line = line, .worker = -1, .ev = -1, .partition = -1, .stage = -1, .dur = -1.0};
    if (!parse_nonneg(&rc.t, f[0]))
        return cz_fail(st->ei, CZ_EFORMAT, "%s:%zu: time '%s' is not a number of ms >= 0", st->name,
                       line, f[0]);
    for (int e = 0; e < CZ_TL_NEVENTS; e++)
        if (strcmp(f[1], cz_timeline_event_name((cz_timeline_event)e)) == 0)
            rc.ev = e;
    if (rc.ev < 0)
        return cz_fail(st->ei, CZ_EFORMAT, "%s:%zu: unknown event '%s'", st->name, line, f[1]);
    if (f[2][0] == '\0' || strlen(f[2]) >= sizeof st->jobs.name[0])
        return cz_fail(st->ei, CZ_EFORMAT, "%s:%zu: job id is empty or longer than %zu bytes",
                       st->name, line, sizeof st->jobs.name[0] - 1);
    for (const char *c = f[2]; *c != '\0'; c++)
        if ((unsigned char)*c <= ' ')
            return cz_fail(st->ei, CZ_EFORMAT, "%s:%zu: job id '%s' contains white space", st->name,
                           line, f[2]);

    /* The detail: key=value items; unknown keys and items without '=' are free text. */
    while (pos < len) {
        const char *c = memchr(r + pos, ',', len - pos);
        size_t end = c != NULL ? (size_t)(c - r) : len;
        const char *item = r + pos;
        size_t ilen = end - pos;
        pos = end + 1;
        const char *eq = memchr(item, '=', ilen);
        if (eq == NULL)
            continue;
        size_t klen = (size_t)(eq - item);
        const char *v = eq + 1;
        size_t vlen = ilen - klen - 1;
        char buf[MAX_FIELD];
        if ((klen == 1 && item[0] == 'p') || (klen == 9 && memcmp(item, "partition", 9) == 0)) {
            if (!parse_index(&rc.partition, v, vlen))
                return cz_fail(st->ei, CZ_EFORMAT, "%s:%zu: partition '%.*s' is not 0..%d",
                               st->name, line, (int)(vlen < 40 ? vlen : 40), v, MAX_INDEX);
        } else if ((klen == 1 && item[0] == 'w') || (klen == 6 && memcmp(item, "worker", 6) == 0)) {
            if (vlen == 0 || vlen >= sizeof(((cz_timeline_worker *)0)->name))
                return cz_fail(st->ei, CZ_EFORMAT, "%s:%zu: worker name empty or over %zu bytes",
                               st->name, line, sizeof(((cz_timeline_worker *)0)->name) - 1);
            memcpy(buf, v, vlen);
            buf[vlen] = '\0';
            for (size_t i = 0; i < vlen; i++)
                if ((unsigned char)buf[i] <= ' ')
                    return cz_fail(st->ei, CZ_EFORMAT, "%s:%zu: worker name has white space",
                                   st->name, line);
            rc.worker = intern(&st->workers, buf);
            if (rc.worker < 0)
                return cz_fail(st->ei, CZ_ENOMEM, "%s: out of memory", st->name);
        } else if (rc.ev == CZ_TL_STAGE && klen == 5 && memcmp(item, "stage", 5) == 0) {
            for (int s = 0; s < CZ_TL_NSTAGES; s++) {
                const char *sn = cz_timeline_stage_name((cz_timeline_stage)s);
                if (strlen(sn) == vlen && memcmp(sn, v, vlen) == 0)
                    rc.stage = s;
            }
            if (rc.stage < 0)
                return cz_fail(st->ei, CZ_EFORMAT, "%s:%zu: unknown stage '%.*s'", st->name, line,
                               (int)(vlen < 40 ? vlen : 40), v);
        } else if (rc.ev == CZ_TL_STAGE && klen == 3 && memcmp(item, "dur", 3) == 0) {
            if (!take(buf, v, vlen) || !parse_nonneg(&rc.dur, buf))
                return cz_fail(st->ei, CZ_EFORMAT, "%s:%zu: stage duration '%.*s' is not ms >= 0",
                               st->name, line, (int)(vlen < 40 ? vlen : 40), v);
        }
    }
    if (rc.ev == CZ_TL_STAGE && (rc.stage < 0 || rc.dur < 0.0))
        return cz_fail(st->ei, CZ_EFORMAT, "%s:%zu: STAGE line needs stage= and dur=", st->name,
                       line);
    long j = intern(&st->jobs, f[2]);
    if (j < 0 || grow((void **)&st->recs, &st->caprecs, st->nrecs + 1, sizeof *st->recs) != CZ_OK)
        return cz_fail(st->ei, CZ_ENOMEM, "%s: out of memory", st->name);
    rc.job = (size_t)j;
    st->recs[st->nrecs++] = rc;
    return CZ_OK;
}

static int cmp_rec(const void *a, const void *b) {
    const rec *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Sorting context for workers and intervals (qsort has no user pointer). */
typedef struct wsort {
    size_t index;
    int kind, gpu, slot;
    const char *name;
} wsort;

static int cmp_worker(const void *a, const void *b) {
    const wsort *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->gpu != y->gpu)
        return x->gpu < y->gpu ? -1 : 1;
    if (x->slot != y->slot)
        return x->slot < y->slot ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int cmp_interval(const void *a, const void *b) {
    const cz_timeline_interval *x = a, *y = b;
    if (x->worker != y->worker)
        return x->worker < y->worker ? -1 : 1;
    if (x->start_ms != y->start_ms)
        return x->start_ms < y->start_ms ? -1 : 1;
    return (x->end_ms > y->end_ms) - (x->end_ms < y->end_ms);
}

typedef struct span {
    double a, b;
} span;

static int cmp_span(const void *a, const void *b) {
    const span *x = a, *y = b;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    return (x->b > y->b) - (x->b < y->b);
}

/* Per GPU: the union of its intervals, busy times and gaps. sp has room for all intervals. */
static void analyze_gpu(cz_timeline_gpu *g, const cz_timeline *tl, span *sp) {
    size_t n = 0;
    for (size_t i = 0; i < tl->nintervals; i++) {
        const cz_timeline_worker *w = &tl->workers[tl->intervals[i].worker];
        /* A zero-length interval is an instant: it neither adds busy time nor splits a gap. */
        if (w->kind == CZ_TL_WORKER_GPU && w->gpu == g->gpu &&
            tl->intervals[i].end_ms > tl->intervals[i].start_ms)
            sp[n++] = (span){tl->intervals[i].start_ms, tl->intervals[i].end_ms};
    }
    qsort(sp, n, sizeof *sp, cmp_span);
    double lo = tl->steady_start_ms, hi = tl->steady_end_ms;
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        span u = sp[i++];
        while (i < n && sp[i].a <= u.b) {
            if (sp[i].b > u.b)
                u.b = sp[i].b;
            i++;
        }
        g->busy_ms_run += u.b - u.a;
        double a = u.a > lo ? u.a : lo, b = u.b < hi ? u.b : hi;
        if (b > a)
            g->busy_ms_steady += b - a;
        if (k > 0) {
            double gap = u.a - sp[k - 1].b;
            g->ngaps++;
            g->gap_ms_total += gap;
            if (gap > g->gap_ms_max)
                g->gap_ms_max = gap;
            if (gap < 50.0)
                g->ngaps_short++;
            else if (gap <= 500.0)
                g->ngaps_mid++;
            else
                g->ngaps_long++;
        }
        sp[k++] = u; /* merged spans overwrite the prefix already consumed */
    }
    double run = tl->run_end_ms - tl->run_start_ms, steady = hi - lo;
    g->busy_pct_run = run > 0.0 ? 100.0 * g->busy_ms_run / run : 0.0;
    g->busy_pct_steady = steady > 0.0 ? 100.0 * g->busy_ms_steady / steady : 0.0;
}

static int fail_pair(state *st, const rec *r, const char *what, size_t other) {
    if (other != 0)
        return cz_fail(st->ei, CZ_EFORMAT, "%s:%zu: %s %s (see line %zu)", st->name, r->line,
                       cz_timeline_event_name((cz_timeline_event)r->ev), what, other);
    return cz_fail(st->ei, CZ_EFORMAT, "%s:%zu: %s %s", st->name, r->line,
                   cz_timeline_event_name((cz_timeline_event)r->ev), what);
}

/* Pass 2 and 3 (see the top of the file). */
static int build(state *st, cz_timeline *tl) {
    int rc = CZ_OK;
    size_t nw = st->workers.n, capiv = 0;
    wtmp *wt = calloc(nw + 1, sizeof *wt);
    wsort *ws = calloc(nw + 1, sizeof *ws);
    size_t *rank = calloc(nw + 1, sizeof *rank);
    span *sp = NULL;
    if (wt == NULL || ws == NULL || rank == NULL)
        goto nomem;
    tl->njobs = st->jobs.n;
    tl->jobs = calloc(tl->njobs + 1, sizeof *tl->jobs);
    if (tl->jobs == NULL)
        goto nomem;
    for (size_t j = 0; j < tl->njobs; j++) {
        snprintf(tl->jobs[j].id, sizeof tl->jobs[j].id, "%s", st->jobs.name[j]);
        tl->jobs[j].first_ms = -1.0;
    }
    for (size_t w = 0; w < nw; w++)
        wt[w] = (wtmp){.kind = -1, .gpu = -1, .slot = -1, .open = -1};

    if (st->nrecs > 1) /* qsort must not see the NULL of an empty array */
        qsort(st->recs, st->nrecs, sizeof *st->recs, cmp_rec);
    if (st->nrecs > 0) {
        tl->run_start_ms = st->recs[0].t;
        tl->run_end_ms = st->recs[st->nrecs - 1].t;
    }
    for (size_t i = 0; i < st->nrecs; i++) {
        const rec *r = &st->recs[i];
        cz_timeline_job *job = &tl->jobs[r->job];
        if (job->first_ms < 0.0)
            job->first_ms = r->t;
        if (job->state == CZ_TL_JOB_OPEN)
            job->end_ms = r->t;
        if (r->partition >= job->npartitions)
            job->npartitions = r->partition + 1;
        int is_synth = r->ev == CZ_TL_SYNTH_START || r->ev == CZ_TL_SYNTH_END;
        int is_gpu = r->ev == CZ_TL_GPU_START || r->ev == CZ_TL_GPU_END;
        int is_start = r->ev == CZ_TL_SYNTH_START || r->ev == CZ_TL_GPU_START;
        if (r->ev == CZ_TL_DONE || r->ev == CZ_TL_FAILED || r->ev == CZ_TL_CANCELLED) {
            job->state = r->ev == CZ_TL_DONE     ? CZ_TL_JOB_DONE
                         : r->ev == CZ_TL_FAILED ? CZ_TL_JOB_FAILED
                                                 : CZ_TL_JOB_CANCELLED;
            job->end_ms = r->t;
        }
        if (r->worker < 0) {
            if (is_synth || is_gpu) {
                rc = fail_pair(st, r, "needs w=<worker>", 0);
                goto out;
            }
            continue;
        }
        wtmp *w = &wt[r->worker];
        const char *wname = st->workers.name[r->worker];
        if (is_gpu || r->ev == CZ_TL_GPU_PICKUP) {
            if (w->kind == CZ_TL_WORKER_SYNTH) {
                rc = fail_pair(st, r, "on a synthesis worker", 0);
                goto out;
            }
            if (!parse_gpu_worker(&w->gpu, &w->slot, wname)) {
                rc = cz_fail(st->ei, CZ_EFORMAT, "%s:%zu: GPU worker '%s' is not gpu<G>.<W>",
                             st->name, r->line, wname);
                goto out;
            }
            w->kind = CZ_TL_WORKER_GPU;
        } else if (is_synth) {
            if (w->kind == CZ_TL_WORKER_GPU) {
                rc = fail_pair(st, r, "on a GPU worker", 0);
                goto out;
            }
            int g, sl;
            if (parse_gpu_worker(&g, &sl, wname)) {
                rc = cz_fail(st->ei, CZ_EFORMAT,
                             "%s:%zu: synthesis worker '%s' is named like a GPU worker", st->name,
                             r->line, wname);
                goto out;
            }
            w->kind = CZ_TL_WORKER_SYNTH;
            w->slot = trailing_number(wname);
        }
        if (is_start) {
            if (w->open >= 0) {
                rc = fail_pair(st, r, "while the worker's interval is open", w->open_line);
                goto out;
            }
            if (grow((void **)&tl->intervals, &capiv, tl->nintervals + 1, sizeof *tl->intervals))
                goto nomem;
            tl->intervals[tl->nintervals] = (cz_timeline_interval){
                .start_ms = r->t,
                .end_ms = r->t,
                .job = r->job,
                .worker = (size_t)r->worker,
                .partition = r->partition,
                .open = 1,
            };
            w->open = (long)tl->nintervals++;
            w->open_line = r->line;
        } else if (is_synth || is_gpu || r->ev == CZ_TL_FAILED || r->ev == CZ_TL_CANCELLED) {
            int ending = is_synth || is_gpu;
            if (w->open < 0) {
                if (ending) {
                    rc = fail_pair(st, r, "without a start on this worker", 0);
                    goto out;
                }
                continue;
            }
            cz_timeline_interval *iv = &tl->intervals[w->open];
            if (iv->job != r->job) {
                if (ending) {
                    rc = fail_pair(st, r, "for another job than the worker's open interval",
                                   w->open_line);
                    goto out;
                }
                continue;
            }
            if (ending && r->partition >= 0 && iv->partition >= 0 &&
                r->partition != iv->partition) {
                rc = fail_pair(st, r, "for another partition than its start", w->open_line);
                goto out;
            }
            if (ending && (is_synth ? r->ev != CZ_TL_SYNTH_END : r->ev != CZ_TL_GPU_END)) {
                rc = fail_pair(st, r, "ends an interval of the other kind", w->open_line);
                goto out;
            }
            if (iv->partition < 0)
                iv->partition = r->partition;
            iv->end_ms = r->t;
            iv->open = 0;
            iv->failed = !ending;
            w->open = -1;
        } else if (r->ev == CZ_TL_STAGE) {
            continue;
        }
    }
    for (size_t w = 0; w < nw; w++)
        if (wt[w].open >= 0)
            tl->intervals[wt[w].open].end_ms = tl->run_end_ms;

    /* Stage records. */
    tl->stages = calloc(st->nrecs + 1, sizeof *tl->stages);
    if (tl->stages == NULL)
        goto nomem;

    /* Workers: those with a kind, in lane order. */
    size_t nk = 0;
    for (size_t w = 0; w < nw; w++) {
        rank[w] = (size_t)-1;
        if (wt[w].kind >= 0)
            ws[nk++] = (wsort){w, wt[w].kind, wt[w].gpu, wt[w].slot, st->workers.name[w]};
    }
    qsort(ws, nk, sizeof *ws, cmp_worker);
    tl->workers = calloc(nk + 1, sizeof *tl->workers);
    if (tl->workers == NULL)
        goto nomem;
    tl->nworkers = nk;
    for (size_t k = 0; k < nk; k++) {
        cz_timeline_worker *w = &tl->workers[k];
        rank[ws[k].index] = k;
        snprintf(w->name, sizeof w->name, "%s", ws[k].name);
        w->kind = (cz_timeline_worker_kind)ws[k].kind;
        w->gpu = ws[k].gpu;
        w->slot = ws[k].slot;
        if (w->kind == CZ_TL_WORKER_GPU &&
            (k == 0 || tl->workers[k - 1].kind != w->kind || tl->workers[k - 1].gpu != w->gpu))
            tl->ngpus++;
    }
    for (size_t i = 0; i < st->nrecs; i++) {
        const rec *r = &st->recs[i];
        if (r->ev != CZ_TL_STAGE)
            continue;
        tl->stages[tl->nstages++] = (cz_timeline_stage_rec){
            .end_ms = r->t,
            .dur_ms = r->dur,
            .job = r->job,
            .worker = r->worker >= 0 && rank[r->worker] != (size_t)-1 ? (long)rank[r->worker] : -1,
            .partition = r->partition,
            .stage = (cz_timeline_stage)r->stage,
        };
    }
    tl->gpus = calloc(tl->ngpus + 1, sizeof *tl->gpus);
    if (tl->gpus == NULL)
        goto nomem;
    tl->ngpus = 0;
    for (size_t k = 0; k < nk; k++) {
        const cz_timeline_worker *w = &tl->workers[k];
        if (w->kind != CZ_TL_WORKER_GPU)
            continue;
        if (tl->ngpus == 0 || tl->gpus[tl->ngpus - 1].gpu != w->gpu)
            tl->gpus[tl->ngpus++].gpu = w->gpu;
        tl->gpus[tl->ngpus - 1].nworkers++;
    }

    /* Intervals grouped by worker in lane order; per worker, per job sums; steady window. */
    for (size_t i = 0; i < tl->nintervals; i++)
        tl->intervals[i].worker = rank[tl->intervals[i].worker];
    if (tl->nintervals > 1)
        qsort(tl->intervals, tl->nintervals, sizeof *tl->intervals, cmp_interval);
    int have_gpu = 0;
    for (size_t i = 0; i < tl->nintervals; i++) {
        const cz_timeline_interval *iv = &tl->intervals[i];
        cz_timeline_worker *w = &tl->workers[iv->worker];
        double d = iv->end_ms - iv->start_ms;
        if (w->nintervals++ == 0)
            w->first = i;
        w->busy_ms += d;
        if (w->kind == CZ_TL_WORKER_SYNTH) {
            tl->jobs[iv->job].synth_ms += d;
            continue;
        }
        tl->jobs[iv->job].gpu_ms += d;
        if (!have_gpu || iv->start_ms < tl->steady_start_ms)
            tl->steady_start_ms = iv->start_ms;
        if (!have_gpu || iv->end_ms > tl->steady_end_ms)
            tl->steady_end_ms = iv->end_ms;
        have_gpu = 1;
    }
    if (!have_gpu) {
        tl->steady_start_ms = tl->run_start_ms;
        tl->steady_end_ms = tl->run_end_ms;
    }
    for (size_t j = 0; j < tl->njobs; j++) {
        cz_timeline_job *job = &tl->jobs[j];
        job->wall_ms = job->end_ms - job->first_ms;
        tl->njobs_done += job->state == CZ_TL_JOB_DONE;
        tl->njobs_failed += job->state == CZ_TL_JOB_FAILED || job->state == CZ_TL_JOB_CANCELLED;
    }
    sp = malloc((tl->nintervals + 1) * sizeof *sp);
    if (sp == NULL)
        goto nomem;
    for (size_t g = 0; g < tl->ngpus; g++)
        analyze_gpu(&tl->gpus[g], tl, sp);
    goto out;
nomem:
    rc = cz_fail(st->ei, CZ_ENOMEM, "%s: out of memory", st->name);
out:
    free(sp);
    free(rank);
    free(ws);
    free(wt);
    return rc;
}

int cz_timeline_parse(cz_timeline **ret, const char *text, size_t len, const char *name,
                      cz_errinfo *ei) {
    static const char tag[] = "TIMELINE,";
    const size_t taglen = sizeof tag - 1;
    state st = {.name = name != NULL ? name : "timeline", .ei = ei};
    cz_timeline *tl = calloc(1, sizeof *tl);
    int rc = CZ_OK;
    *ret = NULL;
    if (tl == NULL)
        return cz_fail(ei, CZ_ENOMEM, "%s: out of memory", st.name);
    size_t pos = 0;
    while (pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl != NULL ? (size_t)(nl - text) : len;
        const char *line = text + pos;
        size_t llen = end - pos;
        pos = end + 1;
        tl->nlines++;
        if (llen > 0 && line[llen - 1] == '\r')
            llen--;
        const char *r = memmem(line, llen, tag, taglen);
        if (r == NULL || (r != line && r[-1] != ' '))
            continue;
        if (memchr(line, '\0', llen) != NULL) {
            rc =
                cz_fail(ei, CZ_EFORMAT, "%s:%zu: NUL byte in a TIMELINE line", st.name, tl->nlines);
            goto out;
        }
        r += taglen;
        tl->nevents++;
        rc = parse_record(&st, r, (size_t)(line + llen - r), tl->nlines);
        if (rc != CZ_OK)
            goto out;
    }
    rc = build(&st, tl);
out:
    free(st.recs);
    names_free(&st.jobs);
    names_free(&st.workers);
    if (rc != CZ_OK) {
        cz_timeline_free(tl);
        return rc;
    }
    *ret = tl;
    return CZ_OK;
}

int cz_timeline_read(cz_timeline **ret, const char *path, cz_errinfo *ei) {
    *ret = NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return cz_fail(ei, CZ_EIO, "%s: cannot open: %s", path, strerror(errno));
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int rc = CZ_OK;
    for (;;) {
        if (grow((void **)&buf, &cap, n + 65536, 1) != CZ_OK) {
            rc = cz_fail(ei, CZ_ENOMEM, "%s: out of memory", path);
            goto out;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        rc = cz_fail(ei, CZ_EIO, "%s: read error", path);
        goto out;
    }
    rc = cz_timeline_parse(ret, buf, n, path, ei);
out:
    free(buf);
    fclose(f);
    return rc;
}

void cz_timeline_free(cz_timeline *tl) {
    if (tl == NULL)
        return;
    free(tl->workers);
    free(tl->intervals);
    free(tl->jobs);
    free(tl->gpus);
    free(tl->stages);
    free(tl);
}
