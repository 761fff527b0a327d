/*
 * supra_seal's C interface (cuzk/supraseal.h, libcuzk_supraseal.so), called the way the
 * supraseal-c2 crate and bellperson's prover/supraseal.rs call it: one Assignment per circuit
 * from a proving assignment's fields (bit lengths and popcounts of the densities, a/b/c, inputs,
 * aux), r_s and s_s in Montgomery form, the proofs written into an array of 384-byte proofs.
 *
 * The oracle is cuzk's bellperson prover called directly (cz_groth16_bp_prove on the CPU, with
 * the same r and s): the interface's proofs must equal its proofs byte for byte, through the
 * one-call and the split API, on the GPU where there is one, and verify (cz_groth16_verify with
 * the .params file's verifying key). The key comes from the bellperson-format setup with a
 * seeded trapdoor (cz_groth16_setup_bellperson) and is read back from a .params file, as create_SRS
 * reads Filecoin's. Bad input (counts that do not fit the key, densities whose counts lie, a
 * missing file) must come back as an error with a message. Four callers on their own threads
 * share the cached key and one GPU mutex (make test-tsan runs this file under ThreadSanitizer).
 */
#include <errno.h>
#include <pthread.h>

#include "cuzk/assignment.h"
#include "cuzk/bellperson.h"
#include "cuzk/groth16.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/r1cs.h"
#include "cuzk/supraseal.h"
#include "cuzk/groth16_setup.h"
#include "test.h"

#define NCIRC 3

/* The test circuit: variables 0 = ONE, 1 = x, 2 = y, 3 = z (public), then 13 aux a0..a12.
 * Rows (coefficient indices: 0 → 1, 1 → 5, 2 → 2, 3 → -1):
 *   x·x = a0;  a0·y = a1;  (a1 + 5x)·1 = a2;  a3·a3 = a3 (a bit);  a4·a4 = a4 (one);
 *   2·a5 = a6 (a5 only in B);  a2·a3 = a7;  (a7 − a4)·(x + y) = a8;  a9·a0 = 0 (a9 = 0);
 *   (a8 + a6)·1 = a10;  a10·a10 = a11 (a11 only in C);  (z + a0)·1 = a12 (z not in B).
 * So the densities have holes in A (a5, a11, a12), in B (a1, a2, ...) and in the inputs of B (z),
 * and the aux values hold zeros and ones, as Filecoin's do. 12 rows + 4 inputs = a 16-domain. */
enum { NPUB = 3, NAUX = 13, NROWS = 12, NIN = NPUB + 1 };
#define V_ONE  0
#define V_X    1
#define V_Y    2
#define V_Z    3
#define AUX(j) (NIN + (j))

typedef struct {
    int n;
    uint32_t var[3], coef[3];
} lc;
static const struct {
    lc a, b, c;
} rows[NROWS] = {
    {{1, {V_X}, {0}}, {1, {V_X}, {0}}, {1, {AUX(0)}, {0}}},
    {{1, {AUX(0)}, {0}}, {1, {V_Y}, {0}}, {1, {AUX(1)}, {0}}},
    {{2, {AUX(1), V_X}, {0, 1}}, {1, {V_ONE}, {0}}, {1, {AUX(2)}, {0}}},
    {{1, {AUX(3)}, {0}}, {1, {AUX(3)}, {0}}, {1, {AUX(3)}, {0}}},
    {{1, {AUX(4)}, {0}}, {1, {AUX(4)}, {0}}, {1, {AUX(4)}, {0}}},
    {{1, {V_ONE}, {2}}, {1, {AUX(5)}, {0}}, {1, {AUX(6)}, {0}}},
    {{1, {AUX(2)}, {0}}, {1, {AUX(3)}, {0}}, {1, {AUX(7)}, {0}}},
    {{2, {AUX(7), AUX(4)}, {0, 3}}, {2, {V_X, V_Y}, {0, 0}}, {1, {AUX(8)}, {0}}},
    {{1, {AUX(9)}, {0}}, {1, {AUX(0)}, {0}}, {0, {0}, {0}}},
    {{2, {AUX(8), AUX(6)}, {0, 0}}, {1, {V_ONE}, {0}}, {1, {AUX(10)}, {0}}},
    {{1, {AUX(10)}, {0}}, {1, {AUX(10)}, {0}}, {1, {AUX(11)}, {0}}},
    {{2, {V_Z, AUX(0)}, {0, 0}}, {1, {V_ONE}, {0}}, {1, {AUX(12)}, {0}}},
};

