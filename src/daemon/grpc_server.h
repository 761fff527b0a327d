/*
 * The gRPC transport of the daemon over grpc's C core (<grpc/grpc.h>): one completion queue
 * driven by one thread, unary calls handed to the service (src/daemon/service.h), the slow ones
 * on a fixed pool of threads, the waiting ones parked on one thread (grpc_server.c).
 */
#ifndef CZ_DAEMON_GRPC_SERVER_H
#define CZ_DAEMON_GRPC_SERVER_H

#include <grpc/grpc.h>
#include <stdatomic.h>

#include "cuzk/err.h"
#include "daemon/service.h"
#include "daemon/socklock.h"

/* Largest request or response message (larger requests fail with RESOURCE_EXHAUSTED). */
#define CZ_GRPC_MAX_MESSAGE (128u << 20)

/* The channel arguments of both ends (server here, client in grpc_client.c): messages up to
 * CZ_GRPC_MAX_MESSAGE each way. Fills args (room for 2) and returns the set over them. */
grpc_channel_args cz__grpc_message_args(grpc_arg args[2]);

typedef struct cz_grpc_server cz_grpc_server;

/*
 * Listens on addr: "unix:///path" or "host:port". For a path the caller holds its lock (lock,
 * daemon/socklock.h; CZ_EINVAL without it): a stale socket file is removed and the socket created
 * with socket_mode exactly, whatever the umask; cz_grpc_server_destroy removes it (then the
 * caller releases the lock). lock is not used for host:port, which is bound without
 * SO_REUSEPORT, so a port in use is refused. CZ_EIO when the address cannot be bound.
 * Starts rpc_threads (>= 1, else CZ_EINVAL) threads for the slow RPCs and one that answers the
 * calls waiting for jobs (CZ_EINTERNAL when they cannot be started).
 */
int cz_grpc_server_create(cz_grpc_server **out, const char *addr, unsigned socket_mode,
                          const cz_daemon_socklock *lock, int rpc_threads, cz_daemon_service *svc,
                          cz_errinfo *ei);
/* The address really bound, for the log: "unix:///abs/path", or for host:port each listening
 * socket grpc made ("127.0.0.1:9820", "127.0.0.1:9820, [::1]:9820" for localhost). */
const char *cz_grpc_server_address(const cz_grpc_server *s);
/*
 * Serves until *stop becomes non-zero (e.g. set by a signal handler), then: new submits are
 * refused (UNAVAILABLE), accepted jobs are drained, the server shuts down after the replies
 * of those jobs' waiters have been sent. Returns CZ_OK; CZ_ETIMEDOUT when calls were still
 * inside a handler 10 s after the shutdown (a key load stuck in the kernel): the server is then
 * abandoned (destroy only removes the socket file) and the caller must exit without freeing what
 * those handlers use (the service).
 */
int cz_grpc_server_run(cz_grpc_server *s, atomic_int *stop);
/* Frees the server (after run returned) and removes its Unix socket file; after a run that
 * returned CZ_ETIMEDOUT it removes the socket file and frees nothing. */
void cz_grpc_server_destroy(cz_grpc_server *s);

#endif
