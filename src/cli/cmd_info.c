/*
 * `cuzk info FILE`: says what a file is. iden3 binary files (.zkey, .wtns, .r1cs) are opened with
 * their full readers (so `info` also validates them) and their section table is listed; JSON
 * files are recognised as a proof, a verification key or public inputs.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cuzk/groth16_json.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"
#include "formats/binfile.h"

static const char info_help[] =
    "usage: cuzk info FILE\n"
    "\n"
    "Prints what FILE is: a snarkjs proving key (.zkey), witness (.wtns), constraint system\n"
    "(.r1cs), or a JSON proof, verification key or public-input list; its curve, sizes and\n"
    "sections. The file is fully validated on the way (exit 3 when it is malformed).\n";

static void print_sections(const char *path, const char magic[4], uint32_t version) {
    cz__binfile bf;
    if (cz__binfile_open(&bf, path, magic, version, NULL) != CZ_OK)
        return;
    printf("sections:");
    for (size_t i = 0; i < bf.nsects; i++)
        printf(" %u@%llu(%llu bytes)", bf.sects[i].id, (unsigned long long)bf.sects[i].off,
               (unsigned long long)bf.sects[i].size);
    printf("\n");
    cz__binfile_close(&bf);
}

static int info_zkey(const char *path, cz_errinfo *ei) {
    cz_zkey *zk;
    if (cz_zkey_open(&zk, path, ei) != CZ_OK)
        return ei->code;
    printf("%s: snarkjs Groth16 proving key (.zkey)\n"
           "curve: %s\nsignals (nVars): %u\npublic inputs: %u\ndomain: 2^%u = %u\n"
           "coefficients (A and B): %zu\n",
           path, cz_curve_name(zk->curve), zk->nvars, zk->npublic, zk->log_domain_size,
           zk->domain_size, zk->ncoefs);
    cz_zkey_close(zk);
    print_sections(path, "zkey", 1);
    return CZ_OK;
}

static int info_wtns(const char *path, cz_errinfo *ei) {
    cz_wtns *w;
    if (cz_wtns_open(&w, path, ei) != CZ_OK)
        return ei->code;
    printf("%s: snarkjs witness (.wtns)\ncurve: %s\nvalues: %u\n", path, cz_curve_name(w->curve),
           w->nwitness);
    cz_wtns_close(w);
    print_sections(path, "wtns", 2);
    return CZ_OK;
}

static int info_r1cs(const char *path, cz_errinfo *ei) {
    cz_r1cs_file *r;
    if (cz_r1cs_open(&r, path, ei) != CZ_OK)
        return ei->code;
    printf("%s: circom constraint system (.r1cs)\ncurve: %s\nwires: %u\nconstraints: %u\n"
           "public outputs: %u\npublic inputs: %u\nprivate inputs: %u\nterms: %zu\n",
           path, cz_curve_name(r->curve), r->nwires, r->nconstraints, r->npub_out, r->npub_in,
           r->nprv_in, r->nterms);
    cz_r1cs_close(r);
    print_sections(path, "r1cs", 1);
    return CZ_OK;
}

/* JSON: a proof has pi_a, a key has IC, public inputs are an array. Try each reader. */
static int info_json(const char *path, cz_errinfo *ei) {
    cz_groth16_proof proof;
    cz_groth16_vk vk;
    cz_groth16_public pub;
    cz_errinfo try;
    cz_errinfo_clear(&try);
    if (cz_groth16_proof_read_json(&proof, path, &try) == CZ_OK) {
        printf("%s: Groth16 proof (snarkjs JSON)\ncurve: %s\n", path, cz_curve_name(proof.curve));
        return CZ_OK;
    }
    cz_errinfo_clear(&try);
    if (cz_groth16_vk_read_json(&vk, path, &try) == CZ_OK) {
        printf("%s: Groth16 verification key (snarkjs JSON)\ncurve: %s\npublic inputs: %u\n", path,
               cz_curve_name(vk.curve), vk.npublic);
        cz_groth16_vk_free(&vk);
        return CZ_OK;
    }
    cz_errinfo_clear(&try);
    if (cz_groth16_public_read_json(&pub, CZ_CURVE_BLS12381, path, &try) == CZ_OK) {
        printf("%s: public inputs (snarkjs JSON)\nvalues: %u\n", path, pub.n);
        cz_groth16_public_free(&pub);
        return CZ_OK;
    }
    return cz_fail(ei, CZ_EFORMAT, "%s: JSON, but not a Groth16 proof, key or public inputs", path);
}

int cz__cli_info(int argc, char **argv) {
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(info_help, stdout);
        return CZ_EXIT_OK;
    }
    if (argc != 2 || (argv[1][0] == '-' && argv[1][1] != '\0'))
        return cz__cli_usage_error("info", "expected one FILE");
    const char *path = argv[1];
    cz_errinfo ei;
    char head[4] = {0};
    int c = 0;
    cz_errinfo_clear(&ei);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        cz_fail(&ei, CZ_EIO, "%s: cannot open the file", path);
        return cz__cli_report("info", &ei);
    }
    size_t got = fread(head, 1, sizeof head, f);
    rewind(f);
    while ((c = fgetc(f)) == ' ' || c == '\n' || c == '\r' || c == '\t')
        ;
    fclose(f);
    int rc;
    if (got == 4 && memcmp(head, "zkey", 4) == 0)
        rc = info_zkey(path, &ei);
    else if (got == 4 && memcmp(head, "wtns", 4) == 0)
        rc = info_wtns(path, &ei);
    else if (got == 4 && memcmp(head, "r1cs", 4) == 0)
        rc = info_r1cs(path, &ei);
    else if (c == '{' || c == '[')
        rc = info_json(path, &ei);
    else
        rc = cz_fail(&ei, CZ_EFORMAT, "%s: not a zkey, wtns, r1cs or JSON file", path);
    return rc == CZ_OK ? CZ_EXIT_OK : cz__cli_report("info", &ei);
}
