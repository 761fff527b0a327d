/*
 * `cuzk info FILE`: says what a file is. iden3 binary files (.zkey, .wtns, .r1cs) are opened with
 * their full readers (so `info` also validates them) and their section table is listed; JSON
 * files are recognised as a proof, a verification key or public inputs. Filecoin's bellperson
 * files are recognised by their extension (.vk, .params) or, without one, by their size, which
 * tells the three apart (cuzk/bellperson.h): a .vk is read whole (every point checked), a .params
 * only walked (its counts and sections; 44 GiB are not read to print them) unless --check asks
 * for every point, and a file of 192-byte proofs is decoded and its partitions counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cuzk/bellperson.h"
#include "cuzk/params.h"
#include "cuzk/clock.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_json.h"
#include "cuzk/r1cs_file.h"
#include "cuzk/threadpool.h"
#include "cuzk/wtns.h"
#include "cuzk/zkey.h"
#include "formats/binfile.h"

static const char info_help[] =
    "usage: cuzk info [--check [--subgroup] [-t N]] FILE\n"
    "\n"
    "Prints what FILE is: a snarkjs proving key (.zkey), witness (.wtns), constraint system\n"
    "(.r1cs), a JSON proof, verification key or public-input list, a bellperson verifying key\n"
    "(.vk) or parameters (.params), or a file of 192-byte Groth16 proofs (Filecoin's, one per\n"
    "partition); its curve, sizes and sections. The file is validated on the way (exit 3 when\n"
    "it is malformed): fully, except a .params, whose counts are checked against its size but\n"
    "whose points are not read unless asked:\n"
    "  --check       .params: decode every point and check it is on the curve\n"
    "  --subgroup    .params: also check every point is in the subgroup (slow: docs/formats.md)\n"
    "  -t, --threads N   threads for --check (default: one per CPU)\n";

typedef struct info_opts {
    int check, subgroup;
    size_t threads;
} info_opts;

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

static void print_sizes(const cz_bellperson_info *in) {
    int last = in->kind == CZ_BELLPERSON_VK ? CZ_BELLPERSON_IC : CZ_BELLPERSON_B_G2;
    for (int s = CZ_BELLPERSON_IC; s <= last; s++)
        printf("%s: %u points (%llu bytes, count at offset %llu)\n", cz_bellperson_section_name(s),
               in->count[s], (unsigned long long)in->count[s] * cz_bellperson_point_bytes(s),
               (unsigned long long)in->offset[s]);
    printf("size: %llu bytes\n", (unsigned long long)in->size);
}

/* The digest line: the first 32 hex digits of BLAKE2b-512 of the file, what Filecoin's
 * parameters.json lists (docs/params.md). */
static int print_digest(const char *path, cz_errinfo *ei) {
    char d[CZ_PARAM_DIGEST_HEX + 1];
    if (cz_params_digest_file(d, NULL, path, NULL, NULL, ei) != CZ_OK)
        return ei->code;
    printf("digest: %s (BLAKE2b-512, first 128 bits, as parameters.json)\n", d);
    return CZ_OK;
}

static int info_bp_vk(const char *path, cz_errinfo *ei) {
    cz_bellperson_info in;
    cz_bellperson_vk vk;
    if (cz_bellperson_info_read(&in, path, CZ_BELLPERSON_VK, ei) != CZ_OK ||
        cz_bellperson_vk_read(&vk, path, NULL, ei) != CZ_OK)
        return ei->code;
    printf("%s: bellperson Groth16 verifying key (.vk)\ncurve: bls12381\npublic inputs: %u\n", path,
           vk.nic - 1);
    print_sizes(&in);
    printf("points: all valid, on the curve and in the subgroup\n");
    cz_bellperson_vk_free(&vk);
    return print_digest(path, ei);
}

