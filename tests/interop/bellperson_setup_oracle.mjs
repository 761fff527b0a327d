// An independent oracle for `cuzk setup --bellperson`: for a few small BLS12-381 circuits, this
// script writes the circuit as a circom .r1cs, runs the CLI with --seed, and computes the whole
// key itself, from the formulas of bellperson's generator (src/groth16/generator.rs), with BigInt
// arithmetic and @noble/curves' points; the .params and .vk that cuzk wrote must equal the bytes
// computed here. Seeded trapdoors have γ = 1, so one circuit is also made with a trapdoor drawn
// here (γ ≠ 1) by the test program tests/interop/bellperson_setup_td.c. Nothing here comes from
// cuzk's C code but the documented seed derivation (docs/setup.md, "Seeded trapdoors").
//
//   node tests/interop/bellperson_setup_oracle.mjs CUZK SETUP_TD SCRATCH_DIR
//
// The key, with rows the circuit's constraints, ninput = 1 + public inputs (input 0 = ONE),
// one input constraint appended per input (A = input, B = C = 0), m the smallest power of two
// >= rows + ninput, ω the primitive m-th root of blstrs (7^((r-1)/2^32), squared down) and the
// standard generators G1, G2:
//   L_j(τ) = ω^j·(τ^m − 1) / (m·(τ − ω^j))          the Lagrange basis at τ (closed form)
//   at_v, bt_v, ct_v = Σ coef·L_row(τ) over the terms of wire v in A, B, C
//   vk: [α]₁ [β]₁ [β]₂ [γ]₂ [δ]₁ [δ]₂, IC_i = [(β·at + α·bt + ct)/γ]₁ for the inputs
//   H_i = [τ^i·(τ^m − 1)/δ]₁ (i < m − 1); L = the same as IC over δ for the aux wires;
//   A = [at]₁, B_G1 = [bt]₁, B_G2 = [bt]₂ for the wires where at (bt) is non-zero, in wire order.
// Files: counts u32 big-endian; points uncompressed (zcash): G1 x | y, G2 x.c1 | x.c0 | y.c1 | y.c0,
// each coordinate 48 bytes big-endian.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { seededRng } from "../vectors/lib/prng.mjs";

const [cuzk, setupTd, scratch] = process.argv.slice(2);
if (!cuzk || !setupTd || !scratch) {
  console.error("usage: node bellperson_setup_oracle.mjs CUZK SETUP_TD SCRATCH_DIR");
  process.exit(2);
}
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });

const R = bls12_381.fields.Fr.ORDER;
const G1 = bls12_381.G1.Point;
const G2 = bls12_381.G2.Point;
const mod = (a) => ((a % R) + R) % R;
const pow = (b, e) => {
  let r = 1n;
  b = mod(b);
  for (; e > 0n; e >>= 1n, b = (b * b) % R) if (e & 1n) r = (r * b) % R;
  return r;
};
const inv = (a) => pow(a, R - 2n);

// ---- the circuits, as circom would write them ----

// wires: 0 = 1, 1 = out, 2 = b, 3 = x0, 4.. = x1 .. x(n-1); (x_i)·(x_i) = (x_(i+1) − b).
function mulchain(n) {
  const x = (i) => (i === 0 ? 3 : i === n ? 1 : 3 + i);
  const cons = [];
  for (let i = 0; i < n; i++) cons.push([[[x(i), 1n]], [[x(i), 1n]], [[x(i + 1), 1n], [2, R - 1n]]]);
  return { name: `mulchain${n}`, nwires: n + 3, npubOut: 1, npubIn: 1, cons };
}

// Random terms over 3 public inputs and 9 aux wires, with coefficients from ±1 to full-size field
// elements; ONE and the inputs occur in B too, and every aux wire occurs somewhere.
function mixed(seed) {
  const rng = seededRng(seed);
  const nwires = 13, npub = 3, cons = [];
  const coef = () => {
    const k = Number(rng.next64() % 4n);
    return k === 0 ? 1n : k === 1 ? R - 1n : k === 2 ? 2n + (rng.next64() % 1000n) : rng.below(R);
  };
  const lc = (min, max) => {
    const n = min + Number(rng.next64() % BigInt(max - min + 1)), seen = new Set(), t = [];
    while (t.length < n) {
      const w = Number(rng.next64() % BigInt(nwires));
      if (seen.has(w)) continue;
      seen.add(w);
      t.push([w, coef()]);
    }
    return t;
  };
  for (let i = 0; i < 11; i++) cons.push([lc(1, 3), lc(0, 2), lc(1, 3)]);
  cons.push([[[1, 5n]], [[0, 1n], [2, R - 3n]], [[3, 1n]]]);
  for (let w = 1 + npub; w < nwires; w++)
    if (!cons.some((c) => c.some((l) => l.some(([v]) => v === w)))) cons.push([[[w, 1n]], [], [[w, 9n]]]);
  return { name: `mixed${seed}`, nwires, npubOut: 1, npubIn: npub - 1, cons };
}

