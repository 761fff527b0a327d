/*
 * cuzk-bench as a gRPC client of cuzk-daemon (cuzk.v1.ProvingEngine, docs/daemon.md):
 *
 *   cuzk-bench [-a ADDR] single  [workload] [--id ID] [--priority P]
 *   cuzk-bench [-a ADDR] batch   [workload] [-c COUNT] [-j CONCURRENCY] [--warmup N]
 *   cuzk-bench [-a ADDR] status | metrics | preload ID | evict ID | cancel JOB
 *   cuzk-bench sweep --key TABLE.KEY --values V1,V2,.. [--config BASE.toml] [--daemon PATH] ...
 *   workload: --workload porep-synth [--scale K] [--partitions N] [--curve C] [--seed S]
 *           | --workload zkey --zkey FILE --wtns FILE
 *           | --workload winning-post|window-post --request DIR  (bench_client_post.c)
 *           | --workload porep-c2 --c1 FILE [--miner ID] [--sector N]  (bench_client_porep.c)
 *           | --workload snap-update --request DIR  (bench_client_snap.c)
 *
 * ADDR is unix:///path or host:port (default: the daemon's default daemon.listen). A proof is one
 * Prove call (submit + await on the daemon); its line has the job id, wall time (call to answer),
 * prove time (the daemon's total_ms - queue_wait_ms: start to finish of the job), queue time and
 * proof bytes. batch keeps at most CONCURRENCY Prove calls in flight, one thread each, and prints
 * one JSON line per proof as it ends, then the summary of bench_summary.c (the same numbers as the
 * in-process engine bench) and the devices' busy share from the daemon's
 * cuzk_gpu_busy_seconds_total (GetMetrics before and after). Exit: 0 every proof done / the call
 * answered; 1 a proof failed, the daemon is unreachable or answered an error (its message is
 * printed); 2 usage.
 *
 * Without the daemon in the build (no grpc / protobuf-c), the subcommands exist and say so.
 */
#include <string.h>

#include "bench.h"

static const char *const client_cmds[] = {"single", "batch",  "status",  "preload",
                                          "evict",  "cancel", "metrics", "sweep"};

int bench_is_client_cmd(const char *name) {
    for (size_t i = 0; i < sizeof client_cmds / sizeof client_cmds[0]; i++)
        if (strcmp(name, client_cmds[i]) == 0)
            return 1;
    return 0;
}

#ifndef CZ_BENCH_DAEMON

int bench_cmd_client(int argc, char **argv, const char *addr) {
    (void)argc, (void)addr;
    fprintf(stderr,
            "cuzk-bench %s: built without the daemon client (needs grpc, protobuf-c and "
            "protoc-c: CZ_WITH_DAEMON, docs/build.md)\n",
            argv[0]);
    return BENCH_USAGE;
}

#else

#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>

#include "bench_client.h"
#include "cuzk/clock.h"
#include "cuzk/fileio.h"
#include "cuzk/v1/proving.pb-c.h"
#include "daemon/config.h"

#define METHOD(name) "/cuzk.v1.ProvingEngine/" name

static const char *const prio_names[] = {"", "low", "normal", "high", "critical"};

static char default_addr[512];

/* The daemon's default daemon.listen (src/daemon/config.c). */
static const char *daemon_default_addr(void) {
    if (default_addr[0] == 0) {
        cz_daemon_config c;
        cz_daemon_config_defaults(&c);
        snprintf(default_addr, sizeof default_addr, "%s", c.daemon.listen);
        cz_daemon_config_free(&c);
    }
    return default_addr;
}

/* Which options a subcommand takes: W the proof, B the batch, S the sweep, A one argument. */
enum { OPT_W = 1, OPT_B = 2, OPT_S = 4, OPT_A = 8, OPT_ID = 16 };
static unsigned cmd_opts(const char *cmd) {
    if (strcmp(cmd, "single") == 0)
        return OPT_W | OPT_ID;
    if (strcmp(cmd, "batch") == 0)
        return OPT_W | OPT_B;
    if (strcmp(cmd, "sweep") == 0)
        return OPT_W | OPT_B | OPT_S;
    if (strcmp(cmd, "preload") == 0 || strcmp(cmd, "evict") == 0 || strcmp(cmd, "cancel") == 0)
        return OPT_A;
    return 0;
}

static int is_post(const client_opts *o) {
    return strcmp(o->workload, "winning-post") == 0 || strcmp(o->workload, "window-post") == 0;
}

static int is_porep(const client_opts *o) {
    return strcmp(o->workload, "porep-c2") == 0;
}

static int is_snap(const client_opts *o) {
    return strcmp(o->workload, "snap-update") == 0;
}

