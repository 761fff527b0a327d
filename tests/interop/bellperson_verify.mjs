// An independent Groth16 verifier for BLS12-381 proofs in bellperson's byte formats: the test
// oracle that cuzk's proofs, written as bellperson bytes, are valid (docs/groth16.md, "The
// bellperson oracle"). Written from the format description, not from cuzk's C code: the point
// decoding is its own (flags, big-endian coordinates, canonical checks, the square root and the
// sign of y); @noble/curves supplies only field arithmetic, the curve and subgroup checks and
// the pairing.
//
//   node tests/interop/bellperson_verify.mjs <vk file> <proof file> <inputs.json>
//
// vk file (bellperson VerifyingKey::write): alpha_g1, beta_g1 (G1 uncompressed, 96 bytes each),
//   beta_g2, gamma_g2 (G2 uncompressed, 192), delta_g1 (96), delta_g2 (192), |IC| (u32 big-endian),
//   then |IC| G1 uncompressed points; nothing after them.
// proof file: N proofs of 192 bytes, each A (G1 compressed, 48) | B (G2 compressed, 96) | C (G1
//   compressed, 48), as bellperson's Proof::write.
// inputs.json: an array of N arrays (one per proof, a "partition"), each of |IC| - 1 decimal
//   strings below r: the public inputs without the leading ONE.
// Points use the zcash encoding: big-endian coordinates, the top three bits of byte 0 are flags
// (0x80 compressed, 0x40 infinity, 0x20 "y is the larger root", for compressed finite points
// only); a G2 coordinate c0 + c1·u is written c1 before c0, and the larger Fp2 root is decided by
// c1 unless c1 is 0, then by c0.
//
// Each partition is checked on its own: e(A, B) = e(α, β) · e(IC₀ + Σ x_i·IC_i, γ) · e(C, δ).
// Exit status: 0 when every partition is valid; 1 when at least one is not (each is named on
// stdout); 2 on malformed input: wrong lengths, bad flags, a coordinate >= p, a point off the
// curve or outside the prime-order subgroup, a proof point or an IC point at infinity (bellperson
// refuses those when it reads them), an input that is not a decimal below r, counts that disagree.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { bls12_381 } from "@noble/curves/bls12-381.js";

const { Fp, Fp2, Fr } = bls12_381.fields;
const P = Fp.ORDER;
const R = Fr.ORDER;
const G1 = bls12_381.G1.Point;
const G2 = bls12_381.G2.Point;
const FP_BYTES = 48;

export class Malformed extends Error {}

const fail = (what) => {
  throw new Malformed(what);
};

const be = (bytes) => {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
};

// One canonical Fp element from 48 big-endian bytes.
const fp = (bytes, what) => {
  const v = be(bytes);
  if (v >= P) fail(`${what}: coordinate not below p`);
  return v;
};

// "Larger" root of Fp: y > (p - 1) / 2.
const larger = (y) => y > (P - 1n) / 2n;
const larger2 = (y) => (y.c1 !== 0n ? larger(y.c1) : larger(y.c0));

// Splits off the flag bits; checks the combinations the encoding allows.
const flags = (bytes, compressed, what) => {
  const c = (bytes[0] & 0x80) !== 0, inf = (bytes[0] & 0x40) !== 0, sort = (bytes[0] & 0x20) !== 0;
  if (c !== compressed) fail(`${what}: compression flag ${c ? "set" : "clear"}`);
  if (sort && (inf || !compressed)) fail(`${what}: sign flag on an infinity or uncompressed point`);
  const body = Uint8Array.from(bytes);
  body[0] &= 0x1f;
  if (inf && body.some((b) => b !== 0)) fail(`${what}: infinity with non-zero bytes`);
  return { inf, sort, body };
};

// Finishes a point: on the curve and in the subgroup (noble's checks).
const finish = (Point, x, y, what) => {
  let pt;
  try {
    pt = Point.fromAffine({ x, y });
    pt.assertValidity();
  } catch (e) {
    fail(`${what}: not a point of the prime-order subgroup (${e.message})`);
  }
  return pt;
};

