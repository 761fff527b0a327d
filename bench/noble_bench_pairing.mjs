// The pairing benchmark of bench/cuzk_bench_pairing.c with @noble/curves, for comparison: Miller
// loop, final exponentiation and full pairing on the generators of both curves, one JSON line each
//   {"bench":"pairing","op":"pairing","curve":"bls12381","impl":"noble","ns":..,"min":..,"max":..}
// Usage: node bench/noble_bench_pairing.mjs [runs]   (default 9)
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { bn254 } from "@noble/curves/bn254.js";

const runs = Math.max(1, Number(process.argv[2] || 9));

function bench(curve, op, fn) {
  let iters = 0;
  const t0 = process.hrtime.bigint();
  while (Number(process.hrtime.bigint() - t0) < 2e8 || iters < 3) {
    fn();
    iters++;
  }
  const per = [];
  for (let r = 0; r < runs; r++) {
    const s = process.hrtime.bigint();
    for (let i = 0; i < iters; i++) fn();
    per.push(Number(process.hrtime.bigint() - s) / iters);
  }
  per.sort((a, b) => a - b);
  const ns = Math.round(per[runs >> 1]), min = Math.round(per[0]), max = Math.round(per[runs - 1]);
  console.log(JSON.stringify({ bench: "pairing", op, curve, impl: "noble", ns, min, max, iters }));
}

for (const [name, c] of [["bn254", bn254], ["bls12381", bls12_381]]) {
  const P = c.G1.Point.BASE, Q = c.G2.Point.BASE;
  const f = c.pairing(P, Q, false);
  bench(name, "miller_loop", () => c.pairing(P, Q, false));
  bench(name, "final_exp", () => c.fields.Fp12.finalExponentiate(f));
  bench(name, "pairing", () => c.pairing(P, Q));
}
