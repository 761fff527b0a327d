// interop.mjs: cuzk against snarkjs/circom (and an independent BigInt + @noble/curves prover).
//
//   node tests/interop/interop.mjs CUZK_BINARY SCRATCH_DIR      (working directory: repo root)
//
// Registered with ctest (CMakeLists.txt, test "interop"); docs/interop.md says what is checked
// and how to run it by hand. For both curves (bn128, bls12381) and both circuits
// (tests/interop/mulchain.circom, poseidon_chain.circom):
//   - compile with circom2, witness with `snarkjs wtns calculate`;
//   - proving keys from a snarkjs ceremony (powersoftau new / contribute / prepare phase2, one
//     ptau per curve; groth16 setup; zkey contribute) and from `cuzk setup`;
//   - snarkjs verifies cuzk's proofs, cuzk verifies snarkjs's, `cuzk vk` = snarkjs's export,
//     `cuzk prove --r --s` = spec_prove.mjs, tampered proofs / public inputs are rejected with
//     the right exit code and message, bad inputs to `cuzk prove` fail with exit 3 naming the
//     file.
// Every check prints "ok" or "FAIL" and counts in the closing "N passed, N failed" line; the
// exit status is 1 if any failed. Scratch files go under SCRATCH_DIR (wiped first).
//
// Costs (2 cores): dominated by snarkjs's `powersoftau prepare phase2` at power 10 (one per
// curve); the two curves run concurrently. Environment:
//   CZ_INTEROP_PTAU_DIR=DIR  keep prepared ptau files in DIR and reuse them (the default is a
//                            fresh ceremony every run; `make test` gives its plain and ASan runs
//                            one fresh folder, so the ceremony is made once a CI run).
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import util from "node:util";
import { bn254 } from "@noble/curves/bn254.js";
import { bls12_381 } from "@noble/curves/bls12-381.js";

const PTAU_POWER = 10; // covers nConstraints + nPublic <= 1023 (poseidon_chain: 722)
const CURVES = {
  bn128: { E: bn254 },
  bls12381: { E: bls12_381 },
};
const CIRCUITS = {
  mulchain: {
    file: "tests/interop/mulchain.circom",
    flags: [], // circom's default -O1: keeps the linear constraints
    input: (rnd) => ({ a: rnd("a"), b: rnd("b"), c: rnd("c") }),
  },
  poseidon_chain: {
    file: "tests/interop/poseidon_chain.circom",
    flags: ["--O2"], // 720 constraints instead of 1551 at -O1: fits the 2^10 ptau
    input: (rnd) => ({ seed: rnd("seed"), salt: rnd("salt") }),
  },
};

// ---------------------------------------------------------------------------------------------
// Arguments, paths, tools

const [cuzkArg, scratchArg] = process.argv.slice(2);
if (!cuzkArg || !scratchArg) {
  console.error("usage: node tests/interop/interop.mjs CUZK_BINARY SCRATCH_DIR (from the repo root)");
  process.exit(2);
}
const ROOT = process.cwd();
const CUZK = path.resolve(cuzkArg);
const SCRATCH = path.resolve(scratchArg);
const SNARKJS = path.join(ROOT, "node_modules/snarkjs/build/cli.cjs");
const CIRCOM = path.join(ROOT, "node_modules/circom2/cli.js");
const CIRCOMLIB = path.join(ROOT, "node_modules/circomlib/circuits");
const SPEC_PROVE = path.join(ROOT, "tests/interop/spec_prove.mjs");
for (const [what, p] of [
  ["this script's circuits (run from the repo root)", path.join(ROOT, CIRCUITS.mulchain.file)],
  ["the cuzk binary", CUZK],
  ["snarkjs (npm install / make setup)", SNARKJS],
  ["circom2 (npm install / make setup)", CIRCOM],
  ["circomlib (npm install / make setup)", CIRCOMLIB],
]) {
  if (!fs.existsSync(p)) {
    console.error(`interop: missing ${what}: ${p}`);
    process.exit(1);
  }
}
fs.rmSync(SCRATCH, { recursive: true, force: true });
fs.mkdirSync(SCRATCH, { recursive: true });
const PTAU_DIR = process.env.CZ_INTEROP_PTAU_DIR ? path.resolve(process.env.CZ_INTEROP_PTAU_DIR) : null;

