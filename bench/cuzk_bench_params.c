/*
 * cuzk-bench-params: how long a bellperson .params key of Filecoin's size takes to load through
 * the SRS manager (docs/params.md, "Loading a key"), and the writer of the key it loads.
 *
 *   cuzk-bench-params write OUT.params [--shape porep-32g | --scale K]
 *   cuzk-bench-params load KEY.params [--threads N] [--runs R] [--subgroup]
 *                          [--host heap|pinned|malloc|cuda-host-alloc] [--pinned]
 *
 * write: a key with the section counts of Filecoin's 32 GiB PoRep parameters (--shape porep-32g,
 * the default: IC 329, H 134,217,727, L 130,169,893, A 129,753,620, B_G1 and B_G2 33,112,282 each,
 * 47.2 GB) or with those counts scaled to 2^K of the 2^27 domain (--scale K, 1..27: H 2^K - 1
 * points, the others in the same proportions, at least one each; IC as it is). THE KEY IS FOR
 * TIMING ONLY: it proves nothing, because its points come from no trapdoor of any circuit. Its
 * points are nonetheless what a reader must accept: valid encodings of points of the prime-order
 * subgroup (multiples of the generator, bench_points.h), none of them infinity, so a load with or
 * without the subgroup check reads the same bytes a real key would make it read. The proving
 * sections cycle a pool of NPOOL_G1 (NPOOL_G2) distinct points, encoded once into a buffer of
 * CHUNK_BYTES that is written again and again, so the writer costs little more than the writes;
 * the verifying key's points are distinct from one another. The file's space is reserved first
 * (posix_fallocate), so a disk too small fails at once rather than after minutes. One JSON line,
 * op "write": bytes, seconds, GB/s.
 *
 * load: each run makes an SRS manager whose config holds a pool of N threads (default one per
 * CPU) and the host memory (--host: heap = the engine's default, pageable huge-page mappings;
 * pinned (or --pinned) = the pinned allocator the daemon uses when it has GPUs, the same mappings
 * registered with the driver; and two references for what those replaced: malloc = plain malloc,
 * 4 KiB pages, and cuda-host-alloc = cudaHostAlloc), and times cz_srs_acquire of the key with
 * cz_srs_loader_params: the footprint walk, the allocation of the five arrays, the parallel read
 * and decode, the file checks, as the engine and the daemon load a key. R runs (default 2): the
 * first may read the disk, later ones find the file in the page cache. One JSON line per run, op
 * "load": seconds and GB/s of the file's bytes. Then one line, op "pread": the same file read by
 * the same threads in the reader's chunks into buffers of their own, with no decoding and no new
 * memory: the part of a load that is the copy out of the page cache. With --subgroup, one more load
 * with the subgroup check of the five proving sections (cz_srs_config.params_check_subgroup), op
 * "load_subgroup", which also says what the check added: seconds over the median plain load, and
 * CPU nanoseconds per point (that difference times N over the points).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_points.h"
#include "bench_util.h"
#include "cuzk/bellperson.h"
#include "cuzk/encoding.h"
#include "cuzk/engine.h"
#include "cuzk/gpu.h"
#include "cuzk/rand.h"
#include "cuzk/threadpool.h"

#define NSECT       CZ_BELLPERSON_NSECTIONS
#define G1_BYTES    CZ_BLS12381_G1_UNCOMPRESSED_BYTES
#define G2_BYTES    CZ_BLS12381_G2_UNCOMPRESSED_BYTES
#define NPOOL_G1    4096
#define NPOOL_G2    1024
#define CHUNK_BYTES ((size_t)48 << 20)  /* a whole number of pools of either group */
#define READ_CHUNK  ((size_t)768 << 10) /* the reader's task size (formats/bellperson.c) */
#define MAX_RUNS    32

_Static_assert(CHUNK_BYTES % ((size_t)NPOOL_G1 * G1_BYTES) == 0, "G1 chunks hold whole pools");
_Static_assert(CHUNK_BYTES % ((size_t)NPOOL_G2 * G2_BYTES) == 0, "G2 chunks hold whole pools");

/* Filecoin's v28 32 GiB PoRep parameters, section by section (cuzk/bellperson.h's order). */
static const uint32_t porep_32g[NSECT] = {329, 134217727, 130169893, 129753620, 33112282, 33112282};

