/*
 * The batch summary shared by `cuzk-bench engine` (proofs in process) and `cuzk-bench batch` /
 * `sweep` (proofs through the daemon): per-proof wall (and, from the daemon, prove) times
 * gathered with bench_batch_add, then one set of JSON members and one text line, the numbers the
 * original's "Batch Summary" has: avg/min/max wall and prove time, proofs/min and s/proof
 * (batch wall / COUNT).
 */
#include <string.h>

#include "bench.h"

static void agg_add(bench_agg *a, double v) {
    a->sum += v;
    a->min = a->n == 0 || v < a->min ? v : a->min;
    a->max = a->n == 0 || v > a->max ? v : a->max;
    a->n++;
}

static double agg_avg(const bench_agg *a) {
    return a->n ? a->sum / a->n : 0;
}

void bench_batch_init(bench_batch *b, int count) {
    memset(b, 0, sizeof *b);
    b->count = count;
}

void bench_batch_add(bench_batch *b, double wall_ms, double prove_ms, int done) {
    agg_add(&b->wall, wall_ms);
    if (prove_ms >= 0)
        agg_add(&b->prove, prove_ms);
    b->done += done != 0;
}

double bench_batch_proofs_per_min(const bench_batch *b) {
    return b->batch_ms > 0 ? b->count / (b->batch_ms / 60e3) : 0;
}

double bench_batch_s_per_proof(const bench_batch *b) {
    return b->count > 0 ? b->batch_ms / 1e3 / b->count : 0;
}

void bench_batch_json(FILE *f, const bench_batch *b) {
    fprintf(f,
            "\"avg_wall_s\":%.3f,\"min_wall_s\":%.3f,\"max_wall_s\":%.3f,\"batch_s\":%.3f,"
            "\"proofs_per_min\":%.3f,\"s_per_proof\":%.3f",
            agg_avg(&b->wall) / 1e3, b->wall.min / 1e3, b->wall.max / 1e3, b->batch_ms / 1e3,
            bench_batch_proofs_per_min(b), bench_batch_s_per_proof(b));
    if (b->prove.n > 0)
        fprintf(f, ",\"avg_prove_s\":%.3f,\"min_prove_s\":%.3f,\"max_prove_s\":%.3f",
                agg_avg(&b->prove) / 1e3, b->prove.min / 1e3, b->prove.max / 1e3);
}

void bench_batch_text(const bench_batch *b, const char *tag, const char *extra) {
    char prove[128] = "";
    if (b->prove.n > 0)
        snprintf(prove, sizeof prove, "; prove avg %.2f s (min %.2f, max %.2f)",
                 agg_avg(&b->prove) / 1e3, b->prove.min / 1e3, b->prove.max / 1e3);
    fprintf(stderr,
            "%s: %d/%d done; avg %.2f s (min %.2f, max %.2f)%s; %.3f proofs/min; %.3f s/proof%s\n",
            tag, b->done, b->count, agg_avg(&b->wall) / 1e3, b->wall.min / 1e3, b->wall.max / 1e3,
            prove, bench_batch_proofs_per_min(b), bench_batch_s_per_proof(b), extra ? extra : "");
}
