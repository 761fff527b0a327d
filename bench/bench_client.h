/*
 * cuzk-bench as a client of cuzk-daemon (docs/bench.md, "The daemon's client"): the parts shared
 * by bench_client.c (options, single, batch, status, preload, evict, cancel, metrics) and
 * bench_client_sweep.c (one daemon per value of a configuration key). Built only with the
 * daemon (CMake defines CZ_BENCH_DAEMON when CZ_WITH_DAEMON is on).
 */
#ifndef CUZK_BENCH_CLIENT_H
#define CUZK_BENCH_CLIENT_H

#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "cuzk/v1/proving.pb-c.h"
#include "daemon/grpc_client.h"

#define CLIENT_MAX_VALUES      64
#define CLIENT_MAX_DAEMON_ARGS 32

typedef struct client_opts {
    const char *cmd;  /* the subcommand */
    const char *addr; /* -a/--addr */
    /* The proof: --workload porep-synth (--scale, --partitions, --curve, --seed), zkey
     * (--zkey, --wtns), winning-post or window-post (--request DIR, bench_client_post.c),
     * porep-c2 (--c1 FILE), snap-update (--request DIR, bench_client_snap.c);
     * --priority, --id (request id), -o (the proof's bytes into a file; single only). */
    const char *workload, *curve, *zkey, *wtns, *id, *request, *proof_out;
    unsigned scale;
    uint32_t partitions;
    uint64_t seed;
    int priority;            /* Cuzk__V1__Priority (PoSt: unspecified, the kind's, unless given) */
    int count, conc, warmup; /* -c, -j, --warmup */
    uint64_t timeout_ms;     /* --timeout S per call (0: none) */
    const char *arg;         /* cancel JOB; preload/evict ID */
    /* sweep */
    const char *key, *config, *daemon;
    char *values[CLIENT_MAX_VALUES]; /* point into values_buf (owned) */
    char *values_buf;
    int nvalues;
    const char *daemon_args[CLIENT_MAX_DAEMON_ARGS];
    int ndaemon_args;
    int start_timeout_s, stop_timeout_s;
    /* loaded by bench_client_prepare */
    void *wtns_data;
    size_t wtns_len;
    char zkey_abs[4096];
    uint64_t post_registered; /* a PoSt request (bench_client_post_load) */
    uint8_t post_randomness[32];
    uint32_t post_partition;
    ProtobufCBinaryData *post_vanilla;
    size_t post_nvanilla;
    const char *c1;         /* --c1 FILE: a PoRep C2 request (bench_client_porep_load) */
    uint64_t miner, sector; /* --miner, --sector (the C1's envelope's unless given) */
    int have_sector;
    void *c1_data;
    size_t c1_len;
    uint64_t porep_registered;
    unsigned porep_partitions;
    uint64_t snap_registered; /* a SnapDeals update (--request DIR, bench_client_snap_load) */
    uint8_t snap_comm[3][32]; /* comm_r_old, comm_d_new, comm_r_new */
    ProtobufCBinaryData *snap_vanilla;
    size_t snap_nvanilla;
} client_opts;

/* One batch's result: the summary and the devices' busy share over the batch (-1: unknown). */
typedef struct client_batch {
    bench_batch b;
    double busy_pct;
} client_batch;

/* Connects and checks with GetStatus that the daemon answers; BENCH_OK or BENCH_FAIL (message
 * printed). quiet: no message (the caller polls). */
int bench_client_connect(cz_grpc_client **out, const client_opts *o, int quiet);
/* Runs the warm-up proofs and the batch of o (per-proof lines and the summary line to lines, the
 * text summary to stderr). BENCH_OK when every proof is done, BENCH_FAIL otherwise. */
int bench_client_batch(client_batch *out, cz_grpc_client *cl, const client_opts *o, FILE *lines);
/* 32 bytes from 64 lower-case hex digits (a request.txt's randomness or commitment): 0, or -1 for
 * anything else (out then partly written). */
int bench_client_hex32(uint8_t out[32], const char *s);
/* bench_client_post.c: the PoSt request of o->request loaded into o (BENCH_OK, BENCH_USAGE with
 * the message printed); its fields of a SubmitProofRequest; freed. */
int bench_client_post_load(client_opts *o);
void bench_client_post_request(Cuzk__V1__SubmitProofRequest *sub, const client_opts *o);
void bench_client_post_free(client_opts *o);
/* bench_client_porep.c: the C1 of o->c1 read and looked at (its registered proof, sector and
 * partitions), BENCH_OK or BENCH_USAGE (message printed); its POREP_SEAL_COMMIT fields; freed. */
int bench_client_porep_load(client_opts *o);
void bench_client_porep_request(Cuzk__V1__SubmitProofRequest *sub, const client_opts *o);
void bench_client_porep_free(client_opts *o);
/* bench_client_snap.c: the update of o->request (`cuzk filecoin fake-update`'s folder) read and
 * checked natively, BENCH_OK or BENCH_USAGE (message printed); its SNAP_DEALS_UPDATE fields;
 * freed. */
int bench_client_snap_load(client_opts *o);
void bench_client_snap_request(Cuzk__V1__SubmitProofRequest *sub, const client_opts *o);
void bench_client_snap_free(client_opts *o);
/* bench_client_sweep.c */
int bench_client_sweep(client_opts *o);

#endif
