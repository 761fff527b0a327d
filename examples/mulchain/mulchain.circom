pragma circom 2.0.0;

// x_{i+1} = x_i * x_i + b for n steps. Public: b and the output; private: the start value x_0.
template MulChain(n) {
    signal input x0;
    signal input b;
    signal output out;
    signal x[n + 1];
    x[0] <== x0;
    for (var i = 0; i < n; i++) {
        x[i + 1] <== x[i] * x[i] + b;
    }
    out <== x[n];
}

component main {public [b]} = MulChain(200);