static const char usage[] =
    "usage: cuzk-bench-params write OUT.params [--shape porep-32g | --scale K]\n"
    "       cuzk-bench-params load KEY.params [--threads N] [--runs R] [--subgroup]\n"
    "                              [--host heap|pinned|malloc|cuda-host-alloc] [--pinned]\n"
    "The written key is for timing only: its points come from no trapdoor, it proves nothing.\n";

/* ---- write ------------------------------------------------------------------------------- */

/* The counts at 2^k of the 2^27 domain: H is the domain less one, as bellperson's is. */
static void shape_scaled(uint32_t n[NSECT], unsigned k) {
    n[CZ_BELLPERSON_IC] = porep_32g[CZ_BELLPERSON_IC];
    n[CZ_BELLPERSON_H] = (uint32_t)((1ull << k) - 1);
    for (int s = CZ_BELLPERSON_L; s < NSECT; s++) {
        uint64_t c = ((uint64_t)porep_32g[s] << k) >> 27;
        n[s] = c > 0 ? (uint32_t)c : 1;
    }
}

static uint64_t random_u64(void) {
    uint64_t v = 0;
    if (cz_random_bytes(&v, sizeof v) != CZ_OK)
        v = bench_now_ns();
    /* 1..2^62: never 0 (a zero step would repeat one point), and small enough that no
     * k0 + i·step of the pools reaches the group order (bench_points.h). */
    return (v >> 2) + 1;
}

/* Writes len bytes at the file's position, as many write calls as it takes; 0 or an errno. */
static int write_all(int fd, const uint8_t *p, size_t len) {
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        p += w, len -= (size_t)w;
    }
    return 0;
}

/* The verifying key's encoding from the tails of the two progressions (distinct points). */
static int vk_bytes(uint8_t **out, size_t *len, cz_bls12381_g1_affine *g1,
                    cz_bls12381_g2_affine *g2, uint32_t nic) {
    cz_bellperson_vk vk = {g1[0], g1[1], g1[2], g2[0], g2[1], g2[2], nic, g1 + 3};
    *len = cz_bellperson_vk_bytes(&vk);
    *out = malloc(*len);
    return *out != NULL && cz_bellperson_vk_encode(*out, &vk, NULL) == CZ_OK ? 0 : -1;
}

/* buf (CHUNK_BYTES) filled with the pool's encodings, repeated. */
static void fill_chunk(uint8_t *buf, const void *pool, int g2) {
    size_t pb = g2 ? G2_BYTES : G1_BYTES, n = g2 ? NPOOL_G2 : NPOOL_G1;
    for (size_t i = 0; i < n; i++) {
        if (g2)
            cz_bls12381_g2_to_uncompressed(buf + i * pb, (const cz_bls12381_g2_affine *)pool + i);
        else
            cz_bls12381_g1_to_uncompressed(buf + i * pb, (const cz_bls12381_g1_affine *)pool + i);
    }
    for (size_t off = n * pb; off < CHUNK_BYTES; off += n * pb)
        memcpy(buf + off, buf, n * pb);
}

