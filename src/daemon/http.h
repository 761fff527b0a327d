/*
 * The daemon's HTTP status endpoints (docs/daemon.md, "Status and metrics"), served by
 * libmicrohttpd on its own thread:
 *
 *   GET /status   JSON: memory budget, scheduler counters, every tracked job with its
 *                 partitions' states, per-device busy time, the SRS manager's statistics
 *   GET /metrics  the same numbers in the Prometheus text exposition format (version 0.0.4)
 *
 * Anything else is 404; a method other than GET (or HEAD) is 405. Off unless the daemon's
 * configuration gives a listen address. Both pages are built per request from one read of each
 * statistics source (cz_engine_stats_get, cz_srs_stats_get, cz_sched_list), so a page is a
 * consistent snapshot of each source, not across sources. The two formatting functions are
 * separate so that tests and other front ends (a gRPC GetStatus) use them without a socket.
 */
#ifndef CUZK_DAEMON_HTTP_H
#define CUZK_DAEMON_HTTP_H

#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/pipeline.h"

#include <stdint.h>

typedef struct cz_http cz_http;

/* The defaults of cz_http_opts' zero fields. */
#define CZ_HTTP_REQUEST_TIMEOUT_MS 10000u
#define CZ_HTTP_MAX_CONNECTIONS    64u

typedef struct cz_http_opts {
    /* The Access-Control-Allow-Origin value of every answer; NULL or "" = no such header. */
    const char *cors_origin;
    /* Absolute limit of one request, from the connection's accept (or, kept alive, the end of
     * its previous request) to the last byte of the answer; a client trickling bytes does not
     * extend it. Past it the connection is closed. 0 = CZ_HTTP_REQUEST_TIMEOUT_MS. */
    unsigned request_timeout_ms;
    /* Connections kept open; a new one beyond them closes the oldest, so that slow clients
     * cannot lock a fresh one (a scrape) out. 0 = CZ_HTTP_MAX_CONNECTIONS. */
    unsigned max_connections;
    /* An extra /status section: status_section(status_section_arg) returns malloc'd JSON text,
     * put under status_section_name (the daemon's Filecoin keys). NULL: none. The name and arg
     * must outlive the server. */
    const char *status_section_name;
    char *(*status_section)(void *arg);
    void *status_section_arg;
} cz_http_opts;

/*
 * Starts serving on listen ("host:port", "[v6addr]:port" or ":port" = every IPv4 address; port
 * 0 = any free port, see cz_http_port), with opts (NULL = every default). The engine and srs
 * (may be NULL: no SRS section) must outlive the server. CZ_EINVAL (address, a control
 * character in the CORS origin), CZ_EIO (cannot listen), CZ_ENOMEM.
 */
int cz_http_start(cz_http **out, const char *listen, const cz_http_opts *opts, cz_engine *e,
                  cz_srs *srs, cz_errinfo *ei);
/* Stops the server (waits for the request being answered). NULL is a no-op. */
void cz_http_stop(cz_http *h);
/* The port the server listens on (the one the system chose for port 0). */
int cz_http_port(const cz_http *h);
/* The address it is bound to, as "127.0.0.1:9821" or "[::1]:9821" (":9821" is "0.0.0.0:9821"). */
const char *cz_http_address(const cz_http *h);
/* Connections closed so far for passing the request time limit, and evicted by a newer one. */
void cz_http_conn_stats(const cz_http *h, uint64_t *expired, uint64_t *evicted);

/* The /status document (malloc'd, NUL-terminated; NULL when out of memory). */
char *cz_http_status_json(cz_engine *e, cz_srs *srs);
/* The same with an extra section (section NULL: none), as cz_http_opts' status_section. */
char *cz_http_status_json_with(cz_engine *e, cz_srs *srs, const char *section_name,
                               char *(*section)(void *arg), void *section_arg);
/* The /metrics page (malloc'd, NUL-terminated; NULL when out of memory). */
char *cz_http_metrics_text(cz_engine *e, cz_srs *srs);

#endif
