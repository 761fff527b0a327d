/*
 * The synthetic PoRep-shaped workload (include/cuzk/workload.h, cz_workload_porep_synth): the
 * circuit of include/cuzk/porep_synth.h at scale 2^k with its proving key, built once in a
 * context that many jobs share (read only), and jobs of nparts partitions with witnesses from
 * (seed, partition). Synthesis of a partition: its own witness (cz_porep_synth_witness into a
 * shallow copy of the context's system), a, b = cz_r1cs_eval with snarkjs's input rows, and the
 * witness in standard form for the MSMs, in a pooled buffer the GPU uploads from. The key is
 * made by our test setup (cached as a .zkey file with a checksum file beside it; a cached key
 * that fails its checksum or does not open is made again), so every proof is verified, or is a
 * benchmark key (bench_key.h), whose proofs are timed and not verified. GPU keys live in the
 * context (one per device, made on first use). Every other step is the shared Groth16 task
 * (g16_task.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/groth16.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/log.h"
#include "cuzk/porep_synth.h"
#include "cuzk/r1cs.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/r1cs_io.h"
#include "cuzk/threadpool.h"
#include "cuzk/workload.h"
#include "cuzk/zkey.h"
#include "cuzk/assignment.h"
#include "cuzk/groth16_bellperson.h"
#include "engine/bench_key.h"
#include "engine/bp_task.h"
#include "engine/g16_task.h"

#define FR_BYTES 32

struct cz_porep_synth_ctx {
    cz_curve_id curve;
    unsigned k;
    cz_r1cs cs;        /* the structure; cs.w is never written after build */
    cz_zkey *zk;       /* the file's key, or &bk->zk */
    cz__bench_key *bk; /* a benchmark key (bench_key.h): proofs timed, not verified */
    cz__g16_keys keys; /* its GPU keys */
    int keys_init;
    /* The bellperson mode (cz_porep_synth_ctx_create_bp): the key in bellperson's format, its
     * GPU keys, and the circuit's densities, which every partition's assignment shares. */
    cz_bellperson_params *bp;
    cz__bp_keys bp_keys;
    uint64_t *a_aux, *b_in, *b_aux;
};

typedef struct synth_job {
    cz__g16_job g; /* first: the shared stages see the job as this */
    cz_porep_synth_ctx *ctx;
    uint64_t seed;
} synth_job;

typedef struct synth_bp_job {
    cz__bp_job g; /* first: the bellperson stages see the job as this */
    cz_porep_synth_ctx *ctx;
    uint64_t seed;
} synth_bp_job;

/* ---- the synthetic PoRep-shaped circuit ---- */

/* Montgomery -> standard form of a witness, in chunks over a pool. */
typedef struct {
    uint64_t (*mont)[4], (*std)[4];
    cz_curve_id curve;
    size_t n, chunk;
} to_std_job;

static void to_std_chunk(void *arg, size_t t) {
    to_std_job *c = arg;
    size_t lo = t * c->chunk, hi = lo + c->chunk < c->n ? lo + c->chunk : c->n;
    for (size_t i = lo; i < hi; i++)
        cz_r1cs_fr_to_std(c->std[i], c->curve, c->mont[i]);
}

