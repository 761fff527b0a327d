pragma circom 2.0.0;

include "poseidon.circom";

// A chain of 4 Poseidon(2) hashes: out = H(H(H(H(a, b), b), b), b). Public: out; private: a, b.
template PoseidonChain(n) {
    signal input a;
    signal input b;
    signal output out;
    component h[n];
    for (var i = 0; i < n; i++) {
        h[i] = Poseidon(2);
        h[i].inputs[0] <== i == 0 ? a : h[i - 1].out;
        h[i].inputs[1] <== b;
    }
    out <== h[n - 1].out;
}

component main = PoseidonChain(4);
