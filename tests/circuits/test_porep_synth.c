/*
 * The synthetic PoRep-shaped circuit (cuzk/porep_synth.h).
 *
 *   - shape: every scale k = 10..27 fits its domain 2^k with the 327 public inputs + ONE, k = 27
 *     has exactly the real partition's rows; k outside 10..27 is refused.
 *   - statistics against the real circuit's (research/porep.md §1.4), measured by the generic
 *     cz_r1cs_stats_get: within 10 % at k = 12 (where the 327 input rows are 9 % of the rows)
 *     and 3 % at k = 16.
 *   - every row holds (cz_r1cs_check) for several partitions and both curves; the same
 *     (seed, partition) gives the same witness, other partitions or seeds other witnesses;
 *     building twice gives the same matrices.
 *   - independent checks by snarkjs (when node and node_modules/snarkjs are there, else those
 *     checks are skipped with a note): `r1cs info` reports our counts, `wtns check` accepts the
 *     witness against the written .r1cs (its own evaluation of every constraint) and rejects a
 *     witness with one flipped bit; `groth16 verify` accepts a cuzk proof (BN254, k = 10).
 *   - Groth16 end to end, k = 10 and 12 on both curves: cz_groth16_setup with a seed trapdoor,
 *     cz_groth16_prove (CPU), cz_groth16_verify; a changed public input is rejected.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuzk/groth16.h"
#include "cuzk/groth16_json.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/porep_synth.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/r1cs_io.h"
#include "cuzk/threadpool.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"
#include "test.h"

#define SNARKJS "node_modules/snarkjs/build/cli.cjs"

static char tmpdir[128];

static void tmp_path(char *out, size_t len, const char *name) {
    snprintf(out, len, "%s/%s", tmpdir, name);
}

static int near(double got, double want, double tol) {
    int ok = got >= want * (1 - tol) && got <= want * (1 + tol);
    if (!ok)
        fprintf(stderr, "  %.4f is not within %.0f %% of %.4f\n", got, tol * 100, want);
    return ok;
}

static void test_shapes(void) {
    cz_porep_synth_shape sh;
    cz_errinfo ei;
    for (unsigned k = CZ_POREP_SYNTH_KMIN; k <= CZ_POREP_SYNTH_KMAX; k++) {
        CHECK_ERR(cz_porep_synth_shape_get(&sh, k, &ei), CZ_OK);
        CHECK_EQ_INT(sh.domain, 1ull << k);
        CHECK((uint64_t)sh.nrows + sh.npublic + 1 <= sh.domain);
        CHECK((uint64_t)sh.nrows + sh.npublic + 1 > sh.domain / 2);
        CHECK_EQ_INT(sh.npublic, 327);
    }
    CHECK_ERR(cz_porep_synth_shape_get(&sh, 27, &ei), CZ_OK);
    CHECK_EQ_INT(sh.nrows, 130278541u); /* + 328 input rows = 130,278,869 */
    CHECK_ERR(cz_porep_synth_shape_get(&sh, 9, &ei), CZ_ERANGE);
    CHECK_ERR(cz_porep_synth_shape_get(&sh, 28, &ei), CZ_ERANGE);
}

