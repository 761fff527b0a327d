/*
 * Helpers shared by the `cuzk` subcommands (cli.h).
 */
#include "cli/cli.h"
#include "core/hex.h"

#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *cz__cli_param_path(const char *dir, cz_param_proof proof, uint64_t sector_size,
                         cz_param_ext ext) {
    const cz_param_file *f = cz_params_find_proof(NULL, proof, sector_size, ext);
    char *p;
    if (f == NULL || (p = malloc(strlen(dir) + strlen(f->name) + 2)) == NULL)
        return NULL;
    sprintf(p, "%s/%s", dir, f->name);
    return p;
}

int cz__cli_write_file(const char *path, const void *data, size_t len, cz_errinfo *ei) {
    FILE *f = fopen(path, "wb");
    int ok;
    if (f == NULL)
        return cz_fail(ei, CZ_EIO, "cannot create %s", path);
    ok = fwrite(data, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    return ok ? CZ_OK : cz_fail(ei, CZ_EIO, "cannot write %s", path);
}

int cz__cli_vk_and_proofs(const char *vk_path, const char *proof_path, cz_groth16_vk *vk,
                          cz_groth16_proof **proofs, size_t *nproofs, cz_errinfo *ei) {
    cz_bellperson_vk bvk;
    int rc;
    memset(&bvk, 0, sizeof bvk);
    memset(vk, 0, sizeof *vk);
    *proofs = NULL;
    *nproofs = 0;
    if ((rc = cz_bellperson_vk_read_any(&bvk, vk_path, NULL, ei)) == CZ_OK)
        rc = cz_groth16_vk_from_bellperson(vk, &bvk, ei);
    cz_bellperson_vk_free(&bvk);
    if (rc == CZ_OK &&
        (rc = cz_groth16_proofs_read(proofs, nproofs, CZ_CURVE_BLS12381, proof_path, ei)) != CZ_OK)
        cz_groth16_vk_free(vk);
    return rc;
}

int cz__cli_filecoin_verdict(const char *cmd, const char *vk_path, const char *proof_path,
                             cz__cli_verify_fn verify, const void *request, cz_errinfo *ei) {
    cz_groth16_vk vk;
    cz_groth16_proof *proofs = NULL;
    size_t nproofs = 0;
    int status;
    if (cz__cli_vk_and_proofs(vk_path, proof_path, &vk, &proofs, &nproofs, ei) != CZ_OK)
        return cz__cli_report(cmd, ei);
    status = cz__cli_verdict(cmd, verify(&vk, request, proofs, (unsigned)nproofs, ei), ei);
    free(proofs);
    cz_groth16_vk_free(&vk);
    return status;
}

void cz__cli_bp_opts_init(cz_groth16_bp_opts *bo, cz_threadpool *pool, int dev) {
    memset(bo, 0, sizeof *bo);
    bo->pool = pool;
    bo->use_gpu = dev >= 0;
    bo->gpu_device = dev >= 0 ? dev : 0;
}

int cz__cli_write_partition_proofs(const char *path, const cz_groth16_proof *proofs,
                                   unsigned nproofs, const char *params_path, cz_errinfo *ei) {
    int rc = cz_groth16_proofs_write(path, proofs, nproofs, ei);
    if (rc == CZ_OK)
        fprintf(stderr, "cuzk filecoin prove: wrote %s (%u partitions, verified against %s)\n",
                path, nproofs, params_path);
    return rc;
}

int cz__cli_input_report(const char *cmd, const cz_errinfo *ei) {
    int status = cz__cli_report(cmd, ei);
    if (ei->code == CZ_EVERIFY || ei->code == CZ_EINVAL || ei->code == CZ_EFORMAT ||
        ei->code == CZ_ENONCANON)
        status = CZ_EXIT_INPUT;
    return status;
}

int cz__cli_verdict(const char *cmd, int rc, const cz_errinfo *ei) {
    if (rc == CZ_OK) {
        printf("valid\n");
        return CZ_EXIT_OK;
    }
    if (rc == CZ_EVERIFY) {
        printf("invalid\n");
        if (ei->msg[0] != '\0')
            fprintf(stderr, "cuzk %s: %s\n", cmd, ei->msg);
        return CZ_EXIT_INVALID;
    }
    return cz__cli_report(cmd, ei);
}

int cz__cli_report(const char *cmd, const cz_errinfo *ei) {
    fprintf(stderr, "cuzk %s: %s (%s)\n", cmd, ei->msg[0] ? ei->msg : cz_strerror(ei->code),
            cz_err_name(ei->code));
    switch (ei->code) {
    case CZ_EVERIFY:
        return CZ_EXIT_INVALID;
    case CZ_ENOMEM:
    case CZ_EINTERNAL:
    case CZ_ENOGPU:
    case CZ_EGPU:
    case CZ_EDEVICE:
        return CZ_EXIT_INTERNAL;
    case CZ_EINVAL:
        return CZ_EXIT_USAGE;
    default:
        return CZ_EXIT_INPUT;
    }
}

int cz__cli_usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "cuzk %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'cuzk %s --help'.\n", cmd);
    return CZ_EXIT_USAGE;
}

