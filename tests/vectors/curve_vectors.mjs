// Curve test vectors from @noble/curves (the independent oracle for tests/curve/*.c).
//
// Usage: node tests/vectors/curve_vectors.mjs OUTDIR   -> writes OUTDIR/curve_vectors.txt
//
// Deterministic: scalars come from a seeded SplitMix64 stream, never Math.random. One record per
// line, fields separated by spaces; integers in decimal; a point is "inf" or its affine
// coordinates joined by commas (G1 "x,y", G2 "x.c0,x.c1,y.c0,y.c1"):
//   gmul  CURVE G K P          [K]G = P (G the standard generator)
//   add   CURVE G P Q R        P + Q = R
//   dbl   CURVE G P R          2P = R
//   pmul  CURVE G P K R        [K]P = R
//   zc    G P COMP UNCOMP      BLS12-381 zcash encodings (hex) of P from noble's toBytes
//   nosub CURVE G P            P is on the curve but not in the prime-order subgroup
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { bn254 } from "@noble/curves/bn254.js";
import { seededRng } from "./lib/prng.mjs";

const outdir = process.argv[2];
if (!outdir) {
  console.error("usage: node curve_vectors.mjs OUTDIR");
  process.exit(2);
}

const { below: randScalar } = seededRng(0x6375_7a6b_6375_7276n); // "cuzkcurv"

const hex = (b) => Buffer.from(b).toString("hex");
function pt(P, isG2) {
  if (P.is0()) return "inf";
  const { x, y } = P.toAffine();
  return (isG2 ? [x.c0, x.c1, y.c0, y.c1] : [x, y]).map(String).join(",");
}

const groups = [
  ["bls12381", "g1", bls12_381.G1.Point],
  ["bls12381", "g2", bls12_381.G2.Point],
  ["bn254", "g1", bn254.G1.Point],
  ["bn254", "g2", bn254.G2.Point],
];

const lines = [];
const NRAND = 8;
for (const [curve, g, Point] of groups) {
  const isG2 = g === "g2";
  const n = Point.Fn.ORDER;
  const G = Point.BASE;
  const mul = (P, k) => P.multiplyUnsafe(k); // accepts 0
  const edge = [0n, 1n, 2n, n - 1n, n - 2n];
  for (const k of edge) lines.push(`gmul ${curve} ${g} ${k} ${pt(mul(G, k), isG2)}`);
  for (let i = 0; i < NRAND; i++) {
    const a = randScalar(n), b = randScalar(n), k = randScalar(n);
    const P = mul(G, a), Q = mul(G, b);
    lines.push(`gmul ${curve} ${g} ${a} ${pt(P, isG2)}`);
    lines.push(`add ${curve} ${g} ${pt(P, isG2)} ${pt(Q, isG2)} ${pt(P.add(Q), isG2)}`);
    lines.push(`add ${curve} ${g} ${pt(P, isG2)} ${pt(P, isG2)} ${pt(P.add(P), isG2)}`);
    lines.push(`add ${curve} ${g} ${pt(P, isG2)} ${pt(P.negate(), isG2)} inf`);
    lines.push(`dbl ${curve} ${g} ${pt(P, isG2)} ${pt(P.double(), isG2)}`);
    for (const kk of [k, 0n, 1n, n - 1n])
      lines.push(`pmul ${curve} ${g} ${pt(P, isG2)} ${kk} ${pt(mul(P, kk), isG2)}`);
    if (curve === "bls12381") {
      lines.push(`zc ${g} ${pt(P, isG2)} ${hex(P.toBytes(true))} ${hex(P.toBytes(false))}`);
    }
  }
  if (curve === "bls12381") {
    // More encodings: the sign bit of an Fp2 y (c1 decides unless zero) needs many samples.
    for (let i = 0; i < 24; i++) {
      const P = mul(G, randScalar(n));
      lines.push(`zc ${g} ${pt(P, isG2)} ${hex(P.toBytes(true))} ${hex(P.toBytes(false))}`);
    }
  }
  if (curve === "bls12381")
    lines.push(`zc ${g} inf ${hex(Point.ZERO.toBytes(true))} ${hex(Point.ZERO.toBytes(false))}`);

  // Points on the curve outside the subgroup (none exist for BN254 G1, cofactor 1): the first
  // few x = x0 + t (t = 1, 2, ...) with x³ + b a square, for G2 x0 = t·(1 + u).
  if (curve === "bn254" && g === "g1") continue;
  const Fp = Point.Fp;
  const b = Point.CURVE().b;
  let found = 0;
  for (let t = 1n; found < 3 && t < 1000n; t++) {
    const x = isG2 ? Fp.create({ c0: t, c1: t + 1n }) : Fp.create(t);
    const y2 = Fp.add(Fp.mul(Fp.sqr(x), x), b);
    let y;
    try {
      y = Fp.sqrt(y2);
    } catch {
      continue;
    }
    if (!Fp.eql(Fp.sqr(y), y2)) continue;
    const P = Point.fromAffine({ x, y });
    const killed = P.multiplyUnsafe(n - 1n).add(P).is0();
    if (killed || P.isTorsionFree()) continue;
    lines.push(`nosub ${curve} ${g} ${pt(P, isG2)}`);
    found++;
  }
  if (found < 3) throw new Error(`no non-subgroup points found for ${curve} ${g}`);
}

mkdirSync(outdir, { recursive: true });
writeFileSync(join(outdir, "curve_vectors.txt"), lines.join("\n") + "\n");
console.log(`curve_vectors.txt: ${lines.length} records`);
