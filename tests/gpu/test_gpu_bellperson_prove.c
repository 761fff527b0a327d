/*
 * The bellperson prover on the GPU against the CPU prover (cuzk/groth16_bellperson.h): for the
 * same r, s the proofs are the same bytes, with bases uploaded per call and with a resident key
 * (reused over a batch and over calls), with the G2 MSM on the GPU and on the CPU
 * (cz_tuning.gpu_g2_on_cpu), with a, b, c padded to the domain, on random and on 0/1 witnesses;
 * every proof verifies; a circuit with other densities than the key's is refused. The staged
 * prover with a, b, c computed on the device from the resident matrices (the witness alone
 * uploaded: cz_groth16_bp_upload_eval) gives the same bytes too, and an assignment without a, b,
 * c is refused by the plain upload and by a compute that was not given it; so does the staged
 * prover on compact witnesses (cz_groth16_bp_upload_compact: booleans as bits, expanded on the
 * device), which a key without B_G2 on the device refuses. Exits 77 without a GPU.
 */
#include "cuzk/assignment.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/threadpool.h"
#include "cuzk/tuning.h"
#include "gpu_test_util.h"
#include "groth16/bp_test_circuit.h"
#include "test.h"

static cz_threadpool *pool;

/* The staged prover on the witness alone of as[i], a, b, c computed on the device from cs's
 * matrices: the proofs of the CPU (cpu[i], same r, s). */