static int parse(client_opts *o, int argc, char **argv, const char *addr) {
    const char *cmd = argv[0];
    unsigned allowed = cmd_opts(cmd);
    int priority_given = 0;
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->addr = addr;
    o->workload = "porep-synth";
    o->curve = "bls12381";
    o->scale = 12;
    o->partitions = 10;
    o->seed = 1;
    o->priority = CUZK__V1__PRIORITY__NORMAL;
    o->count = strcmp(cmd, "sweep") == 0 ? 3 : 1;
    o->conc = 1;
    o->warmup = strcmp(cmd, "single") == 0 ? 0 : 1;
    o->start_timeout_s = 120;
    o->stop_timeout_s = 60;
    o->miner = 1000;
    o->porep_registered = UINT64_MAX; /* the C1's */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        unsigned need = 0;
        if (a[0] != '-' || a[1] == 0) {
            if (!(allowed & OPT_A) || o->arg != NULL)
                return bench_usage_error(cmd, "unexpected argument", a);
            o->arg = a;
            continue;
        }
        if (v == NULL)
            return bench_usage_error(cmd, "missing value after", a);
        i++;
        if (strcmp(a, "-a") == 0 || strcmp(a, "--addr") == 0) {
            o->addr = v;
        } else if (strcmp(a, "--timeout") == 0) {
            if (bench_parse_long(&n, v, 0, 1000000) != 0)
                return bench_usage_error(cmd, "--timeout takes seconds (0: none)", v);
            o->timeout_ms = (uint64_t)n * 1000;
        } else if ((need = OPT_W, strcmp(a, "--workload") == 0)) {
            if (strcmp(v, "porep-synth") != 0 && strcmp(v, "zkey") != 0 &&
                strcmp(v, "winning-post") != 0 && strcmp(v, "window-post") != 0 &&
                strcmp(v, "porep-c2") != 0 && strcmp(v, "snap-update") != 0)
                return bench_usage_error(cmd,
                                         "--workload takes porep-synth, zkey, winning-post, "
                                         "window-post, porep-c2 or snap-update",
                                         v);
            o->workload = v;
        } else if ((need = OPT_W, strcmp(a, "--c1") == 0)) {
            o->c1 = v;
        } else if ((need = OPT_W, strcmp(a, "--registered-proof") == 0)) {
            if (bench_parse_long(&n, v, 0, 19) != 0)
                return bench_usage_error(cmd, "--registered-proof takes a seal proof id 0..19", v);
            o->porep_registered = (uint64_t)n;
        } else if ((need = OPT_W, strcmp(a, "--miner") == 0)) {
            if (bench_parse_long(&n, v, 0, LONG_MAX) != 0)
                return bench_usage_error(cmd, "--miner takes a number", v);
            o->miner = (uint64_t)n;
        } else if ((need = OPT_W, strcmp(a, "--sector") == 0)) {
            if (bench_parse_long(&n, v, 0, LONG_MAX) != 0)
                return bench_usage_error(cmd, "--sector takes a number", v);
            o->sector = (uint64_t)n;
            o->have_sector = 1;
        } else if ((need = OPT_W, strcmp(a, "--request") == 0)) {
            o->request = v;
        } else if ((need = OPT_W, strcmp(a, "--scale") == 0)) {
            if (bench_parse_long(&n, v, 1, 40) != 0)
                return bench_usage_error(cmd, "--scale takes K (2^K constraints)", v);
            o->scale = (unsigned)n;
        } else if ((need = OPT_W, strcmp(a, "--partitions") == 0)) {
            if (bench_parse_long(&n, v, 1, 1000) != 0)
                return bench_usage_error(cmd, "--partitions takes 1..1000", v);
            o->partitions = (uint32_t)n;
        } else if ((need = OPT_W, strcmp(a, "--curve") == 0)) {
            if (strcmp(v, "bn254") != 0 && strcmp(v, "bls12381") != 0)
                return bench_usage_error(cmd, "--curve takes bn254 or bls12381", v);
            o->curve = v;
        } else if ((need = OPT_W, strcmp(a, "--seed") == 0)) {
            if (bench_parse_long(&n, v, 0, LONG_MAX) != 0)
                return bench_usage_error(cmd, "--seed takes a number", v);
            o->seed = (uint64_t)n;
        } else if ((need = OPT_W, strcmp(a, "--zkey") == 0)) {
            o->zkey = v;
        } else if ((need = OPT_W, strcmp(a, "--wtns") == 0)) {
            o->wtns = v;
        } else if ((need = OPT_W, strcmp(a, "--priority") == 0)) {
            int p = 1;
            while (p < 5 && strcmp(v, prio_names[p]) != 0)
                p++;
            if (p == 5)
                return bench_usage_error(cmd, "--priority takes low, normal, high or critical", v);
            o->priority = p;
            priority_given = 1;
        } else if ((need = OPT_ID, strcmp(a, "--id") == 0)) {
            o->id = v;
        } else if ((need = OPT_ID, strcmp(a, "-o") == 0 || strcmp(a, "--proof-out") == 0)) {
            o->proof_out = v;
        } else if ((need = OPT_B, strcmp(a, "-c") == 0 || strcmp(a, "--count") == 0)) {
            if (bench_parse_long(&n, v, 1, 1000000) != 0)
                return bench_usage_error(cmd, "-c/--count takes 1..1000000", v);
            o->count = (int)n;
        } else if ((need = OPT_B, strcmp(a, "-j") == 0 || strcmp(a, "--concurrency") == 0)) {
            if (bench_parse_long(&n, v, 1, 1024) != 0)
                return bench_usage_error(cmd, "-j/--concurrency takes 1..1024", v);
            o->conc = (int)n;
        } else if ((need = OPT_B, strcmp(a, "--warmup") == 0)) {
            if (bench_parse_long(&n, v, 0, 1000) != 0)
                return bench_usage_error(cmd, "--warmup takes 0..1000", v);
            o->warmup = (int)n;
        } else if ((need = OPT_S, strcmp(a, "--key") == 0)) {
            o->key = v;
        } else if ((need = OPT_S, strcmp(a, "--values") == 0)) {
            char *save = NULL, *buf = strdup(v);
            free(o->values_buf);
            o->values_buf = buf;
            o->nvalues = 0;
            if (buf == NULL)
                return bench_usage_error(cmd, "out of memory", NULL);
            for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                if (o->nvalues == CLIENT_MAX_VALUES)
                    return bench_usage_error(cmd, "--values: at most 64 values", v);
                o->values[o->nvalues++] = t;
            }
            if (o->nvalues == 0)
                return bench_usage_error(cmd, "--values takes a comma-separated list", v);
        } else if ((need = OPT_S, strcmp(a, "--config") == 0)) {
            o->config = v;
        } else if ((need = OPT_S, strcmp(a, "--daemon") == 0)) {
            o->daemon = v;
        } else if ((need = OPT_S, strcmp(a, "--daemon-arg") == 0)) {
            if (o->ndaemon_args == CLIENT_MAX_DAEMON_ARGS)
                return bench_usage_error(cmd, "--daemon-arg: at most 32", v);
            o->daemon_args[o->ndaemon_args++] = v;
        } else if ((need = OPT_S, strcmp(a, "--start-timeout") == 0)) {
            if (bench_parse_long(&n, v, 1, 100000) != 0)
                return bench_usage_error(cmd, "--start-timeout takes seconds", v);
            o->start_timeout_s = (int)n;
        } else if ((need = OPT_S, strcmp(a, "--stop-timeout") == 0)) {
            if (bench_parse_long(&n, v, 1, 100000) != 0)
                return bench_usage_error(cmd, "--stop-timeout takes seconds", v);
            o->stop_timeout_s = (int)n;
        } else {
            return bench_usage_error(cmd, "unknown option", a);
        }
        if (need != 0 && !(allowed & need))
            return bench_usage_error(cmd, "option does not apply to this subcommand", a);
    }
    if (o->addr == NULL)
        o->addr = daemon_default_addr();
    if ((allowed & OPT_A) && o->arg == NULL)
        return bench_usage_error(
            cmd, strcmp(cmd, "cancel") == 0 ? "needs a job id" : "needs an SRS id (a .zkey path)",
            NULL);
    if (strcmp(o->workload, "zkey") == 0 && (o->zkey == NULL || o->wtns == NULL))
        return bench_usage_error(cmd, "--workload zkey needs --zkey FILE and --wtns FILE", NULL);
    if (strcmp(o->workload, "zkey") != 0 && (o->zkey != NULL || o->wtns != NULL))
        return bench_usage_error(cmd, "--zkey/--wtns need --workload zkey", NULL);
    if ((is_post(o) || is_snap(o)) != (o->request != NULL))
        return bench_usage_error(
            cmd, "--request DIR goes with --workload winning-post|window-post|snap-update", NULL);
    if (is_porep(o) != (o->c1 != NULL))
        return bench_usage_error(cmd, "--c1 FILE goes with --workload porep-c2", NULL);
    if ((is_post(o) || is_porep(o) || is_snap(o)) &&
        !priority_given) /* the daemon's default for the kind */
        o->priority = CUZK__V1__PRIORITY__PRIORITY_UNSPECIFIED;
    if ((allowed & OPT_S) && (o->key == NULL || o->nvalues == 0))
        return bench_usage_error(cmd, "needs --key TABLE.KEY and --values V1,V2,..", NULL);
    return BENCH_OK;
}

