/*
 * cuzk-bench's PoSt requests (docs/bench.md, "The daemon's client"): --workload winning-post or
 * window-post with --request DIR, a directory written by `cuzk filecoin fake-vanilla` (or by
 * hand): DIR/request.txt holds one item per line,
 *
 *   registered_proof N | randomness HEX (32 bytes) | partition K | sector ID FILE | comm_r ID HEX
 *
 * and each sector's FILE its vanilla proof's bytes (a relative FILE is taken in DIR). The
 * request sent is a WINNING_POST or WINDOW_POST_PARTITION with those inputs; comm_r lines are
 * for verifiers and are not sent.
 */
#ifdef CZ_BENCH_DAEMON
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_client.h"
#include "cuzk/fileio.h"

#define POST_MAX_SECTORS 4096

/* One line of request.txt into o; BENCH_OK or BENCH_USAGE (message printed). */
static int post_line(client_opts *o, const char *dir, char *line, int lineno) {
    char key[32], a[4096], b[4096];
    int n = sscanf(line, "%31s %4095s %4095s", key, a, b);
    const char *req = o->request;
    if (n <= 0)
        return BENCH_OK;
    if (strcmp(key, "registered_proof") == 0 && n == 2) {
        o->post_registered = strtoull(a, NULL, 10);
    } else if (strcmp(key, "randomness") == 0 && n == 2 && strlen(a) == 64) {
        if (bench_client_hex32(o->post_randomness, a) != 0)
            goto bad;
    } else if (strcmp(key, "partition") == 0 && n == 2) {
        o->post_partition = (uint32_t)strtoul(a, NULL, 10);
    } else if (strcmp(key, "sector") == 0 && n == 3) {
        char path[8192];
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        if (o->post_nvanilla == POST_MAX_SECTORS) {
            fprintf(stderr, "cuzk-bench %s: %s: more than %d sectors\n", o->cmd, req,
                    POST_MAX_SECTORS);
            return BENCH_USAGE;
        }
        snprintf(path, sizeof path, "%s%s%s", b[0] == '/' ? "" : dir, b[0] == '/' ? "" : "/", b);
        ProtobufCBinaryData *v = &o->post_vanilla[o->post_nvanilla];
        void *data = NULL;
        if (cz_file_read(&data, &v->len, path, &ei) != CZ_OK) {
            fprintf(stderr, "cuzk-bench %s: %s line %d: %s\n", o->cmd, req, lineno, ei.msg);
            return BENCH_USAGE;
        }
        v->data = data;
        o->post_nvanilla++;
    } else if (strcmp(key, "comm_r") != 0) {
        goto bad;
    }
    return BENCH_OK;
bad:
    fprintf(stderr, "cuzk-bench %s: %s/request.txt line %d: not understood: %s\n", o->cmd, req,
            lineno, line);
    return BENCH_USAGE;
}

int bench_client_post_load(client_opts *o) {
    char path[4096], line[8192];
    int lineno = 0, rc = BENCH_OK;
    FILE *f;
    o->post_vanilla = calloc(POST_MAX_SECTORS, sizeof *o->post_vanilla);
    if (o->post_vanilla == NULL) {
        fprintf(stderr, "cuzk-bench %s: out of memory\n", o->cmd);
        return BENCH_FAIL;
    }
    o->post_registered = UINT64_MAX;
    snprintf(path, sizeof path, "%s/request.txt", o->request);
    if ((f = fopen(path, "r")) == NULL) {
        fprintf(stderr, "cuzk-bench %s: cannot open %s\n", o->cmd, path);
        return BENCH_USAGE;
    }
    while (rc == BENCH_OK && fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        rc = post_line(o, o->request, line, ++lineno);
    }
    fclose(f);
    if (rc == BENCH_OK && (o->post_registered == UINT64_MAX || o->post_nvanilla == 0)) {
        fprintf(stderr, "cuzk-bench %s: %s needs a registered_proof line and a sector line\n",
                o->cmd, path);
        rc = BENCH_USAGE;
    }
    return rc;
}

void bench_client_post_free(client_opts *o) {
    if (o->post_vanilla == NULL)
        return;
    for (size_t i = 0; i < o->post_nvanilla; i++)
        free(o->post_vanilla[i].data);
    free(o->post_vanilla);
    o->post_vanilla = NULL;
}

void bench_client_post_request(Cuzk__V1__SubmitProofRequest *sub, const client_opts *o) {
    sub->proof_kind = strcmp(o->workload, "winning-post") == 0
                          ? CUZK__V1__PROOF_KIND__WINNING_POST
                          : CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION;
    sub->registered_proof = o->post_registered;
    sub->randomness.data = (uint8_t *)o->post_randomness;
    sub->randomness.len = 32;
    sub->partition_index = o->post_partition;
    sub->vanilla_proofs = o->post_vanilla;
    sub->n_vanilla_proofs = o->post_nvanilla;
}

#else
typedef int bench_client_post_not_built; /* ISO C: no empty file */
#endif
