pragma circom 2.0.0;

// Interop test circuit: circomlib's Poseidon(2) applied M times, h[i+1] = Poseidon(h[i], salt).
// circomlib's round constants are the BN254 ones; compiled with --prime bls12381 the circuit is
// still well formed (every constant is below the BLS12-381 scalar field order), it is just not
// a standard hash there. Public: the output out and the input salt; private: seed.
include "poseidon.circom";

template PoseidonChain(M) {
    signal input seed;
    signal input salt;
    signal output out;
    component h[M];
    for (var i = 0; i < M; i++) {
        h[i] = Poseidon(2);
        h[i].inputs[0] <== i == 0 ? seed : h[i - 1].out;
        h[i].inputs[1] <== salt;
    }
    out <== h[M - 1].out;
}

component main {public [salt]} = PoseidonChain(3);
