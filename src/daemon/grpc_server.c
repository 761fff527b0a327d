/*
 * The daemon's gRPC server over grpc's C core: unary calls on one completion queue.
 *
 * Threads: one (cz_grpc_server_run) drives the queue; a pool of rpc_threads threads ("cuzk-rpc")
 * runs the slow handlers; one waiter thread ("cuzk-wait") answers the calls parked on jobs. Each
 * call is a `call_ctx` that moves through three batches, each with its own tag: NEW
 * grpc_server_request_call completed: a call arrived (the next request is posted at once); start
 * CLOSE (RECV_CLOSE_ON_SERVER, which tells us when the client cancels or goes away) and RECV
 * (RECV_MESSAGE). RECV   the request bytes are here, taken out of grpc's byte buffer as one slice
 * (the only slice as it is, or one flat copy; the buffer goes at once). Fast handlers (status,
 *          metrics, cancel, evict, and AwaitProof) run on the queue thread; slow ones (submit,
 *          prove, preload: parsing, key loading) are queued, first in first out, for the pool.
 *          A handler releases the request as soon as it has unpacked it. Its reply goes out in
 *          one SEND batch (initial metadata, message, status), started from the handler's thread
 *          (grpc_call_start_batch is thread-safe), unless the reply is a wait (AwaitProof, Prove:
 *          the job has not ended): the call is then parked, holding no thread.
 *   SEND / CLOSE  bookkeeping. The context is reference counted (one reference per batch in
 *          flight, and one while it is queued for the pool, runs a handler or is parked) and
 *          freed with the call when the last goes.
 * Parked calls: a list the waiter thread scans whenever cz_daemon_service_wait_events returns,
 * i.e. when a job has ended or the service was woken (a call was parked; a CLOSE reported a
 * client gone), and at the earliest deadline (AwaitProof timeout_ms). A call whose job has ended
 * or whose deadline has passed gets its answer (cz_daemon_service_wait_answer) and the SEND
 * batch; a cancelled one (CLOSE) is answered CANCELLED and freed at once, and for Prove its job
 * is cancelled. So 1,000 waiting calls are 1,000 list entries, not 1,000 threads.
 * Message size limits are grpc's channel arguments: a request over CZ_GRPC_MAX_MESSAGE fails in
 * grpc itself with RESOURCE_EXHAUSTED before it reaches a handler.
 *
 * Locks: pool_lock guards the pool's queue and stop flag; park_lock the parked list and its stop
 * flag. Both are leaves: nothing else is called while one is held (cz_daemon_wait_due reads an
 * atomic).
 *
 * Shutdown (*stop set): intake stops (the service answers UNAVAILABLE), a drain thread waits
 * for the accepted jobs to end while the queue keeps serving (parked calls get their proofs),
 * then, once every call received has been answered (its SEND batch completed; at most GRACE_MS),
 * grpc_server_shutdown_and_notify + cancel_all_calls; run returns when the shutdown tag has arrived
 * and every call context has been freed. cz_grpc_server_destroy stops and joins the pool and the
 * waiter thread (which answers, as gone, any call still parked).
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
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif

#include "cuzk/clock.h"
#include "cuzk/log.h"
#include "daemon/netaddr.h"

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>

/* Longest wait for the calls received to be answered after the drain, before they are
 * cancelled. */
#define GRACE_MS 5000
/* Longest wait, once the server is shut down, for handlers that do not return (a key load
 * stuck in the kernel on a hung file system); run then returns CZ_ETIMEDOUT without them. */
#define STUCK_MS 10000
/* Requests at least this large return their freed memory to the system (release_request). */
#define TRIM_AFTER_BYTES (4u << 20)

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
    grpc_slice req; /* the request, while have_req (until the handler has unpacked it) */
    int have_req;
    cz_daemon_wait wait; /* while parked */
    call_ctx *next;      /* in the pool's queue, or in the parked list */
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
    int abandoned; /* run gave up on calls that did not end (STUCK_MS) */
    atomic_int shutting_down;
    atomic_int drained;
    atomic_int unanswered; /* calls received whose SEND batch has not completed */
    tag t_shutdown;

    pthread_mutex_t pool_lock;
    pthread_cond_t pool_cv;
    call_ctx *pool_head, *pool_tail; /* slow calls waiting for a pool thread */
    int pool_stop;
    pthread_t *pool;
    int npool; /* pool threads started */

    pthread_mutex_t park_lock;
    call_ctx *parked;
    int park_stop;
    pthread_t waiter;
    int waiter_started;
};

