/*
 * Partitions that carry a compact witness through the engine (src/engine/bp_task.h): a circuit
 * with booleans and abc_on_gpu, its partitions synthesized compact (bits and the other values in
 * the pooled buffer), proven on the CPU backend (the witness expanded on the host, a, b, c from
 * the matrices there, the G2 MSM on the CPU; with one device slot, then with two, over which
 * the partitions spread as over two GPUs) and, where there is a GPU, on it (the witness
 * expanded on the device from the resident booleans, a, b, c from the resident matrices).
 *
 * Oracles: the engine verifies every job's proofs against the key's vk before the job is done
 * (cz__bp_verify), with public inputs that came through the compact witness; the proofs equal the
 * bellperson prover's on the full witness (the recording's, kept by cs_gen.h's generator) with the
 * same r and s; the pooled buffer is the compact size, and no a, b, c are pooled.
 */
#include <stdlib.h>
#include <string.h>

#include "cs/cs_gen.h"
#include "cuzk/engine.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/groth16_setup.h"
#include "engine/bp_task.h"
#include "test.h"

enum { NPARTS = 3, ROWS = 700, SEED = 77 };

static const uint8_t R[32] = {5, 1, 2, 3}, S[32] = {9, 8, 7};

/* The generated circuit, then aux_j · ONE = aux_j for every aux (a key has no unconstrained
 * variable); in WITNESS the rows are counted. */
static void circuit(cz__cs *cs) {
    size_t naux;
    gen_circuit(cs, SEED, ROWS);
    naux = cs->naux;
    for (size_t k = 0; k < naux; k++) {
        cz__lc a, b, c;
        if (!cz__cs_needs_lcs(cs)) {
            cz__cs_enforce_values(cs, NULL, NULL, NULL);
            continue;
        }
        cz__lc_init(&a);
        cz__lc_init(&b);
        cz__lc_init(&c);
        cz__lc_add(&a, cz__var_aux((uint32_t)k), NULL);
        cz__lc_add(&b, CZ__VAR_ONE, NULL);
        cz__lc_add(&c, cz__var_aux((uint32_t)k), NULL);
        cz__cs_enforce(cs, &a, &b, &c);
        cz__lc_free(&a);
        cz__lc_free(&b);
        cz__lc_free(&c);
    }
}

/* The circuit recorded with its values. */
static int record(cz_r1cs *r) {
    cz__cs cs;
    int rc = cz__cs_init(&cs, CZ__CS_RECORD, CZ__CS_VALUES, NULL);
    if (rc != CZ_OK)
        return rc;
    circuit(&cs);
    rc = cz__cs_to_r1cs(r, &cs, NULL);
    cz__cs_free(&cs);
    return rc;
}

typedef struct job {
    cz__bp_job g; /* first: the bellperson stages see the job as this */
} job;

/* Every partition has the circuit's witness, compact. */
static int synthesize(void **out, void *vj, uint32_t p, const cz_part_env *env, cz_part_times *t,
                      cz_errinfo *ei) {
    job *j = vj;
    cz__bp_part *pt;
    cz__cs cs;
    const size_t nin = j->g.ninput;
    int rc;
    (void)t;
    if ((rc = cz__bp_part_new(&pt, &j->g, env, ei)) != CZ_OK)
        return rc;
    if (pt->bits == NULL || pt->a != NULL || pt->as.aux != NULL) /* not a compact partition */
        return cz__bp_part_end(out, &j->g, pt, p,
                               cz_fail(ei, CZ_EINTERNAL, "partition %u is not compact", p));
    memset(pt->bits, 0, cz_r1cs_bool_words((uint32_t)(nin + j->g.naux)) * sizeof *pt->bits);
    if ((rc = cz__cs_init(&cs, CZ__CS_WITNESS, 0, ei)) == CZ_OK) {
        if ((rc = cz__cs_use_compact(&cs, pt->bits, nin, j->g.naux, pt->vals + nin,
                                     j->g.circ->nvals - nin, ei)) == CZ_OK) {
            circuit(&cs);
            if ((rc = cz__cs_status(&cs, ei)) == CZ_OK)
                memcpy(pt->vals, cs.input, nin * sizeof *pt->vals);
        }
        cz__cs_free(&cs);
    }
    return cz__bp_part_end(out, &j->g, pt, p, rc);
}

static void destroy(void *vj) {
    job *j = vj;
    cz__bp_job_fini(&j->g);
    free(j);
}

static const cz_workload_ops ops = {
    .name = "bp-compact",
    .synthesize = synthesize,
    CZ__BP_STAGES,
    .destroy = destroy,
};

/* A job of NPARTS partitions of c on an engine of ndevices GPUs (0: the CPU backend with
 * cpu_devices slots): done, its proofs equal want. */
