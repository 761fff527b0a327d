// bellperson's Groth16 files written by @noble/curves (the independent oracle for
// tests/formats/test_bellperson.c): a verifying key, two parameter files and a file of two valid
// proofs, from known scalars, with noble's own point serialization.
//
// Usage: node tests/vectors/bellperson_vectors.mjs OUTDIR   -> OUTDIR/bellperson/:
//   small.vk        alpha_g1 beta_g1 beta_g2 gamma_g2 delta_g1 delta_g2 | u32 BE nIC | IC
//   small.params    small.vk's bytes, then H, L, A, B_G1 (G1) and B_G2 (G2): u32 BE count, points
//   nob.params      the same key with empty B_G1 and B_G2 (a circuit whose B is all zero)
//   proofs.bin      two 192-byte proofs (compressed A | B | C), one per partition, valid for
//                   small.vk and the public inputs in the JSON
//   bellperson.json the field primes p and r, every point as affine decimal coordinates (G1 [x, y], G2 [x.c0, x.c1, y.c0,
//                   y.c1]), the public inputs, and uncompressed encodings of a G1 and a G2 point
//                   on the curve but outside the prime-order subgroup, and an x of each group
//                   that no point has (for the bad-file tests)
//
// Deterministic: scalars come from the seeded SplitMix64 stream. The proofs are made with the
// trapdoor: with A = a·G1, B = b·G2, vk_x = x·G1, C = c·G1 where c = (ab - αβ - xγ)/δ, the
// Groth16 equation e(A, B) = e(α, β)·e(vk_x, γ)·e(C, δ) holds; noble's pairing checks it here.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { seededRng } from "./lib/prng.mjs";

const outdir = process.argv[2];
if (!outdir) {
  console.error("usage: node bellperson_vectors.mjs OUTDIR");
  process.exit(2);
}
const dir = join(outdir, "bellperson");
mkdirSync(dir, { recursive: true });

const rng = seededRng(0x6265_6c6c_7065_7273n); // "bellpers"
const G1 = bls12_381.G1.Point, G2 = bls12_381.G2.Point;
const { Fp12 } = bls12_381.fields;
const r = G1.Fn.ORDER;
const mod = (x) => ((x % r) + r) % r;
const scalar = () => rng.below(r - 1n) + 1n; // non-zero: no point is infinity
const inv = (x) => {
  // x^(r-2) mod r (Fermat)
  let res = 1n, b = mod(x), e = r - 2n;
  while (e > 0n) {
    if (e & 1n) res = (res * b) % r;
    b = (b * b) % r;
    e >>= 1n;
  }
  return res;
};