static int cmd_write(const char *path, const uint32_t n[NSECT], const char *shape) {
    size_t ng1 = NPOOL_G1 + 3 + n[CZ_BELLPERSON_IC], ng2 = NPOOL_G2 + 3, vkn = 0;
    cz_bls12381_g1_affine *g1 = malloc(ng1 * sizeof *g1);
    cz_bls12381_g2_affine *g2 = malloc(ng2 * sizeof *g2);
    uint8_t *c1 = malloc(CHUNK_BYTES), *c2 = malloc(CHUNK_BYTES), *vkb = NULL;
    uint64_t size = 888 + (uint64_t)G2_BYTES * n[CZ_BELLPERSON_B_G2];
    int fd = -1, rc = 1, err = 0;
    for (int s = CZ_BELLPERSON_IC; s < CZ_BELLPERSON_B_G2; s++)
        size += (uint64_t)G1_BYTES * n[s];
    fprintf(stderr,
            "cuzk-bench-params: %s: a %s key of %.1f GB for timing only (its points come from no "
            "trapdoor: it proves nothing)\n",
            path, shape, (double)size / 1e9);
    if (g1 == NULL || g2 == NULL || c1 == NULL || c2 == NULL ||
        bench_g1_progression(g1, ng1, random_u64(), random_u64()) != 0 ||
        bench_g2_progression(g2, ng2, random_u64(), random_u64()) != 0 ||
        vk_bytes(&vkb, &vkn, g1 + NPOOL_G1, g2 + NPOOL_G2, n[CZ_BELLPERSON_IC]) != 0) {
        fprintf(stderr, "cuzk-bench-params: out of memory\n");
        goto out;
    }
    fill_chunk(c1, g1, 0);
    fill_chunk(c2, g2, 1);
    uint64_t t0 = bench_now_ns();
    if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0) {
        err = errno;
        goto out;
    }
    err = posix_fallocate(fd, 0, (off_t)size);
    if (err == EOPNOTSUPP || err == EINVAL)
        err = 0; /* a file system without reservations: the writes find out */
    if (err == 0)
        err = write_all(fd, vkb, vkn);
    for (int s = CZ_BELLPERSON_H; err == 0 && s < NSECT; s++) {
        int isg2 = s == CZ_BELLPERSON_B_G2;
        uint8_t cnt[4] = {(uint8_t)(n[s] >> 24), (uint8_t)(n[s] >> 16), (uint8_t)(n[s] >> 8),
                          (uint8_t)n[s]};
        uint64_t left = (uint64_t)n[s] * (isg2 ? G2_BYTES : G1_BYTES);
        err = write_all(fd, cnt, 4);
        while (err == 0 && left > 0) {
            size_t len = left < CHUNK_BYTES ? (size_t)left : CHUNK_BYTES;
            err = write_all(fd, isg2 ? c2 : c1, len);
            left -= len;
        }
    }
    if (close(fd) != 0 && err == 0)
        err = errno;
    fd = -1;
    if (err == 0) {
        double ns = (double)(bench_now_ns() - t0);
        char f[256];
        snprintf(f, sizeof f,
                 "\"op\":\"write\",\"shape\":\"%s\",\"timing_only\":true,\"bytes\":%llu,"
                 "\"s\":%.3f,\"gb_s\":%.3f",
                 shape, (unsigned long long)size, ns / 1e9, (double)size / ns);
        bench_print_json("params", f, (bench_stats){ns, ns, ns});
        rc = 0;
    }
out:
    if (err != 0) {
        fprintf(stderr, "cuzk-bench-params: %s: %s%s\n", path, strerror(err),
                err == ENOSPC ? " (the key needs more room than the file system has)" : "");
        unlink(path);
    }
    if (fd >= 0)
        close(fd);
    free(vkb), free(c2), free(c1), free(g2), free(g1);
    return rc;
}

/* ---- load -------------------------------------------------------------------------------- */

typedef struct load_opts {
    const char *path;
    size_t threads;
    int runs, subgroup;
    const char *host; /* heap, pinned, malloc, cuda-host-alloc */
} load_opts;

/* The two references: plain malloc (4 KiB pages) and cudaHostAlloc, what the engine's default and
 * pinned memories were before they became huge-page mappings (src/engine/hostmem.c). */
static void *malloc_alloc(void *arg, size_t bytes) {
    (void)arg;
    return malloc(bytes);
}

static void malloc_free(void *arg, void *p, size_t bytes) {
    (void)arg;
    (void)bytes;
    free(p);
}

static void *cuda_alloc(void *arg, size_t bytes) {
    void *p = NULL;
    (void)arg;
    return cz_gpu_host_alloc(&p, bytes, NULL) == CZ_OK ? p : NULL;
}

static void cuda_free(void *arg, void *p, size_t bytes) {
    (void)arg;
    (void)bytes;
    cz_gpu_host_free(p);
}

static const cz_srs_host_mem host_malloc = {malloc_alloc, malloc_free, NULL, NULL};
static const cz_srs_host_mem host_cuda = {cuda_alloc, cuda_free, NULL, NULL};

/* NULL for heap: the manager's default. */
static const cz_srs_host_mem *host_mem_of(const char *host) {
    return strcmp(host, "pinned") == 0            ? &cz_srs_host_mem_pinned
           : strcmp(host, "malloc") == 0          ? &host_malloc
           : strcmp(host, "cuda-host-alloc") == 0 ? &host_cuda
                                                  : NULL;
}

