// spec_prove.mjs: an independent Groth16 prover for snarkjs proving keys, the oracle for cuzk's
// deterministic proofs (`cuzk prove --r HEX --s HEX`).
//
//   node tests/interop/spec_prove.mjs ZKEY WTNS R_HEX S_HEX PROOF.json
//
// Written from the format and algorithm description (research notes circom-snarkjs.md §5.1-§5.7),
// with BigInt arithmetic and @noble/curves points only: no snarkjs, ffjavascript or cuzk code.
//   1. Read the .zkey (iden3 container, sections by id; points affine little-endian Montgomery,
//      all-zero = infinity; coefficients stored as v·R² mod r) and the .wtns (plain little-endian).
//   2. a_j = Σ A[j][s]·w_s, b_j = Σ B[j][s]·w_s over the coefficient section, c_j = a_j·b_j.
//   3. For each of a, b, c: inverse FFT on the n-domain, multiply coefficient i by g^i with
//      g = w[k+1] (the odd coset), FFT back; p_j = a_j·b_j - c_j on the coset. Roots as
//      ffjavascript picks them: w[k] = 5^((r-1)/2^k) (5 is the smallest non-residue for both r).
//   4. MSMs (noble pippenger): A' = Σ w·A, B1' = Σ w·B1, B2' = Σ w·B2, C' = Σ_{s>nPublic} w·C,
//      H' = Σ p·H.
//   5. πA = A' + α₁ + r·δ₁, πB = B2' + β₂ + s·δ₂, B1 = B1' + β₁ + s·δ₁,
//      πC = C' + H' + s·πA + r·B1 - r·s·δ₁; written as snarkjs's proof.json.
// Costs: O(n log n) BigInt field operations and five noble MSMs; ~1-3 s at n = 2^10.
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import { bn254 } from "@noble/curves/bn254.js";
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { pippenger } from "@noble/curves/abstract/curve.js";

// ---- iden3 binary container ----

function readContainer(file, magic) {
  const buf = fs.readFileSync(file);
  if (buf.length < 12 || buf.toString("latin1", 0, 4) !== magic)
    throw new Error(`${file}: not a ${magic} file`);
  const nSect = buf.readUInt32LE(8);
  const sections = new Map();
  let off = 12;
  for (let i = 0; i < nSect; i++) {
    const id = buf.readUInt32LE(off);
    const size = Number(buf.readBigUInt64LE(off + 4));
    off += 12;
    if (off + size > buf.length) throw new Error(`${file}: section ${id} is truncated`);
    if (sections.has(id)) throw new Error(`${file}: duplicate section ${id}`);
    sections.set(id, buf.subarray(off, off + size));
    off += size;
  }
  return sections;
}

