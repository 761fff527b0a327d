// Writes tower_vectors.txt into the directory argv[2]: random Fp6 and Fp12 operands of both curves
// with their product, square, inverse and Frobenius images, computed by @noble/curves.
//
// One case per line, every field element as decimal canonical Fp integers in tower order
// (Fp2 = c0 c1; Fp6 = c0 c1 c2; Fp12 = c0 c1):
//   <curve> fp6  a b a*b a^2 a^-1 frob1(a) .. frob5(a)               (10 Fp6 values)
//   <curve> fp12 a b a*b a^2 a^-1 frob1(a) frob2(a) frob3(a) frob6(a) (9 Fp12 values)
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { bn254 } from "@noble/curves/bn254.js";
import { seededRng } from "./lib/prng.mjs";

const { below: randMod } = seededRng(0x9e3779b97f4a7c15n);

const out = [];
for (const [name, c] of [["bn254", bn254], ["bls12381", bls12_381]]) {
  const { Fp, Fp2, Fp6, Fp12 } = c.fields;
  const p = Fp.ORDER;
  const r2 = () => Fp2.fromBigTuple([randMod(p), randMod(p)]);
  const r6 = () => ({ c0: r2(), c1: r2(), c2: r2() });
  const r12 = () => ({ c0: r6(), c1: r6() });
  const s2 = (x) => `${x.c0} ${x.c1}`;
  const s6 = (x) => `${s2(x.c0)} ${s2(x.c1)} ${s2(x.c2)}`;
  const s12 = (x) => `${s6(x.c0)} ${s6(x.c1)}`;
  for (let i = 0; i < 8; i++) {
    const a = r6(), b = r6();
    const v = [a, b, Fp6.mul(a, b), Fp6.sqr(a), Fp6.inv(a)];
    for (let k = 1; k <= 5; k++) v.push(Fp6.frobeniusMap(a, k));
    out.push(`${name} fp6 ${v.map(s6).join(" ")}`);
  }
  for (let i = 0; i < 8; i++) {
    const a = r12(), b = r12();
    const v = [a, b, Fp12.mul(a, b), Fp12.sqr(a), Fp12.inv(a)];
    for (const k of [1, 2, 3, 6]) v.push(Fp12.frobeniusMap(a, k));
    out.push(`${name} fp12 ${v.map(s12).join(" ")}`);
  }
}
const dir = process.argv[2] || "tests/vectors/out";
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "tower_vectors.txt"), out.join("\n") + "\n");
