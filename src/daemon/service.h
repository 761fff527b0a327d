/*
 * The RPC handlers of cuzk.v1.ProvingEngine (proto/cuzk/v1/proving.proto) over the engine
 * (include/cuzk/pipeline.h), the SRS manager and the workloads (include/cuzk/workload.h).
 * Transport-free: a handler gets the request's serialized protobuf and returns a gRPC status
 * code, a message and the serialized response; src/daemon/grpc_server.c moves the bytes.
 *
 * Ownership: the service owns one engine (CPU backend or the configured GPUs), one memory
 * budget shared by the engine and the SRS manager, and the porep-synth contexts (one per curve
 * and scale, built on first use). Handlers are thread-safe; the slow ones (Await, Prove,
 * Submit, PreloadSRS) are meant to run on their own threads and poll should_stop.
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
    cz_engine_config engine;  /* budget: engine.budget (shared with the SRS manager) */
    const char *synth_cache;  /* porep-synth key cache directory, private to the daemon (the
                               * daemon's <state_dir>/synth-cache); NULL = porep-synth jobs fail */
    unsigned synth_max_scale; /* largest porep-synth scale accepted; 0 = 20 */
} cz_daemon_service_config;

/* A handler's answer: status (CZ_RPC_*), message (status details) and response bytes. */
typedef struct cz_daemon_reply {
    int status;
    char msg[CZ_ERRINFO_MSG_MAX];
    uint8_t *body; /* malloc'd serialized response (status OK), freed by the caller */
    size_t len;
} cz_daemon_reply;

/* Polled by long handlers: non-zero = the client went away (stop waiting). */
typedef int (*cz_daemon_stop_fn)(void *arg);

int cz_daemon_service_create(cz_daemon_service **out, const cz_daemon_service_config *cfg,
                             cz_errinfo *ei);
/* Shuts the engine down (running jobs finish first) and frees everything. */
void cz_daemon_service_destroy(cz_daemon_service *s);
/* The engine and the SRS manager behind the service (for the HTTP status endpoints). */
cz_engine *cz_daemon_service_engine(cz_daemon_service *s);
cz_srs *cz_daemon_service_srs(cz_daemon_service *s);

/* From now on SubmitProof and Prove answer UNAVAILABLE. */
void cz_daemon_service_stop_intake(cz_daemon_service *s);
/* Wakes the handlers waiting for jobs to look at their stop predicates again (a client went
 * away: the gRPC layer calls this after its should_stop turned true). */
void cz_daemon_service_wake(cz_daemon_service *s);
/* Waits until no accepted job is queued or running (call after stop_intake). */
void cz_daemon_service_drain(cz_daemon_service *s);

/* Whether the method (the gRPC path "/cuzk.v1.ProvingEngine/Name") may block; 0 also for an
 * unknown method. */
int cz_daemon_method_is_slow(const char *method);
/*
 * Runs the handler of method on the serialized request req (len bytes). Always fills rep
 * (UNIMPLEMENTED for an unknown method, INVALID_ARGUMENT for a request that does not parse).
 */
void cz_daemon_service_call(cz_daemon_reply *rep, cz_daemon_service *s, const char *method,
                            const uint8_t *req, size_t len, cz_daemon_stop_fn should_stop,
                            void *stop_arg);

#endif
