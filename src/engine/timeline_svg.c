/*
 * Timeline waterfall as SVG (include/cuzk/timeline.h, docs/timeline.md).
 *
 * Layout, top to bottom: a title (the caller's title, proofs done/failed, wall time, rate) and a
 * line of GPU busy percentages; then one group of lanes per kind -- "synthesis", then one group
 * per GPU whose header repeats its busy % and gaps -- with one lane per worker; under each GPU's
 * lanes a thin strip where its idle gaps are red; then the time axis in seconds (ticks at 1, 2 or
 * 5 times a power of ten, about ten of them, with light grid lines across the lanes) and a legend
 * of job colors. Two dashed lines mark the steady-state window.
 *
 * Every interval is one <rect class="iv"> with a <title> tooltip (job, partition, worker, times),
 * colored by job (assign_colors). Failed intervals get a red outline, open ones (no end line) a
 * dashed one. A partition number is written on a bar wide enough to hold it.
 *
 * Costs: one pass over the workers, intervals and gaps; output is about 250 bytes per interval.
 */
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "cuzk/timeline.h"

#define LEFT   150 /* label column */
#define RIGHT  24  /* right margin */
#define TOP    58  /* title block */
#define HEAD   18  /* group header row */
#define STRIP  7   /* GPU gap strip */
#define AXIS   44  /* axis block */
#define LEGEND 18  /* one legend row */

typedef struct view {
    FILE *out;
    double t0, t1;               /* drawn window, ms */
    double x0, w;                /* plot area, px */
    const unsigned char *colors; /* palette index per job */
} view;

static double xof(const view *v, double t) {
    return v->x0 + (t - v->t0) / (v->t1 - v->t0) * v->w;
}

/* Writes s with XML's special characters escaped (ASCII only, see below). */
static void put_esc(FILE *out, const char *s) {
    for (; *s != '\0'; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        default:
            /* Control bytes are dropped and non-ASCII bytes become '?', so that any job id
             * gives well-formed UTF-8 XML. */
            if ((unsigned char)*s >= 0x80)
                fputc('?', out);
            else if ((unsigned char)*s >= ' ')
                fputc(*s, out);
        }
    }
}

/*
 * Job colors: a qualitative palette (no red: red marks gaps and failures). A job's color is the
 * palette entry its id hashes to (FNV-1a), or, when an earlier job of the log already holds that
 * entry, the next free one -- so a job keeps its color from picture to picture of the same log,
 * and the first NPALETTE jobs of a picture all get different colors.
 */
static const char *const palette[] = {
    "#4e79a7", "#f28e2b", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
    "#bab0ac", "#a0cbe8", "#ffbe7d", "#8cd17d", "#86bcb6", "#f1ce63", "#d4a6c8",
};
#define NPALETTE (sizeof palette / sizeof palette[0])

/* colors[j] = the palette index of job j (see above). */
static void assign_colors(unsigned char *colors, const cz_timeline *tl) {
    unsigned used = 0; /* bit i: palette entry i is taken in the current round */
    for (size_t j = 0; j < tl->njobs; j++) {
        uint32_t h = 2166136261u;
        for (const char *c = tl->jobs[j].id; *c != '\0'; c++)
            h = (h ^ (unsigned char)*c) * 16777619u;
        if (used == (1u << NPALETTE) - 1)
            used = 0; /* all taken: start a new round */
        unsigned k = h % NPALETTE;
        while (used & (1u << k))
            k = (k + 1) % NPALETTE;
        used |= 1u << k;
        colors[j] = (unsigned char)k;
    }
}

/* The tick step: 1, 2 or 5 times a power of ten, giving at most about ten ticks over span_s. */
static double tick_step(double span_s) {
    double raw = span_s / 10.0, p = pow(10.0, floor(log10(raw)));
    if (raw <= p)
        return p;
    if (raw <= 2 * p)
        return 2 * p;
    if (raw <= 5 * p)
        return 5 * p;
    return 10 * p;
}