function leToBig(b) {
  let v = 0n;
  for (let i = b.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
  return v;
}

function modPow(b, e, m) {
  let r = 1n;
  b %= m;
  while (e > 0n) {
    if (e & 1n) r = (r * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  return r;
}
const modInv = (a, m) => modPow(((a % m) + m) % m, m - 2n, m); // m prime

// ---- curves ----

const CURVES = [
  { name: "bn128", E: bn254 },
  { name: "bls12381", E: bls12_381 },
];

function curveOfQ(q) {
  for (const c of CURVES) if (c.E.fields.Fp.ORDER === q) return c;
  throw new Error(`unknown base field modulus ${q}`);
}

// ---- zkey / wtns ----

function readZkey(file) {
  const s = readContainer(file, "zkey");
  const need = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  for (const id of need) if (!s.has(id)) throw new Error(`${file}: no section ${id}`);
  if (s.get(1).readUInt32LE(0) !== 1) throw new Error(`${file}: not a Groth16 key`);
  const h = s.get(2);
  let o = 0;
  const n8q = h.readUInt32LE(o);
  const q = leToBig(h.subarray(o + 4, o + 4 + n8q));
  o += 4 + n8q;
  const n8r = h.readUInt32LE(o);
  const r = leToBig(h.subarray(o + 4, o + 4 + n8r));
  o += 4 + n8r;
  const nVars = h.readUInt32LE(o);
  const nPublic = h.readUInt32LE(o + 4);
  const domainSize = h.readUInt32LE(o + 8);
  o += 12;
  const curve = curveOfQ(q);
  const { E } = curve;
  if (E.fields.Fr.ORDER !== r) throw new Error(`${file}: r does not match the curve`);
  const Fp2 = E.fields.Fp2;
  const RinvQ = modInv(1n << BigInt(8 * n8q), q);
  const fq = (b, at) => (leToBig(b.subarray(at, at + n8q)) * RinvQ) % q;
  const g1 = (b, at) => {
    const x = fq(b, at), y = fq(b, at + n8q);
    return x === 0n && y === 0n ? E.G1.Point.ZERO : E.G1.Point.fromAffine({ x, y });
  };
  const g2 = (b, at) => {
    const c = [0, 1, 2, 3].map((i) => fq(b, at + i * n8q));
    if (c.every((v) => v === 0n)) return E.G2.Point.ZERO;
    return E.G2.Point.fromAffine({
      x: Fp2.fromBigTuple([c[0], c[1]]),
      y: Fp2.fromBigTuple([c[2], c[3]]),
    });
  };
  const G1S = 2 * n8q, G2S = 4 * n8q;
  const key = { curve, q, r, nVars, nPublic, domainSize };
  key.alpha1 = g1(h, o); o += G1S;
  key.beta1 = g1(h, o); o += G1S;
  key.beta2 = g2(h, o); o += G2S;
  key.gamma2 = g2(h, o); o += G2S;
  key.delta1 = g1(h, o); o += G1S;
  key.delta2 = g2(h, o); o += G2S;
  const points = (id, count, size, dec) => {
    const b = s.get(id);
    if (b.length !== count * size) throw new Error(`${file}: section ${id} has the wrong size`);
    const out = new Array(count);
    for (let i = 0; i < count; i++) out[i] = dec(b, i * size);
    return out;
  };
  key.A = points(5, nVars, G1S, g1);
  key.B1 = points(6, nVars, G1S, g1);
  key.B2 = points(7, nVars, G2S, g2);
  key.C = points(8, nVars - nPublic - 1, G1S, g1);
  key.H = points(9, domainSize, G1S, g1);
  // Coefficients: stored v·R² mod r → v = stored·R⁻² mod r.
  const cs = s.get(4);
  const nCoef = cs.readUInt32LE(0);
  const Rinv2 = modPow(modInv(1n << BigInt(8 * n8r), r), 2n, r);
  key.coefs = new Array(nCoef);
  for (let i = 0, at = 4; i < nCoef; i++, at += 12 + n8r) {
    key.coefs[i] = {
      m: cs.readUInt32LE(at),
      row: cs.readUInt32LE(at + 4),
      sig: cs.readUInt32LE(at + 8),
      v: (leToBig(cs.subarray(at + 12, at + 12 + n8r)) * Rinv2) % r,
    };
  }
  return key;
}

function readWtns(file, r) {
  const s = readContainer(file, "wtns");
  const h = s.get(1), d = s.get(2);
  const n8 = h.readUInt32LE(0);
  if (leToBig(h.subarray(4, 4 + n8)) !== r) throw new Error(`${file}: witness prime is not r`);
  const n = h.readUInt32LE(4 + n8);
  const w = new Array(n);
  for (let i = 0; i < n; i++) w[i] = leToBig(d.subarray(i * n8, (i + 1) * n8));
  return w;
}

// ---- FFT over Fr (natural order in and out) ----

function fft(a, root, r) {
  const n = a.length;
  const out = a.slice();
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) [out[i], out[j]] = [out[j], out[i]];
  }
  for (let len = 2; len <= n; len <<= 1) {
    const wl = modPow(root, BigInt(n / len), r);
    for (let i = 0; i < n; i += len) {
      let w = 1n;
      for (let j = 0; j < len / 2; j++) {
        const u = out[i + j], v = (out[i + j + len / 2] * w) % r;
        out[i + j] = (u + v) % r;
        out[i + j + len / 2] = (u - v + r) % r;
        w = (w * wl) % r;
      }
    }
  }
  return out;
}

// ---- the prover ----

export function specProve(zkeyFile, wtnsFile, rBlind, sBlind) {
  const key = readZkey(zkeyFile);
  const { r, nVars, nPublic, domainSize: n } = key;
  const { E } = key.curve;
  const w = readWtns(wtnsFile, r);
  if (w.length !== nVars) throw new Error(`witness has ${w.length} values, key ${nVars}`);
  let k = 0;
  while (1 << k < n) k++;
  if (1 << k !== n) throw new Error("domain size is not a power of two");

  const a = new Array(n).fill(0n), b = new Array(n).fill(0n);
  for (const { m, row, sig, v } of key.coefs) {
    const dst = m === 0 ? a : b;
    dst[row] = (dst[row] + v * w[sig]) % r;
  }
  const c = a.map((x, j) => (x * b[j]) % r);

  const omega = modPow(5n, (r - 1n) >> BigInt(k), r); // w[k]
  const g = modPow(5n, (r - 1n) >> BigInt(k + 1), r); // w[k+1]
  if (modPow(omega, BigInt(n), r) !== 1n || modPow(omega, BigInt(n / 2), r) === 1n)
    throw new Error("bad root of unity");
  const omegaInv = modInv(omega, r), nInv = modInv(BigInt(n), r);
  const onCoset = (vals) => {
    const coef = fft(vals, omegaInv, r);
    let gi = nInv; // fold the 1/n of the inverse FFT into the coset scaling
    for (let i = 0; i < n; i++) {
      coef[i] = (coef[i] * gi) % r;
      gi = (gi * g) % r;
    }
    return fft(coef, omega, r);
  };
  const ea = onCoset(a), eb = onCoset(b), ec = onCoset(c);
  const p = ea.map((x, j) => (((x * eb[j] - ec[j]) % r) + r) % r);

  const msm = (P, points, scalars) => pippenger(P, points, scalars);
  const A1 = msm(E.G1.Point, key.A, w);
  const B1p = msm(E.G1.Point, key.B1, w);
  const B2p = msm(E.G2.Point, key.B2, w);
  const Cp = msm(E.G1.Point, key.C, w.slice(nPublic + 1));
  const Hp = msm(E.G1.Point, key.H, p);

  const mul = (P, e) => (e % r === 0n ? P.constructor.ZERO : P.multiply(e % r));
  const piA = A1.add(key.alpha1).add(mul(key.delta1, rBlind));
  const piB = B2p.add(key.beta2).add(mul(key.delta2, sBlind));
  const b1 = B1p.add(key.beta1).add(mul(key.delta1, sBlind));
  const piC = Cp.add(Hp)
    .add(mul(piA, sBlind))
    .add(mul(b1, rBlind))
    .subtract(mul(key.delta1, (rBlind * sBlind) % r));

  const j1 = (P) => {
    if (P.is0()) return ["0", "1", "0"];
    const { x, y } = P.toAffine();
    return [x.toString(), y.toString(), "1"];
  };
  const j2 = (P) => {
    if (P.is0()) return [["0", "0"], ["1", "0"], ["0", "0"]];
    const { x, y } = P.toAffine();
    return [[x.c0.toString(), x.c1.toString()], [y.c0.toString(), y.c1.toString()], ["1", "0"]];
  };
  return {
    pi_a: j1(piA),
    pi_b: j2(piB),
    pi_c: j1(piC),
    protocol: "groth16",
    curve: key.curve.name,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [zkeyFile, wtnsFile, rHex, sHex, out] = process.argv.slice(2);
  if (!out) {
    console.error("usage: node spec_prove.mjs ZKEY WTNS R_HEX S_HEX PROOF.json");
    process.exit(2);
  }
  const hex = (h) => BigInt("0x" + h.replace(/^0x/, ""));
  const proof = specProve(zkeyFile, wtnsFile, hex(rHex), hex(sHex));
  fs.writeFileSync(out, JSON.stringify(proof, null, 1) + "\n");
}
