// The seeded PRNG of the vector scripts (SplitMix64 over BigInt): the same vectors on every run,
// different streams for different seeds. Not a script of its own (the Makefile runs only
// tests/vectors/*.mjs).
const M64 = (1n << 64n) - 1n;

export function seededRng(seed) {
  let state = BigInt.asUintN(64, seed);
  function next64() {
    state = (state + 0x9e3779b97f4a7c15n) & M64;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    return z ^ (z >> 31n);
  }
  // A 512-bit draw reduced mod n: uniform below n up to a 2^-256 bias.
  function below(n) {
    let v = 0n;
    for (let i = 0; i < 8; i++) v = (v << 64n) | next64();
    return v % n;
  }
  return { next64, below };
}