/* Frees the request (idempotent). grpc receives a large message as many small slices, which
 * glibc's malloc keeps in its arenas once they are freed: after a large request the free pages
 * are handed back (malloc_trim), else four waiting 48 MiB Prove calls left 194 MiB resident
 * (1 MiB with the trim; tests/daemon/pool.mjs). */
static void release_request(void *arg) {
    call_ctx *c = arg;
    if (!c->have_req)
        return;
    size_t len = GRPC_SLICE_LENGTH(c->req);
    grpc_slice_unref(c->req);
    c->have_req = 0;
#ifdef __GLIBC__
    if (len >= TRIM_AFTER_BYTES)
        malloc_trim(0);
#else
    (void)len;
#endif
}

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
    release_request(c);
    free(c->method);
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
    /* without trailing blanks: the details travel as the grpc-message header, and an HTTP/2
     * field value may not end in whitespace (Node's client drops such a header: a message cut
     * at a space by its buffer reached it empty) */
    size_t msg_len = strnlen(rep->msg, sizeof rep->msg);
    while (msg_len > 0 && (rep->msg[msg_len - 1] == ' ' || rep->msg[msg_len - 1] == '\t'))
        msg_len--;
    c->status_details = grpc_slice_from_copied_buffer(rep->msg, msg_len);
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
        atomic_fetch_sub(&c->srv->unanswered, 1);
        call_unref(c);
    }
}

/* Sends rep (its body is freed) and drops the reference of the handler or the parked list. The
 * call counts as answered once its SEND batch has completed (TAG_SEND). */
static void answer(call_ctx *c, cz_daemon_reply *rep) {
    send_reply(c, rep);
    free(rep->body);
    rep->body = NULL;
    call_unref(c);
}

/* Parks c with its wait (the handler's reference passes to the parked list) and wakes the
 * waiter thread, which looks at it: its job may have ended since the handler looked. */
static void park(call_ctx *c, const cz_daemon_wait *w) {
    cz_grpc_server *s = c->srv;
    c->wait = *w;
    pthread_mutex_lock(&s->park_lock);
    c->next = s->parked;
    s->parked = c;
    pthread_mutex_unlock(&s->park_lock);
    cz_daemon_service_wake(s->svc);
}

/* Runs the handler of c (holding one reference) and answers or parks the call. */
static void handle(call_ctx *c) {
    cz_daemon_reply rep;
    cz_daemon_service_call(&rep, c->srv->svc, c->method, GRPC_SLICE_START_PTR(c->req),
                           GRPC_SLICE_LENGTH(c->req), release_request, c);
    release_request(c);
    if (rep.wait.job != NULL)
        park(c, &rep.wait);
    else
        answer(c, &rep);
}

/* Names the calling thread (top -H, /proc/PID/task/N/comm; the tests count them). */
static void name_thread(const char *name) {
#ifdef __GLIBC__
    pthread_setname_np(pthread_self(), name);
#else
    (void)name;
#endif
}

static void *pool_main(void *arg) {
    cz_grpc_server *s = arg;
    name_thread("cuzk-rpc");
    for (;;) {
        pthread_mutex_lock(&s->pool_lock);
        while (s->pool_head == NULL && !s->pool_stop)
            pthread_cond_wait(&s->pool_cv, &s->pool_lock);
        call_ctx *c = s->pool_head;
        if (c != NULL && (s->pool_head = c->next) == NULL)
            s->pool_tail = NULL;
        pthread_mutex_unlock(&s->pool_lock);
        if (c == NULL)
            return NULL; /* stopped, and nothing is left */
        c->next = NULL;
        handle(c);
    }
}

/* Queues c (holding one reference) for a pool thread. */
static void pool_push(cz_grpc_server *s, call_ctx *c) {
    c->next = NULL;
    pthread_mutex_lock(&s->pool_lock);
    if (s->pool_tail != NULL)
        s->pool_tail->next = c;
    else
        s->pool_head = c;
    s->pool_tail = c;
    pthread_cond_signal(&s->pool_cv);
    pthread_mutex_unlock(&s->pool_lock);
}