static cz_r1cs cs[NCIRC];
static cz_assignment asg[NCIRC];
static cz_bellperson_params params;
static cz_groth16_vk vk;
static char dir[] = "/tmp/cuzk-supraseal-XXXXXX";
static char params_path[sizeof dir + 16];
static cz_bls12381_fr r_s[NCIRC], s_s[NCIRC];

/* w[v] of circuit k from its inputs: every aux value follows from the rows. */
static void witness(cz_r1cs *s, int k) {
    cz_bls12381_fr *w = (cz_bls12381_fr *)s->w, t, five, two;
    cz_bls12381_fr_from_u64(&w[V_X], 3 + 7 * (uint64_t)k);
    cz_bls12381_fr_from_u64(&w[V_Y], 0x1234567890abcdefULL ^ (uint64_t)k);
    cz_bls12381_fr_from_u64(&w[V_Z], 42 + (uint64_t)k);
    cz_bls12381_fr_from_u64(&five, 5);
    cz_bls12381_fr_from_u64(&two, 2);
    cz_bls12381_fr_mul(&w[AUX(0)], &w[V_X], &w[V_X]);
    cz_bls12381_fr_mul(&w[AUX(1)], &w[AUX(0)], &w[V_Y]);
    cz_bls12381_fr_mul(&t, &five, &w[V_X]);
    cz_bls12381_fr_add(&w[AUX(2)], &w[AUX(1)], &t);
    cz_bls12381_fr_from_u64(&w[AUX(3)], (uint64_t)(k & 1));
    cz_bls12381_fr_one(&w[AUX(4)]);
    cz_bls12381_fr_from_u64(&w[AUX(5)], 0xfeedULL + (uint64_t)k);
    cz_bls12381_fr_mul(&w[AUX(6)], &two, &w[AUX(5)]);
    cz_bls12381_fr_mul(&w[AUX(7)], &w[AUX(2)], &w[AUX(3)]);
    cz_bls12381_fr_sub(&t, &w[AUX(7)], &w[AUX(4)]);
    cz_bls12381_fr_add(&w[AUX(8)], &w[V_X], &w[V_Y]);
    cz_bls12381_fr_mul(&w[AUX(8)], &w[AUX(8)], &t);
    cz_bls12381_fr_zero(&w[AUX(9)]);
    cz_bls12381_fr_add(&w[AUX(10)], &w[AUX(8)], &w[AUX(6)]);
    cz_bls12381_fr_mul(&w[AUX(11)], &w[AUX(10)], &w[AUX(10)]);
    cz_bls12381_fr_add(&w[AUX(12)], &w[V_Z], &w[AUX(0)]);
}

static int fill_matrix(cz_r1cs_mat *m, int which) {
    uint64_t t = 0;
    for (int r = 0; r < NROWS; r++) {
        const lc *l = which == 0 ? &rows[r].a : which == 1 ? &rows[r].b : &rows[r].c;
        m->row_ptr[r] = t;
        for (int i = 0; i < l->n; i++, t++) {
            m->var[t] = l->var[i];
            m->coef[t] = l->coef[i];
        }
    }
    m->row_ptr[NROWS] = t;
    return t == m->nnz ? 0 : -1;
}

static int make_circuit(cz_r1cs *s, int k) {
    uint64_t nnz[3] = {0, 0, 0};
    for (int r = 0; r < NROWS; r++) {
        nnz[0] += (uint64_t)rows[r].a.n;
        nnz[1] += (uint64_t)rows[r].b.n;
        nnz[2] += (uint64_t)rows[r].c.n;
    }
    if (cz_r1cs_alloc(s, CZ_CURVE_BLS12381, NPUB, NAUX, NROWS, nnz, 4, NULL) != CZ_OK)
        return -1;
    cz_r1cs_coef_set_i64(s, 0, 1);
    cz_r1cs_coef_set_i64(s, 1, 5);
    cz_r1cs_coef_set_i64(s, 2, 2);
    cz_r1cs_coef_set_i64(s, 3, -1);
    witness(s, k);
    return fill_matrix(&s->a, 0) | fill_matrix(&s->b, 1) | fill_matrix(&s->c, 2);
}

