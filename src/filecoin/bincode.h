/*
 * bincode 1 as rust-fil-proofs serializes its proofs (little-endian integers, u64 lengths, u32
 * enum tags, 32-byte field values): a strict reader and a writer of the pieces, Merkle proofs
 * included, shared by the decoders of the Filecoin vanilla proofs.
 *
 * A MerkleProof (storage-proofs-core merkle/proof.rs) is a ProofData enum: tag 0 Single (root,
 * leaf, base path), 1 Sub (base path, sub path, root, leaf), 2 Top (base, sub, top paths, root,
 * leaf); a path is a u64 count of levels, each a u64 count of siblings (arity - 1), the siblings
 * and a u64 index. The tree's shape fixes the tag and every count.
 *
 * The reader checks the bytes left before every read, so a truncation is a format error at the
 * byte where it was met; field values must be below r. The first error is kept (with the
 * reader's name, the caller's description of where it is and the byte offset) and every later
 * read fails at once. The writer makes two passes over the same code: without a buffer it
 * counts the bytes, then it writes them into one allocation of that size.
 */
#ifndef CUZK_FILECOIN_BINCODE_H
#define CUZK_FILECOIN_BINCODE_H

#include "filecoin/merkle.h"

typedef struct cz__bincode_reader {
    const uint8_t *p;
    size_t len, at;
    const char *name; /* the decoder, first in a message ("snap vanilla proof") */
    char where[96];   /* what is being read, set by the caller ("challenge 3: proof_r_old") */
    cz_errinfo *ei;
    int rc; /* the first error, CZ_OK until then */
} cz__bincode_reader;

void cz__bincode_reader_init(cz__bincode_reader *r, const uint8_t *p, size_t len, const char *name,
                             cz_errinfo *ei);
/* Records an error at byte at (the first only); returns -1. */
int cz__bincode_fail(cz__bincode_reader *r, int code, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* 0, or -1 with the error recorded (item names the value in the message). */
int cz__bincode_u64(cz__bincode_reader *r, uint64_t *v, const char *item);
int cz__bincode_u32(cz__bincode_reader *r, uint32_t *v, const char *item);
/* A length that must be want. */
int cz__bincode_count(cz__bincode_reader *r, uint64_t want, const char *item);
int cz__bincode_fr(cz__bincode_reader *r, cz_bls12381_fr *v, const char *item);
/* A MerkleProof of a tree of shape with nlevels levels (its tag from the shape) into mp. */
int cz__bincode_merkle(cz__bincode_reader *r, cz__merkle_proof *mp, const cz__tree_shape *shape,
                       unsigned nlevels);
/* The whole input was read: no bytes left over. */
int cz__bincode_end(cz__bincode_reader *r);

/* Bytes go to p at `at`, or, with p NULL, are only counted. */
typedef struct cz__bincode_writer {
    uint8_t *p;
    size_t at;
} cz__bincode_writer;

void cz__bincode_put_bytes(cz__bincode_writer *w, const void *b, size_t n);
void cz__bincode_put_u64(cz__bincode_writer *w, uint64_t v);
void cz__bincode_put_u32(cz__bincode_writer *w, uint32_t v);
void cz__bincode_put_fr(cz__bincode_writer *w, const cz_bls12381_fr *v);
/* A MerkleProof of a tree of shape (its tag from the shape; NULL: Single, as tree D's). */
void cz__bincode_put_merkle(cz__bincode_writer *w, const cz__merkle_proof *m,
                            const cz__tree_shape *shape);

#endif