export function decodeG1(bytes, compressed, what = "G1 point") {
  const len = compressed ? FP_BYTES : 2 * FP_BYTES;
  if (bytes.length !== len) fail(`${what}: ${bytes.length} bytes, expected ${len}`);
  const { inf, sort, body } = flags(bytes, compressed, what);
  if (inf) return G1.ZERO;
  const x = fp(body.subarray(0, FP_BYTES), what);
  let y;
  if (compressed) {
    const rhs = Fp.add(Fp.pow(x, 3n), 4n);
    try {
      y = Fp.sqrt(rhs);
    } catch {
      fail(`${what}: x has no y on the curve`);
    }
    if (y === undefined || Fp.sqr(y) !== rhs) fail(`${what}: x has no y on the curve`);
    if (larger(y) !== sort) y = Fp.neg(y);
  } else {
    y = fp(body.subarray(FP_BYTES), what);
  }
  return finish(G1, x, y, what);
}

const fp2 = (bytes, what) =>
  Fp2.fromBigTuple([fp(bytes.subarray(FP_BYTES), what), fp(bytes.subarray(0, FP_BYTES), what)]);

export function decodeG2(bytes, compressed, what = "G2 point") {
  const len = compressed ? 2 * FP_BYTES : 4 * FP_BYTES;
  if (bytes.length !== len) fail(`${what}: ${bytes.length} bytes, expected ${len}`);
  const { inf, sort, body } = flags(bytes, compressed, what);
  if (inf) return G2.ZERO;
  const x = fp2(body.subarray(0, 2 * FP_BYTES), what);
  let y;
  if (compressed) {
    const b2 = Fp2.fromBigTuple([4n, 4n]);
    const rhs = Fp2.add(Fp2.pow(x, 3n), b2);
    try {
      y = Fp2.sqrt(rhs);
    } catch {
      fail(`${what}: x has no y on the curve`);
    }
    if (y === undefined || !Fp2.eql(Fp2.sqr(y), rhs)) fail(`${what}: x has no y on the curve`);
    if (larger2(y) !== sort) y = Fp2.neg(y);
  } else {
    y = fp2(body.subarray(2 * FP_BYTES), what);
  }
  return finish(G2, x, y, what);
}

// A reader over a byte buffer that fails as malformed past its end.
const reader = (buf, name) => {
  let pos = 0;
  return {
    take(n, what) {
      if (n > buf.length - pos) fail(`${name}: ends inside ${what}`);
      const s = buf.subarray(pos, pos + n);
      pos += n;
      return s;
    },
    left: () => buf.length - pos,
  };
};

export function parseVk(buf) {
  const r = reader(buf, "vk");
  const g1 = (what) => decodeG1(r.take(96, what), false, `vk ${what}`);
  const g2 = (what) => decodeG2(r.take(192, what), false, `vk ${what}`);
  const vk = {};
  vk.alpha1 = g1("alpha_g1");
  vk.beta1 = g1("beta_g1");
  vk.beta2 = g2("beta_g2");
  vk.gamma2 = g2("gamma_g2");
  vk.delta1 = g1("delta_g1");
  vk.delta2 = g2("delta_g2");
  const n = be(r.take(4, "the IC count"));
  if (n < 1n) fail("vk: no IC points");
  if (BigInt(r.left()) !== n * 96n) fail(`vk: ${r.left()} bytes after the count, expected ${n} IC points`);
  vk.ic = [];
  for (let i = 0; i < Number(n); i++) {
    const p = g1(`IC[${i}]`);
    if (p.is0()) fail(`vk: IC[${i}] is the point at infinity`);
    vk.ic.push(p);
  }
  return vk;
}

