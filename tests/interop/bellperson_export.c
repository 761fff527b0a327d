/*
 * cz-bellperson-export <out dir>: BLS12-381 proofs of cuzk's prover written in bellperson's byte
 * formats, for the independent verifier tests/interop/bellperson_verify.mjs (driven by
 * tests/interop/bellperson_interop.mjs, ctest interop_bellperson_verify).
 *
 * Each set is a folder <out>/<name> with the three files that verifier reads: `vk` (bellperson's
 * VerifyingKey::write: alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2 uncompressed, a
 * big-endian u32 |IC|, the IC points), `proofs` (192 bytes per proof, cz_groth16_proof_encode:
 * the bytes the engine returns) and `inputs.json` (one array of decimal strings per proof,
 * without the leading ONE). The key file is written here with the point encoders of
 * cuzk/encoding.h, from the zkey's own points, so nothing of a bellperson reader is involved.
 * One line per set on stdout, "<name> valid" or "<name> invalid": what cuzk's batch verifier
 * (and, for each proof, the single verifier) says about it, for the driver to compare.
 *
 * Sets: `ptc` — four proofs on a generated circuit (tests/groth16/prove_test_circuit.h) whose key
 * has γ ≠ 1, three witnesses and one witness again with other r, s; `ptc_one` — its first proof
 * alone; `ptc_bad_a` — proof 2's A moved by the generator; `ptc_bad_input` — proof 1's second
 * input plus one; `mulchain` — two proofs with the key of examples/mulchain (made by snarkjs's
 * own ceremony) and its witness. Exit 0, or 1 when something could not be made (a message on
 * stderr) or cuzk's verdicts disagree with what the set should be.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/encoding.h"
#include "cuzk/field.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_setup.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"
#include "groth16/prove_test_circuit.h"

#define MAXPROOFS 4

typedef struct {
    size_t n;
    cz_groth16_proof proofs[MAXPROOFS];
    cz_groth16_public pubs[MAXPROOFS];
} set;

static const char *out_dir;

/* Prints "what: why" and returns 1. */
static int fail(const char *what, const char *why) {
    fprintf(stderr, "cz-bellperson-export: %s: %s\n", what, why);
    return 1;
}

static int write_file(const char *dir, const char *name, const void *data, size_t len) {
    char path[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0)
        return fail(path, strerror(errno));
    return 0;
}

/* The bellperson .vk bytes of the zkey's verification key. */
static int write_vk(const char *dir, const cz_zkey *zk) {
    const cz_zkey_bls12381 *k = &zk->u.bls12381;
    size_t nic = (size_t)zk->npublic + 1, len = 3 * 96 + 3 * 192 + 4 + 96 * nic;
    uint8_t *b = malloc(len), *p = b;
    int rc;
    if (b == NULL)
        return fail("vk", "out of memory");
    cz_bls12381_g1_to_uncompressed(p, &k->alpha1);
    cz_bls12381_g1_to_uncompressed(p + 96, &k->beta1);
    cz_bls12381_g2_to_uncompressed(p + 192, &k->beta2);
    cz_bls12381_g2_to_uncompressed(p + 384, &k->gamma2);
    cz_bls12381_g1_to_uncompressed(p + 576, &k->delta1);
    cz_bls12381_g2_to_uncompressed(p + 672, &k->delta2);
    p += 864;
    for (int i = 0; i < 4; i++)
        *p++ = (uint8_t)(nic >> (24 - 8 * i));
    for (size_t i = 0; i < nic; i++, p += 96)
        cz_bls12381_g1_to_uncompressed(p, &k->ic[i]);
    rc = write_file(dir, "vk", b, len);
    free(b);
    return rc;
}

/* Writes the set's folder and prints cuzk's verdict; want_valid says what it should be. */
static int write_set(const char *name, const cz_zkey *zk, const set *s, int want_valid) {
    char dir[512], dec[CZ_FIELD_DEC_MAX];
    uint8_t proofs[MAXPROOFS * 192];
    char inputs[MAXPROOFS * 8 * (CZ_FIELD_DEC_MAX + 3) + 16];
    size_t pos = 0;
    cz_groth16_vk vk;
    cz_errinfo ei;
    int rc, batch, single_all = 1;
    snprintf(dir, sizeof dir, "%s/%s", out_dir, name);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return fail(dir, strerror(errno));
    if (write_vk(dir, zk) != 0)
        return 1;
    pos += (size_t)snprintf(inputs + pos, sizeof inputs - pos, "[");
    for (size_t j = 0; j < s->n; j++) {
        cz_groth16_proof_encode(proofs + 192 * j, &s->proofs[j]);
        pos += (size_t)snprintf(inputs + pos, sizeof inputs - pos, "%s[", j ? "," : "");
        for (uint32_t i = 0; i < s->pubs[j].n && i < 8; i++) {
            cz_bls12381_fr x;
            if (cz_bls12381_fr_from_bytes_le(&x, (const uint8_t *)s->pubs[j].values[i]) != CZ_OK)
                return fail(name, "a public input is not below r");
            cz_bls12381_fr_to_dec(dec, &x);
            pos +=
                (size_t)snprintf(inputs + pos, sizeof inputs - pos, "%s\"%s\"", i ? "," : "", dec);
        }
        pos += (size_t)snprintf(inputs + pos, sizeof inputs - pos, "]");
    }
    pos += (size_t)snprintf(inputs + pos, sizeof inputs - pos, "]\n");
    if (pos >= sizeof inputs)
        return fail(name, "inputs.json too long");
    if (write_file(dir, "proofs", proofs, 192 * s->n) != 0 ||
        write_file(dir, "inputs.json", inputs, pos) != 0)
        return 1;

    if ((rc = cz_groth16_vk_from_zkey(&vk, zk, &ei)) != CZ_OK)
        return fail("vk", ei.msg);
    batch = cz_groth16_verify_batch(&vk, s->pubs, s->proofs, s->n, &ei);
    for (size_t j = 0; j < s->n; j++)
        single_all &= cz_groth16_verify(&vk, &s->pubs[j], &s->proofs[j], NULL) == CZ_OK;
    cz_groth16_vk_free(&vk);
    if (batch != CZ_OK && batch != CZ_EVERIFY)
        return fail(name, ei.msg);
    printf("%s %s\n", name, batch == CZ_OK ? "valid" : "invalid");
    if ((batch == CZ_OK) != want_valid || single_all != want_valid) {
        fprintf(stderr, "cz-bellperson-export: %s: cuzk says batch %s, singles %s\n", name,
                batch == CZ_OK ? "valid" : "invalid", single_all ? "all valid" : "not all valid");
        return 1;
    }
    return 0;
}