const T0 = Date.now();
const times = []; // [label, ms]
const secs = (ms) => (ms / 1000).toFixed(1);

// Runs a command; resolves to { code, out, err, ms } (never rejects on a non-zero exit).
function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const t = Date.now();
    const p = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    p.on("error", (e) => resolve({ code: -1, out, err: err + String(e), ms: Date.now() - t }));
    p.on("close", (code, sig) =>
      resolve({ code: code ?? 128, out, err: sig ? `${err}killed by ${sig}` : err, ms: Date.now() - t }),
    );
  });
}

const node = (script, args, opts) => run(process.execPath, [script, ...args], opts);
const snarkjs = (args, opts) => node(SNARKJS, args, opts);
const cuzk = (args) => run(CUZK, args);

// A setup step that must succeed: otherwise the run cannot go on (counts as a failure).
class StepError extends Error {}
async function step(label, promise) {
  const res = await promise;
  times.push([label, res.ms]);
  if (res.code !== 0) {
    throw new StepError(
      `${label}: exit ${res.code}\n${(res.out + res.err).trim().split("\n").slice(-15).join("\n")}`,
    );
  }
  return res;
}

// ---------------------------------------------------------------------------------------------
// Checks

let passed = 0;
const failures = []; // listed again at the end (the two curves' lines interleave)
function check(name, ok, detail = "") {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    const line = `FAIL ${name}${detail ? "\n     " + detail.trim().replace(/\n/g, "\n     ") : ""}`;
    failures.push(line);
    console.log(line);
  }
  return ok;
}
const brief = (res) => `exit ${res.code}; stdout: ${res.out.trim()}; stderr: ${res.err.trim()}`;
const readJson = (f) => JSON.parse(fs.readFileSync(f, "utf8"));
const writeJson = (f, v) => fs.writeFileSync(f, JSON.stringify(v, null, 1) + "\n");