function writeR1cs(path, c) {
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); return b; };
  const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); return b; };
  const le = (v) => { const b = Buffer.alloc(32); for (let i = 0; i < 32; i++, v >>= 8n) b[i] = Number(v & 255n); return b; };
  const section = (id, p) => Buffer.concat([u32(id), u64(p.length), p]);
  const npriv = c.nwires - 1 - c.npubOut - c.npubIn;
  const header = Buffer.concat([u32(32), le(R), u32(c.nwires), u32(c.npubOut), u32(c.npubIn),
    u32(npriv), u64(c.nwires), u32(c.cons.length)]);
  const body = [];
  for (const con of c.cons)
    for (const l of con) {
      body.push(u32(l.length));
      for (const [w, k] of l) body.push(u32(w), le(k));
    }
  const labels = Buffer.alloc(8 * c.nwires);
  for (let w = 0; w < c.nwires; w++) labels.writeBigUInt64LE(BigInt(w), 8 * w);
  writeFileSync(path, Buffer.concat([Buffer.from("r1cs"), u32(1), u32(3), section(1, header),
    section(2, Buffer.concat(body)), section(3, labels)]));
}

// ---- the seeded trapdoor (docs/setup.md): FNV-1a 64 of the seed, then SplitMix64 ----
function trapdoorFromSeed(seed) {
  const M = (1n << 64n) - 1n;
  let h = 0xcbf29ce484222325n;
  for (const b of seed) h = ((h ^ BigInt(b)) * 0x100000001b3n) & M;
  const next = () => {
    h = (h + 0x9e3779b97f4a7c15n) & M;
    let z = h;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    return z ^ (z >> 31n);
  };
  const vals = [];
  for (let v = 0; v < 5; v++) {
    if (v === 3) { vals.push(1n); continue; }
    let x = 0n;
    do {
      x = 0n;
      for (let limb = 0; limb < 4; limb++) {
        let l = next();
        if (limb === 3) l &= (1n << 61n) - 1n;
        x |= l << BigInt(64 * limb);
      }
    } while (x === 0n);
    vals.push(x);
  }
  const [tau, alpha, beta, gamma, delta] = vals;
  return { tau, alpha, beta, gamma, delta };
}

// ---- the key ----
const be = (v, n) => { const b = Buffer.alloc(n); for (let i = n - 1; i >= 0; i--, v >>= 8n) b[i] = Number(v & 255n); return b; };
const enc1 = (p) => { const a = p.toAffine(); return Buffer.concat([be(a.x, 48), be(a.y, 48)]); };
const enc2 = (p) => { const a = p.toAffine(); return Buffer.concat([be(a.x.c1, 48), be(a.x.c0, 48), be(a.y.c1, 48), be(a.y.c0, 48)]); };
const cnt = (n) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
const g1 = (k) => G1.BASE.multiply(mod(k));
const g2 = (k) => G2.BASE.multiply(mod(k));

