/*
 * SHA-256 in a constraint system, as bellperson's gadgets/sha256.rs: the compression function
 * over UInt32 words (uint32.h) with bellperson's order of allocations and constraints, and the
 * hash of a bit string with its padding as constants.
 *
 * The order, which the recorded matrices depend on: the message schedule first (w16..w63, each
 * s0's two xors, s1's two xors, then the addmany of four words); then per round the deferred
 * addmany of e (6 operands: h, S1, ch, K, w of the last round and d), S1's two xors, ch, the
 * deferred addmany of a (7 operands), S0's two xors, maj; then h0 = a + H0 (the deferred sum with
 * H0: 8 operands), h1..h3, h4 = e + H4 (7 operands), h5..h7; then the MultiEq's last flush. One
 * MultiEq serves a whole compression. Constants fold: the first round's e and a are the input
 * hash value's words, and a block of constant bits costs no constraint at all.
 *
 * Published counts (bellperson's tests, checked by tests/gadgets/test_sha256.c): 25,840
 * constraints for one compression of 512 allocated bits from the IV, 44,874 for the hash of 512
 * allocated bits (two blocks, the second all padding).
 */
#ifndef CUZK_GADGETS_SHA256_H
#define CUZK_GADGETS_SHA256_H

#include "gadgets/num.h"
#include "gadgets/uint32.h"

/* out = the compression of the 512 bits in (most significant bit of word 0 first) into cur. */
void cz__sha256_compress(cz__cs *cs, cz__u32 out[8], const cz__bool in[512], const cz__u32 cur[8]);
/* The 256 bits of SHA-256(in), in is nbits bits (a multiple of 8), most significant first:
 * padded with a one, zeros and the 64-bit length as constants, each block compressed in turn. */
void cz__sha256(cz__cs *cs, cz__bool out[256], const cz__bool *in, size_t nbits);
/* One compression from the IV without padding (sha256_block_no_padding), 512 bits in. */
void cz__sha256_block(cz__cs *cs, cz__bool out[256], const cz__bool in[512]);

/* rust-fil-proofs' SHA-256 tree node of n children (Sha256Function::hash_multi_leaf_circuit):
 * each child through to_bits_le, padded to 256 bits and renumbered within each byte (its
 * little-endian bytes), SHA-256 of them all, the digest renumbered and its first 254 bits packed
 * (pack_bits). Natively: SHA-256 of the children's 32-byte encodings with the top two bits of the
 * last byte cleared (trim_to_fr32). */
cz__num cz__sha256_node_circuit(cz__cs *cs, const cz__num *children, size_t n);

#endif