static void draw_interval(const view *v, const cz_timeline *tl, const cz_timeline_interval *iv,
                          double y, double h) {
    double a = iv->start_ms > v->t0 ? iv->start_ms : v->t0;
    double b = iv->end_ms < v->t1 ? iv->end_ms : v->t1;
    if (b < a || iv->end_ms < v->t0 || iv->start_ms > v->t1)
        return;
    double x = xof(v, a), w = xof(v, b) - x;
    if (w < 0.6) /* zero-length intervals stay visible */
        w = 0.6;
    const cz_timeline_job *job = &tl->jobs[iv->job];
    const char *rgb = palette[v->colors[iv->job]];
    fprintf(v->out,
            "<rect class=\"iv\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
            "fill=\"%s\"",
            x, y, w, h, rgb);
    if (iv->failed)
        fputs(" stroke=\"#d00000\" stroke-width=\"1.5\"", v->out);
    else if (iv->open)
        fputs(" stroke=\"#333333\" stroke-dasharray=\"3,2\"", v->out);
    else /* a thin white edge keeps back-to-back bars apart */
        fputs(" stroke=\"#ffffff\" stroke-width=\"0.6\"", v->out);
    fputs("><title>", v->out);
    put_esc(v->out, job->id);
    if (iv->partition >= 0)
        fprintf(v->out, " p=%d", iv->partition);
    fputs(" on ", v->out);
    put_esc(v->out, tl->workers[iv->worker].name);
    fprintf(v->out, ": %.3f-%.3f s (%.3f s)%s</title></rect>\n", iv->start_ms / 1e3,
            iv->end_ms / 1e3, (iv->end_ms - iv->start_ms) / 1e3,
            iv->failed ? " failed"
            : iv->open ? " no end line"
                       : "");
    if (iv->partition >= 0 && w >= 8.0 + 6.0 * (iv->partition >= 10))
        fprintf(v->out, "<text class=\"pl\" x=\"%.2f\" y=\"%.2f\">%d</text>\n", x + w / 2,
                y + h / 2 + 3.5, iv->partition);
}

/* The red idle gaps of GPU g between its first start and last end, in the strip at y. */
static void draw_gaps(const view *v, const cz_timeline *tl, int gpu, double y) {
    /* Walk the GPU's intervals in start order with a running end: they are grouped by worker
     * and sorted within a worker, so a merge that takes the smallest next start among the GPU's
     * workers (at most 64 of them) sees them in order; a start past the running end is a gap. */
    size_t idx[64], nw = 0;
    const cz_timeline_worker *ws[64];
    for (size_t k = 0; k < tl->nworkers && nw < 64; k++)
        if (tl->workers[k].kind == CZ_TL_WORKER_GPU && tl->workers[k].gpu == gpu) {
            ws[nw] = &tl->workers[k];
            idx[nw++] = 0;
        }
    double end = -1.0;
    for (;;) {
        size_t best = nw;
        double bs = 0.0;
        for (size_t k = 0; k < nw; k++) {
            if (idx[k] >= ws[k]->nintervals)
                continue;
            double s = tl->intervals[ws[k]->first + idx[k]].start_ms;
            if (best == nw || s < bs)
                best = k, bs = s;
        }
        if (best == nw)
            break;
        const cz_timeline_interval *iv = &tl->intervals[ws[best]->first + idx[best]++];
        if (iv->end_ms <= iv->start_ms) /* an instant splits no gap (as in the analysis) */
            continue;
        if (end >= 0.0 && iv->start_ms > end) {
            double a = end > v->t0 ? end : v->t0, b = iv->start_ms < v->t1 ? iv->start_ms : v->t1;
            if (b > a)
                fprintf(v->out,
                        "<rect class=\"gap\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%d\" "
                        "fill=\"#e03030\"><title>idle %.3f s</title></rect>\n",
                        xof(v, a), y + 1, xof(v, b) - xof(v, a) < 0.6 ? 0.6 : xof(v, b) - xof(v, a),
                        STRIP - 2, (iv->start_ms - end) / 1e3);
        }
        if (iv->end_ms > end)
            end = iv->end_ms;
    }
}

static void group_header(const view *v, double y, const char *text) {
    fprintf(v->out, "<text class=\"g\" x=\"8\" y=\"%.2f\">", y + HEAD - 5);
    put_esc(v->out, text);
    fputs("</text>\n", v->out);
    fprintf(v->out,
            "<line x1=\"8\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#bbbbbb\" "
            "stroke-width=\"0.5\"/>\n",
            y + HEAD - 1.5, v->x0 + v->w, y + HEAD - 1.5);
}