/* Real partition (research/porep.md §1.4, cuzk.md §6.1). */
static void check_stats(const cz_r1cs *cs, cz_threadpool *pool, double tol) {
    cz_r1cs_stats st;
    cz_errinfo ei;
    if (!CHECK_ERR(cz_r1cs_stats_get(&st, cs, pool, &ei), CZ_OK))
        return;
    double rows = st.nrows, aux = st.naux;
    printf("k rows %u aux %u: A %.3f B %.3f C %.3f per row, a_aux %.4f b_aux %.4f, bits %.4f "
           "(ones %.4f), b_input %llu\n",
           st.nrows, st.naux, st.nnz[0] / rows, st.nnz[1] / rows, st.nnz[2] / rows, st.a_aux / aux,
           st.b_aux / aux, st.aux_bits / aux, st.aux_ones / aux, (unsigned long long)st.b_input);
    const double real_rows = 130278869.0, real_aux = 130169893.0;
    CHECK(near(st.nnz[0] / rows, 309405051.0 / real_rows, tol));
    CHECK(near(st.nnz[1] / rows, 130327340.0 / real_rows, tol));
    CHECK(near(st.nnz[2] / rows, 282656500.0 / real_rows, tol));
    CHECK(near(aux / rows, real_aux / real_rows, tol));
    CHECK(near(st.b_aux / aux, 33112281.0 / real_aux, tol));
    CHECK(near(st.a_aux / aux, 129753292.0 / real_aux, tol / 10));
    CHECK(near(st.aux_bits / aux, 1 - 1699300.0 / real_aux, tol / 10));
    CHECK(near(st.aux_ones / aux, 0.49, 0.1));
    CHECK_EQ_INT(st.b_input, 1); /* only ONE */
}

static int same_witness(const cz_r1cs *a, const cz_r1cs *b) {
    return a->nvars == b->nvars && memcmp(a->w, b->w, (size_t)a->nvars * 32) == 0;
}

static int same_matrices(const cz_r1cs *x, const cz_r1cs *y) {
    const cz_r1cs_mat *mx[3] = {&x->a, &x->b, &x->c}, *my[3] = {&y->a, &y->b, &y->c};
    if (x->nrows != y->nrows || x->nvars != y->nvars)
        return 0;
    for (int m = 0; m < 3; m++) {
        size_t n = mx[m]->row_ptr[x->nrows];
        if (n != my[m]->row_ptr[y->nrows] ||
            memcmp(mx[m]->row_ptr, my[m]->row_ptr, ((size_t)x->nrows + 1) * 8) != 0 ||
            memcmp(mx[m]->var, my[m]->var, n * 4) != 0 ||
            memcmp(mx[m]->coef, my[m]->coef, n * 4) != 0)
            return 0;
    }
    return memcmp(x->coefs, y->coefs, (size_t)x->ncoefs * 32) == 0;
}

static void test_witnesses(cz_curve_id curve, unsigned k, cz_threadpool *pool, double tol) {
    cz_r1cs cs, other;
    cz_errinfo ei;
    uint32_t bad = 0;
    if (!CHECK_ERR(cz_porep_synth_build(&cs, curve, k, pool, &ei), CZ_OK) ||
        !CHECK_ERR(cz_porep_synth_build(&other, curve, k, NULL, &ei), CZ_OK)) {
        fprintf(stderr, "%s\n", ei.msg);
        return;
    }
    CHECK_ERR(cz_r1cs_validate(&cs, &ei), CZ_OK);
    CHECK(same_matrices(&cs, &other));
    for (uint32_t p = 0; p < 3; p++) {
        CHECK_ERR(cz_porep_synth_witness(&cs, k, 42, p, pool, &ei), CZ_OK);
        if (!CHECK_ERR(cz_r1cs_check(&cs, pool, &bad, &ei), CZ_OK))
            fprintf(stderr, "k %u partition %u: %s\n", k, p, ei.msg);
        if (p == 0)
            check_stats(&cs, pool, tol);
        /* Same seed and partition, one thread: the same witness. */
        CHECK_ERR(cz_porep_synth_witness(&other, k, 42, p, NULL, &ei), CZ_OK);
        CHECK(same_witness(&cs, &other));
        CHECK_ERR(cz_porep_synth_witness(&other, k, 42, p + 1, pool, &ei), CZ_OK);
        CHECK(!same_witness(&cs, &other));
        CHECK_ERR(cz_porep_synth_witness(&other, k, 43, p, pool, &ei), CZ_OK);
        CHECK(!same_witness(&cs, &other));
    }
    /* One wrong aux value is caught. */
    cz_r1cs_fr_from_u64(cs.w[cs.nvars / 2], curve, 3);
    CHECK_ERR(cz_r1cs_check(&cs, pool, &bad, &ei), CZ_EVERIFY);
    CHECK_ERR(cz_porep_synth_witness(&cs, k + 1, 42, 0, pool, &ei), CZ_EINVAL);
    cz_r1cs_free(&other);
    cz_r1cs_free(&cs);
}