static int synth_synthesize(void **out, void *job, uint32_t p, const cz_part_env *env,
                            cz_part_times *t, cz_errinfo *ei) {
    synth_job *j = job;
    cz_porep_synth_ctx *ctx = j->ctx;
    cz_r1cs cs = ctx->cs; /* shallow: shared matrices, a witness of our own */
    size_t nvars = cs.nvars;
    cz__g16_part *pt;
    int rc;
    (void)t;
    if ((rc = cz__g16_part_new(&pt, &j->g, env, ei)) != CZ_OK)
        return rc;
    cs.w = malloc(nvars * sizeof *cs.w);
    pt->wit = cz_mem_get(env->mem, nvars * sizeof *pt->wit, env->res);
    pt->wit_owned = 1;
    if (cs.w == NULL || pt->wit == NULL) {
        free(cs.w);
        rc = cz_fail(ei, CZ_ENOMEM, "synthesis: witness of %zu values", nvars);
        return cz__g16_part_end(out, &j->g, pt, p, rc);
    }
    memcpy(cs.w[0], ctx->cs.w[0], sizeof cs.w[0]); /* w[0] = 1 */
    if ((rc = cz_porep_synth_witness(&cs, ctx->k, j->seed, p, env->pool, ei)) == CZ_OK)
        rc = cz_r1cs_eval(pt->a, pt->b, NULL, &cs, ctx->zk->domain_size, CZ_R1CS_EVAL_INPUT_ROWS,
                          env->pool, ei);
    if (rc == CZ_OK) {
        to_std_job tj = {cs.w, pt->wit, cs.curve, nvars, (size_t)1 << 16};
        cz_threadpool_run(env->pool, to_std_chunk, &tj, (nvars + tj.chunk - 1) / tj.chunk);
    }
    free(cs.w);
    /* The Montgomery witness (counted in part_bytes, not pooled) is gone: its bytes leave the
     * partition's reservation now rather than at finish, so the next partition can start. */
    if (env->res != NULL && env->res->budget != NULL && env->res->bytes >= nvars * sizeof *cs.w)
        cz_mem_release(env->mem, env->res, nvars * sizeof *cs.w);
    return cz__g16_part_end(out, &j->g, pt, p, rc);
}

static void synth_destroy(void *job) {
    synth_job *j = job;
    cz__g16_job_fini(&j->g);
    free(j);
}

static const cz_workload_ops synth_ops = {
    .name = "porep-synth",
    .synthesize = synth_synthesize,
    CZ__G16_STAGES,
    .destroy = synth_destroy,
};

/* Synthesis of a bellperson partition: the witness straight into the pooled w (Montgomery, as
 * the assignment holds it), then a, b, c = A·w, B·w, C·w with the input constraints. */
static int synth_bp_synthesize(void **out, void *job, uint32_t p, const cz_part_env *env,
                               cz_part_times *t, cz_errinfo *ei) {
    synth_bp_job *j = job;
    cz_porep_synth_ctx *ctx = j->ctx;
    cz_r1cs cs = ctx->cs; /* shallow: shared matrices, a witness of our own */
    cz__bp_part *pt;
    int rc;
    (void)t;
    if ((rc = cz__bp_part_new(&pt, &j->g, env, ei)) != CZ_OK)
        return rc;
    cs.w = (uint64_t(*)[4])pt->w;
    memcpy(cs.w[0], ctx->cs.w[0], sizeof cs.w[0]); /* w[0] = 1 */
    if ((rc = cz_porep_synth_witness(&cs, ctx->k, j->seed, p, env->pool, ei)) == CZ_OK)
        rc = cz_r1cs_eval((uint64_t(*)[4])pt->a, (uint64_t(*)[4])pt->b, (uint64_t(*)[4])pt->c, &cs,
                          j->g.abc_size, CZ_R1CS_EVAL_INPUT_ROWS, env->pool, ei);
    return cz__bp_part_end(out, &j->g, pt, p, rc);
}

static void synth_bp_destroy(void *job) {
    synth_bp_job *j = job;
    cz__bp_job_fini(&j->g);
    free(j);
}

static const cz_workload_ops synth_bp_ops = {
    .name = "porep-synth (bellperson)",
    .synthesize = synth_bp_synthesize,
    CZ__BP_STAGES,
    .destroy = synth_bp_destroy,
};

static int workload_bp(cz_workload *out, cz_porep_synth_ctx *ctx, uint32_t nparts, uint64_t seed,
                       const cz_workload_blinding *bl, cz_errinfo *ei) {
    synth_bp_job *j = calloc(1, sizeof *j);
    int rc;
    if (j == NULL)
        return cz_fail(ei, CZ_ENOMEM, "workload");
    if ((rc = cz__bp_job_init(&j->g, ctx->bp, nparts, bl, ei)) != CZ_OK) {
        free(j);
        return rc;
    }
    j->ctx = ctx;
    j->seed = seed;
    j->g.keys = &ctx->bp_keys;
    j->g.skip_verify = ctx->bp_keys.bench;
    j->g.a_aux = ctx->a_aux;
    j->g.b_in = ctx->b_in;
    j->g.b_aux = ctx->b_aux;
    j->g.ninput = (size_t)ctx->cs.npublic + 1;
    j->g.naux = ctx->cs.naux;
    j->g.abc_size = (size_t)ctx->cs.nrows + j->g.ninput;
    cz__bp_workload(out, &synth_bp_ops, j, &j->g, CZ_KIND_POREP_SYNTH,
                    cz_porep_synth_ctx_part_bytes(ctx));
    return CZ_OK;
}

