/*
 * `cuzk-bench timeline LOG [-o OUT.svg]` (include/cuzk/timeline.h): reads a log, prints the
 * analysis, draws the waterfall. It lives in the library so that any program (cuzk-bench, the
 * standalone bench/cuzk_bench_timeline.c) can dispatch to it; it writes only to stdout, stderr and
 * the file named by -o.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/timeline.h"

void cz_timeline_print_summary(FILE *out, const cz_timeline *tl) {
    double run = tl->run_end_ms - tl->run_start_ms;
    fprintf(out, "timeline: %zu lines, %zu records, %zu workers, %zu intervals, %zu jobs\n",
            tl->nlines, tl->nevents, tl->nworkers, tl->nintervals, tl->njobs);
    fprintf(out, "run window     %.3f .. %.3f s (%.3f s)\n", tl->run_start_ms / 1e3,
            tl->run_end_ms / 1e3, run / 1e3);
    fprintf(out, "steady window  %.3f .. %.3f s (%.3f s): first GPU start .. last GPU end\n",
            tl->steady_start_ms / 1e3, tl->steady_end_ms / 1e3,
            (tl->steady_end_ms - tl->steady_start_ms) / 1e3);
    fprintf(out, "proofs: %zu done, %zu failed or cancelled", tl->njobs_done, tl->njobs_failed);
    if (run > 0 && tl->njobs_done > 0)
        fprintf(out, ", %.2f proofs/min over the run", (double)tl->njobs_done * 60e3 / run);
    fputc('\n', out);
    for (size_t g = 0; g < tl->ngpus; g++) {
        const cz_timeline_gpu *p = &tl->gpus[g];
        fprintf(out,
                "gpu%d: %zu workers, busy %.1f%% steady, %.1f%% run (%.3f s); %zu gaps, %.3f s "
                "idle, longest %.3f s; <50 ms %zu, 50-500 ms %zu, >500 ms %zu\n",
                p->gpu, p->nworkers, p->busy_pct_steady, p->busy_pct_run, p->busy_ms_run / 1e3,
                p->ngaps, p->gap_ms_total / 1e3, p->gap_ms_max / 1e3, p->ngaps_short, p->ngaps_mid,
                p->ngaps_long);
    }
    for (size_t k = 0; k < tl->nworkers; k++) {
        const cz_timeline_worker *w = &tl->workers[k];
        fprintf(out, "worker %-10s %zu intervals, busy %.3f s (%.1f%% of the run)\n", w->name,
                w->nintervals, w->busy_ms / 1e3, run > 0 ? 100.0 * w->busy_ms / run : 0.0);
    }
    static const char *const states[] = {"open", "done", "failed", "cancelled"};
    for (size_t j = 0; j < tl->njobs; j++) {
        const cz_timeline_job *job = &tl->jobs[j];
        fprintf(out,
                "job %s: %s, %d partitions, wall %.3f s (%.3f .. %.3f), synth %.3f s, gpu %.3f s\n",
                job->id, states[job->state], job->npartitions, job->wall_ms / 1e3,
                job->first_ms / 1e3, job->end_ms / 1e3, job->synth_ms / 1e3, job->gpu_ms / 1e3);
    }
    if (tl->nstages > 0) {
        double sum[CZ_TL_NSTAGES] = {0};
        size_t n[CZ_TL_NSTAGES] = {0};
        for (size_t i = 0; i < tl->nstages; i++) {
            sum[tl->stages[i].stage] += tl->stages[i].dur_ms;
            n[tl->stages[i].stage]++;
        }
        for (int s = 0; s < CZ_TL_NSTAGES; s++)
            if (n[s] > 0)
                fprintf(out, "stage %-9s %zu records, mean %.3f ms, total %.3f s\n",
                        cz_timeline_stage_name((cz_timeline_stage)s), n[s], sum[s] / (double)n[s],
                        sum[s] / 1e3);
    }
}

static void usage(FILE *f, const char *prog) {
    fprintf(f,
            "usage: %s LOG [-o OUT.svg] [--width PX] [--lane PX] [--from S --to S] [--title T] "
            "[-q]\n"
            "  Reads the TIMELINE lines of LOG (other lines are skipped), prints GPU busy %%,\n"
            "  gaps and per-job wall times, and with -o draws the waterfall as SVG.\n"
            "  --from/--to: the time window drawn, in seconds; -q: no summary.\n",
            prog);
}

static int parse_num(double *v, const char *s) {
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return s[0] != '\0' && *end == '\0' && errno == 0 && isfinite(*v);
}

int cz_timeline_cmd(int argc, char **argv) {
    const char *prog = argc > 0 ? argv[0] : "timeline";
    const char *log = NULL, *svg = NULL;
    cz_timeline_svg_opts o = {0};
    int quiet = 0;
    double from = 0, to = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        double x;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout, prog);
            return 0;
        } else if (strcmp(a, "-q") == 0) {
            quiet = 1;
        } else if (strcmp(a, "-o") == 0 && v != NULL) {
            svg = v, i++;
        } else if (strcmp(a, "--title") == 0 && v != NULL) {
            o.title = v, i++;
        } else if ((strcmp(a, "--width") == 0 || strcmp(a, "--lane") == 0) && v != NULL &&
                   parse_num(&x, v) && x >= 1 && x <= 100000 && x == floor(x)) {
            *(strcmp(a, "--width") == 0 ? &o.width_px : &o.lane_px) = (int)x, i++;
        } else if ((strcmp(a, "--from") == 0 || strcmp(a, "--to") == 0) && v != NULL &&
                   parse_num(&x, v) && x >= 0) {
            *(strcmp(a, "--from") == 0 ? &from : &to) = x, i++;
        } else if (a[0] != '-' && log == NULL) {
            log = a;
        } else {
            fprintf(stderr, "%s: bad or incomplete argument '%s'\n", prog, a);
            usage(stderr, prog);
            return 2;
        }
    }
    if (log == NULL) {
        usage(stderr, prog);
        return 2;
    }
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    cz_timeline *tl = NULL;
    if (cz_timeline_read(&tl, log, &ei) != CZ_OK) {
        fprintf(stderr, "%s: %s\n", prog, ei.msg);
        return 3;
    }
    if (from != 0 || to != 0) {
        o.from_ms = from * 1e3;
        o.to_ms = to > 0 ? to * 1e3 : tl->run_end_ms;
    }
    int status = 0;
    if (!quiet)
        cz_timeline_print_summary(stdout, tl);
    if (svg != NULL) {
        FILE *f = fopen(svg, "w");
        if (f == NULL) {
            fprintf(stderr, "%s: %s: cannot create: %s\n", prog, svg, strerror(errno));
            status = 4;
        } else {
            int rc = cz_timeline_render_svg(f, tl, &o, &ei);
            if (fclose(f) != 0 && rc == CZ_OK)
                rc = cz_fail(&ei, CZ_EIO, "%s: write failed", svg);
            if (rc != CZ_OK) {
                fprintf(stderr, "%s: %s\n", prog, ei.msg);
                status = rc == CZ_EINVAL ? 2 : 4;
            } else if (!quiet) {
                printf("wrote %s\n", svg);
            }
        }
    }
    cz_timeline_free(tl);
    return status;
}
