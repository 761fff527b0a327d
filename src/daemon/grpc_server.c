/*
 * The daemon's gRPC server over grpc's C core: unary calls on one completion queue.
 *
 * One thread (cz_grpc_server_run) drives the queue. Each call is a `call_ctx` that moves
 * through three batches, each with its own tag:
 *   NEW    grpc_server_request_call completed: a call arrived (the next request is posted at
 *          once); start CLOSE (RECV_CLOSE_ON_SERVER, which tells us when the client cancels or
 *          goes away) and RECV (RECV_MESSAGE).
 *   RECV   the request bytes are here: fast handlers (status, metrics, cancel, evict) run on
 *          the queue thread; slow ones (submit, await, prove, preload) on a thread of their own,
 *          so a long AwaitProof never holds up other calls. Either way the reply goes out in one
 *          SEND batch (initial metadata, message, status), started from the handler's thread
 *          (grpc_call_start_batch is thread-safe).
 *   SEND / CLOSE  bookkeeping. The context is reference counted (one reference per batch in
 *          flight and one per handler thread) and freed with the call when the last goes.
 * Message size limits are grpc's channel arguments: a request over CZ_GRPC_MAX_MESSAGE fails in
 * grpc itself with RESOURCE_EXHAUSTED before it reaches a handler.
 *
 * Shutdown (*stop set): intake stops (the service answers UNAVAILABLE), a drain thread waits
 * for the accepted jobs to end while the queue keeps serving (waiters get their proofs), then
 * grpc_server_shutdown_and_notify + cancel_all_calls; run returns when the shutdown tag has
 * arrived and every call context has been freed.
 */
#include "daemon/grpc_server.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/clock.h"
#include "cuzk/log.h"
#include "daemon/netaddr.h"

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>

/* Longest wait for handler threads to answer after the drain, before calls are cancelled. */
#define GRACE_MS 5000

enum { TAG_NEW, TAG_RECV, TAG_SEND, TAG_CLOSE, TAG_SHUTDOWN };

typedef struct call_ctx call_ctx;
typedef struct tag {
    int kind;
    call_ctx *c;
} tag;

struct call_ctx {
    cz_grpc_server *srv;
    grpc_call *call;
    grpc_call_details details;
    grpc_metadata_array md;
    grpc_byte_buffer *recv;
    grpc_byte_buffer *send;
    grpc_slice status_details;
    int have_status_details;
    int close_cancelled; /* written by grpc when CLOSE completes */
    atomic_int cancelled;
    atomic_int refs;
    tag t_new, t_recv, t_send, t_close;
    char *method;
    uint8_t *req;
    size_t req_len;
};

struct cz_grpc_server {
    grpc_server *server;
    grpc_completion_queue *cq;
    cz_daemon_service *svc;
    char unix_path[512]; /* the socket file we made; "" for host:port */
    char bound[256];     /* the address(es) really bound, for the log */
    int started;         /* grpc_server_start was called */
    int shut;            /* grpc_server_shutdown_and_notify's tag has arrived */
    atomic_int live_calls;
    atomic_int shutting_down;
    atomic_int drained;
    atomic_int handlers; /* handler threads running */
    tag t_shutdown;
};

static void call_unref(call_ctx *c) {
    if (atomic_fetch_sub(&c->refs, 1) != 1)
        return;
    cz_grpc_server *s = c->srv;
    if (c->call != NULL)
        grpc_call_unref(c->call);
    grpc_call_details_destroy(&c->details);
    grpc_metadata_array_destroy(&c->md);
    if (c->recv != NULL)
        grpc_byte_buffer_destroy(c->recv);
    if (c->send != NULL)
        grpc_byte_buffer_destroy(c->send);
    if (c->have_status_details)
        grpc_slice_unref(c->status_details);
    free(c->method);
    free(c->req);
    free(c);
    atomic_fetch_sub(&s->live_calls, 1);
}

/* Posts a request for the next call. */
static void request_next(cz_grpc_server *s) {
    call_ctx *c = calloc(1, sizeof *c);
    if (c == NULL) {
        CZ_LOG_ERROR("cuzk-daemon: out of memory: no longer accepting calls");
        return;
    }
    c->srv = s;
    c->t_new = (tag){TAG_NEW, c};
    c->t_recv = (tag){TAG_RECV, c};
    c->t_send = (tag){TAG_SEND, c};
    c->t_close = (tag){TAG_CLOSE, c};
    atomic_init(&c->refs, 1); /* the NEW tag's */
    atomic_init(&c->cancelled, 0);
    grpc_call_details_init(&c->details);
    grpc_metadata_array_init(&c->md);
    atomic_fetch_add(&s->live_calls, 1);
    if (grpc_server_request_call(s->server, &c->call, &c->details, &c->md, s->cq, s->cq,
                                 &c->t_new) != GRPC_CALL_OK) {
        CZ_LOG_ERROR("cuzk-daemon: grpc_server_request_call failed");
        call_unref(c);
    }
}

