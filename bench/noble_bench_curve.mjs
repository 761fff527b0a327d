// noble_bench_curve.mjs: ns per point addition, doubling and scalar multiplication in
// @noble/curves, for comparison with cuzk-bench-curve. One JSON line per result, like the C bench:
//   {"bench":"curve","impl":"noble","op":"g1_add","curve":"bls12381","ns":...,"min":...,"max":...}
// noble has no mixed (Jacobian + affine) addition: its points are projective and `add` is the
// complete projective formula (Renes–Costello–Batina), so "g1_add" here is the number to set
// against both cuzk's g1_add and g1_add_mixed; there is no "g1_add_mixed" line.
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { bn254 } from "@noble/curves/bn254.js";

const NREP = 9;
const groups = [
  ["bls12381", "g1", bls12_381.G1.Point],
  ["bls12381", "g2", bls12_381.G2.Point],
  ["bn254", "g1", bn254.G1.Point],
  ["bn254", "g2", bn254.G2.Point],
];

function measure(nops, fn) {
  const t = [];
  for (let r = 0; r < NREP; r++) {
    const t0 = process.hrtime.bigint();
    fn(nops);
    t.push(Number(process.hrtime.bigint() - t0) / nops);
  }
  t.sort((a, b) => a - b);
  return { ns: t[NREP >> 1], min: t[0], max: t[NREP - 1] };
}

function report(curve, op, m) {
  const f = (x) => Math.round(x * 10) / 10;
  console.log(
    JSON.stringify({ bench: "curve", impl: "noble", op, curve, ns: f(m.ns), min: f(m.min), max: f(m.max) }),
  );
}

let sink = 0;
for (const [curve, g, Point] of groups) {
  const pts = [];
  let acc = Point.BASE.multiply(5n);
  for (let i = 0; i < 256; i++) pts.push((acc = acc.add(Point.BASE)));
  const n = Point.Fn.ORDER;
  report(curve, `${g}_add`, measure(20000, (k) => {
    let a = pts[0];
    for (let i = 0; i < k; i++) a = a.add(pts[i & 255]);
    sink ^= Number(a.is0());
  }));
  report(curve, `${g}_dbl`, measure(20000, (k) => {
    let a = pts[0];
    for (let i = 0; i < k; i++) a = a.double();
    sink ^= Number(a.is0());
  }));
  report(curve, `${g}_mul`, measure(20, (k) => {
    let a = pts[1];
    for (let i = 0; i < k; i++) a = a.multiply((n * 7n) / 11n + BigInt(i));
    sink ^= Number(a.is0());
  }));
}
if (sink === 42) console.log("");
