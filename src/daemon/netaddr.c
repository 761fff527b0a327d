/*
 * Listening addresses (netaddr.h): getsockname of the process's own listening sockets, so a
 * library that does not say which sockets it bound (grpc's C core) can still be asked by
 * comparing the listeners before and after it binds.
 */
#include "daemon/netaddr.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

void cz__netaddr_local(char *out, size_t cap, int fd) {
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    char ip[INET6_ADDRSTRLEN];
    out[0] = '\0';
    if (cap == 0 || getsockname(fd, (struct sockaddr *)&ss, &len) != 0)
        return;
    if (ss.ss_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)&ss;
        if (inet_ntop(AF_INET, &a->sin_addr, ip, sizeof ip) != NULL)
            snprintf(out, cap, "%s:%u", ip, (unsigned)ntohs(a->sin_port));
    } else if (ss.ss_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&ss;
        unsigned port = ntohs(a->sin6_port);
        if (IN6_IS_ADDR_V4MAPPED(&a->sin6_addr)) {
            if (inet_ntop(AF_INET, a->sin6_addr.s6_addr + 12, ip, sizeof ip) != NULL)
                snprintf(out, cap, "%s:%u", ip, port);
        } else if (inet_ntop(AF_INET6, &a->sin6_addr, ip, sizeof ip) != NULL) {
            snprintf(out, cap, "[%s]:%u", ip, port);
        }
    }
}

size_t cz__netaddr_listeners(int *fds, size_t max) {
    DIR *d = opendir("/proc/self/fd");
    size_t n = 0;
    if (d == NULL)
        return 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char *end;
        long fd = strtol(e->d_name, &end, 10);
        int on = 0, family = 0;
        socklen_t len = sizeof on;
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || *end != '\0' || fd == dirfd(d))
            continue;
        if (getsockopt((int)fd, SOL_SOCKET, SO_ACCEPTCONN, &on, &len) != 0 || !on)
            continue;
        len = sizeof family;
        if (getsockopt((int)fd, SOL_SOCKET, SO_DOMAIN, &family, &len) != 0 ||
            (family != AF_INET && family != AF_INET6))
            continue;
        if (n < max)
            fds[n] = (int)fd;
        n++;
    }
    closedir(d);
    return n;
}