/* Sends the reply (one batch); callable from any thread. */
static void send_reply(call_ctx *c, const cz_daemon_reply *rep) {
    grpc_op ops[3];
    memset(ops, 0, sizeof ops);
    size_t n = 0;
    ops[n].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[n].data.send_initial_metadata.count = 0;
    n++;
    if (rep->status == CZ_RPC_OK) {
        grpc_slice sl = grpc_slice_from_copied_buffer((const char *)rep->body, rep->len);
        c->send = grpc_raw_byte_buffer_create(&sl, 1);
        grpc_slice_unref(sl);
        ops[n].op = GRPC_OP_SEND_MESSAGE;
        ops[n].data.send_message.send_message = c->send;
        n++;
    }
    c->status_details = grpc_slice_from_copied_string(rep->msg);
    c->have_status_details = 1;
    ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[n].data.send_status_from_server.trailing_metadata_count = 0;
    ops[n].data.send_status_from_server.status = (grpc_status_code)rep->status;
    ops[n].data.send_status_from_server.status_details = &c->status_details;
    n++;
    atomic_fetch_add(&c->refs, 1);
    grpc_call_error e = grpc_call_start_batch(c->call, ops, n, &c->t_send, NULL);
    if (e != GRPC_CALL_OK) {
        CZ_LOG_WARN("cuzk-daemon: %s: reply not sent (grpc_call_error %d)", c->method, e);
        call_unref(c);
    }
}

static int call_should_stop(void *arg) {
    call_ctx *c = arg;
    return atomic_load(&c->cancelled);
}

static void handle(call_ctx *c) {
    cz_daemon_reply rep;
    cz_daemon_service_call(&rep, c->srv->svc, c->method, c->req, c->req_len, call_should_stop, c);
    send_reply(c, &rep);
    free(rep.body);
}

static void *handler_thread(void *arg) {
    call_ctx *c = arg;
    cz_grpc_server *s = c->srv;
    handle(c);
    call_unref(c); /* the thread's */
    atomic_fetch_sub(&s->handlers, 1);
    return NULL;
}

static void on_new(cz_grpc_server *s, call_ctx *c, int ok) {
    if (!ok) { /* the server is shutting down */
        call_unref(c);
        return;
    }
    if (!atomic_load(&s->shutting_down))
        request_next(s);
    c->method = grpc_slice_to_c_string(c->details.method);
    grpc_op op;
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    op.data.recv_close_on_server.cancelled = &c->close_cancelled;
    /* The NEW reference becomes the CLOSE batch's. */
    if (grpc_call_start_batch(c->call, &op, 1, &c->t_close, NULL) != GRPC_CALL_OK) {
        call_unref(c);
        return;
    }
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_MESSAGE;
    op.data.recv_message.recv_message = &c->recv;
    atomic_fetch_add(&c->refs, 1);
    if (grpc_call_start_batch(c->call, &op, 1, &c->t_recv, NULL) != GRPC_CALL_OK)
        call_unref(c);
}

static void on_recv(cz_grpc_server *s, call_ctx *c, int ok) {
    cz_daemon_reply rep;
    memset(&rep, 0, sizeof rep);
    if (!ok || c->recv == NULL) {
        /* Cancelled, or refused by grpc (e.g. too large: grpc has sent the status). */
        rep.status = CZ_RPC_INVALID_ARGUMENT;
        snprintf(rep.msg, sizeof rep.msg, "no request message");
        send_reply(c, &rep);
        call_unref(c);
        return;
    }
    grpc_byte_buffer_reader rd;
    grpc_slice all;
    if (!grpc_byte_buffer_reader_init(&rd, c->recv)) {
        rep.status = CZ_RPC_INVALID_ARGUMENT;
        snprintf(rep.msg, sizeof rep.msg, "undecodable request message");
        send_reply(c, &rep);
        call_unref(c);
        return;
    }
    all = grpc_byte_buffer_reader_readall(&rd);
    grpc_byte_buffer_reader_destroy(&rd);
    c->req_len = GRPC_SLICE_LENGTH(all);
    c->req = malloc(c->req_len ? c->req_len : 1);
    if (c->req != NULL)
        memcpy(c->req, GRPC_SLICE_START_PTR(all), c->req_len);
    grpc_slice_unref(all);
    grpc_byte_buffer_destroy(c->recv);
    c->recv = NULL;
    if (c->req == NULL) {
        rep.status = CZ_RPC_RESOURCE_EXHAUSTED;
        snprintf(rep.msg, sizeof rep.msg, "out of memory for the request");
        send_reply(c, &rep);
        call_unref(c);
        return;
    }
    if (!cz_daemon_method_is_slow(c->method)) {
        handle(c);
        call_unref(c);
        return;
    }
    /* The RECV reference becomes the thread's. */
    pthread_t th;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    atomic_fetch_add(&s->handlers, 1);
    if (pthread_create(&th, &at, handler_thread, c) != 0) {
        atomic_fetch_sub(&s->handlers, 1);
        rep.status = CZ_RPC_RESOURCE_EXHAUSTED;
        snprintf(rep.msg, sizeof rep.msg, "no thread for the call");
        send_reply(c, &rep);
        call_unref(c);
    }
    pthread_attr_destroy(&at);
}

