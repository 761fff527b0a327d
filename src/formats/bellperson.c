/*
 * bellperson's .vk and the reading machinery the .params reader shares (cuzk/bellperson.h): the
 * source (a descriptor from cz_file_open, or a buffer), the walk of the counts, and the parallel
 * decoder that reads each chunk of points into its destination and decodes it there.
 *
 * The decoder splits every section into tasks of TASK_BYTES of points (8192 G1 or 4096 G2). A task
 * reads its bytes straight into the destination array (the encoding and the struct of a point have
 * the same size), then decodes point by point from a copy of each encoding on the stack. A task
 * that fails records its error under a lock when it is the first failure in file order so far;
 * tasks after it are skipped, tasks before it still run, so the error reported is always the one
 * of the first bad point, whatever the pool's size.
 */
#include "formats/bellperson_internal.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/encoding.h"
#include "cuzk/threadpool.h"
#include "formats/bufwrite.h"

#define G1_BYTES   CZ_BLS12381_G1_UNCOMPRESSED_BYTES
#define G2_BYTES   CZ_BLS12381_G2_UNCOMPRESSED_BYTES
#define TASK_BYTES ((size_t)768 << 10)
#define IC_OFFSET  ((uint64_t)CZ_BELLPERSON_VK_POINTS_BYTES)

_Static_assert(sizeof(cz_bls12381_g1_affine) == G1_BYTES, "a G1 point decodes in place");
_Static_assert(sizeof(cz_bls12381_g2_affine) == G2_BYTES, "a G2 point decodes in place");

static const char *const section_names[CZ_BELLPERSON_NSECTIONS] = {"IC", "H",    "L",
                                                                   "A",  "B_G1", "B_G2"};

const char *cz_bellperson_section_name(int section) {
    return section >= 0 && section < CZ_BELLPERSON_NSECTIONS ? section_names[section] : "?";
}

size_t cz_bellperson_point_bytes(int section) {
    return section == CZ_BELLPERSON_B_G2 ? G2_BYTES : G1_BYTES;
}

/* The section as messages name it: IC is part of the verifying key. */
static const char *label(int section) {
    return section == CZ_BELLPERSON_IC ? "vk IC" : cz_bellperson_section_name(section);
}

/* ---- the source ---------------------------------------------------------------------------- */