/* One load through a fresh manager: its wall seconds in *s. */
static int load_once(double *s, const load_opts *o, cz_threadpool *pool, int subgroup,
                     cz_errinfo *ei) {
    cz_srs_config cfg = {NULL, NULL, host_mem_of(o->host), pool, subgroup};
    cz_srs *m = NULL;
    cz_srs_key *k = NULL;
    int rc = cz_srs_create(&m, &cfg, ei);
    if (rc != CZ_OK)
        goto out;
    uint64_t t0 = bench_now_ns();
    rc = cz_srs_acquire(&k, m, o->path, &cz_srs_loader_params, ei);
    *s = (double)(bench_now_ns() - t0) / 1e9;
out:
    cz_srs_release(k);
    cz_srs_destroy(m);
    return rc;
}

typedef struct pread_ctx {
    int fd;
    uint64_t size;
    size_t nchunks;
    uint8_t *bufs;      /* one READ_CHUNK per task */
    atomic_size_t next; /* the next chunk to read */
    atomic_int failed;
} pread_ctx;

/* Task t reads chunks, whichever is next, into buffer t until none is left. */
static void pread_task(void *arg, size_t t) {
    pread_ctx *c = arg;
    uint8_t *buf = c->bufs + t * READ_CHUNK;
    for (size_t i; (i = atomic_fetch_add(&c->next, 1)) < c->nchunks;) {
        uint64_t off = (uint64_t)i * READ_CHUNK;
        size_t len = c->size - off < READ_CHUNK ? (size_t)(c->size - off) : READ_CHUNK;
        while (len > 0) {
            ssize_t r = pread(c->fd, buf, len, (off_t)off);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                atomic_store(&c->failed, 1);
                return;
            }
            off += (uint64_t)r, len -= (size_t)r;
        }
    }
}

/* The file read in the reader's chunks over pool, into per-thread buffers: seconds in *s. */
static int pread_pass(double *s, const char *path, uint64_t size, cz_threadpool *pool) {
    pread_ctx c = {.size = size, .nchunks = (size_t)((size + READ_CHUNK - 1) / READ_CHUNK)};
    size_t ntasks = cz_threadpool_size(pool);
    int rc = -1;
    c.fd = open(path, O_RDONLY | O_CLOEXEC);
    c.bufs = malloc(ntasks * READ_CHUNK);
    atomic_init(&c.next, 0);
    atomic_init(&c.failed, 0);
    if (c.fd >= 0 && c.bufs != NULL) {
        uint64_t t0 = bench_now_ns();
        cz_threadpool_run(pool, pread_task, &c, ntasks);
        *s = (double)(bench_now_ns() - t0) / 1e9;
        rc = atomic_load(&c.failed) ? -1 : 0;
    }
    if (c.fd >= 0)
        close(c.fd);
    free(c.bufs);
    return rc;
}

/* The fields every load line shares. */
static void load_fields(char *f, size_t n, const char *op, int run, const load_opts *o,
                        size_t threads, const cz_bellperson_info *info, uint64_t g1, double s) {
    snprintf(f, n,
             "\"op\":\"%s\",\"run\":%d,\"threads\":%zu,\"host_mem\":\"%s\",\"bytes\":%llu,"
             "\"g1_points\":%llu,\"g2_points\":%u,\"s\":%.6f,\"gb_s\":%.4g",
             op, run, threads, o->host, (unsigned long long)info->size, (unsigned long long)g1,
             info->count[CZ_BELLPERSON_B_G2], s, (double)info->size / s / 1e9);
}

static void print_line(const char *fields, double s) {
    double ns = s * 1e9;
    bench_print_json("params", fields, (bench_stats){ns, ns, ns});
}