/* Destroys the server and drains and destroys its completion queue, then releases grpc. */
static void release_grpc(cz_grpc_server *s) {
    if (s->started && !s->shut) {
        /* never run (start-up failed after create): grpc wants a shutdown before destroy */
        grpc_server_shutdown_and_notify(s->server, s->cq, &s->t_shutdown);
        grpc_server_cancel_all_calls(s->server);
        for (;;) {
            grpc_event ev =
                grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
            if (ev.type == GRPC_OP_COMPLETE && ev.tag == &s->t_shutdown)
                break;
            if (ev.type == GRPC_QUEUE_SHUTDOWN)
                break;
        }
        s->shut = 1;
    }
    grpc_server_destroy(s->server);
    grpc_completion_queue_shutdown(s->cq);
    while (grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
           GRPC_QUEUE_SHUTDOWN)
        ;
    grpc_completion_queue_destroy(s->cq);
    grpc_shutdown();
}

grpc_channel_args cz__grpc_message_args(grpc_arg args[2]) {
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = (int)CZ_GRPC_MAX_MESSAGE;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = (int)CZ_GRPC_MAX_MESSAGE;
    return (grpc_channel_args){2, args};
}

/* The TCP listeners that appeared between before[0..nbefore) and now, as "A, B" in s->bound. */
static void bound_tcp(cz_grpc_server *s, const int *before, size_t nbefore, int port,
                      const char *addr) {
    int now[64];
    size_t n = cz__netaddr_listeners(now, 64), o = 0;
    for (size_t i = 0; i < n && i < 64; i++) {
        size_t j = 0;
        char a[64];
        while (j < nbefore && before[j] != now[i])
            j++;
        if (j < nbefore)
            continue;
        cz__netaddr_local(a, sizeof a, now[i]);
        if (a[0] != '\0' && o < sizeof s->bound)
            o += (size_t)snprintf(s->bound + o, sizeof s->bound - o, "%s%s", o ? ", " : "", a);
    }
    if (o == 0) /* not found (no /proc): what grpc said */
        snprintf(s->bound, sizeof s->bound, "%.200s (port %d)", addr, port);
}

