/*
 * One daemon per Unix socket: the lock file PATH.lock beside the socket PATH (docs/daemon.md,
 * "Socket"). The daemon takes it right after its configuration is checked, before it builds the
 * engine or loads any key, so a second daemon on the same path stops at once (exit 2, naming the
 * holder's PID) instead of loading keys it cannot serve.
 *
 * Lifecycle: cz_daemon_socklock_take makes the socket's parent directories and takes
 * flock(LOCK_EX|LOCK_NB) on PATH.lock (mode 0600, our PID in it); only the holder may remove a
 * stale socket file at PATH and bind it (cz_grpc_server_create takes the lock as proof).
 * cz_daemon_socklock_release, after the socket is removed, unlinks the lock file while still
 * holding it, then closes it. A crash leaves the file; the kernel drops a dead process's flock,
 * so the next daemon takes it over.
 */
#ifndef CZ_DAEMON_SOCKLOCK_H
#define CZ_DAEMON_SOCKLOCK_H

#include "cuzk/err.h"

typedef struct cz_daemon_socklock cz_daemon_socklock;

/*
 * For addr "unix:PATH" or "unix://PATH": the lock of PATH in *out. For any other address
 * (host:port) *out = NULL and CZ_OK: there is nothing to lock. CZ_EBUSY ("another daemon (PID N)
 * holds PATH.lock") when a live daemon holds it; CZ_EINVAL for an empty or too long path; CZ_EIO
 * when a directory or the lock file cannot be made.
 */
int cz_daemon_socklock_take(cz_daemon_socklock **out, const char *addr, cz_errinfo *ei);
/* The socket path the lock guards. */
const char *cz_daemon_socklock_path(const cz_daemon_socklock *l);
/* Removes the lock file and releases the lock. NULL is a no-op. */
void cz_daemon_socklock_release(cz_daemon_socklock *l);

#endif
