pragma circom 2.0.0;

// Interop test circuit: a chain of squarings x[i+1] = x[i]^2 + b (N quadratic constraints) plus
// two linear constraints, which circom keeps at its default -O1 (rows with empty A and B, and
// signals with no A/B terms, i.e. points at infinity in the proving key).
// Public: the output out and the inputs b, c; private: a.
template MulChain(N) {
    signal input a;
    signal input b;
    signal input c;
    signal output out;
    signal x[N + 1];
    signal t;
    signal u;
    x[0] <== a;
    for (var i = 0; i < N; i++) {
        x[i + 1] <== x[i] * x[i] + b;
    }
    t <== 3 * x[N \ 2] + 5 * x[N] + c;
    u <== t - 7 * x[1];
    out <== u * x[N - 1];
}

component main {public [b, c]} = MulChain(300);
