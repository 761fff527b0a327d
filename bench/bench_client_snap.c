/*
 * cuzk-bench's SnapDeals requests (docs/bench.md, "The daemon's client"): --workload snap-update
 * with --request DIR, a directory written by `cuzk filecoin fake-update`: DIR/request.txt holds
 * one item per line,
 *
 *   registered_proof N | partitions P | comm_r_old HEX | comm_d_new HEX | comm_r_new HEX
 *   (sector_size and h are read past; a "variant" line names the Poseidon variant, which no
 *   registered proof names and the daemon does not take)
 *
 * and DIR/vanilla-K.bin partition K's vanilla proof. The request is decoded and checked natively
 * first, as the daemon does (a request it would refuse is refused here), and sent as a
 * SNAP_DEALS_UPDATE with the commitments and the P vanilla proofs.
 */
#ifdef CZ_BENCH_DAEMON
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_client.h"
#include "cuzk/fileio.h"
#include "filecoin/snap_prove.h"

#define SNAP_MAX_PARTITIONS 16

/* request.txt of o->request into o; BENCH_OK or BENCH_USAGE (message printed). */
static int read_request(client_opts *o, unsigned *nparts) {
    static const char *const comms[3] = {"comm_r_old", "comm_d_new", "comm_r_new"};
    uint8_t *dst[3] = {o->snap_comm[0], o->snap_comm[1], o->snap_comm[2]};
    char path[4096], line[512], key[32], val[256];
    int have = 0, lineno = 0;
    FILE *f;
    snprintf(path, sizeof path, "%s/request.txt", o->request);
    if ((f = fopen(path, "r")) == NULL) {
        fprintf(stderr, "cuzk-bench %s: cannot open %s\n", o->cmd, path);
        return BENCH_USAGE;
    }
    o->snap_registered = UINT64_MAX;
    *nparts = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        int q = -1;
        lineno++;
        if (sscanf(line, "%31s %255s", key, val) != 2)
            continue;
        for (int i = 0; i < 3; i++)
            if (strcmp(key, comms[i]) == 0)
                q = i;
        if (strcmp(key, "registered_proof") == 0) {
            o->snap_registered = strtoull(val, NULL, 10);
        } else if (strcmp(key, "partitions") == 0) {
            *nparts = (unsigned)strtoul(val, NULL, 10);
        } else if (strcmp(key, "variant") == 0) {
            fprintf(stderr,
                    "cuzk-bench %s: %s: the %s variant has no registered proof; the daemon "
                    "takes only the SHA-256 circuit\n",
                    o->cmd, path, val);
            fclose(f);
            return BENCH_USAGE;
        } else if (q >= 0 && bench_client_hex32(dst[q], val) == 0) {
            have |= 1 << q;
        } else if (strcmp(key, "sector_size") != 0 && strcmp(key, "h") != 0) {
            fprintf(stderr, "cuzk-bench %s: %s line %d: not understood: %s", o->cmd, path, lineno,
                    line);
            fclose(f);
            return BENCH_USAGE;
        }
    }
    fclose(f);
    if (o->snap_registered == UINT64_MAX || have != 7 || *nparts == 0 ||
        *nparts > SNAP_MAX_PARTITIONS) {
        fprintf(stderr,
                "cuzk-bench %s: %s needs registered_proof, partitions (1..%d) and the three "
                "commitments\n",
                o->cmd, path, SNAP_MAX_PARTITIONS);
        return BENCH_USAGE;
    }
    return BENCH_OK;
}

int bench_client_snap_load(client_opts *o) {
    const uint8_t *bytes[SNAP_MAX_PARTITIONS];
    size_t lens[SNAP_MAX_PARTITIONS];
    cz_snap_request rq;
    cz__snap_loaded ld;
    cz_errinfo ei;
    unsigned nparts;
    int rc;
    if ((rc = read_request(o, &nparts)) != BENCH_OK)
        return rc;
    if ((o->snap_vanilla = calloc(nparts, sizeof *o->snap_vanilla)) == NULL) {
        fprintf(stderr, "cuzk-bench %s: out of memory\n", o->cmd);
        return BENCH_FAIL;
    }
    cz_errinfo_clear(&ei);
    for (unsigned k = 0; k < nparts; k++) {
        char path[4096];
        void *data = NULL;
        snprintf(path, sizeof path, "%s/vanilla-%u.bin", o->request, k);
        if (cz_file_read(&data, &o->snap_vanilla[k].len, path, &ei) != CZ_OK) {
            fprintf(stderr, "cuzk-bench %s: %s\n", o->cmd, ei.msg);
            return BENCH_USAGE;
        }
        o->snap_vanilla[k].data = data;
        o->snap_nvanilla = k + 1;
        bytes[k] = data;
        lens[k] = o->snap_vanilla[k].len;
    }
    memset(&rq, 0, sizeof rq);
    rq.registered_proof = o->snap_registered;
    memcpy(rq.comm_r_old, o->snap_comm[0], 32);
    memcpy(rq.comm_d_new, o->snap_comm[1], 32);
    memcpy(rq.comm_r_new, o->snap_comm[2], 32);
    rq.vanilla = bytes;
    rq.vanilla_len = lens;
    rq.nvanilla = nparts;
    rc = cz__snap_request_load(&ld, &rq, 1, NULL, &ei) == CZ_OK ? BENCH_OK : BENCH_USAGE;
    if (rc != BENCH_OK)
        fprintf(stderr, "cuzk-bench %s: %s: %s\n", o->cmd, o->request, ei.msg);
    cz__snap_loaded_free(&ld);
    return rc;
}

void bench_client_snap_request(Cuzk__V1__SubmitProofRequest *sub, const client_opts *o) {
    ProtobufCBinaryData *comm[3] = {&sub->comm_r_old, &sub->comm_d_new, &sub->comm_r_new};
    sub->proof_kind = CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE;
    sub->registered_proof = o->snap_registered;
    sub->vanilla_proofs = o->snap_vanilla;
    sub->n_vanilla_proofs = o->snap_nvanilla;
    for (int i = 0; i < 3; i++) {
        comm[i]->data = (uint8_t *)o->snap_comm[i];
        comm[i]->len = 32;
    }
}

void bench_client_snap_free(client_opts *o) {
    if (o->snap_vanilla == NULL)
        return;
    for (size_t i = 0; i < o->snap_nvanilla; i++)
        free(o->snap_vanilla[i].data);
    free(o->snap_vanilla);
    o->snap_vanilla = NULL;
}

#else
typedef int bench_client_snap_not_built; /* ISO C: no empty file */
#endif