int cz_workload_porep_synth(cz_workload *out, cz_porep_synth_ctx *ctx, uint32_t nparts,
                            uint64_t seed, const cz_workload_blinding *bl, cz_errinfo *ei) {
    synth_job *j;
    int rc;
    memset(out, 0, sizeof *out);
    if (nparts == 0)
        return cz_fail(ei, CZ_EINVAL, "porep-synth: 0 partitions");
    if (ctx->bp != NULL)
        return workload_bp(out, ctx, nparts, seed, bl, ei);
    if ((j = calloc(1, sizeof *j)) == NULL)
        return cz_fail(ei, CZ_ENOMEM, "workload");
    if ((rc = cz__g16_job_init(&j->g, ctx->zk, nparts, bl, ei)) != CZ_OK) {
        free(j);
        return rc;
    }
    j->ctx = ctx;
    j->seed = seed;
    j->g.keys = &ctx->keys;
    j->g.skip_verify = ctx->bk != NULL;
    cz__g16_workload(out, &synth_ops, j, &j->g, CZ_KIND_POREP_SYNTH,
                     cz_porep_synth_ctx_part_bytes(ctx), (uint64_t)ctx->cs.nvars * FR_BYTES);
    return CZ_OK;
}

uint64_t cz_porep_synth_ctx_part_bytes(const cz_porep_synth_ctx *ctx) {
    if (ctx->bp != NULL) /* a, b, c and w = input | aux, all pooled */
        return (3 * ((uint64_t)ctx->cs.nrows + ctx->cs.npublic + 1) + ctx->cs.nvars) * FR_BYTES;
    /* a, b, c (a CPU compute allocates c; a benchmark key computes on the GPU only, where c lives
     * on the device) + the partition's Montgomery and standard witnesses (the Montgomery one's
     * bytes are released at the end of synthesis) */
    uint64_t nvec = ctx->bk != NULL ? 2 : 3;
    return nvec * (uint64_t)ctx->zk->domain_size * FR_BYTES +
           2 * (uint64_t)ctx->cs.nvars * FR_BYTES;
}

const cz_zkey *cz_porep_synth_ctx_zkey(const cz_porep_synth_ctx *ctx) {
    return ctx->zk;
}

void cz_porep_synth_ctx_free(cz_porep_synth_ctx *ctx) {
    if (ctx == NULL)
        return;
    if (ctx->keys_init)
        cz__g16_keys_fini(&ctx->keys);
    if (ctx->bp != NULL) {
        cz__bp_keys_fini(&ctx->bp_keys);
        cz_bellperson_params_free(ctx->bp);
        free(ctx->bp);
    }
    free(ctx->a_aux);
    free(ctx->b_in);
    free(ctx->b_aux);
    if (ctx->bk != NULL)
        cz__bench_key_free(ctx->bk);
    else
        cz_zkey_close(ctx->zk);
    cz_r1cs_free(&ctx->cs);
    free(ctx);
}

/* ---- the key cache ---- */

/*
 * A 64-bit checksum of a file's bytes: four lanes of xxHash64's round over 32-byte stripes, the
 * tail zero-padded, then the lanes and the length mixed. It finds accidental damage (a torn
 * write, a flipped bit, a truncation), not tampering: the cache directory is private to the
 * daemon's user (docs/daemon.md), so nobody else can write there. ~1 s per GB on one core.
 */
#define SUM_P1 0x9E3779B185EBCA87ull
#define SUM_P2 0xC2B2AE3D27D4EB4Full

static uint64_t sum_round(uint64_t acc, uint64_t w) {
    acc += w * SUM_P2;
    return ((acc << 31) | (acc >> 33)) * SUM_P1;
}

