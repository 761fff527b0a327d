/*
 * The Poseidon hash as a circuit: neptune v11's legacy circuit (circuit::poseidon_hash), the
 * one rust-fil-proofs' Poseidon trees synthesize (see poseidon_circuit.c for its rows).
 */
#ifndef CUZK_GADGETS_POSEIDON_CIRCUIT_H
#define CUZK_GADGETS_POSEIDON_CIRCUIT_H

#include "gadgets/num.h"
#include "gadgets/poseidon.h"

/* The hash of p->arity allocated numbers under tag, allocated; its value is the native hash's.
 * 3·arity + 4·(R_F - 1)·t + 4·R_P + 1 rows, as many new aux variables. */
cz__num cz__poseidon_circuit(cz__cs *cs, const cz__poseidon *p, const cz_bls12381_fr *tag,
                             const cz__num *preimage);
/* The same for n numbers under the MerkleTree tag of arity n (a tree node, a PoRep column,
 * hash2); an arity without constants is the system's error. */
cz__num cz__poseidon_merkle_circuit(cz__cs *cs, const cz__num *in, unsigned n);

#endif