static int have_snarkjs(void) {
    return access(SNARKJS, R_OK) == 0 && system("node --version > /dev/null 2>&1") == 0;
}

/* Runs a shell command; returns its exit status, and its output in out (truncated). */
static int run(char *out, size_t len, const char *cmd) {
    FILE *p = popen(cmd, "r");
    size_t n = 0;
    if (p == NULL)
        return -1;
    while (n + 1 < len && fgets(out + n, (int)(len - n), p) != NULL)
        n += strlen(out + n);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Writes a copy of the witness with one fresh bit of the first block flipped. */
static void write_flipped(const char *path, const cz_r1cs *cs, cz_threadpool *pool) {
    cz_errinfo ei;
    cz_r1cs flipped = *cs;
    uint64_t(*w)[4] = malloc((size_t)cs->nvars * 32);
    memcpy(w, cs->w, (size_t)cs->nvars * 32);
    uint32_t v = 1 + cs->npublic + 3;
    cz_r1cs_fr_from_u64(w[v], cs->curve, memcmp(w[v], w[0], 32) == 0 ? 0 : 1);
    flipped.w = w;
    CHECK_ERR(cz_r1cs_write_wtns(path, &flipped, pool, &ei), CZ_OK);
    free(w);
}

/* setup, prove, verify; snarkjs verifies the proof when asked. */
static void test_groth16(cz_curve_id curve, unsigned k, int snarkjs, cz_threadpool *pool) {
    char r1cs[256], wtns[256], zkey[256], tag[64];
    cz_errinfo ei;
    cz_r1cs cs;
    cz_r1cs_file *rf = NULL;
    cz_zkey *zk = NULL;
    cz_wtns *w = NULL;
    cz_groth16_proof proof;
    cz_groth16_public pub = {0};
    cz_groth16_vk vk = {0};
    cz_groth16_trapdoor td;
    cz_groth16_prove_opts opts = {0};
    opts.pool = pool;
    snprintf(tag, sizeof tag, "%s_%u", cz_curve_name(curve), k);
    snprintf(r1cs, sizeof r1cs, "%s/%s.r1cs", tmpdir, tag);
    snprintf(wtns, sizeof wtns, "%s/%s.wtns", tmpdir, tag);
    snprintf(zkey, sizeof zkey, "%s/%s.zkey", tmpdir, tag);
    cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)tag, strlen(tag));
    if (!CHECK_ERR(cz_porep_synth_build(&cs, curve, k, pool, &ei), CZ_OK) ||
        !CHECK_ERR(cz_porep_synth_witness(&cs, k, 7, 3, pool, &ei), CZ_OK) ||
        !CHECK_ERR(cz_porep_synth_write(r1cs, wtns, &cs, pool, &ei), CZ_OK) ||
        !CHECK_ERR(cz_r1cs_open(&rf, r1cs, &ei), CZ_OK) ||
        !CHECK_ERR(cz_groth16_setup(zkey, rf, &td, pool, &ei), CZ_OK) ||
        !CHECK_ERR(cz_zkey_open(&zk, zkey, &ei), CZ_OK) ||
        !CHECK_ERR(cz_wtns_open(&w, wtns, &ei), CZ_OK)) {
        fprintf(stderr, "%s: %s\n", tag, ei.msg);
        goto out;
    }
    CHECK_EQ_INT(zk->domain_size, 1u << k);
    CHECK_EQ_INT(rf->nterms,
                 cs.a.row_ptr[cs.nrows] + cs.b.row_ptr[cs.nrows] + cs.c.row_ptr[cs.nrows]);
    if (!CHECK_ERR(cz_groth16_prove(&proof, &pub, zk, w, &opts, &ei), CZ_OK)) {
        fprintf(stderr, "%s: %s\n", tag, ei.msg);
        goto out;
    }
    CHECK_ERR(cz_groth16_vk_from_zkey(&vk, zk, &ei), CZ_OK);
    CHECK_ERR(cz_groth16_verify(&vk, &pub, &proof, &ei), CZ_OK);
    if (snarkjs) {
        char bad[256], pj[256], uj[256], vj[256], cmd[2048], out[4096];
        tmp_path(bad, sizeof bad, "flipped.wtns");
        tmp_path(pj, sizeof pj, "proof.json");
        tmp_path(uj, sizeof uj, "public.json");
        tmp_path(vj, sizeof vj, "vk.json");
        write_flipped(bad, &cs, pool);
        CHECK_ERR(cz_groth16_proof_write_json(pj, &proof, &ei), CZ_OK);
        CHECK_ERR(cz_groth16_public_write_json(uj, &pub, &ei), CZ_OK);
        CHECK_ERR(cz_groth16_vk_write_json(vj, &vk, &ei), CZ_OK);
        snprintf(cmd, sizeof cmd,
                 "node tests/circuits/snarkjs_check.mjs %s %s %s %u %u %u %s %s %s 2>&1", r1cs,
                 wtns, bad, cs.nvars, cs.nrows, cs.npublic, vj, uj, pj);
        int rc = run(out, sizeof out, cmd);
        printf("%s", out);
        CHECK(rc == 0 && strstr(out, "FAIL") == NULL && strstr(out, "ok groth16 verify") != NULL);
    }
    pub.values[5][0] ^= 1;
    CHECK_ERR(cz_groth16_verify(&vk, &pub, &proof, &ei), CZ_EVERIFY);