/* What bellperson's From<&ProvingAssignment> for supraseal_c2::Assignment writes. */
static cz_supraseal_assignment from_proving_assignment(const cz_assignment *as) {
    return (cz_supraseal_assignment){
        .a_aux_density = as->a_aux_density,
        .a_aux_bit_len = as->naux,
        .a_aux_popcount = cz_density_popcount(as->a_aux_density, as->naux),
        .b_inp_density = as->b_input_density,
        .b_inp_bit_len = as->ninput,
        .b_inp_popcount = cz_density_popcount(as->b_input_density, as->ninput),
        .b_aux_density = as->b_aux_density,
        .b_aux_bit_len = as->naux,
        .b_aux_popcount = cz_density_popcount(as->b_aux_density, as->naux),
        .a = as->a,
        .b = as->b,
        .c = as->c,
        .abc_size = as->abc_size,
        .inp_assignment_data = as->input,
        .inp_assignment_size = as->ninput,
        .aux_assignment_data = as->aux,
        .aux_assignment_size = as->naux,
    };
}

static int setup(void) {
    cz_groth16_trapdoor td;
    cz_errinfo ei;

    cz_errinfo_clear(&ei);
    if (test_tmpdir(dir) != 0)
        return 1;
    snprintf(params_path, sizeof params_path, "%s/k.params", dir);
    for (int k = 0; k < NCIRC; k++) {
        if (make_circuit(&cs[k], k) != 0 || cz_r1cs_check(&cs[k], NULL, NULL, &ei) != CZ_OK ||
            cz_r1cs_assignment_make(&asg[k], &cs[k], NULL, &ei) != CZ_OK) {
            fprintf(stderr, "circuit %d: %s\n", k, ei.msg);
            return 1;
        }
        cz_bls12381_fr_from_u64(&r_s[k], 1000 + (uint64_t)k);
        cz_bls12381_fr_from_u64(&s_s[k], 2000 + (uint64_t)k);
    }
    cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)"supraseal", 9);
    if (cz_groth16_setup_bellperson(&params, &cs[0], &td, NULL, -1, &ei) != CZ_OK ||
        cz_bellperson_params_write(params_path, &params, NULL, &ei) != CZ_OK ||
        cz_groth16_vk_from_bellperson(&vk, &params.vk, &ei) != CZ_OK) {
        fprintf(stderr, "key: %s\n", ei.msg);
        return 1;
    }
    return 0;
}

static void teardown(void) {
    for (int k = 0; k < NCIRC; k++) {
        cz_assignment_free(&asg[k]);
        cz_r1cs_free(&cs[k]);
    }
    cz_bellperson_params_free(&params);
    cz_groth16_vk_free(&vk);
    test_tmpdir_remove(dir);
}

/* Checks an interface error: code 0 and no message, or the errno code and a message. */
static int check_error(cz_supraseal_error e, int want_code, const char *want_text) {
    int ok = CHECK_EQ_INT(e.code, want_code);
    if (want_code == 0)
        ok &= CHECK(e.message == NULL);
    else if (CHECK(e.message != NULL) && want_text != NULL && !CHECK(strstr(e.message, want_text)))
        fprintf(stderr, "  message: %s\n", e.message);
    if (e.code != 0 && want_code == 0 && e.message != NULL)
        fprintf(stderr, "  unexpected error: %s\n", e.message);
    free(e.message);
    return ok;
}

/* The oracle's proofs of circuits [0, n) with r_s, s_s (NULL: zero blinding). */
static void oracle(cz_groth16_proof *want, size_t n, const cz_bls12381_fr *r,
                   const cz_bls12381_fr *s) {
    cz_bls12381_fr zero[NCIRC];
    cz_groth16_bp_opts o = {.r_s = r != NULL ? r : zero, .s_s = s != NULL ? s : zero};
    cz_errinfo ei;
    memset(zero, 0, sizeof zero);
    cz_errinfo_clear(&ei);
    if (!CHECK_ERR(cz_groth16_bp_prove(want, &params, asg, n, &o, &ei), CZ_OK))
        fprintf(stderr, "  %s\n", ei.msg);
}

