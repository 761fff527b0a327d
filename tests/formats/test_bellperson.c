/*
 * bellperson's .vk, .params and proof files, read and written (cuzk/bellperson.h,
 * cz_groth16_proofs_* in cuzk/groth16.h), against @noble/curves: the files of
 * tests/vectors/bellperson_vectors.mjs are written by noble's own serialization from known
 * scalars, and every point cuzk reads is compared with noble's affine coordinates (through GMP).
 * Writing back what was read gives the same bytes. noble's two proofs, made with the trapdoor and
 * checked with noble's pairing, verify with cz_groth16_verify through cz_groth16_vk_from_bellperson
 * and fail with the other partition's public inputs. Keys made with cuzk's curve code (sections of
 * several chunks, a thread pool, the caller's allocator) come back point for point. The header-only
 * walk gives the counts and offsets the JSON implies. Bad files are tests/formats/
 * test_bellperson_bad.c.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bellperson_util.h"
#include "cuzk/groth16.h"
#include "cuzk/threadpool.h"

static const char *const sect_keys[5] = {"h", "l", "a", "b_g1", "b_g2"};

/* Everything of vk against bellperson.json's "vk". */
static void check_vk(const cz_bellperson_vk *vk) {
    CHECK(bp_g1_eq(&vk->alpha_g1, bp_get("vk.alpha_g1")));
    CHECK(bp_g1_eq(&vk->beta_g1, bp_get("vk.beta_g1")));
    CHECK(bp_g2_eq(&vk->beta_g2, bp_get("vk.beta_g2")));
    CHECK(bp_g2_eq(&vk->gamma_g2, bp_get("vk.gamma_g2")));
    CHECK(bp_g1_eq(&vk->delta_g1, bp_get("vk.delta_g1")));
    CHECK(bp_g2_eq(&vk->delta_g2, bp_get("vk.delta_g2")));
    CHECK_EQ_INT(vk->nic, json_array_size(bp_get("vk.ic")));
    CHECK_EQ_SIZE(bp_g1_diff(vk->ic, vk->nic, bp_get("vk.ic")), 0);
}

/* The five sections of p against bellperson.json's key (small or nob). */
static void check_params(const cz_bellperson_params *p, const char *key) {
    char k[64];
    const void *arr[5] = {p->h, p->l, p->a, p->b_g1, p->b_g2};
    uint32_t n[5] = {p->nh, p->nl, p->na, p->nb_g1, p->nb_g2};
    check_vk(&p->vk);
    for (int s = 0; s < 5; s++) {
        snprintf(k, sizeof k, "%s.%s", key, sect_keys[s]);
        json_t *j = bp_get(k);
        CHECK_EQ_SIZE(n[s], json_array_size(j));
        CHECK(n[s] != 0 || arr[s] == NULL);
        size_t bad = s == 4 ? bp_g2_diff(arr[s], n[s], j) : bp_g1_diff(arr[s], n[s], j);
        CHECK_EQ_SIZE(bad, 0);
    }
}

/* The bytes of a file and of what path_written holds are the same. */
static void check_same_file(const char *path_written, const uint8_t *want, size_t n) {
    size_t got_n;
    uint8_t *got = load_file(path_written, &got_n);
    if (CHECK_EQ_SIZE(got_n, n))
        CHECK_EQ_MEM(got, want, n);
    free(got);
}

