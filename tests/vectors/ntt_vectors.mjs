// NTT test vectors from plain BigInt arithmetic: the O(n²) DFT over each evaluation domain, the
// independent oracle for tests/ntt/test_ntt.c (cuzk/ntt.h, cz_ntt_roots).
//
// Usage: node tests/vectors/ntt_vectors.mjs OUTDIR   -> writes OUTDIR/ntt_vectors.txt
//
// The domains, from their definitions (nothing here is computed by cuzk or by a library):
//   bellperson (blstrs, BLS12-381 only): w[32] = 7^((r-1) / 2^32), coset generator 7;
//   snarkjs (ffjavascript, both curves): w[s] = 5^((r-1) / 2^s), coset generator w[k+1], or 25
//   when k = s;
// and w[k] = w[k+1]^2, ω = w[k] for the domain of size n = 2^k. Deterministic inputs (a seeded
// SplitMix64 stream). Format, every field element as 64 hex digits (canonical, big-endian):
//   root CURVE ROOTS K W G Z     for K = 0 .. s: w[K], the coset generator g of 2^K and
//                                z = g^(2^K) - 1 (x^n - 1 on the coset)
//   dft CURVE ROOTS K            then 2^K lines "a F I CF CI" for j = 0 .. 2^K - 1:
//     F[j]  = Σ_i a[i]·ω^(ij)               (forward)
//     I[j]  = n⁻¹·Σ_i a[i]·ω^(-ij)          (inverse)
//     CF[j] = Σ_i a[i]·g^i·ω^(ij)           (coset forward)
//     CI[j] = g^(-j)·n⁻¹·Σ_i a[i]·ω^(-ij)   (coset inverse)
//   for K = 0 .. 8.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { seededRng } from "./lib/prng.mjs";

const outdir = process.argv[2];
if (!outdir) {
  console.error("usage: node ntt_vectors.mjs OUTDIR");
  process.exit(2);
}

const { below: randBelow } = seededRng(0x6375_7a6b_6e74_7476n); // "cuzknttv"

// The scalar fields' moduli (published) and the 2-adicity of r - 1.
const fields = {
  bn254: { r: 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n, s: 28 },
  bls12381: { r: 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n, s: 32 },
};

function powmod(b, e, m) {
  let acc = 1n;
  b %= m;
  while (e > 0n) {
    if (e & 1n) acc = (acc * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  return acc;
}
const inv = (x, m) => powmod(x, m - 2n, m); // m prime
const hex = (x) => x.toString(16).padStart(64, "0");

// w[0..s] and the coset generator of each size, for one domain.
function domain(curve, roots) {
  const { r, s } = fields[curve];
  const base = roots === "bellperson" ? 7n : 5n;
  const w = new Array(s + 1);
  w[s] = powmod(base, (r - 1n) >> BigInt(s), r);
  for (let k = s - 1; k >= 0; k--) w[k] = (w[k + 1] * w[k + 1]) % r;
  if (w[0] !== 1n || w[1] !== r - 1n) throw new Error(`${curve} ${roots}: w[s] has the wrong order`);
  const gen = (k) => (roots === "bellperson" ? 7n : k === s ? 25n : w[k + 1]);
  return { r, s, w, gen };
}

// out[j] = scale·c^j · Σ_i a[i]·(x^i)·ω^(ij) for ω = wk: the O(n²) definition.
function dft(a, wk, x, c, scale, r) {
  const n = a.length;
  const out = new Array(n);
  let wj = 1n; // ω^j
  let cj = scale; // scale·c^j
  for (let j = 0; j < n; j++) {
    let acc = 0n;
    let t = 1n; // (x·ω^j)^i
    const step = (x * wj) % r;
    for (let i = 0; i < n; i++) {
      acc = (acc + a[i] * t) % r;
      t = (t * step) % r;
    }
    out[j] = (acc * cj) % r;
    wj = (wj * wk) % r;
    cj = (cj * c) % r;
  }
  return out;
}

const lines = [];
const cases = [
  ["bls12381", "bellperson"],
  ["bls12381", "snarkjs"],
  ["bn254", "snarkjs"],
];
for (const [curve, roots] of cases) {
  const { r, s, w, gen } = domain(curve, roots);
  for (let k = 0; k <= s; k++) {
    const g = gen(k);
    const z = (powmod(g, 1n << BigInt(k), r) - 1n + r) % r;
    lines.push(`root ${curve} ${roots} ${k} ${hex(w[k])} ${hex(g)} ${hex(z)}`);
  }
  for (let k = 0; k <= 8; k++) {
    const n = 1 << k;
    const g = gen(k);
    const wk = w[k];
    const wkInv = inv(wk, r);
    const nInv = inv(BigInt(n), r);
    const a = Array.from({ length: n }, () => randBelow(r));
    const fwd = dft(a, wk, 1n, 1n, 1n, r);
    const ifwd = dft(a, wkInv, 1n, 1n, nInv, r);
    const cfwd = dft(a, wk, g, 1n, 1n, r);
    const cinv = dft(a, wkInv, 1n, inv(g, r), nInv, r);
    lines.push(`dft ${curve} ${roots} ${k}`);
    for (let j = 0; j < n; j++)
      lines.push([a[j], fwd[j], ifwd[j], cfwd[j], cinv[j]].map(hex).join(" "));
  }
}

mkdirSync(outdir, { recursive: true });
writeFileSync(join(outdir, "ntt_vectors.txt"), lines.join("\n") + "\n");
console.log(`ntt_vectors: ${lines.length} lines`);
