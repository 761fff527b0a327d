/*
 * The SRS manager's key formats (cz_srs_loader, include/cuzk/engine.h): snarkjs .zkey and
 * bellperson .params. Each reads its file into memory from the manager's host allocator (pinned
 * when the engine has GPUs) through the one loading path (cz_file_load / cz_file_open: regular
 * files only, never a mapping), so a file changed on disk afterwards cannot touch a loaded key.
 */
#include <stdlib.h>

#include "cuzk/assignment.h"
#include "cuzk/bellperson.h"
#include "cuzk/engine.h"
#include "cuzk/fileio.h"
#include "cuzk/groth16_bellperson.h"
#include "cuzk/zkey.h"

/* ---- snarkjs .zkey: the whole file in one buffer, the key opened over it ---- */

static int zkey_footprint(uint64_t *bytes, const char *path, cz_errinfo *ei) {
    cz_file_id id;
    int rc = cz_file_id_get(&id, path, ei);
    *bytes = id.size;
    return rc;
}

static void zkey_release(void *arg, void *data, size_t size) {
    const cz_srs_host_mem *mem = arg;
    mem->free(mem->arg, data, size ? size : 1);
}

static int zkey_open(void **key, const char *path, const cz_srs_load_ctx *ctx, cz_errinfo *ei) {
    void *data;
    size_t size;
    cz_zkey *zk = NULL;
    int rc = cz_file_load(&data, &size, NULL, path, ctx->mem, ei);
    if (rc == CZ_OK)
        rc = cz_zkey_open_owned(&zk, data, size, path, zkey_release, (void *)ctx->mem, ei);
    *key = zk;
    return rc;
}

static void zkey_close(void *key, const cz_srs_host_mem *mem) {
    (void)mem; /* the key gives its bytes back through zkey_release */
    cz_zkey_close(key);
}

const cz_srs_loader cz_srs_loader_zkey = {"zkey", zkey_footprint, zkey_open, zkey_close, NULL};

/* ---- bellperson .params: the five point arrays decoded in place, on the manager's pool ---- */

/* The decoded arrays: one affine point per encoded point, the same bytes (96 per G1, 192 per
 * G2), so the file size bounds them (the counts and the vk are a few KiB). */
static int params_footprint(uint64_t *bytes, const char *path, cz_errinfo *ei) {
    cz_bellperson_info info;
    int rc = cz_bellperson_info_read(&info, path, CZ_BELLPERSON_PARAMS, ei);
    *bytes = rc == CZ_OK ? info.size : 0;
    return rc;
}

static int params_open(void **key, const char *path, const cz_srs_load_ctx *ctx, cz_errinfo *ei) {
    cz_bellperson_params *p = calloc(1, sizeof *p);
    *key = NULL;
    if (p == NULL)
        return cz_fail(ei, CZ_ENOMEM, "%s: out of memory", path);
    /* The subgroup check of the proving sections is the manager's choice (off by default:
     * ~10 CPU-hours for a 44 GiB key, docs/params.md); the verifying key is always checked. */
    const cz_bellperson_read_opts opts = {ctx->params_check_subgroup, ctx->pool, ctx->mem};
    int rc = cz_bellperson_params_read(p, path, &opts, ei);
    if (rc != CZ_OK) {
        free(p);
        return rc;
    }
    *key = p;
    return CZ_OK;
}

static void params_close(void *key, const cz_srs_host_mem *mem) {
    (void)mem; /* the arrays go back to the allocator recorded in p->mem */
    cz_bellperson_params_free(key);
    free(key);
}

/* A key's bases on a GPU, spread by the densities of the circuit the hint is an assignment of
 * (every circuit proven with one .params file has the same densities). */
static int params_device_create(void **ddata, const void *key, int device, const void *hint,
                                void *arg, cz_errinfo *ei) {
    (void)arg;
    if (hint == NULL)
        return cz_fail(ei, CZ_EINVAL, "a bellperson key's GPU bases need the circuit's shape");
    return cz_groth16_bp_gpu_key_create((cz_groth16_bp_gpu_key **)ddata, key, hint, device, ei);
}

static void params_device_free(void *ddata, void *arg) {
    (void)arg;
    cz_groth16_bp_gpu_key_free(ddata);
}

static const cz_srs_device_hooks params_device = {params_device_create, params_device_free, NULL};

const cz_srs_loader cz_srs_loader_params = {"params", params_footprint, params_open, params_close,
                                            &params_device};
