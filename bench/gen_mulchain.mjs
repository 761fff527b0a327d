// Writes a multiplication-chain circuit of any size straight to .r1cs and .wtns, without circom
// (circom needs minutes and gigabytes at 2^18 constraints). The circuit is what circom would make
// of `x[i+1] <== x[i]*x[i] + b` with public output out = x[n], public input b, private input x0:
//   wires: 0 = 1, 1 = out, 2 = b, 3 = x0, 4.. = x1 .. x(n-1)
//   constraint i: (x_i) * (x_i) = (x_{i+1} - b)
// With n = 2^k - 3 constraints the Groth16 domain (constraints + public inputs + 1) is exactly 2^k.
//
// usage: node bench/gen_mulchain.mjs CURVE N OUT_PREFIX   (CURVE: bn128 | bls12381)
import fs from "node:fs";

const PRIMES = {
  bn128: 21888242871839275222246405745257275088548364400416034343698204186575808495617n,
  bls12381: 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n,
};
const [curve, nArg, prefix] = process.argv.slice(2);
const r = PRIMES[curve];
const n = Number(nArg);
if (!r || !(n >= 1) || !prefix) {
  console.error("usage: node gen_mulchain.mjs bn128|bls12381 N OUT_PREFIX");
  process.exit(2);
}

const n8 = 32;
function le(v, bytes = n8) {
  const b = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) {
    b[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return b;
}
const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); return b; };
const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); return b; };
const section = (id, payload) => Buffer.concat([u32(id), u64(payload.length), payload]);

// wire index of x_i
const x = (i) => (i === 0 ? 3 : i === n ? 1 : 3 + i);
const nWires = n + 3;
const one = le(1n), minusOne = le(r - 1n);
const term = (w, c) => Buffer.concat([u32(w), c]);

const header = Buffer.concat([u32(n8), le(r), u32(nWires), u32(1), u32(1), u32(1), u64(nWires), u32(n)]);
const cons = [];
for (let i = 0; i < n; i++) {
  cons.push(u32(1), term(x(i), one), u32(1), term(x(i), one));
  cons.push(u32(2), term(x(i + 1), one), term(2, minusOne));
}
const labels = Buffer.alloc(8 * nWires);
for (let w = 0; w < nWires; w++) labels.writeBigUInt64LE(BigInt(w), 8 * w);
const r1cs = Buffer.concat([
  Buffer.from("r1cs"), u32(1), u32(3),
  section(1, header), section(2, Buffer.concat(cons)), section(3, labels),
]);
fs.writeFileSync(`${prefix}.r1cs`, r1cs);

// Witness: x0 = 3, b = 7.
const b = 7n;
const w = new Array(nWires).fill(0n);
w[0] = 1n;
w[2] = b;
let xi = 3n;
w[x(0)] = xi;
for (let i = 1; i <= n; i++) {
  xi = (xi * xi + b) % r;
  w[x(i)] = xi;
}
const values = Buffer.concat(w.map((v) => le(v)));
const wtns = Buffer.concat([
  Buffer.from("wtns"), u32(2), u32(2),
  section(1, Buffer.concat([u32(n8), le(r), u32(nWires)])), section(2, values),
]);
fs.writeFileSync(`${prefix}.wtns`, wtns);
console.log(`${prefix}: ${curve} mulchain, ${n} constraints, ${nWires} wires`);