int cz_grpc_server_create(cz_grpc_server **out, const char *addr, unsigned socket_mode,
                          const cz_daemon_socklock *lock, cz_daemon_service *svc, cz_errinfo *ei) {
    int before[64];
    size_t nbefore = 0;
    *out = NULL;
    cz_grpc_server *s = calloc(1, sizeof *s);
    if (s == NULL)
        return cz_fail(ei, CZ_ENOMEM, "grpc server");
    s->svc = svc;
    s->t_shutdown = (tag){TAG_SHUTDOWN, NULL};
    if (strncmp(addr, "unix:", 5) == 0) {
        /* Only the lock's holder may replace the file at the path. */
        if (lock == NULL) {
            free(s);
            return cz_fail(ei, CZ_EINVAL, "listen address %s: the socket lock is not held", addr);
        }
        const char *path = cz_daemon_socklock_path(lock);
        struct stat st;
        snprintf(s->unix_path, sizeof s->unix_path, "%s", path);
        if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
            unlink(path); /* stale socket of an earlier run: nobody holds its lock */
        if (path[0] == '/') {
            snprintf(s->bound, sizeof s->bound, "unix://%s", path);
        } else {
            char cwd[200];
            snprintf(s->bound, sizeof s->bound, "unix://%s/%s",
                     getcwd(cwd, sizeof cwd) != NULL ? cwd : ".", path);
        }
    } else {
        nbefore = cz__netaddr_listeners(before, 64);
        if (nbefore > 64)
            nbefore = 64;
    }
    grpc_init();
    grpc_arg args[3];
    grpc_channel_args cargs = cz__grpc_message_args(args);
    /* grpc sets SO_REUSEPORT by default: a second daemon would then share a TCP port with the
     * first, each taking some of the connections. */
    args[2].type = GRPC_ARG_INTEGER;
    args[2].key = GRPC_ARG_ALLOW_REUSEPORT;
    args[2].value.integer = 0;
    cargs.num_args = 3;
    s->server = grpc_server_create(&cargs, NULL);
    s->cq = grpc_completion_queue_create_for_next(NULL);
    grpc_server_register_completion_queue(s->server, s->cq, NULL);
    grpc_server_credentials *cred = grpc_insecure_server_credentials_create();
    /* The socket is bound here: created with socket_mode at most (umask), then set exactly. */
    mode_t old = umask(s->unix_path[0] ? (mode_t)(~socket_mode & 0777) : (mode_t)0022);
    int port = grpc_server_add_http2_port(s->server, addr, cred);
    umask(old);
    grpc_server_credentials_release(cred);
    if (port != 0 && s->unix_path[0] && chmod(s->unix_path, (mode_t)socket_mode) != 0) {
        int e = errno;
        release_grpc(s);
        unlink(s->unix_path);
        free(s);
        return cz_fail(ei, CZ_EIO, "listen address %s: chmod %04o: %s", addr, socket_mode,
                       strerror(e));
    }
    if (port == 0) {
        release_grpc(s);
        free(s);
        return cz_fail(ei, CZ_EIO, "cannot listen on %s", addr);
    }
    grpc_server_start(s->server);
    s->started = 1;
    if (!s->unix_path[0])
        bound_tcp(s, before, nbefore, port, addr);
    *out = s;
    return CZ_OK;
}

const char *cz_grpc_server_address(const cz_grpc_server *s) {
    return s->bound;
}

static void *drain_thread(void *arg) {
    cz_grpc_server *s = arg;
    cz_daemon_service_drain(s->svc);
    atomic_store(&s->drained, 1);
    return NULL;
}

int cz_grpc_server_run(cz_grpc_server *s, atomic_int *stop) {
    int draining = 0, shutdown_started = 0, shutdown_done = 0;
    uint64_t drained_at = 0;
    pthread_t drainer;
    request_next(s);
    for (;;) {
        if (atomic_load(stop) && !draining) {
            draining = 1;
            CZ_LOG_INFO("cuzk-daemon: stopping: no new jobs; draining accepted jobs");
            cz_daemon_service_stop_intake(s->svc);
            if (pthread_create(&drainer, NULL, drain_thread, s) != 0)
                atomic_store(&s->drained, 1), draining = 2;
        }
        /* After the drain, the waiters of the last jobs still have to send their answers:
         * wait for the handler threads (at most GRACE_MS) before cancelling every call. */
        if (draining && atomic_load(&s->drained) && drained_at == 0)
            drained_at = cz_clock_now_ms();
        if (drained_at != 0 && !shutdown_started &&
            (atomic_load(&s->handlers) == 0 || cz_clock_now_ms() - drained_at > GRACE_MS)) {
            shutdown_started = 1;
            if (draining == 1)
                pthread_join(drainer, NULL);
            atomic_store(&s->shutting_down, 1);
            grpc_server_shutdown_and_notify(s->server, s->cq, &s->t_shutdown);
            grpc_server_cancel_all_calls(s->server);
        }
        if (shutdown_done && atomic_load(&s->live_calls) == 0)
            break;
        gpr_timespec dl =
            gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC), gpr_time_from_millis(100, GPR_TIMESPAN));
        grpc_event ev = grpc_completion_queue_next(s->cq, dl, NULL);
        if (ev.type != GRPC_OP_COMPLETE)
            continue;
        tag *t = ev.tag;
        switch (t->kind) {
        case TAG_NEW:
            on_new(s, t->c, ev.success);
            break;
        case TAG_RECV:
            on_recv(s, t->c, ev.success);
            break;
        case TAG_SEND:
            call_unref(t->c);
            break;
        case TAG_CLOSE:
            if (t->c->close_cancelled || !ev.success) {
                atomic_store(&t->c->cancelled, 1);
                cz_daemon_service_wake(t->c->srv->svc); /* its handler may be waiting */
            }
            call_unref(t->c);
            break;
        case TAG_SHUTDOWN:
            shutdown_done = 1;
            s->shut = 1;
            break;
        }
    }
    return CZ_OK;
}

void cz_grpc_server_destroy(cz_grpc_server *s) {
    if (s == NULL)
        return;
    release_grpc(s);
    if (s->unix_path[0])
        unlink(s->unix_path); /* before the lock is released (socklock.h) */
    free(s);
}
