/*
 * Selection gadgets of rust-fil-proofs (storage-proofs-core/src/gadgets/insertion.rs), the
 * Merkle path's way of placing a node among its siblings, with the same allocations, rows and
 * order:
 *   pick(cond, a, b) = cond ? a : b: a new variable c and (b - a)·cond = b - c;
 *   select(from, bits): a binary tree of picks, the last bit first;
 *   insert(element, bits, elements): element placed at the index the bits give (least
 *   significant first) among the others; sizes 2, 4 and 8 by the hand-made networks of
 *   insert_2/4/8 (insert_8 first makes b0 nor b1 and b0 and b1), other powers of two by one
 *   select per position.
 * The bits of insert_8 must be allocated and not negated, as rust-fil-proofs requires (its
 * panic is the system's error here).
 */
#ifndef CUZK_GADGETS_INSERTION_H
#define CUZK_GADGETS_INSERTION_H

#include "gadgets/num.h"

cz__num cz__pick(cz__cs *cs, const cz__bool *cond, const cz__num *a, const cz__num *b);
/* from has 2^nbits elements. */
cz__num cz__select(cz__cs *cs, const cz__num *from, const cz__bool *bits, unsigned nbits);
/* out gets 2^nbits elements: elements (2^nbits - 1 of them) with element inserted. */
void cz__insert(cz__cs *cs, cz__num *out, const cz__num *element, const cz__bool *bits,
                unsigned nbits, const cz__num *elements);

#endif