int cz_timeline_render_svg(FILE *out, const cz_timeline *tl, const cz_timeline_svg_opts *o,
                           cz_errinfo *ei) {
    cz_timeline_svg_opts d = {0};
    if (o == NULL)
        o = &d;
    int width = o->width_px != 0 ? o->width_px : 1400, lane = o->lane_px != 0 ? o->lane_px : 18;
    if (out == NULL || tl == NULL)
        return cz_fail(ei, CZ_EINVAL, "timeline svg: NULL output or timeline");
    if (width < 400 || width > 100000 || lane < 6 || lane > 200)
        return cz_fail(ei, CZ_EINVAL, "timeline svg: width %d (400..100000) or lane %d (6..200)",
                       width, lane);
    if (!isfinite(o->from_ms) || !isfinite(o->to_ms) || o->from_ms > o->to_ms)
        return cz_fail(ei, CZ_EINVAL, "timeline svg: bad time window %g..%g ms", o->from_ms,
                       o->to_ms);
    view v = {.out = out, .t0 = tl->run_start_ms, .t1 = tl->run_end_ms, .x0 = LEFT};
    if (o->from_ms != o->to_ms)
        v.t0 = o->from_ms, v.t1 = o->to_ms;
    if (v.t1 - v.t0 < 1.0)
        v.t1 = v.t0 + 1.0;
    v.w = width - LEFT - RIGHT;
    unsigned char *colors = malloc(tl->njobs + 1);
    if (colors == NULL)
        return cz_fail(ei, CZ_ENOMEM, "timeline svg: out of memory");
    assign_colors(colors, tl);
    v.colors = colors;

    /* Height: lanes and headers, strips, axis, legend. */
    size_t nsynth = 0;
    for (size_t k = 0; k < tl->nworkers; k++)
        nsynth += tl->workers[k].kind == CZ_TL_WORKER_SYNTH;
    size_t legend_per_row = (size_t)(width - 16) / 150, nlegend = tl->njobs <= 40 ? tl->njobs : 0;
    size_t legend_rows = (nlegend + legend_per_row - 1) / legend_per_row;
    double lanes_h = (double)tl->nworkers * lane + (nsynth > 0 ? HEAD : 0) +
                     (double)tl->ngpus * (HEAD + STRIP + 4);
    double height = TOP + lanes_h + AXIS + (double)legend_rows * LEGEND + 10;

    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
            "viewBox=\"0 0 %d %.0f\">\n"
            "<style>text{font:11px sans-serif;fill:#222}.t{font-size:15px;font-weight:bold}"
            ".g{font-weight:bold}.pl{font-size:9px;text-anchor:middle;fill:#111}"
            ".ax{text-anchor:middle;fill:#444}</style>\n"
            "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
            width, height, width, height, width, height);

    /* Title: proofs and rate, then busy % per GPU. */
    double run_s = (tl->run_end_ms - tl->run_start_ms) / 1e3;
    fputs("<text class=\"t\" x=\"8\" y=\"20\">", out);
    put_esc(out, o->title != NULL ? o->title : "cuzk timeline");
    fprintf(out, " \xe2\x80\x94 %zu proofs done, %zu failed, %zu jobs, %.1f s", tl->njobs_done,
            tl->njobs_failed, tl->njobs, run_s);
    if (run_s > 0 && tl->njobs_done > 0)
        fprintf(out, ", %.2f proofs/min", (double)tl->njobs_done * 60.0 / run_s);
    fputs("</text>\n<text x=\"8\" y=\"40\">", out);
    if (tl->ngpus == 0)
        fputs("no GPU intervals", out);
    else
        fprintf(out, "GPU busy in the steady window %.1f-%.1f s:", tl->steady_start_ms / 1e3,
                tl->steady_end_ms / 1e3);
    for (size_t g = 0; g < tl->ngpus; g++)
        fprintf(out, " gpu%d %.1f%%%s", tl->gpus[g].gpu, tl->gpus[g].busy_pct_steady,
                g + 1 < tl->ngpus ? "," : "");
    if (tl->ngpus > 0) {
        fputs(" (whole run:", out);
        for (size_t g = 0; g < tl->ngpus; g++)
            fprintf(out, " %.1f%%", tl->gpus[g].busy_pct_run);
        fputs(")", out);
    }
    fputs("</text>\n", out);

    /* Grid lines and axis. */
    double axis_y = TOP + lanes_h + 6;
    double span_s = (v.t1 - v.t0) / 1e3, step = tick_step(span_s);
    int decimals = step >= 1.0 ? 0 : (int)ceil(-log10(step) - 1e-9);
    fprintf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#444444\"/>\n",
            v.x0, axis_y, v.x0 + v.w, axis_y);
    /* Ticks by an integer count: far from 0 (huge times, a tiny window) s += step could stall. */
    double first_tick = ceil(v.t0 / 1e3 / step) * step;
    for (int k = 0; k <= 20; k++) {
        double s = first_tick + k * step;
        if (s > v.t1 / 1e3 + step * 1e-9 || (k > 0 && s == first_tick + (k - 1) * step))
            break;
        double x = xof(&v, s * 1e3);
        fprintf(out,
                "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e6e6e6\"/>\n"
                "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#444444\"/>\n"
                "<text class=\"ax\" x=\"%.2f\" y=\"%.2f\">%.*f</text>\n",
                x, TOP, x, axis_y, x, axis_y, x, axis_y + 5, x, axis_y + 17, decimals, s);
    }
    fprintf(out, "<text class=\"ax\" x=\"%.2f\" y=\"%.2f\">time since engine start (s)</text>\n",
            v.x0 + v.w / 2, axis_y + 32);

    /* Lanes. */
    double y = TOP;
    char text[256];
    for (size_t k = 0; k < tl->nworkers; k++) {
        const cz_timeline_worker *w = &tl->workers[k];
        if (k == 0 && w->kind == CZ_TL_WORKER_SYNTH) {
            snprintf(text, sizeof text, "synthesis (%zu workers)", nsynth);
            group_header(&v, y, text);
            y += HEAD;
        }
        const cz_timeline_gpu *g = NULL;
        for (size_t i = 0; i < tl->ngpus; i++)
            if (w->kind == CZ_TL_WORKER_GPU && tl->gpus[i].gpu == w->gpu)
                g = &tl->gpus[i];
        if (g != NULL && (k == 0 || tl->workers[k - 1].kind != CZ_TL_WORKER_GPU ||
                          tl->workers[k - 1].gpu != w->gpu)) {
            snprintf(text, sizeof text,
                     "GPU %d: busy %.1f%% steady, %.1f%% run; %zu gaps, %.2f s idle, "
                     "longest %.2f s",
                     g->gpu, g->busy_pct_steady, g->busy_pct_run, g->ngaps, g->gap_ms_total / 1e3,
                     g->gap_ms_max / 1e3);
            group_header(&v, y, text);
            y += HEAD;
        }
        fprintf(out, "<text x=\"16\" y=\"%.2f\">", y + lane / 2.0 + 4);
        put_esc(out, w->name);
        fprintf(out, " (%.0f%%)</text>\n",
                run_s > 0 ? 100.0 * w->busy_ms / (tl->run_end_ms - tl->run_start_ms) : 0.0);
        for (size_t i = 0; i < w->nintervals; i++)
            draw_interval(&v, tl, &tl->intervals[w->first + i], y + 1.5, lane - 3.0);
        y += lane;
        if (g != NULL && (k + 1 == tl->nworkers || tl->workers[k + 1].gpu != w->gpu)) {
            fprintf(out, "<text x=\"16\" y=\"%.2f\" style=\"font-size:8px\">idle</text>\n",
                    y + STRIP);
            draw_gaps(&v, tl, w->gpu, y);
            y += STRIP + 4;
        }
    }
    if (tl->nintervals == 0)
        fprintf(out, "<text x=\"%.2f\" y=\"%d\">no intervals in this log</text>\n", v.x0 + 8,
                TOP + 14);

    /* The steady-state window. */
    for (int i = 0; i < 2 && tl->ngpus > 0; i++) {
        double t = i == 0 ? tl->steady_start_ms : tl->steady_end_ms;
        if (t < v.t0 || t > v.t1)
            continue;
        fprintf(out,
                "<line class=\"win\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%.2f\" "
                "stroke=\"#3050c0\" stroke-dasharray=\"5,3\"/>\n",
                xof(&v, t), TOP - 4, xof(&v, t), axis_y);
    }

    /* Legend. */
    for (size_t j = 0; j < nlegend; j++) {
        const char *rgb = palette[v.colors[j]];
        double lx = 8 + (double)(j % legend_per_row) * 150;
        double ly = axis_y + AXIS - 2 + (double)(j / legend_per_row) * LEGEND;
        fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"12\" height=\"10\" fill=\"%s\"/>\n", lx,
                ly, rgb);
        fprintf(out, "<text x=\"%.2f\" y=\"%.2f\">", lx + 16, ly + 9);
        char id[22];
        memcpy(id, tl->jobs[j].id, sizeof id - 1);
        id[sizeof id - 1] = '\0';
        put_esc(out, id);
        fprintf(out, " %.1f s%s</text>\n", tl->jobs[j].wall_ms / 1e3,
                tl->jobs[j].state == CZ_TL_JOB_DONE   ? ""
                : tl->jobs[j].state == CZ_TL_JOB_OPEN ? " (open)"
                                                      : " (failed)");
    }
    fputs("</svg>\n", out);
    free(colors);
    if (fflush(out) != 0 || ferror(out))
        return cz_fail(ei, CZ_EIO, "timeline svg: write failed");
    return CZ_OK;
}