/* got[i] equals the oracle's proof i, and verifies with circuit i's public inputs. */
static void check_proofs(const cz_bls12381_groth16_proof *got, const cz_groth16_proof *want,
                         size_t n) {
    for (size_t i = 0; i < n; i++) {
        cz_groth16_proof p = {.curve = CZ_CURVE_BLS12381, .u.bls12381 = got[i]};
        cz_groth16_public pub;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        CHECK_EQ_MEM(&got[i], &want[i].u.bls12381, sizeof got[i]);
        if (!CHECK_ERR(cz_groth16_bp_public(&pub, &asg[i], &ei), CZ_OK))
            continue;
        if (!CHECK_ERR(cz_groth16_verify(&vk, &pub, &p, &ei), CZ_OK))
            fprintf(stderr, "  proof %zu: %s\n", i, ei.msg);
        cz_groth16_public_free(&pub);
    }
}

static void test_create_drop(void) {
    cz_supraseal_srs a = {NULL}, b = {NULL}, c, d = {NULL};
    check_error(create_SRS(&a, params_path, false), 0, NULL);
    CHECK(a.ptr != NULL);
    c = clone_SRS(&a);
    CHECK(c.ptr == a.ptr);
    /* cache = false reads the file for each handle. */
    check_error(create_SRS(&b, params_path, false), 0, NULL);
    CHECK(b.ptr != NULL && b.ptr != a.ptr);
    drop_SRS(&a);
    drop_SRS(&b);
    drop_SRS(&c);
    /* A NULL handle, as the crate's SRS::default() holds: every call is a no-op. */
    c = clone_SRS(&d);
    CHECK(c.ptr == NULL);
    evict_SRS(&d);
    drop_SRS(&d);
}

static void test_cache(void) {
    cz_supraseal_srs a = {NULL}, b = {NULL}, c = {NULL};
    check_error(create_SRS(&a, params_path, true), 0, NULL);
    check_error(create_SRS(&b, params_path, true), 0, NULL);
    CHECK(a.ptr != NULL && b.ptr == a.ptr);
    /* Evicted, the path is read again: a new key, while the old handles keep theirs. */
    evict_SRS(&a);
    check_error(create_SRS(&c, params_path, true), 0, NULL);
    CHECK(c.ptr != NULL && c.ptr != a.ptr);
    drop_SRS(&a);
    drop_SRS(&b);
    evict_SRS(&c);
    drop_SRS(&c);
}

static void test_create_errors(void) {
    char missing[sizeof dir + 32], bad[sizeof dir + 32];
    cz_supraseal_srs s = {NULL};
    FILE *f;
    snprintf(missing, sizeof missing, "%s/missing.params", dir);
    check_error(create_SRS(&s, missing, false), EIO, "missing.params");
    CHECK(s.ptr == NULL);
    check_error(create_SRS(&s, missing, true), EIO, "missing.params");
    CHECK(s.ptr == NULL);
    /* A file that is no key: an error with a message, nothing stored. */
    snprintf(bad, sizeof bad, "%s/bad.params", dir);
    if ((f = fopen(bad, "wb")) != NULL) {
        fputs("not a key", f);
        fclose(f);
    }
    check_error(create_SRS(&s, bad, false), EINVAL, "bad.params");
    CHECK(s.ptr == NULL);
    check_error(create_SRS(&s, NULL, false), EINVAL, "create_SRS");
}