static int cmd_load(const load_opts *o) {
    cz_bellperson_info info;
    cz_threadpool *pool = NULL;
    cz_errinfo ei;
    double t[MAX_RUNS], s = 0;
    char f[512];
    uint64_t g1 = 0;
    cz_errinfo_clear(&ei);
    int rc = cz_bellperson_info_read(&info, o->path, CZ_BELLPERSON_PARAMS, &ei);
    if (rc == CZ_OK)
        rc = cz_threadpool_create(&pool, o->threads, &ei);
    if (rc != CZ_OK)
        goto out;
    size_t nthreads = cz_threadpool_size(pool);
    for (int sct = CZ_BELLPERSON_IC; sct < CZ_BELLPERSON_B_G2; sct++)
        g1 += info.count[sct];
    for (int r = 0; r < o->runs; r++) {
        if ((rc = load_once(&t[r], o, pool, 0, &ei)) != CZ_OK)
            goto out;
        load_fields(f, sizeof f, "load", r + 1, o, nthreads, &info, g1, t[r]);
        print_line(f, t[r]);
    }
    if (pread_pass(&s, o->path, info.size, pool) != 0) {
        rc = cz_fail(&ei, CZ_EIO, "%s: cannot read it", o->path);
        goto out;
    }
    load_fields(f, sizeof f, "pread", 1, o, nthreads, &info, g1, s);
    print_line(f, s);
    if (o->subgroup) {
        /* The plain baseline: the median of the runs after the first (the first may have read
         * the disk), or the only one. */
        bench_stats plain = bench_stats_of(t + (o->runs > 1), (size_t)(o->runs - (o->runs > 1)));
        if ((rc = load_once(&s, o, pool, 1, &ei)) != CZ_OK)
            goto out;
        double extra = s - plain.median, points = (double)g1 + info.count[CZ_BELLPERSON_B_G2];
        size_t len;
        load_fields(f, sizeof f, "load_subgroup", 1, o, nthreads, &info, g1, s);
        len = strlen(f);
        snprintf(f + len, sizeof f - len, ",\"subgroup_s\":%.3f,\"subgroup_cpu_ns_per_point\":%.1f",
                 extra, extra * 1e9 * (double)nthreads / points);
        print_line(f, s);
    }
out:
    cz_threadpool_destroy(pool);
    if (rc != CZ_OK)
        fprintf(stderr, "cuzk-bench-params: %s\n", ei.msg);
    return rc == CZ_OK ? 0 : 1;
}

/* ---- the command line -------------------------------------------------------------------- */

/* A whole decimal number in lo..hi, else -1. */
static long number(const char *s, long lo, long hi) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return errno == 0 && end != s && *end == '\0' && v >= lo && v <= hi ? v : -1;
}

static int main_write(int argc, char **argv) {
    uint32_t n[NSECT];
    char shape[32] = "porep-32g";
    memcpy(n, porep_32g, sizeof n);
    for (int a = 3; a < argc; a++) {
        long k;
        if (strcmp(argv[a], "--shape") == 0 && a + 1 < argc &&
            strcmp(argv[a + 1], "porep-32g") == 0) {
            a++;
        } else if (strcmp(argv[a], "--scale") == 0 && a + 1 < argc &&
                   (k = number(argv[a + 1], 1, 27)) > 0) {
            shape_scaled(n, (unsigned)k);
            snprintf(shape, sizeof shape, "porep-2^%ld", k);
            a++;
        } else {
            fputs(usage, stderr);
            return 2;
        }
    }
    return cmd_write(argv[2], n, shape);
}

static int main_load(int argc, char **argv) {
    load_opts o = {argv[2], 0, 2, 0, "heap"};
    for (int a = 3; a < argc; a++) {
        long v = -1;
        if (strcmp(argv[a], "--threads") == 0 && a + 1 < argc &&
            (v = number(argv[a + 1], 0, CZ_THREADPOOL_MAX_THREADS)) >= 0) {
            o.threads = (size_t)v, a++;
        } else if (strcmp(argv[a], "--runs") == 0 && a + 1 < argc &&
                   (v = number(argv[a + 1], 1, MAX_RUNS)) > 0) {
            o.runs = (int)v, a++;
        } else if (strcmp(argv[a], "--subgroup") == 0) {
            o.subgroup = 1;
        } else if (strcmp(argv[a], "--pinned") == 0) {
            o.host = "pinned";
        } else if (strcmp(argv[a], "--host") == 0 && a + 1 < argc &&
                   (strcmp(argv[a + 1], "heap") == 0 || host_mem_of(argv[a + 1]) != NULL)) {
            o.host = argv[++a];
        } else {
            fputs(usage, stderr);
            return 2;
        }
    }
    return cmd_load(&o);
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "write") == 0)
        return main_write(argc, argv);
    if (argc >= 3 && strcmp(argv[1], "load") == 0)
        return main_load(argc, argv);
    fputs(usage, argc >= 2 && strcmp(argv[1], "--help") == 0 ? stdout : stderr);
    return argc >= 2 && strcmp(argv[1], "--help") == 0 ? 0 : 2;
}