int cz__cli_parse_threads(size_t *out, const char *s) {
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v > 4096)
        return CZ_EINVAL;
    *out = (size_t)v;
    return CZ_OK;
}

int cz__cli_parse_device(int *out, const char *s) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 0 || v > 1024)
        return CZ_EINVAL;
    *out = (int)v;
    return CZ_OK;
}

int cz__cli_gpu_or_size_option(int *dev, uint64_t *sector_size, const char *cmd, int argc,
                               char **argv, int *i) {
    const char *a = argv[*i];
    if (strcmp(a, "--gpu") == 0) {
        *dev = *dev < 0 ? 0 : *dev;
    } else if (strcmp(a, "--device") == 0) {
        if (++*i == argc || cz__cli_parse_device(dev, argv[*i]) != CZ_OK)
            return cz__cli_usage_error(cmd, "--device needs a device number");
    } else if (strcmp(a, "--sector-size") == 0) {
        if (++*i == argc || cz__cli_parse_sector_size(sector_size, argv[*i]) != CZ_OK)
            return cz__cli_usage_error(cmd, "--sector-size needs a size (2KiB, 32GiB, ...)");
    } else {
        return CZ__CLI_NOT_MINE;
    }
    return CZ_EXIT_OK;
}

int cz__cli_prove_option(cz__cli_prove_opts *o, int argc, char **argv, int *i) {
    const char *a = argv[*i];
    if (strcmp(a, "--threads") == 0 || strcmp(a, "-t") == 0) {
        if (++*i == argc || cz__cli_parse_threads(&o->threads, argv[*i]) != CZ_OK)
            return cz__cli_usage_error("prove", "%s needs a thread count (0..4096)", a);
    } else if (strcmp(a, "--r") == 0 || strcmp(a, "--s") == 0) {
        if (++*i == argc || cz__cli_parse_hex32(a[2] == 'r' ? o->r : o->s, argv[*i]) != CZ_OK)
            return cz__cli_usage_error("prove", "%s needs up to 64 hex digits", a);
        *(a[2] == 'r' ? &o->have_r : &o->have_s) = 1;
    } else if (strcmp(a, "--gpu") == 0) {
        o->use_gpu = 1;
    } else if (strcmp(a, "--device") == 0) {
        if (++*i == argc)
            return cz__cli_usage_error("prove", "--device needs a device number");
        if (cz__cli_parse_device(&o->device, argv[*i]) != CZ_OK)
            return cz__cli_usage_error("prove", "--device needs a device number, not '%s'",
                                       argv[*i]);
        o->have_device = 1;
    } else if (strcmp(a, "--verify") == 0) {
        o->verify = 1;
    } else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
        o->verbose = 1;
    } else {
        return CZ__CLI_NOT_MINE;
    }
    return CZ_EXIT_OK;
}

int cz__cli_prove_opts_check(cz__cli_prove_opts *o) {
    if (o->have_r != o->have_s)
        return cz__cli_usage_error("prove", "give both --r and --s, or neither");
    if (o->have_device && !o->use_gpu)
        return cz__cli_usage_error("prove", "--device needs --gpu");
    o->have_rs = o->have_r;
    return CZ_EXIT_OK;
}

int cz__cli_out_dir(const char *cmd, const char *dir) {
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "cuzk %s: cannot create the folder %s: %s\n", cmd, dir, strerror(errno));
        return CZ_EXIT_INPUT;
    }
    return CZ_EXIT_OK;
}

int cz__cli_parse_hex32(uint8_t out[32], const char *s) {
    if (strncmp(s, "0x", 2) == 0)
        s += 2;
    size_t len = strlen(s);
    if (len == 0 || len > 64)
        return CZ_EINVAL;
    memset(out, 0, 32);
    for (size_t i = 0; i < len; i++) {
        int d = cz__hex_digit((unsigned char)s[len - 1 - i]);
        if (d < 0)
            return CZ_EINVAL;
        out[i / 2] |= (uint8_t)(d << (4 * (i % 2)));
    }
    return CZ_OK;
}

int cz__cli_parse_sector_size(uint64_t *out, const char *s) {
    static const struct {
        const char *suffix;
        unsigned shift;
    } units[] = {{"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"K", 10}, {"M", 20}, {"G", 30}};
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno != 0 || s[0] == '-')
        return CZ_EINVAL;
    if (*end != '\0') {
        size_t u = 0;
        while (u < sizeof units / sizeof units[0] && strcmp(end, units[u].suffix) != 0)
            u++;
        if (u == sizeof units / sizeof units[0] || v > (UINT64_MAX >> units[u].shift))
            return CZ_EINVAL;
        v <<= units[u].shift;
    }
    *out = v;
    return CZ_OK;
}