out:
    cz_groth16_vk_free(&vk);
    cz_groth16_public_free(&pub);
    cz_wtns_close(w);
    cz_zkey_close(zk);
    cz_r1cs_close(rf);
    cz_r1cs_free(&cs);
}

static cz_threadpool *pool;
static int snarkjs;

static int setup(void) {
    cz_errinfo ei;
    CZ_ASSERT(cz_threadpool_create(&pool, 0, &ei) == CZ_OK);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cuzk_test_porep_synth_%ld", (long)getpid());
    char cmd[256];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", tmpdir);
    CZ_ASSERT(system(cmd) == 0);
    snarkjs = have_snarkjs();
    if (!snarkjs)
        printf("note: node or %s missing: snarkjs checks skipped\n", SNARKJS);
    return 0;
}

static void teardown(void) {
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    CHECK_EQ_INT(system(cmd), 0);
    cz_threadpool_destroy(pool);
}

static void test_witnesses_bls12381(void) {
    test_witnesses(CZ_CURVE_BLS12381, 12, pool, 0.10);
}

static void test_witnesses_bn254(void) {
    test_witnesses(CZ_CURVE_BN254, 16, pool, 0.03);
}

static void test_groth16_k10(void) {
    test_groth16(CZ_CURVE_BN254, 10, snarkjs, pool);
    test_groth16(CZ_CURVE_BLS12381, 10, 0, pool);
}

static void test_groth16_k12(void) {
    test_groth16(CZ_CURVE_BN254, 12, 0, pool);
    test_groth16(CZ_CURVE_BLS12381, 12, 0, pool);
}

static const test_case cases[] = {
    {"shapes", test_shapes},
    {"witnesses_bls12381", test_witnesses_bls12381},
    {"witnesses_bn254", test_witnesses_bn254},
    {"groth16_k10", test_groth16_k10},
    {"groth16_k12", test_groth16_k12},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