static void test_vk_noble(void) {
    char path[256], out[256];
    size_t n;
    bp_path(path, sizeof path, "small.vk");
    uint8_t *bytes = load_file(path, &n);
    cz_bellperson_vk vk, vk2;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (!CHECK_ERR(cz_bellperson_vk_read(&vk, path, NULL, &ei), CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        return;
    }
    check_vk(&vk);
    /* Read then write: the same bytes, in memory and in a file. */
    CHECK_EQ_SIZE(cz_bellperson_vk_bytes(&vk), n);
    uint8_t *enc = malloc(n);
    CHECK_ERR(cz_bellperson_vk_encode(enc, &vk, NULL), CZ_OK);
    CHECK_EQ_MEM(enc, bytes, n);
    bp_tmp_path(out, sizeof out, "again.vk");
    CHECK_ERR(cz_bellperson_vk_write(out, &vk, NULL), CZ_OK);
    check_same_file(out, bytes, n);
    /* From memory, the same key. */
    CHECK_ERR(cz_bellperson_vk_read_mem(&vk2, bytes, n, "small.vk", NULL, NULL), CZ_OK);
    CHECK(memcmp(&vk2, &vk, offsetof(cz_bellperson_vk, nic)) == 0 && vk2.nic == vk.nic);
    CHECK(memcmp(vk2.ic, vk.ic, vk.nic * sizeof *vk.ic) == 0);
    cz_bellperson_vk_free(&vk2);
    cz_bellperson_vk_free(&vk);
    CHECK(vk.ic == NULL && vk.nic == 0);
    free(enc);
    free(bytes);
}

/* The verifying key of a .params (cz_bellperson_vk_read_any): the key it starts with, noble's,
 * as the .vk gives it; the strict .vk reader refuses the .params; a .params cut short is refused
 * by its walk before any point is decoded (its vk bytes are all there). */
static void test_vk_of_params(void) {
    char path[256], cut[256];
    size_t n;
    cz_bellperson_vk vk, vk2;
    cz_errinfo ei;
    bp_path(path, sizeof path, "small.params");
    cz_errinfo_clear(&ei);
    if (!CHECK_ERR(cz_bellperson_vk_read_any(&vk, path, NULL, &ei), CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        return;
    }
    check_vk(&vk);
    bp_path(cut, sizeof cut, "small.vk");
    CHECK_ERR(cz_bellperson_vk_read_any(&vk2, cut, NULL, NULL), CZ_OK);
    CHECK(memcmp(&vk2, &vk, offsetof(cz_bellperson_vk, nic)) == 0 && vk2.nic == vk.nic);
    CHECK(vk2.nic == vk.nic && memcmp(vk2.ic, vk.ic, vk.nic * sizeof *vk.ic) == 0);
    cz_bellperson_vk_free(&vk2);
    CHECK_ERR(cz_bellperson_vk_read(&vk2, path, NULL, NULL), CZ_EFORMAT);
    uint8_t *bytes = load_file(path, &n);
    CHECK(n > cz_bellperson_vk_bytes(&vk) + 4);
    bp_tmp_path(cut, sizeof cut, "cut.params");
    CHECK(bp_write_file(cut, bytes, n - 1));
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_bellperson_vk_read_any(&vk2, cut, NULL, &ei), CZ_EFORMAT);
    CHECK(strstr(ei.msg, "cut.params") != NULL);
    CHECK(vk2.ic == NULL && vk2.nic == 0);
    cz_bellperson_vk_free(&vk);
    free(bytes);
}

static void read_params_noble(const char *file, const char *key, cz_threadpool *pool,
                              int subgroup) {
    char path[256], out[256];
    size_t n;
    bp_path(path, sizeof path, file);
    uint8_t *bytes = load_file(path, &n);
    bp_counting c = {0};
    cz_file_alloc mem = {bp_count_alloc, bp_count_free, &c, bp_count_filled};
    cz_bellperson_read_opts opts = {subgroup, pool, &mem};
    cz_bellperson_params p;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (!CHECK_ERR(cz_bellperson_params_read(&p, path, &opts, &ei), CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        free(bytes);
        return;
    }
    check_params(&p, key);
    /* The file's identity as read, and the arrays from the caller's allocator. */
    cz_file_id id;
    CHECK_ERR(cz_file_id_get(&id, path, NULL), CZ_OK);
    CHECK(cz_file_id_same(&id, &p.id) && p.id.size == n);
    int nonempty = (p.nh > 0) + (p.nl > 0) + (p.na > 0) + (p.nb_g1 > 0) + (p.nb_g2 > 0);
    CHECK_EQ_INT(c.allocs, nonempty);
    CHECK_EQ_SIZE(c.live, 96 * ((size_t)p.nh + p.nl + p.na + p.nb_g1) + 192 * (size_t)p.nb_g2);
    /* filled: once per array, after its points were decoded into it */
    CHECK_EQ_INT(c.filled, nonempty);
    CHECK_EQ_SIZE(c.filled_bytes, c.live);
    CHECK_EQ_INT(c.filled_early, 0);
    /* Read then write (encoded on the pool when there is one): the same bytes. */
    bp_tmp_path(out, sizeof out, "again.params");
    CHECK_ERR(cz_bellperson_params_write(out, &p, pool, NULL), CZ_OK);
    check_same_file(out, bytes, n);
    /* From memory: the same points. */
    cz_bellperson_params q;
    CHECK_ERR(cz_bellperson_params_read_mem(&q, bytes, n, file, NULL, NULL), CZ_OK);
    CHECK(q.nh == p.nh && memcmp(q.h, p.h, p.nh * sizeof *p.h) == 0);
    CHECK(q.nb_g2 == p.nb_g2 && (p.nb_g2 == 0 || memcmp(q.b_g2, p.b_g2, p.nb_g2 * 192) == 0));
    cz_bellperson_params_free(&q);
    cz_bellperson_params_free(&p);
    CHECK(c.frees == c.allocs && c.live == 0);
    free(bytes);
}

static void test_params_noble(void) {
    cz_threadpool *pool = NULL;
    CHECK_ERR(cz_threadpool_create(&pool, 3, NULL), CZ_OK);
    read_params_noble("small.params", "small", NULL, 0);
    read_params_noble("small.params", "small", pool, 1);
    read_params_noble("nob.params", "nob", pool, 0);
    cz_threadpool_destroy(pool);
}

/* The walk of the counts, against the sizes the JSON implies. */
static void test_info(void) {
    char path[256];
    cz_bellperson_info info;
    cz_errinfo ei;
    size_t nic = json_array_size(bp_get("vk.ic"));
    bp_path(path, sizeof path, "small.vk");
    CHECK_ERR(cz_bellperson_info_read(&info, path, CZ_BELLPERSON_ANY, NULL), CZ_OK);
    CHECK_EQ_INT(info.kind, CZ_BELLPERSON_VK);
    CHECK_EQ_U64(info.size, 868 + 96 * nic);
    CHECK(info.count[CZ_BELLPERSON_IC] == nic && info.offset[CZ_BELLPERSON_IC] == 864);
    CHECK(info.count[CZ_BELLPERSON_H] == 0 && info.offset[CZ_BELLPERSON_H] == 0);
    CHECK_ERR(cz_bellperson_info_read(&info, path, CZ_BELLPERSON_VK, NULL), CZ_OK);
    cz_errinfo_clear(&ei);
    CHECK(err_is(&ei, cz_bellperson_info_read(&info, path, CZ_BELLPERSON_PARAMS, &ei), CZ_EFORMAT,
                 "it is a .vk, not a .params file"));

    bp_path(path, sizeof path, "small.params");
    CHECK_ERR(cz_bellperson_info_read(&info, path, CZ_BELLPERSON_PARAMS, NULL), CZ_OK);
    CHECK_EQ_INT(info.kind, CZ_BELLPERSON_PARAMS);
    uint64_t off = 868 + 96 * nic;
    for (int s = 0; s < 5; s++) {
        char k[32];
        snprintf(k, sizeof k, "small.%s", sect_keys[s]);
        size_t cnt = json_array_size(bp_get(k));
        CHECK_EQ_INT(info.count[CZ_BELLPERSON_H + s], cnt);
        CHECK_EQ_U64(info.offset[CZ_BELLPERSON_H + s], off);
        off += 4 + cnt * (s == 4 ? 192 : 96);
    }
    CHECK_EQ_U64(info.size, off);
    cz_errinfo_clear(&ei);
    CHECK(err_is(&ei, cz_bellperson_info_read(&info, path, CZ_BELLPERSON_VK, &ei), CZ_EFORMAT,
                 "after the verifying key's IC (a .params file, or not a .vk)"));
    /* Names and sizes of the sections. */
    CHECK_EQ_STR(cz_bellperson_section_name(CZ_BELLPERSON_B_G1), "B_G1");
    CHECK_EQ_STR(cz_bellperson_section_name(99), "?");
    CHECK(cz_bellperson_point_bytes(CZ_BELLPERSON_B_G2) == 192 &&
          cz_bellperson_point_bytes(CZ_BELLPERSON_L) == 96);
}

/* Canonical limbs of a decimal string (GMP). */
static void dec_limbs(uint64_t out[4], const char *dec) {
    mpz_t z;
    size_t n = 0;
    memset(out, 0, 4 * sizeof *out);
    mpz_init_set_str(z, dec, 10);
    mpz_export(out, &n, -1, sizeof(uint64_t), 0, 0, z);
    mpz_clear(z);
}

static void test_proofs_noble(void) {
    char path[256], out[256];
    size_t n, np = 0;
    bp_path(path, sizeof path, "proofs.bin");
    uint8_t *bytes = load_file(path, &n);
    cz_groth16_proof *pr = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (!CHECK_ERR(cz_groth16_proofs_read(&pr, &np, CZ_CURVE_BLS12381, path, &ei), CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        free(bytes);
        return;
    }
    json_t *jp = bp_get("proofs");
    CHECK_EQ_SIZE(np, json_array_size(jp));
    CHECK_EQ_SIZE(np, 2);
    for (size_t i = 0; i < np && i < json_array_size(jp); i++) {
        json_t *j = json_array_get(jp, i);
        CHECK(pr[i].curve == CZ_CURVE_BLS12381);
        CHECK(bp_g1_eq(&pr[i].u.bls12381.a, json_object_get(j, "a")));
        CHECK(bp_g2_eq(&pr[i].u.bls12381.b, json_object_get(j, "b")));
        CHECK(bp_g1_eq(&pr[i].u.bls12381.c, json_object_get(j, "c")));
    }
    /* Written back: the same bytes. */
    bp_tmp_path(out, sizeof out, "again.proofs");
    CHECK_ERR(cz_groth16_proofs_write(out, pr, np, NULL), CZ_OK);
    check_same_file(out, bytes, n);

    /* noble's proofs verify against noble's key, each with its own public inputs only. */
    char vkpath[256];
    cz_bellperson_vk bvk;
    cz_groth16_vk vk;
    bp_path(vkpath, sizeof vkpath, "small.vk");
    CHECK_ERR(cz_bellperson_vk_read(&bvk, vkpath, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_groth16_vk_from_bellperson(&vk, &bvk, NULL), CZ_OK);
    CHECK(vk.curve == CZ_CURVE_BLS12381 && vk.npublic == bvk.nic - 1);
    for (size_t i = 0; i < np; i++) {
        cz_groth16_public pub, other;
        json_t *vals = json_object_get(json_array_get(jp, i), "public");
        json_t *ovals = json_object_get(json_array_get(jp, 1 - i), "public");
        CHECK_ERR(cz_groth16_public_alloc(&pub, CZ_CURVE_BLS12381, vk.npublic, NULL), CZ_OK);
        CHECK_ERR(cz_groth16_public_alloc(&other, CZ_CURVE_BLS12381, vk.npublic, NULL), CZ_OK);
        CHECK_EQ_SIZE(json_array_size(vals), vk.npublic);
        for (uint32_t k = 0; k < vk.npublic; k++) {
            dec_limbs(pub.values[k], json_string_value(json_array_get(vals, k)));
            dec_limbs(other.values[k], json_string_value(json_array_get(ovals, k)));
        }
        cz_errinfo_clear(&ei);
        CHECK_ERR(cz_groth16_verify(&vk, &pub, &pr[i], &ei), CZ_OK);
        CHECK_ERR(cz_groth16_verify(&vk, &other, &pr[i], NULL), CZ_EVERIFY);
        cz_groth16_public_free(&pub);
        cz_groth16_public_free(&other);
    }
    cz_groth16_vk_free(&vk);
    cz_bellperson_vk_free(&bvk);
    free(pr);
    free(bytes);
}

/* A key made with cuzk's curve code: sections of several decoding chunks (8192 G1 or 4096 G2
 * points each), read on a pool and on one thread, point for point what was written. */
#define OWN_NIC 4
static const uint32_t own_n[5] = {20000, 9000, 100, 0, 4100};

static void make_own(cz_bellperson_params *p) {
    memset(p, 0, sizeof *p);
    bp_make_g1(&p->vk.alpha_g1, 1, 11, 1);
    bp_make_g1(&p->vk.beta_g1, 1, 12, 1);
    bp_make_g2(&p->vk.beta_g2, 1, 12, 1);
    bp_make_g2(&p->vk.gamma_g2, 1, 13, 1);
    bp_make_g1(&p->vk.delta_g1, 1, 14, 1);
    bp_make_g2(&p->vk.delta_g2, 1, 14, 1);
    p->vk.nic = OWN_NIC;
    p->vk.ic = malloc(OWN_NIC * sizeof *p->vk.ic);
    bp_make_g1(p->vk.ic, OWN_NIC, 1000, 7);
    p->nh = own_n[0], p->nl = own_n[1], p->na = own_n[2], p->nb_g1 = own_n[3], p->nb_g2 = own_n[4];
    p->h = malloc(p->nh * sizeof *p->h);
    p->l = malloc(p->nl * sizeof *p->l);
    p->a = malloc(p->na * sizeof *p->a);
    p->b_g2 = malloc(p->nb_g2 * sizeof *p->b_g2);
    bp_make_g1(p->h, p->nh, 5, 3);
    bp_make_g1(p->l, p->nl, 77777, 5);
    bp_make_g1(p->a, p->na, 123456789, 11);
    bp_make_g2(p->b_g2, p->nb_g2, 99, 2);
}

static int same_params(const cz_bellperson_params *a, const cz_bellperson_params *b) {
    return memcmp(&a->vk, &b->vk, offsetof(cz_bellperson_vk, nic)) == 0 && a->vk.nic == b->vk.nic &&
           memcmp(a->vk.ic, b->vk.ic, a->vk.nic * 96) == 0 && a->nh == b->nh && a->nl == b->nl &&
           a->na == b->na && a->nb_g1 == b->nb_g1 && a->nb_g2 == b->nb_g2 &&
           memcmp(a->h, b->h, a->nh * 96) == 0 && memcmp(a->l, b->l, a->nl * 96) == 0 &&
           memcmp(a->a, b->a, a->na * 96) == 0 && b->b_g1 == NULL &&
           memcmp(a->b_g2, b->b_g2, a->nb_g2 * 192) == 0;
}

static void test_roundtrip_own(void) {
    char path[256], again[256];
    cz_bellperson_params p, q, r;
    cz_threadpool *pool = NULL;
    cz_errinfo ei;
    make_own(&p);
    bp_tmp_path(path, sizeof path, "own.params");
    bp_tmp_path(again, sizeof again, "own2.params");
    CHECK_ERR(cz_bellperson_params_write(path, &p, NULL, NULL), CZ_OK);
    CHECK_ERR(cz_threadpool_create(&pool, 4, NULL), CZ_OK);
    cz_bellperson_read_opts opts = {0, pool, NULL};
    cz_errinfo_clear(&ei);
    if (CHECK_ERR(cz_bellperson_params_read(&q, path, &opts, &ei), CZ_OK)) {
        CHECK(same_params(&p, &q));
        /* Written again: the same bytes as the first time. */
        CHECK_ERR(cz_bellperson_params_write(again, &q, NULL, NULL), CZ_OK);
        size_t n1, n2;
        uint8_t *b1 = load_file(path, &n1), *b2 = load_file(again, &n2);
        CHECK(n1 == n2 && memcmp(b1, b2, n1) == 0);
        CHECK_EQ_SIZE(n1, 888 + 96 * (OWN_NIC + 20000 + 9000 + 100) + 192 * 4100);
        /* One thread, from memory: the same. */
        CHECK_ERR(cz_bellperson_params_read_mem(&r, b1, n1, "own.params", NULL, NULL), CZ_OK);
        CHECK(same_params(&p, &r));
        cz_bellperson_params_free(&r);
        free(b1);
        free(b2);
        cz_bellperson_params_free(&q);
    } else {
        fprintf(stderr, "  %s\n", ei.msg);
    }
    /* The verifying key alone, written and read back. */
    CHECK_ERR(cz_bellperson_vk_write(again, &p.vk, NULL), CZ_OK);
    cz_bellperson_vk vk;
    CHECK_ERR(cz_bellperson_vk_read(&vk, again, pool, NULL), CZ_OK);
    CHECK(vk.nic == OWN_NIC && memcmp(vk.ic, p.vk.ic, OWN_NIC * 96) == 0 &&
          memcmp(&vk, &p.vk, offsetof(cz_bellperson_vk, nic)) == 0);
    cz_bellperson_vk_free(&vk);
    cz_threadpool_destroy(pool);
    cz_bellperson_params_free(&p); /* the arrays were malloc'd, as p.mem (zero) says */
}

/* More points than the writer encodes at once (2^18): written on a pool and on one thread, the
 * same bytes, read back as the same points; an infinity in the second run is named by its index
 * and nothing is written. */
static void test_write_runs(void) {
    const uint32_t n = (1u << 18) + 5;
    char path[256], one[256];
    cz_bellperson_params p, q;
    cz_threadpool *pool = NULL;
    cz_errinfo ei;
    size_t n1 = 0, n2 = 0;
    uint8_t *b1, *b2;
    make_own(&p);
    free(p.h);
    p.nh = n;
    p.h = malloc(n * sizeof *p.h);
    if (!CHECK(p.h != NULL)) {
        cz_bellperson_params_free(&p);
        return;
    }
    bp_make_g1(p.h, n, 31, 17);
    bp_tmp_path(path, sizeof path, "runs.params");
    bp_tmp_path(one, sizeof one, "runs1.params");
    CHECK_ERR(cz_threadpool_create(&pool, 4, NULL), CZ_OK);
    CHECK_ERR(cz_bellperson_params_write(path, &p, pool, NULL), CZ_OK);
    CHECK_ERR(cz_bellperson_params_write(one, &p, NULL, NULL), CZ_OK);
    b1 = load_file(path, &n1);
    b2 = load_file(one, &n2);
    CHECK(b1 != NULL && b2 != NULL && n1 == n2 && memcmp(b1, b2, n1) == 0);
    CHECK_EQ_SIZE(n1, 888 + 96 * ((size_t)OWN_NIC + n + 9000 + 100) + 192 * 4100);
    free(b1);
    free(b2);
    cz_bellperson_read_opts opts = {0, pool, NULL};
    cz_errinfo_clear(&ei);
    if (CHECK_ERR(cz_bellperson_params_read(&q, path, &opts, &ei), CZ_OK)) {
        CHECK(same_params(&p, &q));
        cz_bellperson_params_free(&q);
    } else {
        fprintf(stderr, "  %s\n", ei.msg);
    }
    /* the point at infinity (x = y = 0 in this layout) in the second run */
    memset(&p.h[(1u << 18) + 3], 0, sizeof p.h[0]);
    CHECK(cz_bls12381_g1_is_infinity(&p.h[(1u << 18) + 3]));
    unlink(path);
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_bellperson_params_write(path, &p, pool, &ei), CZ_EINVAL);
    CHECK(strstr(ei.msg, "point 262147 is the point at infinity") != NULL);
    CHECK(access(path, F_OK) != 0);
    cz_threadpool_destroy(pool);
    cz_bellperson_params_free(&p);
}

static const test_case cases[] = {
    {"vk_noble", test_vk_noble},
    {"params_noble", test_params_noble},
    {"info", test_info},
    {"vk_of_params", test_vk_of_params},
    {"proofs_noble", test_proofs_noble},
    {"roundtrip_own", test_roundtrip_own},
    {"write_runs", test_write_runs},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), bp_setup, bp_teardown);
}
