// Self-test of the bellperson-format oracle (tests/interop/bellperson_verify.mjs): a toy Groth16
// instance made here, in JS alone, with known discrete logs. With a random trapdoor α, β, γ, δ,
// random IC scalars ic_i and, per partition, random a, b and inputs x: A = a·G1, B = b·G2 and
// C = c·G1 with c = (a·b − α·β − (ic_0 + Σ x_i·ic_i)·γ) / δ, so that e(A, B) = e(α, β) ·
// e(vk_x, γ) · e(C, δ) holds by construction. The files are written with @noble/curves' own
// zcash encoder (toBytes), so the oracle's decoder is checked against another implementation.
//
//   node tests/interop/bellperson_verify_selftest.mjs <scratch dir>
//
// The oracle must accept the instance (as a module and as a program, exit 0) and decode every
// point as noble does; it must reject, with exit 1, well-formed copies whose equation fails (a
// point moved, A negated by its sign bit, C of another partition, an input changed, γ and δ
// swapped in the key) and, with exit 2, malformed ones (a damaged coordinate, a non-canonical x,
// a point outside the subgroup, a proof point at infinity, wrong flags, lengths or counts, an
// input >= r or not a decimal string). Ends with "N passed, N failed".
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { decodeG1, decodeG2, verifyFiles } from "./bellperson_verify.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const oracle = join(here, "bellperson_verify.mjs");
const scratch = process.argv[2];
if (!scratch) {
  console.error("usage: node bellperson_verify_selftest.mjs <scratch dir>");
  process.exit(2);
}
mkdirSync(scratch, { recursive: true });

const { Fp, Fr } = bls12_381.fields;
const r = Fr.ORDER;
const G1 = bls12_381.G1.Point, G2 = bls12_381.G2.Point;
const rand = () => {
  for (;;) {
    const v = BigInt("0x" + randomBytes(40).toString("hex")) % r;
    if (v !== 0n) return v;
  }
};
const g1 = (k) => G1.BASE.multiply(k);
const g2 = (k) => G2.BASE.multiply(k);

let passed = 0, failed = 0;
const check = (ok, what) => {
  if (ok) passed++;
  else {
    failed++;
    console.error(`FAIL ${what}`);
  }
};

// The instance: 3 public inputs, 3 partitions (one with the input r - 1, one with 0).
const NPUB = 3, NPART = 3;
const alpha = rand(), beta = rand(), gamma = rand(), delta = rand();
const ic = Array.from({ length: NPUB + 1 }, rand);
const parts = [];
for (let k = 0; k < NPART; k++) {
  const x = Array.from({ length: NPUB }, rand);
  if (k === 1) x[0] = r - 1n;
  if (k === 2) x[2] = 0n;
  const a = rand(), b = rand();
  const vkx = x.reduce((s, xi, i) => Fr.add(s, Fr.mul(xi, ic[i + 1])), ic[0]);
  const c = Fr.div(Fr.sub(Fr.sub(Fr.mul(a, b), Fr.mul(alpha, beta)), Fr.mul(vkx, gamma)), delta);
  parts.push({ x, A: g1(a), B: g2(b), C: g1(c) });
}

