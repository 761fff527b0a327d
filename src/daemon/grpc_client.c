/*
 * Unary gRPC calls over grpc's C core (the client side of src/daemon/grpc_server.c).
 *
 * One call = one grpc_call on the shared channel with a completion queue of its own, and one
 * batch of six operations (send initial metadata, the message, close; receive initial metadata,
 * the message, the status) waited for with grpc_completion_queue_next. A queue per call costs a
 * few allocations, which is nothing beside a proof, and makes the client thread-safe without a
 * lock: cuzk-bench batch runs its in-flight proofs on one thread each.
 */
#include "daemon/grpc_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>

#include "daemon/grpc_server.h" /* cz__grpc_message_args */

struct cz_grpc_client {
    grpc_channel *ch;
};

int cz_grpc_client_create(cz_grpc_client **out, const char *addr, cz_errinfo *ei) {
    *out = NULL;
    if (addr == NULL || addr[0] == 0)
        return cz_fail(ei, CZ_EINVAL, "grpc client: empty address");
    cz_grpc_client *c = calloc(1, sizeof *c);
    if (c == NULL)
        return cz_fail(ei, CZ_ENOMEM, "grpc client");
    grpc_init();
    grpc_arg args[2];
    grpc_channel_args cargs = cz__grpc_message_args(args);
    grpc_channel_credentials *cr = grpc_insecure_credentials_create();
    c->ch = grpc_channel_create(addr, cr, &cargs);
    grpc_channel_credentials_release(cr);
    if (c->ch == NULL) {
        grpc_shutdown();
        free(c);
        return cz_fail(ei, CZ_EINVAL, "grpc client: cannot make a channel to %s", addr);
    }
    *out = c;
    return CZ_OK;
}

void cz_grpc_client_destroy(cz_grpc_client *c) {
    if (c == NULL)
        return;
    grpc_channel_destroy(c->ch);
    grpc_shutdown();
    free(c);
}

/* Copies a byte buffer into one malloc'd block. */
static uint8_t *buffer_copy(size_t *len, grpc_byte_buffer *bb) {
    grpc_byte_buffer_reader rd;
    *len = 0;
    if (!grpc_byte_buffer_reader_init(&rd, bb))
        return NULL;
    grpc_slice all = grpc_byte_buffer_reader_readall(&rd);
    grpc_byte_buffer_reader_destroy(&rd);
    size_t n = GRPC_SLICE_LENGTH(all);
    uint8_t *p = malloc(n ? n : 1);
    if (p != NULL) {
        memcpy(p, GRPC_SLICE_START_PTR(all), n);
        *len = n;
    }
    grpc_slice_unref(all);
    return p;
}

int cz_grpc_client_call(cz_daemon_reply *rep, cz_grpc_client *c, const char *method,
                        const uint8_t *req, size_t len, uint64_t timeout_ms, cz_errinfo *ei) {
    int rc = CZ_OK;
    memset(rep, 0, sizeof *rep);
    grpc_completion_queue *cq = grpc_completion_queue_create_for_next(NULL);
    gpr_timespec dl = timeout_ms == 0
                          ? gpr_inf_future(GPR_CLOCK_REALTIME)
                          : gpr_time_add(gpr_now(GPR_CLOCK_REALTIME),
                                         gpr_time_from_millis((int64_t)timeout_ms, GPR_TIMESPAN));
    grpc_slice msl = grpc_slice_from_copied_string(method);
    grpc_call *call =
        grpc_channel_create_call(c->ch, NULL, GRPC_PROPAGATE_DEFAULTS, cq, msl, NULL, dl, NULL);
    grpc_slice_unref(msl);
    grpc_slice body = grpc_slice_from_copied_buffer((const char *)req, len);
    grpc_byte_buffer *send = grpc_raw_byte_buffer_create(&body, 1);
    grpc_slice_unref(body);
    grpc_byte_buffer *recv = NULL;
    grpc_metadata_array md_init, md_trail;
    grpc_metadata_array_init(&md_init);
    grpc_metadata_array_init(&md_trail);
    grpc_status_code status = GRPC_STATUS_UNKNOWN;
    grpc_slice details = grpc_empty_slice();

    grpc_op ops[6];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[1].op = GRPC_OP_SEND_MESSAGE;
    ops[1].data.send_message.send_message = send;
    ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
    ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[3].data.recv_initial_metadata.recv_initial_metadata = &md_init;
    ops[4].op = GRPC_OP_RECV_MESSAGE;
    ops[4].data.recv_message.recv_message = &recv;
    ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[5].data.recv_status_on_client.trailing_metadata = &md_trail;
    ops[5].data.recv_status_on_client.status = &status;
    ops[5].data.recv_status_on_client.status_details = &details;
    static int tag; /* only its address is used: one batch per queue */
    grpc_call_error e =
        call != NULL ? grpc_call_start_batch(call, ops, 6, &tag, NULL) : GRPC_CALL_ERROR;
    if (e != GRPC_CALL_OK) {
        rc = cz_fail(ei, CZ_EINTERNAL, "%s: the call could not start (grpc_call_error %d)", method,
                     (int)e);
    } else {
        grpc_event ev;
        do
            ev = grpc_completion_queue_next(cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
        while (ev.type != GRPC_OP_COMPLETE || ev.tag != &tag);
        rep->status = (int)status;
        size_t n = GRPC_SLICE_LENGTH(details);
        if (n >= sizeof rep->msg)
            n = sizeof rep->msg - 1;
        memcpy(rep->msg, GRPC_SLICE_START_PTR(details), n);
        rep->msg[n] = 0;
        if (status == GRPC_STATUS_OK) {
            if (recv == NULL) { /* a unary reply always has a message, even an empty one */
                rep->status = GRPC_STATUS_INTERNAL;
                snprintf(rep->msg, sizeof rep->msg, "no response message");
            } else if ((rep->body = buffer_copy(&rep->len, recv)) == NULL) {
                rc = cz_fail(ei, CZ_ENOMEM, "%s: out of memory for the response", method);
            }
        }
    }
    if (recv != NULL)
        grpc_byte_buffer_destroy(recv);
    grpc_byte_buffer_destroy(send);
    grpc_slice_unref(details);
    grpc_metadata_array_destroy(&md_init);
    grpc_metadata_array_destroy(&md_trail);
    if (call != NULL)
        grpc_call_unref(call);
    grpc_completion_queue_shutdown(cq);
    while (grpc_completion_queue_next(cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
           GRPC_QUEUE_SHUTDOWN)
        ;
    grpc_completion_queue_destroy(cq);
    return rc;
}

const char *cz_grpc_status_name(int status) {
    static const char *const names[] = {"OK",
                                        "CANCELLED",
                                        "UNKNOWN",
                                        "INVALID_ARGUMENT",
                                        "DEADLINE_EXCEEDED",
                                        "NOT_FOUND",
                                        "ALREADY_EXISTS",
                                        "PERMISSION_DENIED",
                                        "RESOURCE_EXHAUSTED",
                                        "FAILED_PRECONDITION",
                                        "ABORTED",
                                        "OUT_OF_RANGE",
                                        "UNIMPLEMENTED",
                                        "INTERNAL",
                                        "UNAVAILABLE",
                                        "DATA_LOSS",
                                        "UNAUTHENTICATED"};
    return status >= 0 && (size_t)status < sizeof names / sizeof names[0] ? names[status]
                                                                          : "UNKNOWN";
}