static void test_prove(void) {
    cz_supraseal_assignment prov[NCIRC];
    cz_bls12381_groth16_proof got[NCIRC];
    cz_groth16_proof want[NCIRC];
    cz_supraseal_srs srs = {NULL};
    cz_supraseal_gpu_mutex *mtx = create_gpu_mutex();

    if (!check_error(create_SRS(&srs, params_path, false), 0, NULL))
        return;
    for (int k = 0; k < NCIRC; k++)
        prov[k] = from_proving_assignment(&asg[k]);
    oracle(want, NCIRC, r_s, s_s);
    /* As the fork's generate_groth16_proofs (no mutex, any GPU), then with a mutex and GPU 0. */
    memset(got, 0xa5, sizeof got);
    check_error(generate_groth16_proofs_c(prov, NCIRC, r_s, s_s, got, &srs, NULL, -1), 0, NULL);
    check_proofs(got, want, NCIRC);
    memset(got, 0xa5, sizeof got);
    check_error(generate_groth16_proofs_c(prov, NCIRC, r_s, s_s, got, &srs, mtx, 0), 0, NULL);
    check_proofs(got, want, NCIRC);
    /* bellperson's default without randomization: r = s = 0. */
    cz_bls12381_fr zero[NCIRC];
    memset(zero, 0, sizeof zero);
    oracle(want, NCIRC, NULL, NULL);
    check_error(generate_groth16_proofs_c(prov, NCIRC, zero, zero, got, &srs, mtx, -1), 0, NULL);
    check_proofs(got, want, NCIRC);
    /* No circuits: nothing to do, success. */
    check_error(generate_groth16_proofs_c(prov, 0, r_s, s_s, got, &srs, NULL, -1), 0, NULL);
    destroy_gpu_mutex(mtx);
    drop_SRS(&srs);
}

static void test_split(void) {
    cz_supraseal_assignment prov[NCIRC];
    cz_bls12381_groth16_proof got[NCIRC], got2[NCIRC];
    cz_groth16_proof want[NCIRC];
    cz_supraseal_srs srs = {NULL};
    cz_supraseal_pending *p1 = NULL, *p2 = NULL, *p3 = NULL;
    cz_supraseal_gpu_mutex *mtx = create_gpu_mutex();
    cz_bls12381_fr r[NCIRC], s[NCIRC];

    /* Not cached: once the handle is dropped, the pending proofs hold the only references. */
    if (!check_error(create_SRS(&srs, params_path, false), 0, NULL))
        return;
    for (int k = 0; k < NCIRC; k++)
        prov[k] = from_proving_assignment(&asg[k]);
    oracle(want, NCIRC, r_s, s_s);
    /* Two proofs in flight on one mutex; each handle holds its key, r and s. */
    memcpy(r, r_s, sizeof r);
    memcpy(s, s_s, sizeof s);
    check_error(generate_groth16_proofs_start_c(prov, NCIRC, r, s, &srs, mtx, -1, &p1), 0, NULL);
    check_error(generate_groth16_proofs_start_c(prov, NCIRC, r, s, &srs, mtx, -1, &p2), 0, NULL);
    CHECK(p1 != NULL && p2 != NULL);
    memset(r, 0, sizeof r);
    memset(s, 0, sizeof s);
    drop_SRS(&srs);
    memset(got, 0xa5, sizeof got);
    memset(got2, 0xa5, sizeof got2);
    check_error(finalize_groth16_proof_c(p2, got2), 0, NULL);
    check_error(finalize_groth16_proof_c(p1, got), 0, NULL);
    check_proofs(got, want, NCIRC);
    check_proofs(got2, want, NCIRC);
    /* A proof that is never finalized: destroy waits for it and frees everything. */
    if (check_error(create_SRS(&srs, params_path, false), 0, NULL)) {
        check_error(generate_groth16_proofs_start_c(prov, 1, r_s, s_s, &srs, NULL, -1, &p3), 0,
                    NULL);
        destroy_pending_proof(p3);
        drop_SRS(&srs);
    }
    destroy_pending_proof(NULL);
    destroy_gpu_mutex(mtx);
}

