/*
 * A streaming writer for snarkjs Groth16 .zkey files (the layout is in cuzk/zkey.h and
 * research/circom-snarkjs.md §5.5): the iden3 container header, then sections written one after
 * the other, each announced with its exact payload size before its bytes are streamed. Used by
 * the test-key setup (src/groth16/setup.c), which produces sections 1..10 in order.
 *
 *   cz__zkey_writer w;
 *   cz__zkey_writer_open(&w, path, 10, ei);
 *   cz__zkey_write_protocol(&w, ei);
 *   cz__zkey_write_header(&w, &hdr, ei);
 *   cz__zkey_writer_begin(&w, 3, bytes, ei); cz__zkey_writer_put(&w, p, bytes, ei); ...
 *   cz__zkey_writer_end(&w, ei);
 *   ...
 *   cz__zkey_writer_close(&w, ei);   // or cz__zkey_writer_abort(&w) on any error: removes the file
 *
 * Each call checks what it can (the payload matches the announced size, the section count matches
 * the header's) and reports I/O errors with the file name. Points are written as given: the
 * caller passes snarkjs LEM bytes, which are the bytes of cz_<curve>_g1/g2_affine on the
 * little-endian hosts cuzk supports.
 */
#ifndef CUZK_FORMATS_ZKEY_WRITE_H
#define CUZK_FORMATS_ZKEY_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/curve_id.h"
#include "cuzk/err.h"

typedef struct cz__zkey_writer {
    FILE *f;
    char *path;
    uint32_t nsect_total, nsect_done;
    int in_section;
    uint32_t sect_id;
    uint64_t sect_left; /* payload bytes still due in the open section */
} cz__zkey_writer;

/* The header section (2): curve, sizes and the six header points as LEM bytes (G1: 2·n8q bytes,
 * G2: 4·n8q bytes). */
typedef struct cz__zkey_header {
    cz_curve_id curve;
    uint32_t nvars, npublic, domain_size;
    const void *alpha1, *beta1, *beta2, *gamma2, *delta1, *delta2;
} cz__zkey_header;

/* Creates (truncates) path and writes magic "zkey", version 1 and nsections. */
int cz__zkey_writer_open(cz__zkey_writer *w, const char *path, uint32_t nsections, cz_errinfo *ei);
/* Starts section id with a payload of exactly size bytes. */
int cz__zkey_writer_begin(cz__zkey_writer *w, uint32_t id, uint64_t size, cz_errinfo *ei);
int cz__zkey_writer_put(cz__zkey_writer *w, const void *data, size_t len, cz_errinfo *ei);
int cz__zkey_writer_put_u32(cz__zkey_writer *w, uint32_t v, cz_errinfo *ei);
/* Ends the open section; CZ_EINTERNAL when fewer bytes than announced were written. */
int cz__zkey_writer_end(cz__zkey_writer *w, cz_errinfo *ei);
/* Flushes and closes; CZ_EIO on a write error, CZ_EINTERNAL when sections are missing. The file
 * is removed on any error. */
int cz__zkey_writer_close(cz__zkey_writer *w, cz_errinfo *ei);
/* Closes and removes the file (after an error elsewhere). Safe on a writer that failed to open. */
void cz__zkey_writer_abort(cz__zkey_writer *w);

/* Section 1: protocol = 1 (Groth16). */
int cz__zkey_write_protocol(cz__zkey_writer *w, cz_errinfo *ei);
/* Section 2: n8q | q | n8r | r | nVars | nPublic | domainSize | α1 β1 β2 γ2 δ1 δ2. */
int cz__zkey_write_header(cz__zkey_writer *w, const cz__zkey_header *h, cz_errinfo *ei);
/* Section 10 with no contributions: csHash (64 bytes) | nContributions = 0. */
int cz__zkey_write_mpc_empty(cz__zkey_writer *w, const uint8_t cs_hash[64], cz_errinfo *ei);

/* Bytes of a G1 / G2 point of curve in LEM. */
size_t cz__zkey_g1_bytes(cz_curve_id curve);
size_t cz__zkey_g2_bytes(cz_curve_id curve);

#endif