static void sum_stripes(uint64_t v[4], const uint8_t *p, size_t n) {
    for (size_t off = 0; off < n; off += 32)
        for (int l = 0; l < 4; l++) {
            uint64_t w;
            memcpy(&w, p + off + 8 * l, 8);
            v[l] = sum_round(v[l], w);
        }
}

static int file_sum(uint64_t *out, const char *path, cz_errinfo *ei) {
    enum { CHUNK = 1 << 20 };
    uint64_t v[4] = {SUM_P1, SUM_P2, ~SUM_P1, ~SUM_P2}, len = 0;
    uint8_t *buf = malloc(CHUNK + 32);
    FILE *f = buf != NULL ? fopen(path, "rb") : NULL;
    int rc = CZ_OK;
    if (buf == NULL)
        return cz_fail(ei, CZ_ENOMEM, "checksum buffer");
    if (f == NULL) {
        free(buf);
        return cz_fail(ei, CZ_EIO, "%s: cannot open: %s", path, strerror(errno));
    }
    for (;;) {
        size_t n = fread(buf, 1, CHUNK, f);
        len += n;
        if (n < CHUNK) { /* the end: pad the tail to a whole stripe */
            memset(buf + n, 0, 32);
            sum_stripes(v, buf, (n + 31) / 32 * 32);
            break;
        }
        sum_stripes(v, buf, n);
    }
    if (ferror(f))
        rc = cz_fail(ei, CZ_EIO, "%s: read error", path);
    fclose(f);
    free(buf);
    uint64_t h = ((v[0] << 1) | (v[0] >> 63)) + ((v[1] << 7) | (v[1] >> 57)) +
                 ((v[2] << 12) | (v[2] >> 52)) + ((v[3] << 18) | (v[3] >> 46));
    h ^= len * SUM_P1;
    h ^= h >> 33;
    h *= SUM_P2;
    h ^= h >> 29;
    *out = h;
    return rc;
}

/* The checksum file of a key: "<key>.sum", one line "cuzk-sum1 <16 hex digits>". */
static void sum_path(char *out, size_t cap, const char *key) {
    snprintf(out, cap, "%s.sum", key);
}

static int sum_write(const char *path, uint64_t sum, cz_errinfo *ei) {
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return cz_fail(ei, CZ_EIO, "%s: cannot create: %s", path, strerror(errno));
    int ok = fprintf(f, "cuzk-sum1 %016llx\n", (unsigned long long)sum) > 0;
    if (fclose(f) != 0 || !ok)
        return cz_fail(ei, CZ_EIO, "%s: write failed", path);
    return CZ_OK;
}

/* Makes the key file at path from cs (written as .r1cs next to it, read back, set up), with its
 * checksum file. Every file is written under a name of this process and renamed into place, the
 * checksum first: a reader finds a whole key or none, and a crash between the two renames leaves
 * a checksum without a key, which is made again. */
static int make_key(const char *path, const cz_r1cs *cs, cz_threadpool *pool, cz_errinfo *ei) {
    char r1cs_path[4200], tmp[4200], sum[4200], sum_tmp[4300];
    cz_r1cs_file *rf = NULL;
    cz_groth16_trapdoor td;
    static const char seed[] = "cuzk porep-synth benchmark key (insecure)";
    uint64_t h = 0;
    long pid = (long)getpid();
    int rc;
    if (strlen(path) >= 4096)
        return cz_fail(ei, CZ_EINVAL, "porep-synth: key path too long");
    snprintf(r1cs_path, sizeof r1cs_path, "%s.r1cs.tmp%ld", path, pid);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, pid);
    sum_path(sum, sizeof sum, path);
    snprintf(sum_tmp, sizeof sum_tmp, "%s.tmp%ld", sum, pid);
    if ((rc = cz_r1cs_write(r1cs_path, cs, ei)) != CZ_OK)
        return rc;
    rc = cz_r1cs_open(&rf, r1cs_path, ei);
    remove(r1cs_path);
    if (rc != CZ_OK)
        return rc;
    cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)seed, sizeof seed - 1);
    rc = cz_groth16_setup(tmp, rf, &td, pool, ei);
    cz_r1cs_close(rf);
    if (rc == CZ_OK && (rc = file_sum(&h, tmp, ei)) == CZ_OK &&
        (rc = sum_write(sum_tmp, h, ei)) == CZ_OK) {
        if (rename(sum_tmp, sum) != 0 || rename(tmp, path) != 0)
            rc = cz_fail(ei, CZ_EIO, "porep-synth: cannot rename %s into place: %s", tmp,
                         strerror(errno));
    }
    remove(sum_tmp);
    remove(tmp);
    return rc;
}