// First difference between two JSON values, as "path: a != b" (null when equal).
function jsonDiff(a, b, at = "$") {
  if (util.isDeepStrictEqual(a, b)) return null;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null)
    return `${at}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (!(k in a)) return `${at}.${k}: missing on the left`;
    if (!(k in b)) return `${at}.${k}: missing on the right`;
    const d = jsonDiff(a[k], b[k], `${at}.${k}`);
    if (d) return d;
  }
  return `${at}: differ`;
}

// Deterministic pseudo-random field elements / blinding factors (sha256 of a label).
const hashBig = (label) => BigInt("0x" + crypto.createHash("sha256").update(label).digest("hex"));

// ---------------------------------------------------------------------------------------------
// Setup: ceremony, compile, witness, keys

// circom2 runs under WASI and opens files through preopened relative paths only: run it from the
// common ancestor of the circuits, circomlib (node_modules may be a symlink) and the output.
function commonAncestor(paths) {
  const parts = paths.map((p) => path.resolve(p).split(path.sep));
  const out = [];
  for (let i = 0; ; i++) {
    const seg = parts[0][i];
    if (seg === undefined || parts.some((p) => p[i] !== seg)) break;
    out.push(seg);
  }
  return out.join(path.sep) || path.sep;
}

async function ceremony(curve, log) {
  const dir = path.join(SCRATCH, curve);
  fs.mkdirSync(dir, { recursive: true });
  const final = path.join(dir, `pot${PTAU_POWER}.ptau`);
  const cached = PTAU_DIR && path.join(PTAU_DIR, `${curve}_pot${PTAU_POWER}.ptau`);
  if (cached && fs.existsSync(cached)) {
    fs.copyFileSync(cached, final);
    log(`reused ${cached}`);
    return final;
  }
  const p0 = path.join(dir, "pot_0.ptau"), p1 = path.join(dir, "pot_1.ptau");
  await step(`${curve} powersoftau new`, snarkjs(["powersoftau", "new", curve, `${PTAU_POWER}`, p0]));
  await step(
    `${curve} powersoftau contribute`,
    snarkjs(["powersoftau", "contribute", p0, p1, "--name=interop", `-e=cuzk interop ${curve}`]),
  );
  await step(`${curve} powersoftau prepare phase2`, snarkjs(["powersoftau", "prepare", "phase2", p1, final]));
  if (cached) {
    fs.mkdirSync(PTAU_DIR, { recursive: true });
    fs.copyFileSync(final, cached);
  }
  return final;
}

async function compile(curve, name) {
  const c = CIRCUITS[name];
  const dir = path.join(SCRATCH, curve, name);
  fs.mkdirSync(dir, { recursive: true });
  const lib = fs.realpathSync(CIRCOMLIB);
  const src = path.join(ROOT, c.file);
  const cwd = commonAncestor([src, lib, dir]);
  const rel = (p) => path.relative(cwd, p) || ".";
  const args = [rel(src), "--r1cs", "--wasm", "--prime", curve, ...c.flags, "-l", rel(lib), "-o", rel(dir)];
  await step(`${curve} ${name} circom2`, node(CIRCOM, args, { cwd }));
  const base = path.basename(c.file, ".circom");
  const r1cs = path.join(dir, `${base}.r1cs`);
  const wasm = path.join(dir, `${base}_js`, `${base}.wasm`);
  const r = CURVES[curve].E.fields.Fr.ORDER;
  const input = path.join(dir, "input.json");
  writeJson(input, c.input((l) => (hashBig(`cuzk interop ${curve} ${name} ${l}`) % r).toString()));
  const wtns = path.join(dir, "witness.wtns");
  await step(`${curve} ${name} wtns calculate`, snarkjs(["wtns", "calculate", wasm, input, wtns]));
  return { dir, r1cs, wtns };
}

async function snarkjsKey(curve, name, circ, ptau) {
  const z0 = path.join(circ.dir, "snarkjs_0.zkey"), z1 = path.join(circ.dir, "snarkjs.zkey");
  await step(`${curve} ${name} groth16 setup`, snarkjs(["groth16", "setup", circ.r1cs, ptau, z0]));
  await step(
    `${curve} ${name} zkey contribute`,
    snarkjs(["zkey", "contribute", z0, z1, "--name=interop", `-e=cuzk interop ${curve} ${name}`]),
  );
  return z1;
}

// The cuzk key source: `cuzk setup R1CS ZKEY --seed HEX --vk VK.json` (insecure test keys; a seed
// derived from the curve and circuit makes the keys the same every run).
async function cuzkKey(curve, name, circ) {
  const z = path.join(circ.dir, "cuzk_setup.zkey");
  const seed = crypto.createHash("sha256").update(`cuzk interop setup ${curve} ${name}`).digest("hex");
  const vk = path.join(circ.dir, "cuzk_setup_own_vk.json");
  await step(`${curve} ${name} cuzk setup`, cuzk(["setup", circ.r1cs, z, "--seed", seed, "--vk", vk]));
  return { zkey: z, ownVk: vk };
}

// Both circuits of a curve, one after the other (circom2 is single-threaded).
async function compileAll(curve) {
  const out = [];
  for (const name of Object.keys(CIRCUITS)) out.push(await compile(curve, name));
  return out;
}

// The ceremony runs alongside the compiles (`compiled`, a promise of compileAll's result).
async function setupCurve(curve, compiled) {
  const log = (m) => console.log(`[${curve}] ${m}`);
  const [ptau, circs] = await Promise.all([ceremony(curve, log), compiled]);
  const out = {};
  for (const [i, name] of Object.keys(CIRCUITS).entries()) {
    const circ = circs[i];
    circ.keys = [{ src: "snarkjs", zkey: await snarkjsKey(curve, name, circ, ptau) }];
    circ.keys.push({ src: "cuzk-setup", ...(await cuzkKey(curve, name, circ)) });
    for (const key of circ.keys) {
      key.vk = path.join(circ.dir, `${key.src}_vk.json`);
      await step(
        `${curve} ${name} ${key.src} zkey export verificationkey`,
        snarkjs(["zkey", "export", "verificationkey", key.zkey, key.vk]),
      );
    }
    out[name] = circ;
  }
  log(`setup done at ${secs(Date.now() - T0)} s`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Per-key checks: cross verification, vk export, deterministic proofs

async function keyChecks(curve, name, circ, key) {
  const tag = `${curve} ${name} [${key.src} key]`;
  const f = (s) => path.join(circ.dir, `${key.src}_${s}`);

  // cuzk vk == snarkjs zkey export verificationkey (every key, incl. vk_alphabeta_12)
  let res = await cuzk(["vk", key.zkey, f("cuzk_vk.json")]);
  if (check(`${tag}: cuzk vk exits 0`, res.code === 0, brief(res))) {
    const d = jsonDiff(readJson(f("cuzk_vk.json")), readJson(key.vk));
    check(`${tag}: cuzk vk output equals snarkjs zkey export verificationkey`, d === null, d ?? "");
  }
  if (key.ownVk) {
    const d = jsonDiff(readJson(key.ownVk), readJson(key.vk));
    check(`${tag}: cuzk setup --vk output equals snarkjs zkey export verificationkey`, d === null, d ?? "");
  }

  // cuzk prove (random r, s) -> snarkjs groth16 verify
  res = await cuzk(["prove", key.zkey, circ.wtns, f("cuzk_proof.json"), f("cuzk_public.json")]);
  times.push([`${tag} cuzk prove`, res.ms]);
  if (check(`${tag}: cuzk prove exits 0`, res.code === 0, brief(res))) {
    const v = await snarkjs(["groth16", "verify", key.vk, f("cuzk_public.json"), f("cuzk_proof.json")]);
    times.push([`${tag} snarkjs groth16 verify`, v.ms]);
    check(`${tag}: snarkjs groth16 verify accepts the cuzk proof`, v.code === 0 && /OK!/.test(v.out), brief(v));
  }

  // snarkjs groth16 prove -> cuzk verify; public.json identical
  const sp = await snarkjs(["groth16", "prove", key.zkey, circ.wtns, f("snarkjs_proof.json"), f("snarkjs_public.json")]);
  times.push([`${tag} snarkjs groth16 prove`, sp.ms]);
  if (check(`${tag}: snarkjs groth16 prove exits 0`, sp.code === 0, brief(sp))) {
    res = await cuzk(["verify", key.vk, f("snarkjs_public.json"), f("snarkjs_proof.json")]);
    times.push([`${tag} cuzk verify`, res.ms]);
    check(`${tag}: cuzk verify accepts the snarkjs proof`, res.code === 0 && /^OK$/m.test(res.out), brief(res));
    if (fs.existsSync(f("cuzk_public.json"))) {
      const d = jsonDiff(readJson(f("cuzk_public.json")), readJson(f("snarkjs_public.json")));
      check(`${tag}: cuzk public.json equals snarkjs public.json`, d === null, d ?? "");
    }
  }

  // Deterministic proofs: cuzk prove --r --s == spec_prove.mjs, point for point.
  const r = CURVES[curve].E.fields.Fr.ORDER;
  const blindings = [["fixed r, s", hashBig(`${tag} r`) % r, hashBig(`${tag} s`) % r]];
  if (name === "mulchain") blindings.push(["r = s = 0", 0n, 0n]);
  for (const [i, [what, rb, sb]] of blindings.entries()) {
    const hex = (v) => v.toString(16);
    const out = f(`det${i}_proof.json`);
    res = await cuzk(["prove", "--r", hex(rb), "--s", hex(sb), key.zkey, circ.wtns, out, f("det_public.json")]);
    if (!check(`${tag}: cuzk prove --r --s (${what}) exits 0`, res.code === 0, brief(res))) continue;
    const specOut = f(`det${i}_spec_proof.json`);
    const sr = await node(SPEC_PROVE, [key.zkey, circ.wtns, hex(rb), hex(sb), specOut]);
    times.push([`${tag} spec_prove.mjs (${what})`, sr.ms]);
    if (!check(`${tag}: spec_prove.mjs (${what}) exits 0`, sr.code === 0, brief(sr))) continue;
    const spec = readJson(specOut);
    const mine = readJson(out);
    const d = jsonDiff(
      { pi_a: mine.pi_a, pi_b: mine.pi_b, pi_c: mine.pi_c },
      { pi_a: spec.pi_a, pi_b: spec.pi_b, pi_c: spec.pi_c },
    );
    check(`${tag}: cuzk proof with ${what} equals spec_prove.mjs (pi_a, pi_b, pi_c)`, d === null, d ?? "");
    if (i === 0) {
      // ... and is valid (so the oracle is checked too, not only its agreement with cuzk).
      const v = await snarkjs(["groth16", "verify", key.vk, f("det_public.json"), out]);
      check(`${tag}: snarkjs groth16 verify accepts the proof with ${what}`, v.code === 0 && /OK!/.test(v.out), brief(v));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Rejections: tampered proofs and public inputs (cuzk verify)

// An on-curve point outside the prime-order subgroup (null where the cofactor is 1).
function offSubgroupPoint(E, group) {
  const G = group === 1 ? E.G1 : E.G2;
  const F = group === 1 ? E.fields.Fp : E.fields.Fp2;
  const b = G.Point.BASE;
  // b' of the curve: y² - x³ at the generator.
  const { x: gx, y: gy } = b.toAffine();
  const coefB = F.sub(F.sqr(gy), F.mul(F.sqr(gx), gx));
  for (let i = 1n; i < 1000n; i++) {
    const x = group === 1 ? F.create(i) : F.fromBigTuple([i, 1n]);
    const rhs = F.add(F.mul(F.sqr(x), x), coefB);
    let y;
    try {
      y = F.sqrt(rhs);
    } catch {
      continue;
    }
    if (!y || !F.eql(F.sqr(y), rhs)) continue;
    const P = G.Point.fromAffine({ x, y });
    if (!P.isTorsionFree()) return P;
    if (group === 1 && E === bn254) return null; // BN254 G1: cofactor 1
  }
  return null;
}

const g1Json = (P) => {
  const { x, y } = P.toAffine();
  return [x.toString(), y.toString(), "1"];
};
const g2Json = (P) => {
  const { x, y } = P.toAffine();
  return [[x.c0.toString(), x.c1.toString()], [y.c0.toString(), y.c1.toString()], ["1", "0"]];
};

async function rejectChecks(curve, name, circ) {
  const key = circ.keys[0];
  const tag = `${curve} ${name} reject`;
  const proofFile = path.join(circ.dir, `${key.src}_snarkjs_proof.json`);
  const pubFile = path.join(circ.dir, `${key.src}_snarkjs_public.json`);
  if (!fs.existsSync(proofFile)) {
    check(`${tag}: a snarkjs proof to tamper with exists`, false, proofFile);
    return;
  }
  const proof = readJson(proofFile), pub = readJson(pubFile);
  const { E } = CURVES[curve];
  const q = E.fields.Fp.ORDER, r = E.fields.Fr.ORDER;
  const badProof = path.join(circ.dir, "tampered_proof.json");
  const badPub = path.join(circ.dir, "tampered_public.json");
  const verify = async (p, pb, what, wantCode, wantMsg) => {
    writeJson(badProof, p);
    writeJson(badPub, pb);
    const res = await cuzk(["verify", key.vk, badPub, badProof]);
    const msgOk = wantMsg.test(res.out + res.err);
    check(`${tag}: ${what} -> exit ${wantCode}, message ${wantMsg}`, res.code === wantCode && msgOk, brief(res));
  };
  const clone = (v) => JSON.parse(JSON.stringify(v));
  const g1 = ([x, y]) => E.G1.Point.fromAffine({ x: BigInt(x), y: BigInt(y) });
  const f2 = ([c0, c1]) => E.fields.Fp2.fromBigTuple([BigInt(c0), BigInt(c1)]);
  const g2 = ([x, y]) => E.G2.Point.fromAffine({ x: f2(x), y: f2(y) });

  // The untouched files are valid (so each rejection below is due to the one change).
  await verify(proof, pub, "untouched snarkjs proof", 0, /^OK$/m);

  // rapidsnark's proof.json has no "curve": the key's curve is used. Another curve is refused.
  const { curve: _, ...noCurve } = proof;
  await verify(noCurve, pub, 'snarkjs proof without "curve" (as rapidsnark writes it)', 0, /^OK$/m);
  const otherCurve = curve === "bn128" ? "bls12381" : "bn128";
  await verify({ ...proof, curve: otherCurve }, pub, `proof with "curve": "${otherCurve}"`, 3,
    new RegExp(`"curve" is "${otherCurve}" but the verification key's is ${curve}`));

  // Another valid point in place of pi_a, pi_b, pi_c: a wrong proof (exit 1).
  const other = {
    pi_a: g1Json(g1(proof.pi_a).add(E.G1.Point.BASE)),
    pi_b: g2Json(g2(proof.pi_b).add(E.G2.Point.BASE)),
    pi_c: g1Json(g1(proof.pi_c).double()),
  };
  for (const k of ["pi_a", "pi_b", "pi_c"]) {
    const p = clone(proof);
    p[k] = other[k];
    await verify(p, pub, `${k} replaced by another valid point`, 1, /INVALID/);
  }

  // Each coordinate incremented (mod q): off the curve (exit 3).
  const coords = [
    ["pi_a", [0]], ["pi_a", [1]],
    ["pi_b", [0, 0]], ["pi_b", [0, 1]], ["pi_b", [1, 0]], ["pi_b", [1, 1]],
    ["pi_c", [0]], ["pi_c", [1]],
  ];
  for (const [k, idx] of coords) {
    const p = clone(proof);
    let holder = p[k];
    for (const i of idx.slice(0, -1)) holder = holder[i];
    const last = idx[idx.length - 1];
    holder[last] = ((BigInt(holder[last]) + 1n) % q).toString();
    await verify(p, pub, `${k}${idx.map((i) => `[${i}]`).join("")} + 1 (off the curve)`, 3, /curve/i);
  }

  // On the curve but outside the prime-order subgroup (exit 3).
  for (const [k, group] of [["pi_a", 1], ["pi_b", 2], ["pi_c", 1]]) {
    const P = offSubgroupPoint(E, group);
    if (!P) continue; // BN254 G1 has cofactor 1
    const p = clone(proof);
    p[k] = group === 1 ? g1Json(P) : g2Json(P);
    await verify(p, pub, `${k} on the curve, not in the subgroup`, 3, /subgroup/i);
  }

  // Public inputs: a changed value (exit 1), a value >= r (exit 3), wrong counts (exit 3).
  let pb = clone(pub);
  pb[pb.length - 1] = ((BigInt(pb[pb.length - 1]) + 1n) % r).toString();
  await verify(proof, pb, "last public input + 1", 1, /INVALID/);
  pb = clone(pub);
  pb[0] = (BigInt(pb[0]) + r).toString(); // same value mod r, but not canonical
  await verify(proof, pb, "public input + r (>= r)", 3, /public/i);
  pb = clone(pub);
  pb[0] = r.toString();
  await verify(proof, pb, "public input = r", 3, /public/i);
  await verify(proof, pub.slice(0, -1), `${pub.length - 1} public inputs instead of ${pub.length}`, 3, /public/i);
  await verify(proof, [...pub, "1"], `${pub.length + 1} public inputs instead of ${pub.length}`, 3, /public/i);
}