/* Inputs that break the interface's rules or do not fit the key: errors, never a crash. */
static void test_bad_input(void) {
    cz_supraseal_assignment prov[NCIRC], bad[NCIRC];
    cz_bls12381_groth16_proof got[NCIRC];
    cz_supraseal_srs srs = {NULL}, none = {NULL};
    cz_supraseal_pending *p = (cz_supraseal_pending *)&p;
    uint64_t extra[2];

    if (!check_error(create_SRS(&srs, params_path, false), 0, NULL))
        return;
    for (int k = 0; k < NCIRC; k++)
        prov[k] = from_proving_assignment(&asg[k]);

    /* One aux variable fewer (its bit lengths and popcount agree): |L| does not fit. */
    memcpy(bad, prov, sizeof bad);
    bad[1].aux_assignment_size = bad[1].a_aux_bit_len = bad[1].b_aux_bit_len = NAUX - 1;
    bad[1].a_aux_popcount = cz_density_popcount(bad[1].a_aux_density, NAUX - 1);
    bad[1].b_aux_popcount = cz_density_popcount(bad[1].b_aux_density, NAUX - 1);
    check_error(generate_groth16_proofs_c(bad, NCIRC, r_s, s_s, got, &srs, NULL, -1), EINVAL,
                "circuit 1 has 12 aux variables");
    check_error(generate_groth16_proofs_start_c(bad, NCIRC, r_s, s_s, &srs, NULL, -1, &p), EINVAL,
                "circuit 1 has 12 aux variables");
    CHECK(p == NULL);
    /* One more A bit than the key has A points. */
    memcpy(bad, prov, sizeof bad);
    extra[0] = asg[2].a_aux_density[0] | (UINT64_C(1) << 12);
    extra[1] = 0;
    bad[2].a_aux_density = extra;
    bad[2].a_aux_popcount = cz_density_popcount(extra, NAUX);
    check_error(generate_groth16_proofs_c(bad, NCIRC, r_s, s_s, got, &srs, NULL, -1), EINVAL,
                "circuit 2 has 4 inputs");
    /* A popcount that is not the bits' count, a bit length that is not the size. */
    memcpy(bad, prov, sizeof bad);
    bad[0].b_aux_popcount++;
    check_error(generate_groth16_proofs_c(bad, NCIRC, r_s, s_s, got, &srs, NULL, -1), EINVAL,
                "b_aux_density");
    memcpy(bad, prov, sizeof bad);
    bad[0].b_inp_bit_len = 3;
    check_error(generate_groth16_proofs_c(bad, NCIRC, r_s, s_s, got, &srs, NULL, -1), EINVAL,
                "b_inp_density has 3 bits");
    /* More constraints than the key's domain. */
    memcpy(bad, prov, sizeof bad);
    bad[0].abc_size = 17;
    check_error(generate_groth16_proofs_c(bad, NCIRC, r_s, s_s, got, &srs, NULL, -1), EINVAL,
                "constraints");
    /* NULL arrays, one blinding array of two, no key, no proofs array, a device past the last. */
    memcpy(bad, prov, sizeof bad);
    bad[0].aux_assignment_data = NULL;
    check_error(generate_groth16_proofs_c(bad, NCIRC, r_s, s_s, got, &srs, NULL, -1), EINVAL,
                "NULL");
    check_error(generate_groth16_proofs_c(prov, NCIRC, r_s, NULL, got, &srs, NULL, -1), EINVAL,
                "r_s");
    check_error(generate_groth16_proofs_c(prov, NCIRC, r_s, s_s, got, &none, NULL, -1), EINVAL,
                "no SRS");
    check_error(generate_groth16_proofs_c(prov, NCIRC, r_s, s_s, NULL, &srs, NULL, -1), EINVAL,
                "proofs");
    check_error(generate_groth16_proofs_c(NULL, NCIRC, r_s, s_s, got, &srs, NULL, -1), EINVAL,
                "assignments");
    check_error(generate_groth16_proofs_start_c(prov, NCIRC, r_s, s_s, &srs, NULL, -1, NULL),
                EINVAL, "handle");
    check_error(finalize_groth16_proof_c(NULL, got), EINVAL, "handle");
    int ndev = 0;
    if (cz_gpu_device_count(&ndev, NULL) == CZ_OK && ndev > 0)
        check_error(generate_groth16_proofs_c(prov, NCIRC, r_s, s_s, got, &srs, NULL, ndev), EINVAL,
                    "GPU");
    drop_SRS(&srs);
}

/* A batch whose middle circuit has other densities with the same counts (a9 out of A, a12 in):
 * the key does not fit its shape, so its proof does not verify, but the interface must still
 * compute what the prover computes for it, here with a resident key made for it on a GPU, and
 * go back to the first key's densities for the last circuit. */
