// noble-bench-field: the same field operations as cuzk-bench-field (mul, sqr, add, sub, inv on
// BLS12-381 Fp/Fr and BN254 Fp/Fr), measured with @noble/curves' bigint fields, as a chain of
// dependent operations. One JSON line per (op, field), "impl":"noble", ns = median over runs.
//   node bench/noble_bench_field.mjs [runs]
import { execSync } from "node:child_process";
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { bn254 } from "@noble/curves/bn254.js";

const runs = Number(process.argv[2] ?? 11);
let git = "unknown";
try {
  git = execSync("git rev-parse --short=12 HEAD", { stdio: ["ignore", "pipe", "ignore"] })
    .toString()
    .trim();
} catch {}

const fields = [
  ["bls12381_fp", bls12_381.fields.Fp],
  ["bls12381_fr", bls12_381.fields.Fr],
  ["bn254_fp", bn254.fields.Fp],
  ["bn254_fr", bn254.fields.Fr],
];
const ops = [
  ["mul", 100000, (F, x, y) => F.mul(x, y)],
  ["sqr", 100000, (F, x) => F.sqr(x)],
  ["add", 200000, (F, x, y) => F.add(x, y)],
  ["sub", 200000, (F, x, y) => F.sub(x, y)],
  ["inv", 2000, (F, x) => F.inv(x)],
];

// Deterministic pseudo-random field elements (xorshift64*), so runs are comparable.
let state = 0x9e3779b97f4a7c15n;
function rand(F) {
  let v = 0n;
  for (let i = 0; i < 8; i++) {
    state ^= state >> 12n;
    state ^= (state << 25n) & 0xffffffffffffffffn;
    state ^= state >> 27n;
    v = (v << 64n) | ((state * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn);
  }
  return F.create(v);
}

let sink = 0n;
for (const [name, F] of fields) {
  const x0 = rand(F), y = rand(F);
  for (const [op, iters, f] of ops) {
    const v = [];
    for (let r = 0; r < runs; r++) {
      let x = x0;
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < iters; i++) x = f(F, x, y);
      const t1 = process.hrtime.bigint();
      sink ^= x;
      v.push(Number(t1 - t0) / iters);
    }
    v.sort((a, b) => a - b);
    const med = v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    const r2 = (z) => Math.round(z * 100) / 100;
    console.log(JSON.stringify({ bench: "field", op, field: name, impl: "noble", ns: r2(med),
      min: r2(v[0]), max: r2(v[v.length - 1]), git }));
  }
}
if (sink === -1n) console.log("");
