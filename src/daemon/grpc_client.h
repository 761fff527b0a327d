/*
 * A small gRPC client over grpc's C core: unary calls of serialized protobuf messages on one
 * channel, for cuzk-bench's daemon subcommands (bench/bench_client*.c) and tests. The messages
 * themselves are packed and unpacked by the caller (protobuf-c); this layer moves bytes and
 * returns the call's gRPC status and status details.
 *
 * Lifecycle: cz_grpc_client_create (grpc_init, one insecure channel to the address) ...
 * cz_grpc_client_destroy (channel destroyed, grpc_shutdown). A client is thread-safe: each call
 * has its own completion queue, so threads share one channel and call at once. Calls do not wait
 * for the server to be ready: an address nobody listens on answers UNAVAILABLE at once.
 */
#ifndef CZ_DAEMON_GRPC_CLIENT_H
#define CZ_DAEMON_GRPC_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"
#include "daemon/service.h"

typedef struct cz_grpc_client cz_grpc_client;

/* Connects lazily to addr: "unix:///path" or "host:port". CZ_EINVAL for an empty address. */
int cz_grpc_client_create(cz_grpc_client **out, const char *addr, cz_errinfo *ei);
/* NULL is allowed. No call may be in flight. */
void cz_grpc_client_destroy(cz_grpc_client *c);

/*
 * One unary call of method ("/cuzk.v1.ProvingEngine/GetStatus") with the serialized request
 * req (len bytes). timeout_ms 0 = no deadline. Fills rep: status (a CZ_RPC_* / grpc status code),
 * msg (the status details) and, when the status is OK, body/len (malloc'd response, freed by the
 * caller; NULL otherwise). Returns CZ_OK when the call ran to a status (which may be an error),
 * CZ_ENOMEM / CZ_EINTERNAL when it could not be made.
 */
int cz_grpc_client_call(cz_daemon_reply *rep, cz_grpc_client *c, const char *method,
                        const uint8_t *req, size_t len, uint64_t timeout_ms, cz_errinfo *ei);

/* The gRPC status code's name ("UNAVAILABLE"), "UNKNOWN" for codes without one. */
const char *cz_grpc_status_name(int status);

#endif