/* Opens the cached key at path for ctx: its checksum file must match its bytes and it must be the
 * key of ctx's circuit. ctx->zk stays NULL on failure (ei says why). */
static int open_key(cz_porep_synth_ctx *ctx, const char *path, cz_errinfo *ei) {
    char sp[4200], line[64];
    unsigned long long want;
    uint64_t got;
    int rc;
    sum_path(sp, sizeof sp, path);
    FILE *f = fopen(sp, "r");
    if (f == NULL)
        return cz_fail(ei, CZ_EFORMAT, "%s: no checksum file (%s)", sp, strerror(errno));
    int ok = fgets(line, sizeof line, f) != NULL && sscanf(line, "cuzk-sum1 %16llx", &want) == 1;
    fclose(f);
    if (!ok)
        return cz_fail(ei, CZ_EFORMAT, "%s: not a checksum file", sp);
    if ((rc = file_sum(&got, path, ei)) != CZ_OK)
        return rc;
    if (got != (uint64_t)want)
        return cz_fail(ei, CZ_EFORMAT, "%s: the checksum of its bytes is not the one in %s", path,
                       sp);
    if ((rc = cz_zkey_open(&ctx->zk, path, ei)) != CZ_OK)
        return rc;
    if (ctx->zk->nvars != ctx->cs.nvars || ctx->zk->npublic != ctx->cs.npublic) {
        cz_zkey_close(ctx->zk);
        ctx->zk = NULL;
        return cz_fail(ei, CZ_EFORMAT, "%s does not belong to the scale-%u circuit", path, ctx->k);
    }
    return CZ_OK;
}

/* A context with its circuit built (*out set even on failure, for the caller to free). */
static int ctx_new(cz_porep_synth_ctx **out, cz_curve_id curve, unsigned k, cz_threadpool *pool,
                   cz_errinfo *ei) {
    cz_porep_synth_ctx *ctx = calloc(1, sizeof *ctx);
    *out = ctx;
    if (ctx == NULL)
        return cz_fail(ei, CZ_ENOMEM, "porep-synth context");
    ctx->curve = curve;
    ctx->k = k;
    return cz_porep_synth_build(&ctx->cs, curve, k, pool, ei);
}

int cz_porep_synth_ctx_create(cz_porep_synth_ctx **out, cz_curve_id curve, unsigned k,
                              const char *cache_dir, cz_threadpool *pool, cz_errinfo *ei) {
    cz_porep_synth_ctx *ctx;
    char path[4096], sp[4200];
    struct stat st;
    int rc;
    *out = NULL;
    if ((rc = ctx_new(&ctx, curve, k, pool, ei)) != CZ_OK)
        goto fail;
    mkdir(cache_dir, 0700);
    snprintf(path, sizeof path, "%s/porep-synth-%s-%u.zkey", cache_dir,
             curve == CZ_CURVE_BN254 ? "bn254" : "bls12381", k);
    sum_path(sp, sizeof sp, path);
    if (stat(path, &st) == 0) {
        /* A cached key that cannot be used (damaged, cut short, of another circuit) is ours to
         * repair, not the client's problem: it is made again, once. */
        cz_errinfo why;
        cz_errinfo_clear(&why);
        if (open_key(ctx, path, &why) != CZ_OK) {
            CZ_LOG_WARN("porep-synth: cached key %s cannot be used (%s); making it again", path,
                        why.msg);
            remove(path);
            remove(sp);
        }
    }
    if (ctx->zk == NULL) {
        if ((rc = make_key(path, &ctx->cs, pool, ei)) != CZ_OK ||
            (rc = open_key(ctx, path, ei)) != CZ_OK) {
            /* our own file that we cannot make or read back: an internal error */
            rc = cz_fail(ei, rc == CZ_ENOMEM ? CZ_ENOMEM : CZ_EIO, "porep-synth: key %s", path);
            goto fail;
        }
    }
    cz__g16_keys_init(&ctx->keys, ctx->zk, NULL, NULL);
    ctx->keys_init = 1;
    *out = ctx;
    return CZ_OK;
fail:
    cz_porep_synth_ctx_free(ctx);
    return rc;
}