int cz__bp_src_open(cz__bp_src *s, const char *path, cz_errinfo *ei) {
    memset(s, 0, sizeof *s);
    s->name = path;
    int rc = cz_file_open(&s->fd, &s->id, path, ei);
    if (rc == CZ_OK) {
        s->size = s->id.size;
        (void)posix_fadvise(s->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    }
    return rc;
}

void cz__bp_src_mem(cz__bp_src *s, const void *data, size_t size, const char *name) {
    memset(s, 0, sizeof *s);
    s->name = name ? name : "(buffer)";
    s->fd = -1;
    s->mem = data;
    s->size = data ? size : 0;
}

void cz__bp_src_close(cz__bp_src *s) {
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
}

/* len bytes at off, which the walk has checked against s->size. */
static int src_read(const cz__bp_src *s, void *buf, size_t len, uint64_t off, cz_errinfo *ei) {
    if (s->fd >= 0)
        return cz_file_pread(s->fd, buf, len, off, s->name, ei);
    CZ_ASSERT(off <= s->size && len <= s->size - off);
    memcpy(buf, s->mem + off, len);
    return CZ_OK;
}

/* ---- the walk of the counts ---------------------------------------------------------------- */

static int walk_fail(const cz__bp_src *s, cz_errinfo *ei, int section, uint64_t off,
                     const char *what, uint64_t n, uint64_t left) {
    return cz_fail(
        ei, CZ_EFORMAT,
        "%s: %s at offset %llu: %s %llu points (%llu bytes) run past the end of the file "
        "(%llu bytes left)",
        s->name, label(section), (unsigned long long)off, what, (unsigned long long)n,
        (unsigned long long)(n * cz_bellperson_point_bytes(section)), (unsigned long long)left);
}

/*
 * A bellperson file has no magic number, and its reader may be handed any file (a daemon reads
 * the key paths its clients name): an error must not tell what a file that is no key holds (a
 * count read from it, the offset that count leads to, the flag bits of its first byte). The
 * file's first 96 bytes stand in for a magic: they must be a point of the curve (alpha_g1), which
 * bytes not written as one are with probability 2^-381. Until they are, the only answer is that
 * the file is not a key; after, counts and offsets are the structure of a key and are named.
 */
static int looks_like_a_key(const cz__bp_src *s, cz_errinfo *ei) {
    uint8_t b[G1_BYTES];
    cz_bls12381_g1_affine p;
    int rc = src_read(s, b, sizeof b, 0, ei);
    if (rc == CZ_OK &&
        (cz_bls12381_g1_from_uncompressed_unchecked(&p, b, sizeof b, NULL) != CZ_OK ||
         cz_bls12381_g1_is_infinity(&p)))
        rc = cz_fail(ei, CZ_EFORMAT,
                     "%s: not a bellperson key (.vk or .params): its first 96 bytes are not a "
                     "point of the curve (alpha_g1)",
                     s->name);
    return rc;
}

int cz__bp_walk(cz_bellperson_info *info, const cz__bp_src *s, cz_bellperson_kind want,
                cz_errinfo *ei) {
    uint8_t b[4];
    uint64_t size = s->size, pos = IC_OFFSET;
    int rc;
    memset(info, 0, sizeof *info);
    info->size = size;
    if (size < IC_OFFSET + 4)
        return cz_fail(ei, CZ_EFORMAT,
                       "%s: vk at offset 0: the file has %llu bytes, fewer than the %llu of a "
                       "verifying key's six points and IC count",
                       s->name, (unsigned long long)size, (unsigned long long)(IC_OFFSET + 4));
    if ((rc = looks_like_a_key(s, ei)) != CZ_OK)
        return rc;
    for (int sect = CZ_BELLPERSON_IC; sect < CZ_BELLPERSON_NSECTIONS; sect++) {
        if (sect == CZ_BELLPERSON_H) {
            if (pos == size && want == CZ_BELLPERSON_PARAMS)
                return cz_fail(ei, CZ_EFORMAT,
                               "%s: H at offset %llu: the file ends after the verifying key (it "
                               "is a .vk, not a .params file)",
                               s->name, (unsigned long long)pos);
            if (pos == size) {
                info->kind = CZ_BELLPERSON_VK;
                return CZ_OK;
            }
            if (want == CZ_BELLPERSON_VK)
                return cz_fail(ei, CZ_EFORMAT,
                               "%s: %llu trailing bytes at offset %llu, after the verifying key's "
                               "IC (a .params file, or not a .vk)",
                               s->name, (unsigned long long)(size - pos), (unsigned long long)pos);
        }
        if (4 > size - pos)
            return cz_fail(ei, CZ_EFORMAT,
                           "%s: %s count at offset %llu: the file ends at byte %llu, inside it",
                           s->name, label(sect), (unsigned long long)pos, (unsigned long long)size);
        if ((rc = src_read(s, b, 4, pos, ei)) != CZ_OK)
            return rc;
        uint32_t n = cz__be32(b);
        info->offset[sect] = pos;
        info->count[sect] = n;
        pos += 4;
        if (sect == CZ_BELLPERSON_IC && n == 0)
            return cz_fail(ei, CZ_EFORMAT,
                           "%s: vk IC at offset %llu: no points (a key has at least IC[0], the "
                           "point of the input ONE)",
                           s->name, (unsigned long long)(pos - 4));
        if (n > (size - pos) / cz_bellperson_point_bytes(sect))
            return walk_fail(s, ei, sect, pos - 4, "its", n, size - pos);
        pos += (uint64_t)n * cz_bellperson_point_bytes(sect);
    }
    if (pos != size)
        return cz_fail(ei, CZ_EFORMAT, "%s: %llu trailing bytes at offset %llu, after B_G2",
                       s->name, (unsigned long long)(size - pos), (unsigned long long)pos);
    info->kind = CZ_BELLPERSON_PARAMS;
    return CZ_OK;
}

int cz_bellperson_info_read(cz_bellperson_info *info, const char *path, cz_bellperson_kind want,
                            cz_errinfo *ei) {
    cz__bp_src s;
    memset(info, 0, sizeof *info);
    int rc = cz__bp_src_open(&s, path, ei);
    if (rc != CZ_OK)
        return rc;
    rc = cz__bp_walk(info, &s, want, ei);
    cz__bp_src_close(&s);
    return rc;
}

int cz_bellperson_info_mem(cz_bellperson_info *info, const void *data, size_t size,
                           const char *name, cz_bellperson_kind want, cz_errinfo *ei) {
    cz__bp_src s;
    cz__bp_src_mem(&s, data, size, name);
    return cz__bp_walk(info, &s, want, ei);
}

/* ---- decoding points ----------------------------------------------------------------------- */

/* What an infinity in a section means, for its message. */
static const char *infinity_why(int section) {
    return section == CZ_BELLPERSON_L ? "the point at infinity (an unconstrained variable)"
                                      : "the point at infinity";
}

/* Decodes one encoding into *dst (G2 for B_G2 and the vk's G2 points: g2 = 1). The point at
 * infinity is refused with the message inf (bellperson.h says why). */
static int decode_point(void *dst, const uint8_t *enc, int g2, int check_subgroup, const char *inf,
                        cz_errinfo *ei) {
    int rc;
    if (g2) {
        cz_bls12381_g2_affine *p = dst;
        rc = check_subgroup ? cz_bls12381_g2_from_uncompressed(p, enc, G2_BYTES, ei)
                            : cz_bls12381_g2_from_uncompressed_unchecked(p, enc, G2_BYTES, ei);
        if (rc == CZ_OK && cz_bls12381_g2_is_infinity(p))
            rc = cz_fail(ei, CZ_EFORMAT, "%s", inf);
    } else {
        cz_bls12381_g1_affine *p = dst;
        rc = check_subgroup ? cz_bls12381_g1_from_uncompressed(p, enc, G1_BYTES, ei)
                            : cz_bls12381_g1_from_uncompressed_unchecked(p, enc, G1_BYTES, ei);
        if (rc == CZ_OK && cz_bls12381_g1_is_infinity(p))
            rc = cz_fail(ei, CZ_EFORMAT, "%s", inf);
    }
    return rc;
}

/* Decodes the n G1 encodings at dst in place, checked on the curve, eight at a time
 * (cz_bls12381_g1_from_uncompressed_unchecked_batch), and refuses the point at infinity with the
 * message inf. On an error *at is the index of the first bad point: an infinity before the
 * batch's first error comes first, as one by one. */
static int decode_g1_batch(uint8_t *dst, size_t n, const char *inf, size_t *at, cz_errinfo *ei) {
    cz_bls12381_g1_affine *p = (cz_bls12381_g1_affine *)(void *)dst;
    size_t bad;
    int rc = cz_bls12381_g1_from_uncompressed_unchecked_batch(p, dst, n, &bad, ei);
    for (size_t i = 0; i < bad; i++)
        if (cz_bls12381_g1_is_infinity(&p[i])) {
            *at = i;
            return cz_fail(ei, CZ_EFORMAT, "%s", inf);
        }
    *at = bad;
    return rc;
}

typedef struct decode_ctx {
    const cz__bp_src *s;
    const cz__bp_job *jobs;
    size_t njobs;
    size_t first[CZ_BELLPERSON_NSECTIONS + 1]; /* first task of each job; first[njobs] = all */
    pthread_mutex_t lock;                      /* protects rc, err and writes to failed */
    atomic_size_t failed;                      /* the first failed task, or SIZE_MAX */
    int rc;
    cz_errinfo err;
} decode_ctx;

static void record(decode_ctx *c, size_t task, int rc, const cz_errinfo *ei) {
    pthread_mutex_lock(&c->lock);
    if (task < atomic_load(&c->failed)) {
        atomic_store(&c->failed, task);
        c->rc = rc;
        c->err = *ei;
    }
    pthread_mutex_unlock(&c->lock);
}

static void decode_task(void *arg, size_t task) {
    decode_ctx *c = arg;
    if (atomic_load_explicit(&c->failed, memory_order_relaxed) < task)
        return; /* an earlier chunk failed: this one cannot give the first error */
    size_t j = 0;
    while (task >= c->first[j + 1])
        j++;
    const cz__bp_job *job = &c->jobs[j];
    size_t pb = cz_bellperson_point_bytes(job->section), per = TASK_BYTES / pb;
    size_t start = (task - c->first[j]) * per;
    size_t n = job->n - start < per ? job->n - start : per;
    uint8_t *dst = (uint8_t *)job->dst + start * pb;
    uint64_t off = job->off + (uint64_t)start * pb;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = src_read(c->s, dst, n * pb, off, &ei);
    if (rc != CZ_OK) {
        record(c, task, rc, &ei);
        return;
    }
    size_t i = 0;
    if (pb == G1_BYTES && !job->check_subgroup)
        rc = decode_g1_batch(dst, n, infinity_why(job->section), &i, &ei);
    else
        for (; i < n; i++) {
            uint8_t enc[G2_BYTES];
            memcpy(enc, dst + i * pb, pb);
            rc = decode_point(dst + i * pb, enc, pb == G2_BYTES, job->check_subgroup,
                              infinity_why(job->section), &ei);
            if (rc != CZ_OK)
                break;
        }
    if (rc != CZ_OK) {
        cz_fail(&ei, rc, "%s: %s point %zu at offset %llu", c->s->name, label(job->section),
                start + i, (unsigned long long)(off + i * pb));
        record(c, task, rc, &ei);
    }
}

int cz__bp_decode(const cz__bp_src *s, const cz__bp_job *jobs, size_t njobs, cz_threadpool *pool,
                  cz_errinfo *ei) {
    decode_ctx c = {.s = s, .jobs = jobs, .njobs = njobs, .rc = CZ_OK};
    CZ_ASSERT(njobs <= CZ_BELLPERSON_NSECTIONS);
    for (size_t j = 0; j < njobs; j++) {
        size_t per = TASK_BYTES / cz_bellperson_point_bytes(jobs[j].section);
        c.first[j + 1] = c.first[j] + (jobs[j].n + per - 1) / per;
    }
    atomic_init(&c.failed, SIZE_MAX);
    cz_errinfo_clear(&c.err);
    pthread_mutex_init(&c.lock, NULL);
    cz_threadpool_run(pool, decode_task, &c, c.first[njobs]);
    pthread_mutex_destroy(&c.lock);
    if (c.rc != CZ_OK)
        return cz_fail(ei, c.rc, "%s", c.err.msg);
    return CZ_OK;
}

/* ---- the verifying key --------------------------------------------------------------------- */

/* The six points: name, offset, G2 or not; the struct member is taken by vk_point. */
static const struct {
    const char *name;
    unsigned off;
    int g2;
} vk_points[6] = {{"alpha_g1", 0, 0},   {"beta_g1", 96, 0},   {"beta_g2", 192, 1},
                  {"gamma_g2", 384, 1}, {"delta_g1", 576, 0}, {"delta_g2", 672, 1}};

static void *vk_point(cz_bellperson_vk *vk, int i) {
    void *const p[6] = {&vk->alpha_g1, &vk->beta_g1,  &vk->beta_g2,
                        &vk->gamma_g2, &vk->delta_g1, &vk->delta_g2};
    return p[i];
}

int cz__bp_vk_read(cz_bellperson_vk *vk, const cz__bp_src *s, const cz_bellperson_info *info,
                   cz_threadpool *pool, cz_errinfo *ei) {
    uint8_t buf[CZ_BELLPERSON_VK_POINTS_BYTES];
    memset(vk, 0, sizeof *vk);
    int rc = src_read(s, buf, sizeof buf, 0, ei);
    for (int i = 0; rc == CZ_OK && i < 6; i++) {
        cz_errinfo pe;
        cz_errinfo_clear(&pe);
        rc = decode_point(vk_point(vk, i), buf + vk_points[i].off, vk_points[i].g2, 1,
                          "the point at infinity", &pe);
        if (rc != CZ_OK)
            rc = cz_fail(ei, rc, "%s: vk %s at offset %u: %s", s->name, vk_points[i].name,
                         vk_points[i].off, pe.msg);
    }
    if (rc != CZ_OK)
        goto out;
    vk->nic = info->count[CZ_BELLPERSON_IC];
    if ((vk->ic = malloc((size_t)vk->nic * sizeof *vk->ic)) == NULL) {
        rc = cz_fail(ei, CZ_ENOMEM, "%s: cannot allocate %u IC points", s->name, vk->nic);
        goto out;
    }
    cz__bp_job job = {CZ_BELLPERSON_IC, vk->ic, IC_OFFSET + 4, vk->nic, 1};
    rc = cz__bp_decode(s, &job, 1, pool, ei);
out:
    if (rc != CZ_OK) {
        free(vk->ic);
        memset(vk, 0, sizeof *vk);
    }
    return rc;
}

/* The verifying key of s, a file of kind want (CZ_BELLPERSON_ANY: the one a .params starts with
 * too; only the walk's counts and the key's own bytes are read then). */
static int vk_read_src(cz_bellperson_vk *vk, cz__bp_src *s, cz_bellperson_kind want,
                       cz_threadpool *pool, cz_errinfo *ei) {
    cz_bellperson_info info;
    memset(vk, 0, sizeof *vk);
    int rc = cz__bp_walk(&info, s, want, ei);
    if (rc == CZ_OK)
        rc = cz__bp_vk_read(vk, s, &info, pool, ei);
    if (rc == CZ_OK && s->fd >= 0 &&
        (rc = cz_file_check_unchanged(s->fd, &s->id, s->name, ei)) != CZ_OK)
        cz_bellperson_vk_free(vk);
    return rc;
}

/* The verifying key of the file at path, of kind want (vk_read_src). */
static int vk_read_path(cz_bellperson_vk *vk, const char *path, cz_bellperson_kind want,
                        cz_threadpool *pool, cz_errinfo *ei) {
    cz__bp_src s;
    memset(vk, 0, sizeof *vk);
    int rc = cz__bp_src_open(&s, path, ei);
    if (rc != CZ_OK)
        return rc;
    rc = vk_read_src(vk, &s, want, pool, ei);
    cz__bp_src_close(&s);
    return rc;
}

int cz_bellperson_vk_read(cz_bellperson_vk *vk, const char *path, cz_threadpool *pool,
                          cz_errinfo *ei) {
    return vk_read_path(vk, path, CZ_BELLPERSON_VK, pool, ei);
}

int cz_bellperson_vk_read_any(cz_bellperson_vk *vk, const char *path, cz_threadpool *pool,
                              cz_errinfo *ei) {
    return vk_read_path(vk, path, CZ_BELLPERSON_ANY, pool, ei);
}

int cz_bellperson_vk_read_mem(cz_bellperson_vk *vk, const void *data, size_t size, const char *name,
                              cz_threadpool *pool, cz_errinfo *ei) {
    cz__bp_src s;
    cz__bp_src_mem(&s, data, size, name);
    return vk_read_src(vk, &s, CZ_BELLPERSON_VK, pool, ei);
}

size_t cz_bellperson_vk_bytes(const cz_bellperson_vk *vk) {
    return CZ_BELLPERSON_VK_POINTS_BYTES + 4 + (size_t)vk->nic * G1_BYTES;
}

int cz_bellperson_vk_encode(uint8_t *out, const cz_bellperson_vk *vk, cz_errinfo *ei) {
    if (vk->nic == 0)
        return cz_fail(ei, CZ_EINVAL, "vk: no IC points (a key has at least IC[0])");
    for (int i = 0; i < 6; i++) {
        const void *p = vk_point((cz_bellperson_vk *)vk, i);
        int inf = vk_points[i].g2 ? cz_bls12381_g2_is_infinity(p) : cz_bls12381_g1_is_infinity(p);
        if (inf)
            return cz_fail(ei, CZ_EINVAL, "vk: %s is the point at infinity", vk_points[i].name);
        if (vk_points[i].g2)
            cz_bls12381_g2_to_uncompressed(out + vk_points[i].off, p);
        else
            cz_bls12381_g1_to_uncompressed(out + vk_points[i].off, p);
    }
    cz__put_be32(out + IC_OFFSET, vk->nic);
    for (uint32_t i = 0; i < vk->nic; i++) {
        if (cz_bls12381_g1_is_infinity(&vk->ic[i]))
            return cz_fail(ei, CZ_EINVAL, "vk: IC point %u is the point at infinity", i);
        cz_bls12381_g1_to_uncompressed(out + IC_OFFSET + 4 + (size_t)i * G1_BYTES, &vk->ic[i]);
    }
    return CZ_OK;
}

int cz_bellperson_vk_write(const char *path, const cz_bellperson_vk *vk, cz_errinfo *ei) {
    size_t n = cz_bellperson_vk_bytes(vk);
    uint8_t *buf = malloc(n);
    cz__bw *bw = malloc(sizeof *bw);
    int rc;
    if (buf == NULL || bw == NULL)
        rc = cz_fail(ei, CZ_ENOMEM, "%s: out of memory for %zu bytes", path, n);
    else if ((rc = cz_bellperson_vk_encode(buf, vk, ei)) != CZ_OK)
        rc = cz_fail(ei, rc, "%s", path);
    else if ((rc = cz__bw_create(bw, path, ei)) == CZ_OK) {
        cz__bw_bytes(bw, buf, n);
        rc = cz__bw_finish(bw, path, ei);
    }
    free(bw);
    free(buf);
    return rc;
}

void cz_bellperson_vk_free(cz_bellperson_vk *vk) {
    if (vk == NULL)
        return;
    free(vk->ic);
    vk->ic = NULL;
    vk->nic = 0;
}