// ---------------------------------------------------------------------------------------------
// Bad inputs to cuzk prove

// setup: this curve's circuits (setupCurve); otherCurveCircs: the other curve's (compileAll).
async function badInputChecks(curve, setup, otherCurveCircs) {
  const names = Object.keys(CIRCUITS);
  const mine = setup[names[0]];
  const otherCircuit = setup[names[1]];
  const otherCurve = otherCurveCircs[0];
  const zkey = mine.keys[0].zkey;
  const tag = `${curve} prove bad input`;
  const out = path.join(mine.dir, "bad_proof.json"), outPub = path.join(mine.dir, "bad_public.json");
  const expectFail = async (what, zk, wt, blame) => {
    fs.rmSync(out, { force: true });
    const res = await cuzk(["prove", zk, wt, out, outPub]);
    const named = res.err.includes(path.basename(blame));
    check(
      `${tag}: ${what} -> exit 3 naming ${path.basename(blame)}`,
      res.code === 3 && named && !fs.existsSync(out),
      brief(res),
    );
  };
  // Witness of the other circuit (different signal count), and of the other curve.
  await expectFail("witness of another circuit", zkey, otherCircuit.wtns, otherCircuit.wtns);
  const otherWtns = path.join(mine.dir, "other_curve.wtns");
  fs.copyFileSync(otherCurve.wtns, otherWtns);
  await expectFail("witness of the other curve", zkey, otherWtns, otherWtns);
  // Truncated proving keys: mid-file (in a point section), and a few bytes short of the end.
  const bytes = fs.readFileSync(zkey);
  for (const [what, len] of [
    ["zkey truncated to half", Math.floor(bytes.length / 2)],
    ["zkey missing its last 7 bytes", bytes.length - 7],
    ["zkey truncated inside the header", 200],
  ]) {
    const t = path.join(mine.dir, `trunc_${len}.zkey`);
    fs.writeFileSync(t, bytes.subarray(0, len));
    await expectFail(what, t, mine.wtns, t);
  }
}