int cz_porep_synth_ctx_create_bench(cz_porep_synth_ctx **out, cz_curve_id curve, unsigned k,
                                    cz_threadpool *pool, cz_errinfo *ei) {
    cz_porep_synth_ctx *ctx;
    int rc;
    *out = NULL;
    if ((rc = ctx_new(&ctx, curve, k, pool, ei)) != CZ_OK ||
        (rc = cz__bench_key_make(&ctx->bk, &ctx->cs, k, 0x70726570ull + k, pool, ei)) != CZ_OK) {
        cz_porep_synth_ctx_free(ctx);
        return rc;
    }
    ctx->zk = &ctx->bk->zk;
    cz__g16_keys_init(&ctx->keys, ctx->zk, ctx->bk->p0, ctx->bk->step);
    ctx->keys_init = 1;
    *out = ctx;
    return CZ_OK;
}

int cz_porep_synth_ctx_is_bench(const cz_porep_synth_ctx *ctx) {
    return ctx->bk != NULL || (ctx->bp != NULL && ctx->bp_keys.bench);
}

/* A benchmark bellperson key of the circuit's counts (cz_groth16_bp_bench_params): the shape is
 * the circuit's densities. */
static void bp_bench_key(cz_porep_synth_ctx *ctx) {
    cz_assignment shape = {0};
    shape.ninput = (size_t)ctx->cs.npublic + 1;
    shape.naux = ctx->cs.naux;
    shape.a_aux_density = ctx->a_aux;
    shape.b_input_density = ctx->b_in;
    shape.b_aux_density = ctx->b_aux;
    cz_groth16_bp_bench_params(ctx->bp, &shape, ctx->k);
    ctx->bp_keys.bench = 1;
}

int cz_porep_synth_ctx_create_bp(cz_porep_synth_ctx **out, unsigned k, int bench,
                                 cz_threadpool *pool, cz_errinfo *ei) {
    static const char seed[] = "cuzk porep-synth bellperson key (insecure)";
    cz_porep_synth_ctx *ctx;
    cz_groth16_trapdoor td;
    int rc;
    *out = NULL;
    if ((rc = ctx_new(&ctx, CZ_CURVE_BLS12381, k, pool, ei)) != CZ_OK ||
        (rc = cz_r1cs_densities(&ctx->a_aux, &ctx->b_in, &ctx->b_aux, &ctx->cs, pool, ei)) != CZ_OK)
        goto fail;
    if ((ctx->bp = calloc(1, sizeof *ctx->bp)) == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "porep-synth: bellperson key");
        goto fail;
    }
    cz__bp_keys_init(&ctx->bp_keys, ctx->bp);
    if (bench) {
        bp_bench_key(ctx);
    } else {
        cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)seed, sizeof seed - 1);
        if ((rc = cz_groth16_setup_bellperson(ctx->bp, &ctx->cs, &td, pool, -1, ei)) != CZ_OK)
            goto fail;
    }
    *out = ctx;
    return CZ_OK;
fail:
    cz_porep_synth_ctx_free(ctx);
    return rc;
}

uint64_t cz_porep_synth_ctx_host_bytes(const cz_porep_synth_ctx *ctx) {
    const cz_r1cs *cs = &ctx->cs;
    uint64_t b = (uint64_t)cs->nvars * 32 + (uint64_t)cs->ncoefs * 32;
    const cz_r1cs_mat *m[3] = {&cs->a, &cs->b, &cs->c};
    for (int i = 0; i < 3; i++)
        b += ((uint64_t)cs->nrows + 1) * 8 + m[i]->nnz * 8;
    if (ctx->bk != NULL)
        b += ctx->bk->b2_bytes + ((uint64_t)cs->npublic + 1) * 96;
    return b;
}