function expectedKey(c, t) {
  const ninput = 1 + c.npubOut + c.npubIn, rows = c.cons.length;
  let k = 0;
  while (2 ** k < rows + ninput) k++;
  const m = 2 ** k, M = BigInt(m);
  const omega = pow(pow(7n, (R - 1n) >> 32n), 1n << BigInt(32 - k));
  const zt = mod(pow(t.tau, M) - 1n);
  const lag = [];
  for (let j = 0, w = 1n; j < m; j++, w = (w * omega) % R) lag.push(mod(w * zt * inv(mod(M * (t.tau - w)))));
  const at = new Array(c.nwires).fill(0n), bt = [...at], ct = [...at];
  c.cons.forEach((con, row) => {
    for (const [w, kk] of con[0]) at[w] = mod(at[w] + kk * lag[row]);
    for (const [w, kk] of con[1]) bt[w] = mod(bt[w] + kk * lag[row]);
    for (const [w, kk] of con[2]) ct[w] = mod(ct[w] + kk * lag[row]);
  });
  for (let i = 0; i < ninput; i++) at[i] = mod(at[i] + lag[rows + i]);
  const ext = (v, d) => mod((t.beta * at[v] + t.alpha * bt[v] + ct[v]) * inv(d));
  const ic = [], l = [], h = [], a = [], b1 = [], b2 = [];
  for (let v = 0; v < c.nwires; v++) (v < ninput ? ic : l).push(enc1(g1(ext(v, v < ninput ? t.gamma : t.delta))));
  const hc = mod(zt * inv(t.delta));
  for (let i = 0, p = 1n; i < m - 1; i++, p = (p * t.tau) % R) h.push(enc1(g1(p * hc)));
  for (let v = 0; v < c.nwires; v++) {
    if (at[v] !== 0n) a.push(enc1(g1(at[v])));
    if (bt[v] !== 0n) { b1.push(enc1(g1(bt[v]))); b2.push(enc2(g2(bt[v]))); }
  }
  const vk = Buffer.concat([enc1(g1(t.alpha)), enc1(g1(t.beta)), enc2(g2(t.beta)), enc2(g2(t.gamma)),
    enc1(g1(t.delta)), enc2(g2(t.delta)), cnt(ic.length), ...ic]);
  const sections = [["H", h], ["L", l], ["A", a], ["B_G1", b1], ["B_G2", b2]];
  const params = Buffer.concat([vk, ...sections.flatMap(([, s]) => [cnt(s.length), ...s])]);
  return { vk, params, m, counts: sections.map(([n, s]) => `${n} ${s.length}`).join(", ") };
}

// ---- run ----
let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
};
const firstDiff = (x, y) => {
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return i;
  return x.length === y.length ? -1 : Math.min(x.length, y.length);
};

for (const [c, seedHex] of [[mulchain(13), "00ff"], [mulchain(61), "c0ffee"], [mixed(7n), "5eed01"], [mixed(8n), "42"]]) {
  const r1cs = join(scratch, `${c.name}.r1cs`), params = join(scratch, `${c.name}.params`);
  const vkPath = join(scratch, `${c.name}.vk`);
  writeR1cs(r1cs, c);
  execFileSync(cuzk, ["setup", "--bellperson", r1cs, "-o", params, "--vk", vkPath, "--seed", seedHex,
    "--threads", "2"], { stdio: ["ignore", "ignore", "inherit"] });
  const want = expectedKey(c, trapdoorFromSeed(Buffer.from(seedHex, "hex")));
  const got = readFileSync(params), gotVk = readFileSync(vkPath);
  const d = firstDiff(got, want.params);
  check(d < 0, `${c.name}: .params equals the oracle's (domain ${want.m}, ${want.counts}, ` +
    `${want.params.length} bytes)${d >= 0 ? `: first difference at byte ${d}` : ""}`);
  check(gotVk.equals(want.vk), `${c.name}: .vk equals the oracle's`);
}
// A full trapdoor, γ included, through the test program.
{
  const c = mixed(9n), rng = seededRng(99n), r1cs = join(scratch, "gamma.r1cs");
  const params = join(scratch, "gamma.params");
  const t = { tau: rng.below(R), alpha: rng.below(R), beta: rng.below(R), gamma: rng.below(R), delta: rng.below(R) };
  writeR1cs(r1cs, c);
  execFileSync(setupTd, [r1cs, params, ...["tau", "alpha", "beta", "gamma", "delta"].map((k) => be(t[k], 32).toString("hex"))],
    { stdio: ["ignore", "ignore", "inherit"] });
  const want = expectedKey(c, t), got = readFileSync(params);
  const d = firstDiff(got, want.params);
  check(t.gamma !== 1n && d < 0, `${c.name} with γ ≠ 1: .params equals the oracle's (${want.counts})` +
    `${d >= 0 ? `: first difference at byte ${d}` : ""}`);
}
// A wire in no constraint: bellperson's UnconstrainedVariable, exit 3 naming it; no key written.
{
  const c = mulchain(5), r1cs = join(scratch, "unconstrained.r1cs");
  const params = join(scratch, "unconstrained.params");
  c.nwires += 1;
  writeR1cs(r1cs, c);
  let status = 0, stderr = "";
  try {
    execFileSync(cuzk, ["setup", "--bellperson", r1cs, "-o", params, "--seed", "01"], { stdio: "pipe" });
  } catch (e) {
    status = e.status;
    stderr = e.stderr.toString();
  }
  check(status === 3 && stderr.includes("aux 5 (variable 8) is unconstrained") && !existsSync(params),
    `an unused wire: exit ${status}, ${stderr.trim().split("\n").pop()}`);
}
console.log(failures === 0 ? "all passed" : `${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