static void check_eval(const cz_r1cs *cs, const cz_bellperson_params *params,
                       const cz_groth16_bp_gpu_key *key, const cz_assignment *as,
                       const cz_bls12381_fr *r, const cz_bls12381_fr *s,
                       const cz_groth16_proof *cpu) {
    cz_gpu_r1cs_host h;
    cz_gpu_r1cs *m = NULL;
    cz_groth16_gpu_ws *ws = NULL;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    cz_r1cs_gpu_view(&h, cs);
    if (!CHECK_ERR(cz_bls12381_gpu_r1cs_upload(&m, &h, 0, &ei), CZ_OK) ||
        !CHECK_ERR(cz_groth16_gpu_ws_create(&ws, 0, &ei), CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        cz_gpu_r1cs_free(m);
        return;
    }
    for (int i = 0; i < 3; i++) {
        cz_assignment wonly = as[i];
        cz_groth16_bp_pending *pp = NULL;
        cz_groth16_proof proof;
        wonly.a = wonly.b = wonly.c = NULL;
        if (!CHECK_ERR(cz_groth16_bp_begin(&pp, params, &wonly, &r[i], &s[i], &ei), CZ_OK))
            break;
        if (i == 0) { /* refused: the plain upload, a compute without the upload */
            CHECK_ERR(cz_groth16_bp_upload(pp, ws, &ei), CZ_EINVAL);
            CHECK_ERR(cz_groth16_bp_compute(pp, key, pool, &ei), CZ_EINVAL);
        }
        if (CHECK_ERR(cz_groth16_bp_upload_eval(pp, ws, m, &ei), CZ_OK) &&
            CHECK_ERR(cz_groth16_bp_compute(pp, key, pool, &ei), CZ_OK) &&
            CHECK_ERR(cz_groth16_bp_finish(&proof, pp, &ei), CZ_OK))
            CHECK_EQ_MEM(&proof.u.bls12381, &cpu[i].u.bls12381, sizeof cpu[i].u.bls12381);
        else
            fprintf(stderr, "  eval %d: %s\n", i, ei.msg);
        cz_groth16_bp_pending_free(pp);
    }
    cz_groth16_gpu_ws_free(ws);
    cz_gpu_r1cs_free(m);
}

/* Value v of as's witness (input | aux). */
static const cz_bls12381_fr *wval(const cz_assignment *as, size_t v) {
    return v < as->ninput ? &as->input[v] : &as->aux[v - as->ninput];
}

static int is_bit_value(const cz_bls12381_fr *x) {
    cz_bls12381_fr one;
    cz_bls12381_fr_one(&one);
    return cz_bls12381_fr_is_zero(x) || cz_bls12381_fr_eq(x, &one);
}

/* The staged prover on compact witnesses (cz_groth16_bp_upload_compact): the booleans are the aux
 * variables that are 0 or 1 in all three witnesses (of mode 1: many), each witness's bits and
 * values written out here; the proofs are the CPU's (cpu[i], same r, s). A key without B_G2 on the
 * device is refused: the aux values are on the device only. */
static void check_compact(const cz_r1cs *cs, const cz_bellperson_params *params,
                          const cz_groth16_bp_gpu_key *key, const cz_assignment *as,
                          const cz_bls12381_fr *r, const cz_bls12381_fr *s,
                          const cz_groth16_proof *cpu, int mode) {
    const size_t nvars = as[0].ninput + as[0].naux, words = (nvars + 63) / 64;
    cz_r1cs view = *cs;
    cz_gpu_r1cs_host h;
    cz_gpu_r1cs *m = NULL;
    cz_groth16_gpu_ws *ws = NULL;
    uint64_t *bools = calloc(words, 8), *bits = malloc(words * 8);
    cz_bls12381_fr *vals = malloc(nvars * sizeof *vals);
    size_t nbool = 0;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    CZ_ASSERT(bools != NULL && bits != NULL && vals != NULL);
    for (size_t v = as[0].ninput; v < nvars; v++)
        if (is_bit_value(wval(&as[0], v)) && is_bit_value(wval(&as[1], v)) &&
            is_bit_value(wval(&as[2], v))) {
            bools[v / 64] |= UINT64_C(1) << (v % 64);
            nbool++;
        }
    CHECK(nbool < as[0].naux && (mode == 0 || nbool > 0)); /* 0/1 values: booleans */
    view.booleans = bools;
    cz_r1cs_gpu_view(&h, &view);
    if (!CHECK_ERR(cz_bls12381_gpu_r1cs_upload(&m, &h, 0, &ei), CZ_OK) ||
        !CHECK_ERR(cz_groth16_gpu_ws_create(&ws, 0, &ei), CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        goto out;
    }
    for (int i = 0; i < 3; i++) {
        cz_assignment cw = as[i];
        cz_groth16_bp_pending *pp = NULL;
        cz_groth16_proof proof;
        size_t k = 0;
        memset(bits, 0, words * 8);
        for (size_t v = 0; v < nvars; v++)
            if (!((bools[v / 64] >> (v % 64)) & 1u))
                vals[k++] = *wval(&as[i], v);
            else if (!cz_bls12381_fr_is_zero(wval(&as[i], v)))
                bits[v / 64] |= UINT64_C(1) << (v % 64);
        CHECK_EQ_INT(k, cz_gpu_r1cs_nvals(m));
        cw.a = cw.b = cw.c = NULL;
        cw.aux = NULL;
        cw.input = vals;
        if (!CHECK_ERR(cz_groth16_bp_begin(&pp, params, &cw, &r[i], &s[i], &ei), CZ_OK))
            break;
        if (i == 0) { /* refused: the G2 MSM on the CPU, inputs that are not the values' */
            CHECK_ERR(cz_groth16_bp_g2_start(pp, pool, &ei), CZ_EINVAL);
            CHECK_ERR(cz_groth16_bp_upload_compact(pp, ws, m, bits, as[i].input, &ei), CZ_EINVAL);
        }
        if (!CHECK_ERR(cz_groth16_bp_upload_compact(pp, ws, m, bits, vals, &ei), CZ_OK)) {
            fprintf(stderr, "  compact %d: %s\n", i, ei.msg);
        } else if (!cz_groth16_bp_gpu_key_has_g2(key)) {
            CHECK_ERR(cz_groth16_bp_compute(pp, key, pool, &ei), CZ_EINVAL);
        } else if (CHECK_ERR(cz_groth16_bp_compute(pp, key, pool, &ei), CZ_OK) &&
                   CHECK_ERR(cz_groth16_bp_finish(&proof, pp, &ei), CZ_OK)) {
            CHECK_EQ_MEM(&proof.u.bls12381, &cpu[i].u.bls12381, sizeof cpu[i].u.bls12381);
        } else {
            fprintf(stderr, "  compact %d: %s\n", i, ei.msg);
        }
        cz_groth16_bp_pending_free(pp);
    }
out:
    cz_groth16_gpu_ws_free(ws);
    cz_gpu_r1cs_free(m);
    free(bools);
    free(bits);
    free(vals);
}

/* Where the key's B_G2 is: resident, on the CPU (cz_tuning.gpu_g2_on_cpu), or streamed from the
 * host in pieces of G2_PIECE points (cz_tuning.gpu_g2_stream: the last piece shorter), the next
 * piece uploaded beside the current one's MSM or, G2_STREAMED_SERIAL, after it. */
enum { G2_RESIDENT, G2_ON_CPU, G2_STREAMED, G2_STREAMED_SERIAL };
#define G2_PIECE 37

/* One shape: m rows of the test circuit, witnesses in mode. */
static void check_shape(uint32_t m, int mode, int g2_at) {
    cz_r1cs cs;
    cz_bellperson_params params = {0};
    cz_groth16_vk vk = {0};
    cz_assignment as[3] = {{0}};
    cz_groth16_proof cpu[3], gpu[3], gpu2[3];
    cz_bls12381_fr r[3], s[3];
    cz_groth16_bp_gpu_key *key = NULL;
    cz_groth16_trapdoor td;
    cz_errinfo ei;
    uint64_t st = 5 + m;
    cz_errinfo_clear(&ei);
    cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)"gpu", 3);
    if (g2_at != G2_RESIDENT) {
        cz_tuning tu = {0};
        tu.gpu_g2_on_cpu = g2_at == G2_ON_CPU;
        tu.gpu_g2_stream = g2_at == G2_STREAMED || g2_at == G2_STREAMED_SERIAL;
        tu.gpu_g2_stream_serial = g2_at == G2_STREAMED_SERIAL;
        tu.gpu_g2_stream_points = G2_PIECE;
        CZ_ASSERT(cz_tuning_set(&tu, NULL) == CZ_OK);
    }
    if (!CHECK(bptc_build(&cs, m, &ei) == CZ_OK) ||
        !CHECK(cz_groth16_setup_bellperson(&params, &cs, &td, pool, -1, &ei) == CZ_OK) ||
        !CHECK(cz_groth16_vk_from_bellperson(&vk, &params.vk, &ei) == CZ_OK))
        goto out;
    for (int i = 0; i < 3; i++) {
        bptc_witness(&cs, mode, 31 * (uint64_t)i + m);
        if (!CHECK(cz_r1cs_assignment_make(&as[i], &cs, pool, &ei) == CZ_OK))
            goto out;
        bptc_value(r[i].l, 0, &st);
        bptc_value(s[i].l, 0, &st);
    }
    printf("m = %u (domain %u), mode %d, B_G2 %s\n", m, params.nh + 1, mode,
           g2_at == G2_ON_CPU            ? "on the CPU"
           : g2_at == G2_STREAMED        ? "streamed"
           : g2_at == G2_STREAMED_SERIAL ? "streamed, one piece at a time"
                                         : "resident");
    cz_groth16_bp_opts o = {.r_s = r, .s_s = s, .pool = pool};
    if (!CHECK_ERR(cz_groth16_bp_prove(cpu, &params, as, 3, &o, &ei), CZ_OK))
        goto out;
    o.use_gpu = 1;
    if (!CHECK_ERR(cz_groth16_bp_prove(gpu, &params, as, 3, &o, &ei), CZ_OK))
        goto out;
    if (!CHECK(cz_groth16_bp_gpu_key_create(&key, &params, &as[0], 0, &ei) == CZ_OK))
        goto out;
    CHECK(cz_groth16_bp_gpu_key_has_g2(key) == (g2_at != G2_ON_CPU));
    if (g2_at >= G2_STREAMED) { /* the G1 bases and their positions, not B_G2's points */
        CHECK(cz_groth16_bp_gpu_key_bytes(key) <
              (size_t)(params.nh + params.nl + params.na + params.nb_g1) *
                      (sizeof(cz_bls12381_g1_affine) + sizeof(uint32_t)) +
                  (size_t)params.nb_g2 * sizeof(cz_bls12381_g2_affine) / 2);
        /* from a page-locked copy of its own: the setup's pageable host copy is left as it is
         * (registering it in place pins the edges of neighbouring heap blocks, from which the
         * driver then refuses copies: check_eval's matrices below) */
        CHECK(cz_groth16_bp_gpu_key_g2_pinned(key));
        CHECK(!cz_gpu_host_is_pinned(params.b_g2));
    }
    o.gpu_key = key;
    for (int call = 0; call < 2; call++)
        if (CHECK_ERR(cz_groth16_bp_prove(gpu2, &params, as, 3, &o, &ei), CZ_OK))
            for (int i = 0; i < 3; i++)
                CHECK_EQ_MEM(&gpu2[i].u.bls12381, &cpu[i].u.bls12381, sizeof cpu[i].u.bls12381);
    check_eval(&cs, &params, key, as, r, s, cpu);
    check_compact(&cs, &params, key, as, r, s, cpu, mode);
    for (int i = 0; i < 3; i++) {
        cz_groth16_public pub = {0};
        CHECK_EQ_MEM(&gpu[i].u.bls12381, &cpu[i].u.bls12381, sizeof cpu[i].u.bls12381);
        CHECK(cz_groth16_bp_public(&pub, &as[i], &ei) == CZ_OK);
        CHECK_ERR(cz_groth16_verify(&vk, &pub, &gpu[i], &ei), CZ_OK);
        cz_groth16_public_free(&pub);
    }
    /* other densities (one more aux variable in B, one fewer elsewhere: the counts still fit)
     * are refused by the resident key */
    {
        size_t nw = cz_density_words(as[0].naux);
        uint64_t *d = malloc(nw * sizeof *d);
        cz_assignment other = as[0];
        memcpy(d, as[0].b_aux_density, nw * sizeof *d);
        d[0] ^= 3; /* u_0 in, v_0 out: the popcount stays */
        other.b_aux_density = d;
        CHECK_ERR(cz_groth16_bp_prove(gpu2, &params, &other, 1, &o, &ei), CZ_EFORMAT);
        free(d);
    }
out:
    if (ei.code != CZ_OK && ei.code != CZ_EFORMAT)
        fprintf(stderr, "m = %u: %s\n", m, ei.msg);
    cz_groth16_bp_gpu_key_free(key);
    for (int i = 0; i < 3; i++)
        cz_assignment_free(&as[i]);
    cz_groth16_vk_free(&vk);
    cz_bellperson_params_free(&params);
    cz_r1cs_free(&cs);
    if (g2_at != G2_RESIDENT)
        CZ_ASSERT(cz_tuning_set(NULL, NULL) == CZ_OK);
}