export function parseProofs(buf) {
  if (buf.length === 0 || buf.length % 192 !== 0) fail(`proofs: ${buf.length} bytes, not a multiple of 192`);
  const proofs = [];
  for (let off = 0; off < buf.length; off += 192) {
    const j = off / 192;
    const pr = {
      a: decodeG1(buf.subarray(off, off + 48), true, `proof ${j} A`),
      b: decodeG2(buf.subarray(off + 48, off + 144), true, `proof ${j} B`),
      c: decodeG1(buf.subarray(off + 144, off + 192), true, `proof ${j} C`),
    };
    for (const k of ["a", "b", "c"])
      if (pr[k].is0()) fail(`proof ${j} ${k.toUpperCase()} is the point at infinity`);
    proofs.push(pr);
  }
  return proofs;
}

export function parseInputs(text, nproofs, ninputs) {
  let j;
  try {
    j = JSON.parse(text);
  } catch (e) {
    fail(`inputs: not JSON (${e.message})`);
  }
  if (!Array.isArray(j) || j.length !== nproofs) fail(`inputs: expected an array of ${nproofs} arrays`);
  return j.map((part, k) => {
    if (!Array.isArray(part) || part.length !== ninputs)
      fail(`inputs: partition ${k} needs ${ninputs} inputs`);
    return part.map((s, i) => {
      if (typeof s !== "string" || !/^[0-9]+$/.test(s)) fail(`inputs: partition ${k} input ${i} is not a decimal string`);
      const v = BigInt(s);
      if (v >= R) fail(`inputs: partition ${k} input ${i} is not below r`);
      return v;
    });
  });
}

// Π e(P_i, Q_i) = 1, with pairs at infinity left out (they contribute 1; noble refuses them).
const pairingProductIsOne = (pairs) => {
  const live = pairs.filter(([p, q]) => !p.is0() && !q.is0());
  if (live.length === 0) return true;
  const v = bls12_381.pairingBatch(live.map(([g1, g2]) => ({ g1, g2 })));
  return Fp12eqOne(v);
};
const Fp12eqOne = (v) => bls12_381.fields.Fp12.eql(v, bls12_381.fields.Fp12.ONE);

// e(A, B) = e(α, β) · e(vk_x, γ) · e(C, δ) as e(-A, B) · e(α, β) · e(vk_x, γ) · e(C, δ) = 1.
export function verifyOne(vk, proof, inputs) {
  let acc = vk.ic[0];
  inputs.forEach((x, i) => {
    if (x !== 0n) acc = acc.add(vk.ic[i + 1].multiply(x));
  });
  return pairingProductIsOne([
    [proof.a.negate(), proof.b],
    [vk.alpha1, vk.beta2],
    [acc, vk.gamma2],
    [proof.c, vk.delta2],
  ]);
}

// { status: 0 | 1 | 2, lines: [...] } for the three files' contents.
export function verifyFiles(vkBuf, proofBuf, inputsText) {
  try {
    const vk = parseVk(vkBuf);
    const proofs = parseProofs(proofBuf);
    const inputs = parseInputs(inputsText, proofs.length, vk.ic.length - 1);
    const lines = [];
    let status = 0;
    proofs.forEach((pr, k) => {
      const ok = verifyOne(vk, pr, inputs[k]);
      lines.push(`partition ${k}: ${ok ? "valid" : "INVALID"}`);
      if (!ok) status = 1;
    });
    return { status, lines };
  } catch (e) {
    if (e instanceof Malformed) return { status: 2, lines: [`malformed: ${e.message}`] };
    throw e;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.length !== 5) {
    console.error("usage: node bellperson_verify.mjs <vk file> <proof file> <inputs.json>");
    process.exit(2);
  }
  let files;
  try {
    files = [readFileSync(process.argv[2]), readFileSync(process.argv[3]), readFileSync(process.argv[4], "utf8")];
  } catch (e) {
    console.error(`cannot read: ${e.message}`);
    process.exit(2);
  }
  const { status, lines } = verifyFiles(...files);
  for (const l of lines) console.log(l);
  process.exit(status);
}