static void run(cz__bp_circuit *c, cz__bp_keys *keys, const uint8_t *want, int ndevices,
                int cpu_devices) {
    cz_engine_config cfg;
    cz_engine *e = NULL;
    cz_workload wl;
    cz_workload_blinding bl = {R, S};
    cz_job *jb = NULL;
    cz_errinfo ei;
    job *j = calloc(1, sizeof *j);
    cz_errinfo_clear(&ei);
    memset(&cfg, 0, sizeof cfg);
    cfg.ndevices = ndevices;
    cfg.cpu_devices = cpu_devices;
    cfg.partition_workers = 2;
    cfg.synthesis_threads = 2;
    cfg.gpu_threads = 2;
    cfg.budget.total_bytes = (uint64_t)1 << 30;
    if (!CHECK(j != NULL) || !CHECK_ERR(cz_engine_create(&e, &cfg, &ei), CZ_OK) ||
        !CHECK_ERR(cz__bp_job_init(&j->g, keys->params, NPARTS, &bl, &ei), CZ_OK)) {
        free(j);
        cz_engine_destroy(e);
        return;
    }
    j->g.keys = keys;
    cz__bp_workload_of(&wl, &ops, j, &j->g, CZ_KIND_POREP_C2, c);
    CHECK_EQ_INT(wl.buf_bytes[0] + wl.buf_bytes[1] + wl.buf_bytes[2], 0);
    CHECK_EQ_INT(wl.buf_bytes[3],
                 (c->r.nvars + 255) / 256 * 32 + (uint64_t)cz_r1cs_nvals(&c->r) * 32);
    CHECK(wl.buf_bytes[3] < (uint64_t)c->r.nvars * 32);
    if (CHECK_ERR(cz_engine_submit(NULL, e, "compact", CZ_PRIO_HIGH, &wl, &ei), CZ_OK) &&
        CHECK_ERR(cz_engine_await(&jb, e, "compact", 300000, &ei), CZ_OK)) {
        size_t len = 0;
        const char *m = NULL;
        if (CHECK_EQ_INT(cz_job_state_get(jb), CZ_JOB_DONE)) {
            const uint8_t *res = cz_job_result(jb, &len);
            CHECK_EQ_INT(len, NPARTS * 192);
            for (int p = 0; p < NPARTS && len == NPARTS * 192; p++)
                CHECK_EQ_MEM(res + 192 * p, want, 192);
        } else {
            cz_job_error(jb, &m);
            fprintf(stderr, "  %s\n", m != NULL ? m : "?");
        }
        cz_job_unref(jb);
    }
    cz_engine_destroy(e);
}

static void test_compact(void) {
    cz_r1cs full = {0};
    cz__bp_circuit c;
    cz__bp_keys keys;
    cz_bellperson_params params = {0};
    cz_groth16_trapdoor td;
    cz_assignment as = {0};
    cz_groth16_proof proof;
    cz_bls12381_fr r, s;
    uint8_t want[192];
    cz_errinfo ei;
    int ngpu = 0;
    memset(&c, 0, sizeof c);
    cz_errinfo_clear(&ei);
    cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)"compact", 7);
    CHECK(cz_bls12381_fr_from_bytes_le(&r, R) == CZ_OK);
    CHECK(cz_bls12381_fr_from_bytes_le(&s, S) == CZ_OK);
    cz_groth16_bp_opts o = {.r_s = &r, .s_s = &s};
    if (!CHECK_ERR(record(&full), CZ_OK) || !CHECK_ERR(record(&c.r), CZ_OK) ||
        !CHECK_ERR(cz_groth16_setup_bellperson(&params, &full, &td, NULL, -1, &ei), CZ_OK) ||
        !CHECK_ERR(cz_r1cs_assignment_make(&as, &full, NULL, &ei), CZ_OK) ||
        !CHECK_ERR(cz_groth16_bp_prove(&proof, &params, &as, 1, &o, &ei), CZ_OK)) {
        fprintf(stderr, "  %s\n", ei.msg);
        goto out;
    }
    cz_groth16_proof_encode(want, &proof);
    c.abc_on_gpu = 1;
    if (!CHECK_ERR(cz__bp_circuit_ready(&c, NULL, &ei), CZ_OK))
        goto out;
    CHECK(c.r.booleans != NULL && c.nvals < c.r.nvars);
    cz__bp_keys_init(&keys, &params);
    run(&c, &keys, want, 0, 1);
    run(&c, &keys, want, 0, 2); /* the partitions over two CPU device slots, as over two GPUs */
    if (cz_gpu_device_count(&ngpu, NULL) == CZ_OK && ngpu > 0)
        run(&c, &keys, want, 1, 0);
    else
        printf("no GPU: the compact partitions ran on the CPU backend only\n");
    cz__bp_keys_fini(&keys);
out:
    cz__bp_circuit_fini(&c);
    cz_assignment_free(&as);
    cz_bellperson_params_free(&params);
    cz_r1cs_free(&full);
}

static const test_case cases[] = {{"compact", test_compact}};

int main(int argc, char **argv) {
    return test_main(argc, argv, cases, TEST_COUNT(cases));
}