/* The waiter thread: answers every parked call whose answer is due (its job ended, its deadline
 * passed, or its client gone), then sleeps until the next job end, wake or deadline. Once
 * stopped, it answers whatever is still parked, as gone, and returns. */
static void *waiter_main(void *arg) {
    cz_grpc_server *s = arg;
    uint64_t seen = 0;
    name_thread("cuzk-wait");
    for (;;) {
        uint64_t now = cz_clock_now_ms(), next = 0;
        call_ctx *due = NULL;
        pthread_mutex_lock(&s->park_lock);
        int stop = s->park_stop;
        for (call_ctx **link = &s->parked; *link != NULL;) {
            call_ctx *c = *link;
            if (stop || atomic_load(&c->cancelled) || cz_daemon_wait_due(&c->wait, now)) {
                *link = c->next;
                c->next = due;
                due = c;
                continue;
            }
            if (c->wait.deadline_ms != 0 && (next == 0 || c->wait.deadline_ms < next))
                next = c->wait.deadline_ms;
            link = &c->next;
        }
        pthread_mutex_unlock(&s->park_lock);
        while (due != NULL) {
            call_ctx *c = due;
            due = c->next;
            c->next = NULL;
            cz_daemon_reply rep;
            cz_daemon_service_wait_answer(&rep, s->svc, &c->wait,
                                          stop || atomic_load(&c->cancelled));
            answer(c, &rep);
        }
        if (stop)
            return NULL;
        int64_t timeout = -1; /* no deadline: until a job ends or a wake */
        if (next != 0)
            timeout = next > now ? (int64_t)(next - now) : 0;
        cz_daemon_service_wait_events(s->svc, &seen, timeout);
    }
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

/* Takes the request out of c->recv as one slice into c->req: the buffer's only slice as it is
 * (a reference, no copy), or one flat copy of its slices; the buffer is destroyed at once, so
 * twice a request's size is held only while it is being copied. 0, or -1 (undecodable). */
static int take_request(call_ctx *c) {
    grpc_byte_buffer_reader rd;
    int rc = -1;
    if (grpc_byte_buffer_reader_init(&rd, c->recv)) {
        grpc_slice first, more;
        if (!grpc_byte_buffer_reader_next(&rd, &first)) {
            c->req = grpc_empty_slice();
        } else if (!grpc_byte_buffer_reader_next(&rd, &more)) {
            c->req = first;
        } else {
            grpc_slice_unref(first);
            grpc_slice_unref(more);
            grpc_byte_buffer_reader_destroy(&rd);
            if (!grpc_byte_buffer_reader_init(&rd, c->recv))
                goto out;
            c->req = grpc_byte_buffer_reader_readall(&rd);
        }
        grpc_byte_buffer_reader_destroy(&rd);
        c->have_req = 1;
        rc = 0;
    }
out:
    grpc_byte_buffer_destroy(c->recv);
    c->recv = NULL;
    return rc;
}

static void on_recv(cz_grpc_server *s, call_ctx *c, int ok) {
    cz_daemon_reply rep;
    memset(&rep, 0, sizeof rep);
    atomic_fetch_add(&s->unanswered, 1);
    if (!ok || c->recv == NULL) {
        /* Cancelled, or refused by grpc (e.g. too large: grpc has sent the status). */
        rep.status = CZ_RPC_INVALID_ARGUMENT;
        snprintf(rep.msg, sizeof rep.msg, "no request message");
        answer(c, &rep);
        return;
    }
    if (take_request(c) != 0) {
        rep.status = CZ_RPC_INVALID_ARGUMENT;
        snprintf(rep.msg, sizeof rep.msg, "undecodable request message");
        answer(c, &rep);
        return;
    }
    /* The RECV reference becomes the handler's (here or on the pool). */
    if (cz_daemon_method_is_slow(c->method))
        pool_push(s, c);
    else
        handle(c);
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

/* Stops the pool (after its queue is empty) and the waiter thread (which answers what is still
 * parked, as gone), joins them and frees their state. */
static void stop_threads(cz_grpc_server *s) {
    pthread_mutex_lock(&s->pool_lock);
    s->pool_stop = 1;
    pthread_cond_broadcast(&s->pool_cv);
    pthread_mutex_unlock(&s->pool_lock);
    for (int i = 0; i < s->npool; i++)
        pthread_join(s->pool[i], NULL);
    s->npool = 0;
    if (s->waiter_started) {
        pthread_mutex_lock(&s->park_lock);
        s->park_stop = 1;
        pthread_mutex_unlock(&s->park_lock);
        cz_daemon_service_wake(s->svc);
        pthread_join(s->waiter, NULL);
        s->waiter_started = 0;
    }
    free(s->pool);
    s->pool = NULL;
    pthread_cond_destroy(&s->pool_cv);
    pthread_mutex_destroy(&s->pool_lock);
    pthread_mutex_destroy(&s->park_lock);
}

/* Starts the waiter thread and nthreads pool threads; CZ_EINTERNAL (everything stopped again). */
static int start_threads(cz_grpc_server *s, int nthreads, cz_errinfo *ei) {
    pthread_mutex_init(&s->pool_lock, NULL);
    pthread_cond_init(&s->pool_cv, NULL);
    pthread_mutex_init(&s->park_lock, NULL);
    s->pool = calloc((size_t)nthreads, sizeof *s->pool);
    int ok = s->pool != NULL && pthread_create(&s->waiter, NULL, waiter_main, s) == 0;
    s->waiter_started = ok;
    while (ok && s->npool < nthreads) {
        ok = pthread_create(&s->pool[s->npool], NULL, pool_main, s) == 0;
        s->npool += ok;
    }
    if (ok)
        return CZ_OK;
    stop_threads(s);
    return cz_fail(ei, CZ_EINTERNAL, "grpc server: cannot start %d RPC threads", nthreads);
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
                          const cz_daemon_socklock *lock, int rpc_threads, cz_daemon_service *svc,
                          cz_errinfo *ei) {
    int before[64];
    size_t nbefore = 0;
    *out = NULL;
    if (rpc_threads < 1)
        return cz_fail(ei, CZ_EINVAL, "grpc server: %d RPC threads (at least 1)", rpc_threads);
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
    int rc = start_threads(s, rpc_threads, ei);
    if (rc != CZ_OK) {
        release_grpc(s);
        if (s->unix_path[0])
            unlink(s->unix_path);
        free(s);
        return rc;
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
    uint64_t drained_at = 0, shutdown_at = 0;
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
        /* After the drain, the calls parked on the last jobs still have to send their answers
         * (and the pool may still run a handler): wait until every call received has been
         * answered (at most GRACE_MS) before cancelling every call. */
        if (draining && atomic_load(&s->drained) && drained_at == 0)
            drained_at = cz_clock_now_ms();
        if (drained_at != 0 && !shutdown_started &&
            (atomic_load(&s->unanswered) == 0 || cz_clock_now_ms() - drained_at > GRACE_MS)) {
            shutdown_started = 1;
            shutdown_at = cz_clock_now_ms();
            if (draining == 1)
                pthread_join(drainer, NULL);
            atomic_store(&s->shutting_down, 1);
            grpc_server_shutdown_and_notify(s->server, s->cq, &s->t_shutdown);
            grpc_server_cancel_all_calls(s->server);
        }
        if (shutdown_done && atomic_load(&s->live_calls) == 0)
            break;
        if (shutdown_started && cz_clock_now_ms() - shutdown_at > STUCK_MS) {
            CZ_LOG_WARN("cuzk-daemon: %d calls still running %d s after the shutdown (a key "
                        "load that does not return?); exiting without them",
                        atomic_load(&s->live_calls), STUCK_MS / 1000);
            s->abandoned = 1;
            return CZ_ETIMEDOUT;
        }
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
            atomic_fetch_sub(&s->unanswered, 1);
            call_unref(t->c);
            break;
        case TAG_CLOSE:
            if (t->c->close_cancelled || !ev.success) {
                atomic_store(&t->c->cancelled, 1);
                cz_daemon_service_wake(t->c->srv->svc); /* it may be parked */
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
    if (s->abandoned) { /* threads still inside: free nothing they use, keep no socket */
        if (s->unix_path[0])
            unlink(s->unix_path);
        return;
    }
    stop_threads(s);
    release_grpc(s);
    if (s->unix_path[0])
        unlink(s->unix_path); /* before the lock is released (socklock.h) */
    free(s);
}
