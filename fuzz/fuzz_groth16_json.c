/*
 * libFuzzer target for the snarkjs JSON readers (cuzk/groth16_json.h): proof.json,
 * verification_key.json and public.json (read for both curves). Every input is given to each
 * reader, as a file (in /dev/shm where it exists: the readers take paths). Any text is accepted or
 * refused, never a crash, a leak or an out-of-bounds read (ASan, UBSan). Checked on every input:
 *
 *   - a refusal returns the code left in ei, one of those the header documents, with a message
 *     naming the file;
 *   - what a reader accepts, its writer writes, and that file reads back and writes the same text
 *     again (write -> read -> write is a fixed point), with the same curve and count of values.
 *
 * Seeds: fuzz/corpus/fuzz_groth16_json/, snarkjs 0.7's files for the mulchain circuit of
 * tests/vectors/formats_vectors.mjs on both curves (`snarkjs groth16 prove`, `snarkjs zkey export
 * verificationkey`), and a few refusals (wrong protocol, unknown curve, a number >= p, a point off
 * the curve).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/groth16_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One pair of scratch files per process; removed at exit. */
static char in_path[64], out_path[64], out2_path[64];

static void remove_files(void) {
    unlink(in_path);
    unlink(out_path);
    unlink(out2_path);
}

static void make_paths(void) {
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    long pid = (long)getpid();
    snprintf(in_path, sizeof in_path, "%s/fuzz_g16json_%ld.json", dir, pid);
    snprintf(out_path, sizeof out_path, "%s/fuzz_g16json_%ld.out.json", dir, pid);
    snprintf(out2_path, sizeof out2_path, "%s/fuzz_g16json_%ld.out2.json", dir, pid);
    atexit(remove_files);
}

static void put_file(const char *path, const uint8_t *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0)
        abort();
}

/* The whole file; *len its size. */
static char *get_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        __builtin_trap(); /* the writer said it wrote it */
    char *buf = NULL;
    size_t cap = 0, n = 0, r;
    do {
        if (n == cap && (buf = realloc(buf, cap = cap * 2 + 4096)) == NULL)
            abort();
        r = fread(buf + n, 1, cap - n, f);
        n += r;
    } while (r > 0);
    fclose(f);
    *len = n;
    return buf;
}

/* The two written files hold the same text. */
static void same_files(void) {
    size_t n1, n2;
    char *a = get_file(out_path, &n1), *b = get_file(out2_path, &n2);
    if (n1 != n2 || memcmp(a, b, n1) != 0)
        __builtin_trap();
    free(a);
    free(b);
}

/* The header's codes, and CZ_ENONCANON: a point coordinate >= p is refused by the point decoder
 * (cuzk/encoding.h) with its own code, where the header says CZ_ERANGE. */
static void check_refusal(int rc, const cz_errinfo *ei) {
    if (rc == CZ_ENOMEM)
        return;
    if (rc != CZ_EFORMAT && rc != CZ_ECURVE && rc != CZ_ERANGE && rc != CZ_ENONCANON &&
        rc != CZ_ENOTONCURVE && rc != CZ_ENOTINSUBGROUP && rc != CZ_EIO)
        __builtin_trap();
    if (ei->code != rc || strstr(ei->msg, in_path) == NULL)
        __builtin_trap();
}

static void fuzz_proof(void) {
    cz_groth16_proof p, q;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = cz_groth16_proof_read_json(&p, in_path, &ei);
    if (rc != CZ_OK) {
        check_refusal(rc, &ei);
        return;
    }
    if (cz_groth16_proof_write_json(out_path, &p, &ei) != CZ_OK ||
        cz_groth16_proof_read_json(&q, out_path, &ei) != CZ_OK || q.curve != p.curve ||
        cz_groth16_proof_write_json(out2_path, &q, &ei) != CZ_OK)
        __builtin_trap();
    same_files();
}

static void fuzz_vk(void) {
    cz_groth16_vk v, w;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = cz_groth16_vk_read_json(&v, in_path, &ei);
    if (rc != CZ_OK) {
        check_refusal(rc, &ei);
        return;
    }
    if (cz_groth16_vk_write_json(out_path, &v, &ei) != CZ_OK ||
        cz_groth16_vk_read_json(&w, out_path, &ei) != CZ_OK)
        __builtin_trap();
    if (w.curve != v.curve || w.npublic != v.npublic ||
        cz_groth16_vk_write_json(out2_path, &w, &ei) != CZ_OK)
        __builtin_trap();
    same_files();
    cz_groth16_vk_free(&w);
    cz_groth16_vk_free(&v);
}

static void fuzz_public(cz_curve_id curve) {
    cz_groth16_public p, q;
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    int rc = cz_groth16_public_read_json(&p, curve, in_path, &ei);
    if (rc != CZ_OK) {
        check_refusal(rc, &ei);
        return;
    }
    if (p.curve != curve || cz_groth16_public_write_json(out_path, &p, &ei) != CZ_OK ||
        cz_groth16_public_read_json(&q, curve, out_path, &ei) != CZ_OK)
        __builtin_trap();
    if (q.n != p.n || (p.n > 0 && memcmp(q.values, p.values, (size_t)p.n * sizeof p.values[0])) ||
        cz_groth16_public_write_json(out2_path, &q, &ei) != CZ_OK)
        __builtin_trap();
    same_files();
    cz_groth16_public_free(&q);
    cz_groth16_public_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (in_path[0] == '\0')
        make_paths();
    put_file(in_path, data, size);
    fuzz_proof();
    fuzz_vk();
    fuzz_public(CZ_CURVE_BN254);
    fuzz_public(CZ_CURVE_BLS12381);
    return 0;
}