// ---------------------------------------------------------------------------------------------

// One curve: setup, then its checks. The two curves run concurrently (2 cores: one mostly runs
// snarkjs's wasm workers while the other starts node processes or runs spec_prove).
async function pipeline(curve, compiled) {
  let setup;
  try {
    setup = await setupCurve(curve, compiled[curve]);
  } catch (e) {
    check(`${curve} setup (ceremony, compile, witness, keys)`, false, e instanceof StepError ? e.message : String(e.stack ?? e));
    return;
  }
  const t = Date.now();
  for (const [name, circ] of Object.entries(setup)) {
    for (const key of circ.keys) await keyChecks(curve, name, circ, key);
    await rejectChecks(curve, name, circ);
  }
  const other = Object.keys(CURVES).find((c) => c !== curve);
  let otherCircs = null;
  try {
    otherCircs = await compiled[other];
  } catch {
    check(`${curve} prove bad input: fixtures of ${other}`, false, `${other} did not compile`);
  }
  if (otherCircs) await badInputChecks(curve, setup, otherCircs);
  times.push([`${curve} checks (after its setup)`, Date.now() - t]);
}

async function main() {
  console.log(`interop: cuzk ${CUZK}, scratch ${SCRATCH}`);
  const compiled = {};
  for (const curve of Object.keys(CURVES)) {
    compiled[curve] = compileAll(curve);
    compiled[curve].catch(() => {}); // failures are reported by whoever awaits it
  }
  await Promise.all(Object.keys(CURVES).map((c) => pipeline(c, compiled)));
}

try {
  await main();
} catch (e) {
  check("driver runs to the end", false, String(e.stack ?? e));
}
console.log("\ntimes (s):");
for (const [label, ms] of times) console.log(`  ${secs(ms).padStart(6)}  ${label}`);
console.log(`  ${secs(Date.now() - T0).padStart(6)}  total`);
if (failures.length) console.log(`\nfailed checks:\n${failures.join("\n")}`);
console.log(`\n${passed} passed, ${failures.length} failed`);
process.exit(failures.length === 0 && passed > 0 ? 0 : 1);
