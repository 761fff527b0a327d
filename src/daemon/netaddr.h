/*
 * The addresses the daemon really listens on, for its log: the ready line names what was bound
 * (a name resolved, "every address" as 0.0.0.0 or [::]), not the text of the configuration.
 */
#ifndef CZ_DAEMON_NETADDR_H
#define CZ_DAEMON_NETADDR_H

#include <stddef.h>

/* The local address of socket fd: "127.0.0.1:9820", "[::1]:9820" (an IPv4-mapped IPv6 address
 * as IPv4), or "" for a socket that is not IPv4/IPv6. */
void cz__netaddr_local(char *out, size_t cap, int fd);
/* The listening IPv4/IPv6 sockets of this process (/proc/self/fd): up to max fd numbers into
 * fds; returns how many there are (also those beyond max). */
size_t cz__netaddr_listeners(int *fds, size_t max);

#endif