static int info_bp_params(const char *path, const info_opts *o, cz_errinfo *ei) {
    cz_bellperson_info in;
    if (cz_bellperson_info_read(&in, path, CZ_BELLPERSON_PARAMS, ei) != CZ_OK)
        return ei->code;
    uint32_t nh = in.count[CZ_BELLPERSON_H];
    printf("%s: bellperson Groth16 parameters (.params)\ncurve: bls12381\npublic inputs: %u\n"
           "domain: %llu (H + 1)\nauxiliary variables: %u (L)\n",
           path, in.count[CZ_BELLPERSON_IC] - 1, (unsigned long long)nh + 1,
           in.count[CZ_BELLPERSON_L]);
    print_sizes(&in);
    if (!o->check) {
        printf("points: not read (--check decodes them and prints the digest)\n");
        return CZ_OK;
    }
    cz_threadpool *pool = NULL;
    cz_bellperson_params p;
    if (cz_threadpool_create(&pool, o->threads, ei) != CZ_OK)
        return ei->code;
    cz_bellperson_read_opts ro = {o->subgroup, pool, NULL};
    uint64_t t0 = cz_clock_now_ns();
    int rc = cz_bellperson_params_read(&p, path, &ro, ei);
    if (rc == CZ_OK) {
        printf("points: all valid, on the curve%s (%.2f s on %zu threads)\n",
               o->subgroup ? " and in the subgroup" : "", cz_clock_elapsed_s(t0),
               cz_threadpool_size(pool));
        cz_bellperson_params_free(&p);
        rc = print_digest(path, ei);
    }
    cz_threadpool_destroy(pool);
    return rc;
}

static int info_proofs(const char *path, cz_errinfo *ei) {
    cz_groth16_proof *pr;
    size_t n;
    if (cz_groth16_proofs_read(&pr, &n, CZ_CURVE_BLS12381, path, ei) != CZ_OK)
        return ei->code;
    printf("%s: Groth16 proofs (bellperson, 192 bytes each: compressed A, B, C)\ncurve: bls12381\n"
           "partitions: %zu\nsize: %zu bytes\npoints: all valid, on the curve and in the "
           "subgroup\n",
           path, n, n * 192);
    free(pr);
    return print_digest(path, ei);
}

static int ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* Not an iden3 or JSON file: a bellperson file by its extension, else by its size mod 96. */
static int info_other(const char *path, const info_opts *o, cz_errinfo *ei) {
    struct stat st;
    if (ends_with(path, ".vk"))
        return info_bp_vk(path, ei);
    if (ends_with(path, ".params"))
        return info_bp_params(path, o, ei);
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return cz_fail(ei, CZ_EIO, "%s: not a regular file", path);
    uint64_t size = (uint64_t)st.st_size;
    if (size % 96 == CZ_BELLPERSON_VK_POINTS_BYTES % 96 + 4)
        return info_bp_vk(path, ei);
    if (size % 96 == CZ_BELLPERSON_VK_POINTS_BYTES % 96 + 24)
        return info_bp_params(path, o, ei);
    if (size > 0 && size % 192 == 0)
        return info_proofs(path, ei);
    return cz_fail(ei, CZ_EFORMAT,
                   "%s: not a zkey, wtns, r1cs or JSON file, and its %llu bytes fit no bellperson "
                   "file (.vk, .params, 192-byte proofs)",
                   path, (unsigned long long)size);
}

int cz__cli_info(int argc, char **argv) {
    info_opts o = {0, 0, 0};
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(info_help, stdout);
            return CZ_EXIT_OK;
        } else if (strcmp(a, "--check") == 0) {
            o.check = 1;
        } else if (strcmp(a, "--subgroup") == 0) {
            o.check = o.subgroup = 1;
        } else if (strcmp(a, "-t") == 0 || strcmp(a, "--threads") == 0) {
            if (i + 1 == argc || cz__cli_parse_threads(&o.threads, argv[i + 1]) != CZ_OK)
                return cz__cli_usage_error("info", "%s needs a thread count", a);
            i++;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cz__cli_usage_error("info", "unknown option '%s'", a);
        } else if (path != NULL) {
            return cz__cli_usage_error("info", "expected one FILE");
        } else {
            path = a;
        }
    }
    if (path == NULL)
        return cz__cli_usage_error("info", "expected one FILE");
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
        rc = info_other(path, &o, &ei);
    return rc == CZ_OK ? CZ_EXIT_OK : cz__cli_report("info", &ei);
}
