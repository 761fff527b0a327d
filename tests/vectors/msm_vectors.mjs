// MSM test vectors from @noble/curves' pippenger (the independent oracle for tests/msm/test_msm.c).
//
// Usage: node tests/vectors/msm_vectors.mjs OUTDIR   -> writes OUTDIR/msm_vectors.txt
//
// Deterministic: every scalar comes from a seeded SplitMix64 stream, never Math.random. For each
// group, one case of N = 256 terms; bases are [k]G for random k, with a few infinity points, a
// repeated base and a negated base mixed in; scalars are random in Fr with 0, 1, r - 1, small and
// repeated values mixed in. Format (fields separated by spaces, integers in decimal, a point is
// "inf" or its affine coordinates joined by commas: G1 "x,y", G2 "x.c0,x.c1,y.c0,y.c1"):
//   msm CURVE G N
//   N lines "P K"        base and scalar (0 <= K < r)
//   res R                Σ [K]P computed by noble's pippenger
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pippenger } from "@noble/curves/abstract/curve.js";
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { bn254 } from "@noble/curves/bn254.js";
import { seededRng } from "./lib/prng.mjs";

const outdir = process.argv[2];
if (!outdir) {
  console.error("usage: node msm_vectors.mjs OUTDIR");
  process.exit(2);
}

const { next64, below: randBelow } = seededRng(0x6375_7a6b_6d73_6d76n); // "cuzkmsmv"

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

const N = 256;
const lines = [];
for (const [curve, g, Point] of groups) {
  const isG2 = g === "g2";
  const r = Point.Fn.ORDER;
  const points = [];
  const scalars = [];
  for (let i = 0; i < N; i++) {
    let P;
    if (i % 37 === 5) P = Point.ZERO; // infinity bases
    else if (i % 41 === 7) P = points[i - 1]; // a repeated base
    else if (i % 43 === 9) P = points[i - 2].negate(); // a negated base
    else P = Point.BASE.multiply(randBelow(r - 1n) + 1n);
    let k;
    if (i % 29 === 3) k = 0n;
    else if (i % 31 === 4) k = 1n;
    else if (i % 47 === 6) k = r - 1n;
    else if (i % 23 === 8) k = next64() & 0xffffn; // small
    else if (i % 19 === 10) k = scalars[i - 1]; // repeated
    else k = randBelow(r);
    points.push(P);
    scalars.push(k);
  }
  const res = pippenger(Point, points, scalars);
  lines.push(`msm ${curve} ${g} ${N}`);
  for (let i = 0; i < N; i++) lines.push(`${pt(points[i], isG2)} ${scalars[i]}`);
  lines.push(`res ${pt(res, isG2)}`);
}

mkdirSync(outdir, { recursive: true });
writeFileSync(join(outdir, "msm_vectors.txt"), lines.join("\n") + "\n");