static void test_small(void) {
    check_shape(60, 0, G2_RESIDENT);  /* domain 64 */
    check_shape(100, 1, G2_RESIDENT); /* domain 128, padded, 0/1 values */
}

static void test_g2_on_cpu(void) {
    check_shape(252, 0, G2_ON_CPU);
}

/* B_G2 streamed in pieces (as a key too large for the card has it): the same proofs, a compact
 * witness included, with several pieces and a short last one. */
static void test_g2_streamed(void) {
    check_shape(252, 0, G2_STREAMED);
    check_shape(1000, 1, G2_STREAMED);
    check_shape(1000, 1, G2_STREAMED_SERIAL);
}

static void test_larger(void) {
    check_shape((1u << 14) - 4, 0, G2_RESIDENT);
    check_shape((1u << 14) - 4, 1, G2_RESIDENT);
}

static int setup(void) {
    if (gpu_have_device() != 0)
        return TEST_SKIP;
    CZ_ASSERT(cz_threadpool_create(&pool, 0, NULL) == CZ_OK);
    return 0;
}

static void teardown(void) {
    cz_threadpool_destroy(pool);
}

static const test_case cases[] = {
    {"small", test_small},
    {"g2_on_cpu", test_g2_on_cpu},
    {"g2_streamed", test_g2_streamed},
    {"larger", test_larger},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