static void test_densities(void) {
    cz_supraseal_assignment prov[NCIRC];
    cz_bls12381_groth16_proof got[NCIRC];
    cz_groth16_proof want[NCIRC];
    cz_assignment mixed[NCIRC];
    cz_supraseal_srs srs = {NULL};
    cz_errinfo ei;
    uint64_t other = asg[1].a_aux_density[0];
    cz_groth16_bp_opts o = {.r_s = r_s, .s_s = s_s};

    cz_errinfo_clear(&ei);
    other = (other & ~(UINT64_C(1) << 9)) | (UINT64_C(1) << 12);
    memcpy(mixed, asg, sizeof mixed);
    mixed[1].a_aux_density = &other;
    if (!CHECK_ERR(cz_groth16_bp_prove(want, &params, mixed, NCIRC, &o, &ei), CZ_OK) ||
        !check_error(create_SRS(&srs, params_path, false), 0, NULL))
        return;
    for (int k = 0; k < NCIRC; k++)
        prov[k] = from_proving_assignment(&mixed[k]);
    CHECK(prov[1].a_aux_popcount == prov[0].a_aux_popcount);
    for (int pass = 0; pass < 2; pass++) {
        memset(got, 0xa5, sizeof got);
        check_error(generate_groth16_proofs_c(prov, NCIRC, r_s, s_s, got, &srs, NULL, -1), 0, NULL);
        for (int k = 0; k < NCIRC; k++)
            CHECK_EQ_MEM(&got[k], &want[k].u.bls12381, sizeof got[k]);
        /* Evicted, the resident keys are gone: the second pass uploads them again. */
        if (pass == 0)
            evict_SRS(&srs);
    }
    drop_SRS(&srs);
}

/* Callers on threads of their own, as several sectors' provers call the crate at once: each
 * opens the cached key by path (so they share one while it is cached), proves through one GPU
 * mutex, then evicts the path and drops its handle while the others may still be proving with
 * theirs; every proof equals the oracle's. */
#define NCALLERS 4
typedef struct {
    cz_supraseal_gpu_mutex *mtx;
    cz_supraseal_error e;
    cz_bls12381_groth16_proof got[NCIRC];
} caller;

static void *caller_main(void *arg) {
    caller *c = arg;
    cz_supraseal_assignment prov[NCIRC];
    cz_supraseal_srs srs = {NULL};
    c->e = create_SRS(&srs, params_path, true);
    if (c->e.code != 0)
        return NULL;
    for (int k = 0; k < NCIRC; k++)
        prov[k] = from_proving_assignment(&asg[k]);
    c->e = generate_groth16_proofs_c(prov, NCIRC, r_s, s_s, c->got, &srs, c->mtx, -1);
    evict_SRS(&srs);
    drop_SRS(&srs);
    return NULL;
}

static void test_concurrent(void) {
    caller c[NCALLERS];
    pthread_t th[NCALLERS];
    int started[NCALLERS];
    cz_groth16_proof want[NCIRC];
    cz_supraseal_gpu_mutex *mtx = create_gpu_mutex();
    oracle(want, NCIRC, r_s, s_s);
    memset(c, 0, sizeof c);
    for (int t = 0; t < NCALLERS; t++) {
        c[t].mtx = mtx;
        memset(c[t].got, 0xa5, sizeof c[t].got);
        started[t] = pthread_create(&th[t], NULL, caller_main, &c[t]) == 0;
        CHECK(started[t]);
    }
    for (int t = 0; t < NCALLERS; t++) {
        if (!started[t])
            continue;
        pthread_join(th[t], NULL);
        if (check_error(c[t].e, 0, NULL))
            check_proofs(c[t].got, want, NCIRC);
    }
    destroy_gpu_mutex(mtx);
}

static const test_case cases[] = {
    {"create_drop", test_create_drop},     {"cache", test_cache},
    {"create_errors", test_create_errors}, {"prove", test_prove},
    {"densities", test_densities},         {"split", test_split},
    {"bad_input", test_bad_input},         {"concurrent", test_concurrent},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