static int hexval(int c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int bench_client_hex32(uint8_t out[32], const char *s) {
    if (strlen(s) != 64)
        return -1;
    for (int i = 0; i < 32; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

/* Reads the witness once; the zkey path goes to the daemon absolute (it may run elsewhere). */
static int prepare(client_opts *o) {
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (is_post(o))
        return bench_client_post_load(o);
    if (is_porep(o))
        return bench_client_porep_load(o);
    if (is_snap(o))
        return bench_client_snap_load(o);
    if (strcmp(o->workload, "zkey") != 0)
        return BENCH_OK;
    if (cz_file_read(&o->wtns_data, &o->wtns_len, o->wtns, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: %s\n", o->cmd, ei.msg);
        return BENCH_USAGE;
    }
    if (realpath(o->zkey, o->zkey_abs) == NULL)
        snprintf(o->zkey_abs, sizeof o->zkey_abs, "%s", o->zkey);
    return BENCH_OK;
}

/* Prints an RPC failure; BENCH_FAIL. */
static int rpc_error(const client_opts *o, const char *what, const cz_daemon_reply *rep) {
    fprintf(stderr, "cuzk-bench %s: %s: daemon at %s answered %s: %s%s\n", o->cmd, what, o->addr,
            cz_grpc_status_name(rep->status), rep->msg,
            rep->status == CZ_RPC_UNAVAILABLE ? " (is cuzk-daemon running there?)" : "");
    return BENCH_FAIL;
}

/*
 * One call: packs req, sends it, unpacks the answer as a resp_desc message into *resp (free with
 * protobuf_c_message_free_unpacked). BENCH_OK, or BENCH_FAIL with the reason printed unless
 * quiet; rep holds the call's status and details either way.
 */
static int call(ProtobufCMessage **resp, cz_daemon_reply *rep, cz_grpc_client *cl,
                const client_opts *o, const char *method, const ProtobufCMessage *req,
                const ProtobufCMessageDescriptor *resp_desc, uint64_t timeout_ms, int quiet) {
    size_t n = protobuf_c_message_get_packed_size(req);
    uint8_t *buf = malloc(n ? n : 1);
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    *resp = NULL;
    memset(rep, 0, sizeof *rep);
    if (buf == NULL) {
        fprintf(stderr, "cuzk-bench %s: out of memory\n", o->cmd);
        return BENCH_FAIL;
    }
    protobuf_c_message_pack(req, buf);
    int rc = cz_grpc_client_call(rep, cl, method, buf, n, timeout_ms, &ei);
    free(buf);
    if (rc != CZ_OK) {
        rep->status = CZ_RPC_INTERNAL;
        snprintf(rep->msg, sizeof rep->msg, "%s", ei.msg);
        if (!quiet)
            fprintf(stderr, "cuzk-bench %s: %s\n", o->cmd, ei.msg);
        return BENCH_FAIL;
    }
    if (rep->status != CZ_RPC_OK) {
        if (!quiet)
            rpc_error(o, method + strlen(METHOD("")), rep);
        return BENCH_FAIL;
    }
    *resp = protobuf_c_message_unpack(resp_desc, NULL, rep->len, rep->body);
    free(rep->body);
    rep->body = NULL;
    if (*resp == NULL) {
        rep->status = CZ_RPC_INTERNAL;
        snprintf(rep->msg, sizeof rep->msg, "the %s does not parse", resp_desc->short_name);
        if (!quiet)
            fprintf(stderr, "cuzk-bench %s: %s\n", o->cmd, rep->msg);
        return BENCH_FAIL;
    }
    return BENCH_OK;
}

int bench_client_connect(cz_grpc_client **out, const client_opts *o, int quiet) {
    cz_errinfo ei;
    cz_errinfo_clear(&ei);
    if (cz_grpc_client_create(out, o->addr, &ei) != CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: %s\n", o->cmd, ei.msg);
        return BENCH_FAIL;
    }
    Cuzk__V1__GetStatusRequest req = CUZK__V1__GET_STATUS_REQUEST__INIT;
    cz_daemon_reply rep;
    ProtobufCMessage *m;
    int rc = call(&m, &rep, *out, o, METHOD("GetStatus"), &req.base,
                  &cuzk__v1__get_status_response__descriptor, 10000, 1);
    if (m != NULL)
        protobuf_c_message_free_unpacked(m, NULL);
    if (rc != BENCH_OK) {
        if (!quiet)
            fprintf(stderr, "cuzk-bench %s: cannot reach the daemon at %s: %s: %s\n", o->cmd,
                    o->addr, cz_grpc_status_name(rep.status), rep.msg);
        cz_grpc_client_destroy(*out);
        *out = NULL;
    }
    return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* Proofs */

typedef struct proof_res {
    char job_id[128];
    const char *state; /* COMPLETED, FAILED, CANCELLED, TIMEOUT, or a gRPC status name */
    char error[CZ_ERRINFO_MSG_MAX];
    double wall_ms, prove_ms, queue_ms;
    double synth_ms, compute_ms, load_ms; /* the daemon's sums over the partitions, its key load */
    size_t proof_bytes;
    uint8_t *proof; /* a copy of the proof's bytes, when o->proof_out asks for it */
    int done;
} proof_res;

/* One Prove call of proof number seq (its witness seed is o->seed + seq). */
static void prove_one(proof_res *r, cz_grpc_client *cl, const client_opts *o, uint64_t seq) {
    static const char *const states[] = {"UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};
    Cuzk__V1__SubmitProofRequest sub = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    Cuzk__V1__ProveRequest req = CUZK__V1__PROVE_REQUEST__INIT;
    cz_daemon_reply rep;
    memset(r, 0, sizeof *r);
    r->prove_ms = r->queue_ms = -1;
    sub.request_id = (char *)(o->id != NULL ? o->id : "");
    sub.priority = (Cuzk__V1__Priority)o->priority;
    if (is_post(o)) {
        bench_client_post_request(&sub, o);
    } else if (is_porep(o)) {
        bench_client_porep_request(&sub, o);
    } else if (is_snap(o)) {
        bench_client_snap_request(&sub, o);
    } else if (strcmp(o->workload, "zkey") == 0) {
        sub.proof_kind = CUZK__V1__PROOF_KIND__SNARKJS_ZKEY;
        sub.zkey_path = (char *)o->zkey_abs;
        sub.witness.data = o->wtns_data;
        sub.witness.len = o->wtns_len;
    } else {
        sub.proof_kind = CUZK__V1__PROOF_KIND__POREP_SYNTH;
        sub.synth_scale = o->scale;
        sub.synth_partitions = o->partitions;
        sub.synth_seed = o->seed + seq;
        sub.synth_curve = (char *)(strcmp(o->curve, "bn254") == 0 ? "bn254" : "bls12-381");
    }
    req.submit = &sub;
    uint64_t t0 = cz_clock_now_ns();
    ProtobufCMessage *m;
    int rc = call(&m, &rep, cl, o, METHOD("Prove"), &req.base,
                  &cuzk__v1__prove_response__descriptor, o->timeout_ms, 1);
    r->wall_ms = (double)cz_clock_elapsed_ns(t0) / 1e6;
    Cuzk__V1__ProveResponse *resp = (Cuzk__V1__ProveResponse *)m;
    if (rc != BENCH_OK || resp->result == NULL) {
        r->state = rc != BENCH_OK ? cz_grpc_status_name(rep.status) : "INTERNAL";
        snprintf(r->error, sizeof r->error, "%s", rc != BENCH_OK ? rep.msg : "no result");
    } else {
        Cuzk__V1__AwaitProofResponse *a = resp->result;
        r->state = (unsigned)a->status < 5 ? states[a->status] : "UNKNOWN";
        snprintf(r->job_id, sizeof r->job_id, "%s", a->job_id ? a->job_id : "");
        snprintf(r->error, sizeof r->error, "%s", a->error_message ? a->error_message : "");
        r->done = a->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
        if (r->done) {
            r->prove_ms = (double)(a->total_ms - a->queue_wait_ms);
            r->queue_ms = (double)a->queue_wait_ms;
            r->synth_ms = (double)a->synthesis_ms;
            r->compute_ms = (double)a->gpu_compute_ms;
            r->load_ms = (double)a->srs_load_ms;
            r->proof_bytes = a->proof.len;
            if (o->proof_out != NULL && (r->proof = malloc(a->proof.len ? a->proof.len : 1)))
                memcpy(r->proof, a->proof.data, a->proof.len);
        }
    }
    if (m != NULL)
        protobuf_c_message_free_unpacked(m, NULL);
}

/* The proof's JSON line (index < 0: single). */
static void print_proof(FILE *f, const client_opts *o, const proof_res *r, int index) {
    bench_json j = {NULL, 0, 0};
    bench_json_text(&j, "{");
    bench_json_str(&j, "bench", "client");
    bench_json_str(&j, "op", index < 0 ? "single" : "batch");
    if (index >= 0)
        bench_json_int(&j, "job", index);
    bench_json_str(&j, "job_id", r->job_id);
    bench_json_str(&j, "state", r->state);
    bench_json_num(&j, "wall_ms", r->wall_ms);
    if (r->done) {
        bench_json_num(&j, "prove_ms", r->prove_ms);
        bench_json_num(&j, "queue_ms", r->queue_ms);
        bench_json_num(&j, "synth_ms", r->synth_ms);
        bench_json_num(&j, "compute_ms", r->compute_ms);
        bench_json_num(&j, "load_ms", r->load_ms);
        bench_json_int(&j, "proof_bytes", (long long)r->proof_bytes);
    } else {
        bench_json_str(&j, "error", r->error);
    }
    bench_json_text(&j, "}");
    fprintf(f, "%s\n", j.buf);
    fflush(f);
    free(j.buf);
    if (!r->done)
        fprintf(stderr, "cuzk-bench %s: proof %d (job %s): %s: %s\n", o->cmd, index < 0 ? 0 : index,
                r->job_id[0] ? r->job_id : "not accepted", r->state, r->error);
}

static int cmd_single(cz_grpc_client *cl, const client_opts *o) {
    proof_res r;
    prove_one(&r, cl, o, 0);
    print_proof(stdout, o, &r, -1);
    int rc = r.done ? BENCH_OK : BENCH_FAIL;
    if (r.done && o->proof_out != NULL) {
        FILE *f = fopen(o->proof_out, "wb");
        if (r.proof == NULL || f == NULL || fwrite(r.proof, 1, r.proof_bytes, f) != r.proof_bytes) {
            fprintf(stderr, "cuzk-bench single: cannot write the proof to %s\n", o->proof_out);
            rc = BENCH_FAIL;
        }
        if (f != NULL && fclose(f) != 0)
            rc = BENCH_FAIL;
    }
    free(r.proof);
    return rc;
}

/* Sum of cuzk_gpu_busy_seconds_total over its devices; -1 when the daemon does not report it. */
static double busy_seconds(cz_grpc_client *cl, const client_opts *o, int *ndev) {
    Cuzk__V1__GetMetricsRequest req = CUZK__V1__GET_METRICS_REQUEST__INIT;
    cz_daemon_reply rep;
    ProtobufCMessage *pm;
    double sum = -1;
    *ndev = 0;
    if (call(&pm, &rep, cl, o, METHOD("GetMetrics"), &req.base,
             &cuzk__v1__get_metrics_response__descriptor, 10000, 1) != BENCH_OK)
        return -1;
    const char *text = ((Cuzk__V1__GetMetricsResponse *)pm)->prometheus_text;
    static const char name[] = "cuzk_gpu_busy_seconds_total{";
    for (const char *p = text ? strstr(text, name) : NULL; p != NULL; p = strstr(p + 1, name)) {
        if (p != text && p[-1] != '\n')
            continue;
        const char *sp = strchr(p, ' ');
        if (sp == NULL)
            break;
        sum = (sum < 0 ? 0 : sum) + strtod(sp + 1, NULL);
        (*ndev)++;
    }
    protobuf_c_message_free_unpacked(pm, NULL);
    return sum;
}

typedef struct batch_run {
    cz_grpc_client *cl;
    const client_opts *o;
    FILE *lines;
    pthread_mutex_t lock; /* protects next and b, and serialises the lines */
    int next;
    bench_batch b;
} batch_run;

static void *batch_worker(void *arg) {
    batch_run *br = arg;
    for (;;) {
        pthread_mutex_lock(&br->lock);
        int i = br->next < br->o->count ? br->next++ : -1;
        pthread_mutex_unlock(&br->lock);
        if (i < 0)
            return NULL;
        proof_res r;
        prove_one(&r, br->cl, br->o, 1 + (uint64_t)br->o->warmup + (uint64_t)i);
        pthread_mutex_lock(&br->lock);
        bench_batch_add(&br->b, r.wall_ms, r.done ? r.prove_ms : -1, r.done);
        print_proof(br->lines, br->o, &r, i);
        pthread_mutex_unlock(&br->lock);
    }
}

int bench_client_batch(client_batch *out, cz_grpc_client *cl, const client_opts *o, FILE *lines) {
    batch_run br;
    pthread_t th[1024];
    int nth = 0, ndev0 = 0, ndev1 = 0;
    memset(out, 0, sizeof *out);
    out->busy_pct = -1;
    for (int w = 0; w < o->warmup; w++) {
        proof_res r;
        prove_one(&r, cl, o, (uint64_t)w);
        if (!r.done) {
            fprintf(stderr, "cuzk-bench %s: the warm-up proof failed: %s: %s\n", o->cmd, r.state,
                    r.error);
            return BENCH_FAIL;
        }
    }
    memset(&br, 0, sizeof br);
    br.cl = cl;
    br.o = o;
    br.lines = lines;
    pthread_mutex_init(&br.lock, NULL);
    bench_batch_init(&br.b, o->count);
    double busy0 = busy_seconds(cl, o, &ndev0);
    uint64_t t0 = cz_clock_now_ns();
    for (; nth < o->conc && nth < o->count; nth++)
        if (pthread_create(&th[nth], NULL, batch_worker, &br) != 0)
            break;
    if (nth == 0)
        batch_worker(&br);
    for (int t = 0; t < nth; t++)
        pthread_join(th[t], NULL);
    br.b.batch_ms = (double)cz_clock_elapsed_ns(t0) / 1e6;
    double busy1 = busy_seconds(cl, o, &ndev1);
    pthread_mutex_destroy(&br.lock);
    out->b = br.b;
    if (busy0 >= 0 && busy1 >= 0 && ndev1 > 0 && ndev0 == ndev1)
        out->busy_pct = 100.0 * (busy1 - busy0) / ndev1 / (br.b.batch_ms / 1e3);
    /* no scale; one partition, or the C1's */
    int zkey = strcmp(o->workload, "zkey") == 0 || is_post(o) || is_porep(o) || is_snap(o);
    fprintf(lines,
            "{\"bench\":\"client\",\"summary\":true,\"workload\":\"%s\",\"curve\":\"%s\","
            "\"scale\":%u,\"partitions\":%u,\"count\":%d,\"concurrency\":%d,\"done\":%d,",
            o->workload, zkey ? "" : o->curve, zkey ? 0 : o->scale,
            is_porep(o)  ? o->porep_partitions
            : is_snap(o) ? (unsigned)o->snap_nvanilla
            : zkey       ? 1
                         : o->partitions,
            o->count, o->conc, out->b.done);
    bench_batch_json(lines, &out->b);
    if (out->busy_pct >= 0)
        fprintf(lines, ",\"busy_pct\":%.1f}\n", out->busy_pct);
    else
        fprintf(lines, ",\"busy_pct\":null}\n");
    fflush(lines);
    char tag[64];
    snprintf(tag, sizeof tag, "cuzk-bench %s", o->cmd);
    bench_batch_text(&out->b, tag, NULL);
    return out->b.done == o->count ? BENCH_OK : BENCH_FAIL;
}

/* ---------------------------------------------------------------------------------------- */
/* Service calls */

static int cmd_status(cz_grpc_client *cl, const client_opts *o) {
    Cuzk__V1__GetStatusRequest req = CUZK__V1__GET_STATUS_REQUEST__INIT;
    cz_daemon_reply rep;
    ProtobufCMessage *pm;
    if (call(&pm, &rep, cl, o, METHOD("GetStatus"), &req.base,
             &cuzk__v1__get_status_response__descriptor, 30000, 0) != BENCH_OK)
        return BENCH_FAIL;
    Cuzk__V1__GetStatusResponse *s = (Cuzk__V1__GetStatusResponse *)pm;
    printf("daemon     %s\nuptime     %" PRIu64 " s\nproofs     %" PRIu64 " completed, %" PRIu64
           " failed\npinned     %" PRIu64 " of %" PRIu64 " bytes\n",
           o->addr, s->uptime_seconds, s->total_proofs_completed, s->total_proofs_failed,
           s->pinned_memory_bytes, s->pinned_memory_limit_bytes);
    for (size_t i = 0; i < s->n_gpus; i++) {
        const Cuzk__V1__GPUStatus *g = s->gpus[i];
        printf("gpu %-6u %s", g->ordinal, g->name ? g->name : "");
        if (g->vram_total_bytes)
            printf(", vram %" PRIu64 " free of %" PRIu64, g->vram_free_bytes, g->vram_total_bytes);
        if (g->current_job_id && g->current_job_id[0])
            printf(", job %s (%s)", g->current_job_id,
                   g->current_proof_kind ? g->current_proof_kind : "");
        printf("\n");
    }
    for (size_t i = 0; i < s->n_queues; i++)
        printf("queue      %-14s %u pending, %u in progress\n", s->queues[i]->proof_kind,
               s->queues[i]->pending, s->queues[i]->in_progress);
    static const char *const tiers[] = {"hot", "warm", "cold"};
    for (size_t i = 0; i < s->n_loaded_srs; i++) {
        const Cuzk__V1__SRSStatus *k = s->loaded_srs[i];
        printf("srs        %s (%s, %" PRIu64 " bytes, %u refs)\n", k->circuit_id,
               (unsigned)k->tier < 3 ? tiers[k->tier] : "?", k->size_bytes, k->ref_count);
    }
    protobuf_c_message_free_unpacked(pm, NULL);
    return BENCH_OK;
}

static int cmd_metrics(cz_grpc_client *cl, const client_opts *o) {
    Cuzk__V1__GetMetricsRequest req = CUZK__V1__GET_METRICS_REQUEST__INIT;
    cz_daemon_reply rep;
    ProtobufCMessage *pm;
    if (call(&pm, &rep, cl, o, METHOD("GetMetrics"), &req.base,
             &cuzk__v1__get_metrics_response__descriptor, 30000, 0) != BENCH_OK)
        return BENCH_FAIL;
    Cuzk__V1__GetMetricsResponse *m = (Cuzk__V1__GetMetricsResponse *)pm;
    fputs(m->prometheus_text ? m->prometheus_text : "", stdout);
    protobuf_c_message_free_unpacked(pm, NULL);
    return BENCH_OK;
}

static int cmd_preload(cz_grpc_client *cl, const client_opts *o) {
    Cuzk__V1__PreloadSrsRequest req = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    cz_daemon_reply rep;
    char abs[4096];
    req.circuit_id = realpath(o->arg, abs) != NULL ? abs : (char *)o->arg;
    ProtobufCMessage *pm;
    if (call(&pm, &rep, cl, o, METHOD("PreloadSRS"), &req.base,
             &cuzk__v1__preload_srs_response__descriptor, o->timeout_ms, 0) != BENCH_OK)
        return BENCH_FAIL;
    Cuzk__V1__PreloadSrsResponse *r = (Cuzk__V1__PreloadSrsResponse *)pm;
    if (r->already_loaded)
        printf("preload %s: already loaded\n", req.circuit_id);
    else
        printf("preload %s: loaded in %" PRIu64 " ms\n", req.circuit_id, r->load_time_ms);
    protobuf_c_message_free_unpacked(pm, NULL);
    return BENCH_OK;
}

static int cmd_evict(cz_grpc_client *cl, const client_opts *o) {
    Cuzk__V1__EvictSrsRequest req = CUZK__V1__EVICT_SRS_REQUEST__INIT;
    cz_daemon_reply rep;
    char abs[4096];
    req.circuit_id = realpath(o->arg, abs) != NULL ? abs : (char *)o->arg;
    ProtobufCMessage *pm;
    if (call(&pm, &rep, cl, o, METHOD("EvictSRS"), &req.base,
             &cuzk__v1__evict_srs_response__descriptor, 30000, 0) != BENCH_OK)
        return BENCH_FAIL;
    Cuzk__V1__EvictSrsResponse *r = (Cuzk__V1__EvictSrsResponse *)pm;
    if (r->was_loaded)
        printf("evict %s: freed %" PRIu64 " bytes\n", req.circuit_id, r->freed_bytes);
    else
        printf("evict %s: was not loaded\n", req.circuit_id);
    protobuf_c_message_free_unpacked(pm, NULL);
    return BENCH_OK;
}

static int cmd_cancel(cz_grpc_client *cl, const client_opts *o) {
    Cuzk__V1__CancelProofRequest req = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    cz_daemon_reply rep;
    req.job_id = (char *)o->arg;
    ProtobufCMessage *pm;
    if (call(&pm, &rep, cl, o, METHOD("CancelProof"), &req.base,
             &cuzk__v1__cancel_proof_response__descriptor, 30000, 0) != BENCH_OK)
        return BENCH_FAIL;
    Cuzk__V1__CancelProofResponse *r = (Cuzk__V1__CancelProofResponse *)pm;
    printf("cancel %s: %s\n", o->arg, r->was_running ? "was running" : "was queued");
    protobuf_c_message_free_unpacked(pm, NULL);
    return BENCH_OK;
}

int bench_cmd_client(int argc, char **argv, const char *addr) {
    client_opts o;
    cz_grpc_client *cl = NULL;
    for (int a = 1; a < argc; a++)
        if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
            bench_cmd_usage(stdout, argv[0]);
            return BENCH_OK;
        }
    int rc = parse(&o, argc, argv, addr);
    if (rc == BENCH_OK)
        rc = prepare(&o);
    if (rc != BENCH_OK)
        goto out;
    if (strcmp(o.cmd, "sweep") == 0) {
        rc = bench_client_sweep(&o);
        goto out;
    }
    if ((rc = bench_client_connect(&cl, &o, 0)) != BENCH_OK)
        goto out;
    if (strcmp(o.cmd, "single") == 0) {
        rc = cmd_single(cl, &o);
    } else if (strcmp(o.cmd, "batch") == 0) {
        client_batch cb;
        rc = bench_client_batch(&cb, cl, &o, stdout);
    } else if (strcmp(o.cmd, "status") == 0) {
        rc = cmd_status(cl, &o);
    } else if (strcmp(o.cmd, "metrics") == 0) {
        rc = cmd_metrics(cl, &o);
    } else if (strcmp(o.cmd, "preload") == 0) {
        rc = cmd_preload(cl, &o);
    } else if (strcmp(o.cmd, "evict") == 0) {
        rc = cmd_evict(cl, &o);
    } else {
        rc = cmd_cancel(cl, &o);
    }
out:
    cz_grpc_client_destroy(cl);
    free(o.wtns_data);
    free(o.values_buf);
    bench_client_post_free(&o);
    bench_client_porep_free(&o);
    bench_client_snap_free(&o);
    return rc;
}

#endif