const g1 = (k) => G1.BASE.multiply(k);
const g2 = (k) => G2.BASE.multiply(k);
const c1 = (P) => {
  const { x, y } = P.toAffine();
  return [String(x), String(y)];
};
const c2 = (P) => {
  const { x, y } = P.toAffine();
  return [x.c0, x.c1, y.c0, y.c1].map(String);
};
const u32be = (n) => Buffer.from([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const raw = (P) => Buffer.from(P.toBytes(false)); // noble's uncompressed zcash encoding
const comp = (P) => Buffer.from(P.toBytes(true));

// The verifying key.
const sc = { alpha: scalar(), beta: scalar(), gamma: scalar(), delta: scalar() };
const ic = [scalar(), scalar(), scalar()]; // 2 public inputs + ONE
const vk = {
  alpha_g1: g1(sc.alpha), beta_g1: g1(sc.beta), beta_g2: g2(sc.beta),
  gamma_g2: g2(sc.gamma), delta_g1: g1(sc.delta), delta_g2: g2(sc.delta),
  ic: ic.map(g1),
};
const vkBytes = Buffer.concat([
  raw(vk.alpha_g1), raw(vk.beta_g1), raw(vk.beta_g2), raw(vk.gamma_g2), raw(vk.delta_g1),
  raw(vk.delta_g2), u32be(vk.ic.length), ...vk.ic.map(raw),
]);

// Two parameter files: counts chosen to differ from each other, and empty B sections.
function params(counts) {
  const pts = {};
  for (const [name, n] of Object.entries(counts))
    pts[name] = Array.from({ length: n }, () => (name === "b_g2" ? g2 : g1)(scalar()));
  const order = ["h", "l", "a", "b_g1", "b_g2"];
  const bytes = Buffer.concat([
    vkBytes, ...order.flatMap((s) => [u32be(pts[s].length), ...pts[s].map(raw)]),
  ]);
  const json = Object.fromEntries(order.map((s) => [s, pts[s].map(s === "b_g2" ? c2 : c1)]));
  return { bytes, json };
}
const small = params({ h: 7, l: 5, a: 6, b_g1: 4, b_g2: 3 });
const nob = params({ h: 3, l: 2, a: 3, b_g1: 0, b_g2: 0 });

// Proofs for two partitions, each with its own public inputs.
const proofs = [];
for (let k = 0; k < 2; k++) {
  const pub = [scalar(), scalar()];
  const x = mod(ic[0] + pub[0] * ic[1] + pub[1] * ic[2]);
  const a = scalar(), b = scalar();
  const c = mod((a * b - sc.alpha * sc.beta - x * sc.gamma) * inv(sc.delta));
  const A = g1(a), B = g2(b), C = g1(c);
  // The oracle's own check of the equation, with the key's points.
  const lhs = bls12_381.pairing(A, B);
  const rhs = Fp12.mul(
    Fp12.mul(bls12_381.pairing(vk.alpha_g1, vk.beta_g2), bls12_381.pairing(g1(x), vk.gamma_g2)),
    bls12_381.pairing(C, vk.delta_g2));
  if (!Fp12.eql(lhs, rhs)) throw new Error(`proof ${k} does not verify`);
  proofs.push({ A, B, C, pub });
}
const proofBytes = Buffer.concat(proofs.map((p) => Buffer.concat([comp(p.A), comp(p.B), comp(p.C)])));
if (proofBytes.length !== 2 * 192) throw new Error("a proof is 192 bytes");

// Points on the curve outside the subgroup: the first x = t (G1) or t·(1 + u) + u (G2) with a y,
// not killed by r. Encoded by hand (big-endian x then y; Fp2 as c1 then c0), since they are not
// points noble serializes.
function nosub(Point, isG2) {
  const Fp = Point.Fp, b = Point.CURVE().b;
  const be = (v) => Buffer.from(v.toString(16).padStart(96, "0"), "hex");
  for (let t = 1n; t < 1000n; t++) {
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
    if (P.isTorsionFree()) continue;
    const parts = isG2 ? [x.c1, x.c0, y.c1, y.c0] : [x, y];
    return Buffer.concat(parts.map(be)).toString("hex");
  }
  throw new Error("no point outside the subgroup");
}

// An x with no point on the curve (x³ + b not a square), big-endian (Fp2: c1 then c0).
function nocurve(Point, isG2) {
  const Fp = Point.Fp, b = Point.CURVE().b;
  const be = (v) => Buffer.from(v.toString(16).padStart(96, "0"), "hex");
  for (let t = 1n; t < 1000n; t++) {
    const x = isG2 ? Fp.create({ c0: t, c1: t }) : Fp.create(t);
    const y2 = Fp.add(Fp.mul(Fp.sqr(x), x), b);
    let square = true;
    try {
      square = Fp.eql(Fp.sqr(Fp.sqrt(y2)), y2);
    } catch {
      square = false;
    }
    if (!square) return Buffer.concat((isG2 ? [x.c1, x.c0] : [x]).map(be)).toString("hex");
  }
  throw new Error("every x has a point");
}

const json = {
  p: String(G1.Fp.ORDER),
  r: String(r),
  vk: {
    alpha_g1: c1(vk.alpha_g1), beta_g1: c1(vk.beta_g1), beta_g2: c2(vk.beta_g2),
    gamma_g2: c2(vk.gamma_g2), delta_g1: c1(vk.delta_g1), delta_g2: c2(vk.delta_g2),
    ic: vk.ic.map(c1),
  },
  small: small.json,
  nob: nob.json,
  proofs: proofs.map((p) => ({ a: c1(p.A), b: c2(p.B), c: c1(p.C), public: p.pub.map(String) })),
  nosub_g1: nosub(G1, false),
  nosub_g2: nosub(G2, true),
  nocurve_x_g1: nocurve(G1, false),
  nocurve_x_g2: nocurve(G2, true),
};

writeFileSync(join(dir, "small.vk"), vkBytes);
writeFileSync(join(dir, "small.params"), small.bytes);
writeFileSync(join(dir, "nob.params"), nob.bytes);
writeFileSync(join(dir, "proofs.bin"), proofBytes);
writeFileSync(join(dir, "bellperson.json"), JSON.stringify(json, null, 1) + "\n");
console.log(`bellperson: small.vk ${vkBytes.length} B, small.params ${small.bytes.length} B, ` +
  `nob.params ${nob.bytes.length} B, proofs.bin ${proofBytes.length} B`);
