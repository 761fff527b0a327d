/*
 * The RPC handlers of cuzk.v1.ProvingEngine (proto/cuzk/v1/proving.proto) over the engine
 * (include/cuzk/pipeline.h), the SRS manager and the workloads (include/cuzk/workload.h).
 * Transport-free: a handler gets the request's serialized protobuf and returns a gRPC status
 * code, a message and the serialized response; src/daemon/grpc_server.c moves the bytes.
 *
 * Ownership: the service owns one engine (CPU backend or the configured GPUs), one memory
 * budget shared by the engine and the SRS manager, the pool of threads on which the SRS manager
 * decodes bellperson .params keys, records the PoSt circuits and checks the PoSt requests' vanilla
 * proofs (srs.load_threads), and the porep-synth contexts (one per curve and scale, built on first
 * use). Handlers are thread-safe and never wait for a job: the slow ones (Submit, Prove,
 * PreloadSRS: parsing, key loading) may take long and are meant for a pool of threads; AwaitProof
 * and Prove, when the job has not ended, return a wait (cz_daemon_wait) that the transport keeps
 * with the call until cz_daemon_wait_due says its answer is due.
 */
#ifndef CZ_DAEMON_SERVICE_H
#define CZ_DAEMON_SERVICE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"
#include "cuzk/pipeline.h"

/* gRPC status codes (the numbers of grpc_status_code). */
enum {
    CZ_RPC_OK = 0,
    CZ_RPC_CANCELLED = 1,
    CZ_RPC_INVALID_ARGUMENT = 3,
    CZ_RPC_DEADLINE_EXCEEDED = 4,
    CZ_RPC_NOT_FOUND = 5,
    CZ_RPC_ALREADY_EXISTS = 6,
    CZ_RPC_RESOURCE_EXHAUSTED = 8,
    CZ_RPC_FAILED_PRECONDITION = 9,
    CZ_RPC_UNIMPLEMENTED = 12,
    CZ_RPC_INTERNAL = 13,
    CZ_RPC_UNAVAILABLE = 14,
};

typedef struct cz_daemon_service cz_daemon_service;

typedef struct cz_daemon_service_config {
    cz_engine_config engine;   /* budget: engine.budget (shared with the SRS manager) */
    const char *synth_cache;   /* porep-synth key cache directory, private to the daemon (the
                                * daemon's <state_dir>/synth-cache); NULL = porep-synth jobs fail */
    unsigned synth_max_scale;  /* largest porep-synth scale accepted; 0 = 20 */
    int srs_load_threads;      /* the key-decoding pool of the SRS manager; 0 = all CPUs */
    int params_check_subgroup; /* cz_srs_config.params_check_subgroup */
    const char *param_dir;     /* the Filecoin keys (srs.param_cache); NULL: PoSt requests fail */
    int allow_untrusted;       /* srs.allow_untrusted (daemon/filecoin.h) */
    const char *key_digests;   /* the remembered key digests (daemon/keydigests.h); NULL: none */
    int abc_on_gpu;            /* gpus.abc_on_gpu (with GPUs only) */
} cz_daemon_service_config;

/*
 * A call waiting for its job's end without a thread: AwaitProof (or Prove after its submit)
 * whose job is still queued or running. The transport keeps it with the call, looks at it with
 * cz_daemon_wait_due whenever cz_daemon_service_wait_events returns (a job ended, or a wake),
 * and then gets the answer from cz_daemon_service_wait_answer, which releases the job.
 */
typedef struct cz_daemon_wait {
    cz_job *job;          /* a reference; NULL: no wait (the reply is the answer) */
    uint64_t deadline_ms; /* cz_clock_now_ms() of the TIMEOUT answer; 0 = none */
    int prove;            /* the answer is a ProveResponse; a client gone cancels the job */
} cz_daemon_wait;

/* A handler's answer: status (CZ_RPC_*), message (status details) and response bytes, or a
 * wait (wait.job set: no answer yet). */
typedef struct cz_daemon_reply {
    int status;
    char msg[CZ_ERRINFO_MSG_MAX];
    uint8_t *body; /* malloc'd serialized response (status OK), freed by the caller */
    size_t len;
    cz_daemon_wait wait;
} cz_daemon_reply;

/* Given to a handler with its request: called (at most once) as soon as the request has been
 * unpacked, so that the transport frees the request's bytes then and not at the call's end. */
typedef void (*cz_daemon_release_fn)(void *arg);

int cz_daemon_service_create(cz_daemon_service **out, const cz_daemon_service_config *cfg,
                             cz_errinfo *ei);
/* Shuts the engine down (running jobs finish first) and frees everything. */
void cz_daemon_service_destroy(cz_daemon_service *s);
/* The engine and the SRS manager behind the service (for the HTTP status endpoints). */
cz_engine *cz_daemon_service_engine(cz_daemon_service *s);
cz_srs *cz_daemon_service_srs(cz_daemon_service *s);
/* The /status section of the Filecoin keys (cz_daemon_filecoin_status_json; arg: the service),
 * for cz_http_opts.status_section. */
char *cz_daemon_service_filecoin_json(void *s);

/* From now on SubmitProof and Prove answer UNAVAILABLE. */
void cz_daemon_service_stop_intake(cz_daemon_service *s);
/* Makes cz_daemon_service_wait_events return (a wait was added, or a client went away). */
void cz_daemon_service_wake(cz_daemon_service *s);
/* Blocks until a job has ended or cz_daemon_service_wake was called since *seen (0 at first;
 * updated), or timeout_ms passed (negative: no limit). For the one thread that watches every
 * wait: nothing that happens between two calls is missed. */
void cz_daemon_service_wait_events(cz_daemon_service *s, uint64_t *seen, int64_t timeout_ms);
/* 1 when w's answer is due at now_ms (cz_clock_now_ms): its job has ended or its deadline has
 * passed. Thread-safe, takes no lock. */
int cz_daemon_wait_due(const cz_daemon_wait *w, uint64_t now_ms);
/* The answer of w into rep (as the handler would have answered): the job's outcome, TIMEOUT
 * when it has not ended, or with gone (the client went away) CANCELLED, and for Prove the job
 * is cancelled (nobody waits for it any more). Releases w's job; w is then empty. */
void cz_daemon_service_wait_answer(cz_daemon_reply *rep, cz_daemon_service *s, cz_daemon_wait *w,
                                   int gone);
/* Waits until no accepted job is queued or running (call after stop_intake). */
void cz_daemon_service_drain(cz_daemon_service *s);

/* Whether the method (the gRPC path "/cuzk.v1.ProvingEngine/Name") may take long (parsing a
 * large request, loading a key); 0 also for an unknown method. AwaitProof is not slow: it
 * answers at once or returns a wait. */
int cz_daemon_method_is_slow(const char *method);
/*
 * Runs the handler of method on the serialized request req (len bytes). Always fills rep
 * (UNIMPLEMENTED for an unknown method, INVALID_ARGUMENT for a request that does not parse), or
 * returns a wait in rep->wait (AwaitProof, Prove) that the caller must see through. release
 * (may be NULL) is called with release_arg once req is no longer read, possibly before the
 * handler returns.
 */
void cz_daemon_service_call(cz_daemon_reply *rep, cz_daemon_service *s, const char *method,
                            const uint8_t *req, size_t len, cz_daemon_release_fn release,
                            void *release_arg);

#endif
