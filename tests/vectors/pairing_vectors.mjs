// Writes pairing_vectors.txt into the directory argv[2]: pairings and pairing-product checks of
// both curves computed by @noble/curves, with a seeded PRNG (deterministic).
//
// Decimal canonical integers; G1 point = x y, G2 point = x.c0 x.c1 y.c0 y.c1, infinity = zeros;
// Fp12 = 12 Fp in tower order (c0.c0.c0 c0.c0.c1 c0.c1.c0 ... c1.c2.c1). One record per line:
//   <curve> gen <G1> <G2> <e(G1,G2)>
//   <curve> pair <a> <b> <aG1> <bG2> <e(aG1,bG2)>
//   <curve> check <expected 0|1> <n> <G1 G2> x n
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { bn254 } from "@noble/curves/bn254.js";
import { seededRng } from "./lib/prng.mjs";

const rng = seededRng(0x243f6a8885a308d3n);
const randMod = (n) => rng.below(n - 1n) + 1n; // non-zero

const out = [];
for (const [name, c] of [["bn254", bn254], ["bls12381", bls12_381]]) {
  const { Fp12 } = c.fields;
  const r = c.fields.Fr.ORDER;
  const G1 = c.G1.Point.BASE, G2 = c.G2.Point.BASE;
  const mod = (x) => ((x % r) + r) % r;
  const s1p = (P) => {
    if (P.equals(c.G1.Point.ZERO)) return "0 0";
    const a = P.toAffine();
    return `${a.x} ${a.y}`;
  };
  const s2p = (Q) => {
    if (Q.equals(c.G2.Point.ZERO)) return "0 0 0 0";
    const a = Q.toAffine();
    return `${a.x.c0} ${a.x.c1} ${a.y.c0} ${a.y.c1}`;
  };
  const s6 = (x) => [x.c0, x.c1, x.c2].map((e) => `${e.c0} ${e.c1}`).join(" ");
  const s12 = (x) => `${s6(x.c0)} ${s6(x.c1)}`;
  const g1 = (k) => G1.multiply(mod(k));
  const g2 = (k) => G2.multiply(mod(k));

  out.push(`${name} gen ${s1p(G1)} ${s2p(G2)} ${s12(c.pairing(G1, G2))}`);
  for (let i = 0; i < 3; i++) {
    const a = randMod(r), b = randMod(r);
    const P = g1(a), Q = g2(b);
    out.push(`${name} pair ${a} ${b} ${s1p(P)} ${s2p(Q)} ${s12(c.pairing(P, Q))}`);
  }

  const check = (pairs) => {
    const live = pairs.filter(([P, Q]) => !P.equals(c.G1.Point.ZERO) && !Q.equals(c.G2.Point.ZERO));
    const v = live.length ? c.pairingBatch(live.map(([g1p, g2p]) => ({ g1: g1p, g2: g2p }))) : Fp12.ONE;
    const ok = Fp12.eql(v, Fp12.ONE) ? 1 : 0;
    out.push(`${name} check ${ok} ${pairs.length} ${pairs.map(([P, Q]) => `${s1p(P)} ${s2p(Q)}`).join(" ")}`);
    return ok;
  };
  // e(aP, bQ) · e(-abP, Q) = 1, and with -ab+1 it fails.
  {
    const a = randMod(r), b = randMod(r), p = randMod(r), q = randMod(r);
    const P = g1(p), Q = g2(q);
    if (check([[P.multiply(a), Q.multiply(b)], [P.multiply(mod(a * b)).negate(), Q]]) !== 1) throw new Error("check");
    if (check([[P.multiply(a), Q.multiply(b)], [P.multiply(mod(a * b + 1n)).negate(), Q]]) !== 0) throw new Error("check");
  }
  // Groth16-shaped: e(A,B) · e(-α,β) · e(-L,γ) · e(-C,δ) = 1 with ab = αβ + lγ + cδ.
  for (let i = 0; i < 2; i++) {
    const a = randMod(r), b = randMod(r), al = randMod(r), be = randMod(r);
    const ga = randMod(r), de = randMod(r), l = randMod(r);
    const cc = mod((a * b - al * be - l * ga) * c.fields.Fr.inv(de));
    const pairs = [
      [g1(a), g2(b)], [g1(al).negate(), g2(be)], [g1(l).negate(), g2(ga)], [g1(cc).negate(), g2(de)],
    ];
    if (check(pairs) !== 1) throw new Error("groth16 check");
    // One element changed: C + G1, then β replaced by β + 1.
    const bad1 = pairs.slice(); bad1[3] = [g1(cc + 1n).negate(), g2(de)];
    const bad2 = pairs.slice(); bad2[1] = [g1(al).negate(), g2(be + 1n)];
    if (check(bad1) !== 0 || check(bad2) !== 0) throw new Error("groth16 bad");
    // Infinity pairs contribute 1.
    check([...pairs, [c.G1.Point.ZERO, g2(7n)], [g1(5n), c.G2.Point.ZERO]]);
  }
  // Nine pairs (more than one chunk of eight): Σ e(a_i G1, G2) with Σ a_i = 0.
  {
    const ks = [];
    for (let i = 0; i < 8; i++) ks.push(randMod(r));
    ks.push(mod(-ks.reduce((x, y) => x + y, 0n)));
    check(ks.map((k, i) => (i % 2 ? [G1, g2(k)] : [g1(k), G2])));
  }
}
const dir = process.argv[2] || "tests/vectors/out";
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "pairing_vectors.txt"), out.join("\n") + "\n");