const u32be = (n) => Uint8Array.of(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
const cat = (arrs) => Buffer.concat(arrs.map((a) => Buffer.from(a)));
const vkBytes = ({ gammaK = gamma, deltaK = delta, icPts = ic.map(g1) } = {}) =>
  cat([
    g1(alpha).toBytes(false), g1(beta).toBytes(false), g2(beta).toBytes(false),
    g2(gammaK).toBytes(false), g1(delta).toBytes(false), g2(deltaK).toBytes(false),
    u32be(icPts.length), ...icPts.map((p) => p.toBytes(false)),
  ]);
const proofBytes = (ps) => cat(ps.flatMap((p) => [p.A.toBytes(true), p.B.toBytes(true), p.C.toBytes(true)]));
const inputsText = (ps) => JSON.stringify(ps.map((p) => p.x.map(String)));

const VK = vkBytes(), PROOFS = proofBytes(parts), INPUTS = inputsText(parts);
check(VK.length === 96 * 3 + 192 * 3 + 4 + 96 * (NPUB + 1) && PROOFS.length === 192 * NPART, "file sizes");

// The decoder agrees with noble's on every point of the files.
for (let k = 0; k < NPART; k++) {
  const p = parts[k];
  const dA = decodeG1(PROOFS.subarray(192 * k, 192 * k + 48), true);
  const dB = decodeG2(PROOFS.subarray(192 * k + 48, 192 * k + 144), true);
  check(dA.equals(p.A) && dA.equals(G1.fromBytes(PROOFS.subarray(192 * k, 192 * k + 48))), `decode A ${k}`);
  check(dB.equals(p.B) && dB.equals(G2.fromBytes(PROOFS.subarray(192 * k + 48, 192 * k + 144))), `decode B ${k}`);
}
check(decodeG2(g2(gamma).toBytes(false), false).equals(g2(gamma)), "decode G2 uncompressed");
check(decodeG1(G1.ZERO.toBytes(true), true).is0() && decodeG2(G2.ZERO.toBytes(false), false).is0(), "decode infinity");

// Runs the oracle both ways; they must agree on the status.
let nrun = 0;
const run = (vk, proofs, inputs) => {
  const dir = join(scratch, `case${nrun++}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "vk"), vk);
  writeFileSync(join(dir, "proofs"), proofs);
  writeFileSync(join(dir, "inputs.json"), inputs);
  const res = spawnSync(process.execPath, [oracle, join(dir, "vk"), join(dir, "proofs"), join(dir, "inputs.json")], { encoding: "utf8" });
  const mod = verifyFiles(vk, proofs, inputs).status;
  if (mod !== res.status) console.error(`  module says ${mod}, program exits ${res.status}: ${res.stdout}${res.stderr}`);
  return res.status;
};
const expect = (want, what, vk, proofs, inputs) => {
  const got = run(vk, proofs, inputs);
  check(got === want, `${what}: exit ${got}, expected ${want}`);
};

expect(0, "valid instance", VK, PROOFS, INPUTS);
expect(0, "one partition", VK, proofBytes(parts.slice(1, 2)), inputsText(parts.slice(1, 2)));

// Well-formed, equation fails: exit 1.
const moved = (k, key, pt) => parts.map((p, i) => (i === k ? { ...p, [key]: pt } : p));
expect(1, "A moved", VK, proofBytes(moved(1, "A", parts[1].A.add(G1.BASE))), INPUTS);
expect(1, "B moved", VK, proofBytes(moved(0, "B", parts[0].B.add(G2.BASE))), INPUTS);
expect(1, "C of another partition", VK, proofBytes(moved(2, "C", parts[0].C)), INPUTS);
{
  const flipped = Buffer.from(PROOFS);
  flipped[192 * 2] ^= 0x20; // sign bit of partition 2's A: -A, still a point of the subgroup
  expect(1, "A negated by its sign bit", VK, flipped, INPUTS);
}
{
  const ps = parts.map((p) => ({ ...p, x: [...p.x] }));
  ps[2].x[1] = Fr.add(ps[2].x[1], 1n);
  expect(1, "input changed", VK, PROOFS, inputsText(ps));
  const sw = parts.map((p) => ({ ...p, x: [...p.x] }));
  [sw[0].x, sw[1].x] = [sw[1].x, sw[0].x];
  expect(1, "inputs of two partitions swapped", VK, PROOFS, inputsText(sw));
}
expect(1, "gamma and delta swapped in the key", vkBytes({ gammaK: delta, deltaK: gamma }), PROOFS, INPUTS);
expect(1, "IC scaled", vkBytes({ icPts: ic.map((s, i) => g1(i === 2 ? Fr.add(s, 1n) : s)) }), PROOFS, INPUTS);

// Malformed: exit 2.
{
  const damaged = Buffer.from(PROOFS);
  damaged[192 + 20] ^= 0x01; // partition 1's A: almost surely off the curve or off the subgroup
  expect(2, "a damaged x", VK, damaged, INPUTS);
  const damagedB = Buffer.from(PROOFS);
  damagedB[48 + 70] ^= 0x10;
  expect(2, "a damaged G2 x", VK, damagedB, INPUTS);
}
{
  // A point whose x + p still fits under the flags: written non-canonically it must be refused,
  // not reduced to the valid point.
  let k = 2n, Q;
  for (;; k++) {
    Q = g1(k);
    if (Q.toAffine().x + Fp.ORDER < 1n << 381n) break;
  }
  const enc = Buffer.from(Q.toBytes(true));
  const xx = Q.toAffine().x + Fp.ORDER;
  const raw = Buffer.from(xx.toString(16).padStart(96, "0"), "hex");
  raw[0] |= enc[0] & 0xe0;
  const ps = Buffer.from(proofBytes(moved(0, "A", Q)));
  check(ps.subarray(0, 48).equals(enc), "non-canonical case encodes Q");
  expect(1, "Q as A, canonical", VK, ps, INPUTS);
  raw.copy(ps, 0);
  expect(2, "Q as A, x + p", VK, ps, INPUTS);
}
{
  // A point of E(Fp) outside the prime-order subgroup.
  let x = 1n, y;
  for (;; x++) {
    const rhs = Fp.add(Fp.pow(x, 3n), 4n);
    try {
      y = Fp.sqrt(rhs);
    } catch {
      continue;
    }
    if (!G1.fromAffine({ x, y }).isTorsionFree()) break;
  }
  const be = Buffer.from(x.toString(16).padStart(96, "0"), "hex");
  be[0] |= 0x80 | ((y > (Fp.ORDER - 1n) / 2n) ? 0x20 : 0);
  const ps = Buffer.from(PROOFS);
  be.copy(ps, 144);
  expect(2, "C outside the subgroup", VK, ps, INPUTS);
}
{
  const ps = Buffer.from(PROOFS);
  Buffer.from(G1.ZERO.toBytes(true)).copy(ps, 0);
  expect(2, "A at infinity", VK, ps, INPUTS);
  const flags = Buffer.from(PROOFS);
  flags[0] &= 0x7f; // compressed point without the compression flag
  expect(2, "compression flag cleared", VK, flags, INPUTS);
  const vk = Buffer.from(VK);
  vk[0] |= 0x80; // uncompressed alpha with the compression flag
  expect(2, "vk flag set", vk, PROOFS, INPUTS);
  expect(2, "IC at infinity", vkBytes({ icPts: [...ic.map(g1).slice(0, 3), G1.ZERO] }), PROOFS, INPUTS);
}
expect(2, "proofs truncated", VK, PROOFS.subarray(0, 191 * NPART), INPUTS);
expect(2, "vk truncated", VK.subarray(0, VK.length - 1), PROOFS, INPUTS);
expect(2, "vk with a byte more", Buffer.concat([VK, Buffer.of(0)]), PROOFS, INPUTS);
expect(2, "one partition too many in inputs", VK, proofBytes(parts.slice(0, 2)), INPUTS);
expect(2, "an input too many", VK, PROOFS, JSON.stringify(parts.map((p) => [...p.x.map(String), "1"])));
expect(2, "input r", VK, PROOFS, JSON.stringify(parts.map((p, k) => p.x.map((v, i) => String(k === 1 && i === 0 ? r : v)))));
expect(2, "input as a number", VK, PROOFS, JSON.stringify(parts.map((p) => p.x.map((v, i) => (i === 0 ? 5 : String(v))))));
expect(2, "inputs not JSON", VK, PROOFS, "[[");

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