static void set_free(set *s) {
    for (size_t j = 0; j < s->n; j++)
        cz_groth16_public_free(&s->pubs[j]);
    s->n = 0;
}

/* Proves s->n proofs with zk, proof j with the witness at wtns[j]. */
static int prove_all(set *s, const cz_zkey *zk, const char *const *wtns, size_t n) {
    cz_errinfo ei;
    for (size_t j = 0; j < n; j++) {
        cz_wtns *w = NULL;
        int rc = cz_wtns_open(&w, wtns[j], &ei);
        if (rc == CZ_OK)
            rc = cz_groth16_prove(&s->proofs[j], &s->pubs[j], zk, w, NULL, &ei);
        cz_wtns_close(w);
        if (rc != CZ_OK)
            return fail(wtns[j], ei.msg);
        s->n = j + 1;
    }
    return 0;
}

static int ptc_sets(void) {
    char zp[512], wp[3][512];
    const char *wl[MAXPROOFS];
    cz_groth16_trapdoor td, other;
    cz_zkey *zk = NULL;
    cz_errinfo ei;
    set s = {0}, t;
    int rc = 1;
    cz_groth16_trapdoor_from_seed(&td, (const uint8_t *)"bellperson-export", 17);
    cz_groth16_trapdoor_from_seed(&other, (const uint8_t *)"bellperson-export-gamma", 23);
    memcpy(td.gamma, other.tau, sizeof td.gamma); /* γ ≠ 1 */
    snprintf(zp, sizeof zp, "%s/ptc.zkey", out_dir);
    for (int i = 0; i < 3; i++) {
        snprintf(wp[i], sizeof wp[i], "%s/ptc%d.wtns", out_dir, i);
        if (ptc_make_td(i == 0 ? zp : NULL, wp[i], CZ_CURVE_BLS12381, 4, 0, &td, NULL, &ei) !=
            CZ_OK)
            return fail("test circuit", ei.msg);
    }
    if (cz_zkey_open(&zk, zp, &ei) != CZ_OK)
        return fail(zp, ei.msg);
    for (int j = 0; j < MAXPROOFS; j++)
        wl[j] = wp[j % 3];
    if (prove_all(&s, zk, wl, MAXPROOFS) != 0 || write_set("ptc", zk, &s, 1) != 0)
        goto out;
    t = s;
    t.n = 1;
    if (write_set("ptc_one", zk, &t, 1) != 0)
        goto out;
    t = s;
    {
        cz_bls12381_g1_affine g;
        cz_bls12381_g1_jacobian a;
        cz_bls12381_g1_generator(&g);
        cz_bls12381_g1_from_affine(&a, &t.proofs[2].u.bls12381.a);
        cz_bls12381_g1_add_mixed(&a, &a, &g);
        cz_bls12381_g1_to_affine(&t.proofs[2].u.bls12381.a, &a);
    }
    if (write_set("ptc_bad_a", zk, &t, 0) != 0)
        goto out;
    {
        uint64_t bumped[8][4], one[4] = {1, 0, 0, 0};
        t = s;
        memcpy(bumped, s.pubs[1].values, s.pubs[1].n * sizeof bumped[0]);
        ptc_mul_add(CZ_CURVE_BLS12381, bumped[1], one, s.pubs[1].values[1], one);
        t.pubs[1].values = bumped;
        if (write_set("ptc_bad_input", zk, &t, 0) != 0)
            goto out;
    }
    rc = 0;
out:
    set_free(&s);
    cz_zkey_close(zk);
    return rc;
}

static int mulchain_set(void) {
    const char *wl[2] = {"examples/mulchain/mulchain.wtns", "examples/mulchain/mulchain.wtns"};
    cz_zkey *zk = NULL;
    cz_errinfo ei;
    set s = {0};
    int rc;
    if (cz_zkey_open(&zk, "examples/mulchain/mulchain.zkey", &ei) != CZ_OK)
        return fail("examples/mulchain/mulchain.zkey", ei.msg);
    if (zk->curve != CZ_CURVE_BLS12381) {
        cz_zkey_close(zk);
        return fail("examples/mulchain/mulchain.zkey", "not a BLS12-381 key");
    }
    rc = prove_all(&s, zk, wl, 2);
    if (rc == 0)
        rc = write_set("mulchain", zk, &s, 1);
    set_free(&s);
    cz_zkey_close(zk);
    return rc;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: cz-bellperson-export <out dir> (run in the source root)\n");
        return 2;
    }
    out_dir = argv[1];
    if (mkdir(out_dir, 0755) != 0 && errno != EEXIST)
        return fail(out_dir, strerror(errno));
    if (ptc_sets() != 0 || mulchain_set() != 0)
        return 1;
    return 0;
}
