// Fixtures for tests/formats/: a tiny circom circuit compiled by circom (circom2, WASM) for bn128 and
// bls12381, its witness computed by snarkjs, and a Groth16 zkey from snarkjs's own small ceremony;
// plus JSON dumps of each file made by snarkjs's own readers (the independent oracle the C readers
// are compared against). Usage: node tests/vectors/formats_vectors.mjs OUTDIR
//
// Everything is written under OUTDIR/formats/<curve>/; nothing is cached elsewhere. The ceremony
// entropy is fixed text, so the run is deterministic apart from snarkjs's own internal randomness in
// `powersoftau new`/`contribute` (the C tests compare against the JSON dumped from the same files,
// so they do not depend on the exact values).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import * as snarkjs from "snarkjs";

const outRoot = process.argv[2];
if (!outRoot) {
    console.error("usage: node formats_vectors.mjs OUTDIR");
    process.exit(2);
}
const NSTEPS = 16; // constraints of the multiplication chain
const POWER = 5; // ptau power: domain 32 > 16 constraints + 2 public

const circuit = `pragma circom 2.0.0;

// x[i+1] = x[i]^2 + b, ${NSTEPS} steps: ${NSTEPS} constraints, b public, out public.
template MulChain(n) {
    signal input a;
    signal input b;
    signal output out;
    signal x[n + 1];
    x[0] <== a;
    for (var i = 0; i < n; i++) {
        x[i + 1] <== x[i] * x[i] + b;
    }
    out <== x[n];
}

component main { public [b] } = MulChain(${NSTEPS});
`;

// Stringify BigInts (and nested arrays/objects of them) as decimal strings.
function jsonify(v) {
    return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x));
}

const quiet = { debug() {}, info() {}, warn() {}, error: console.error };

async function makeCurve(curve) {
    const dir = path.join(outRoot, "formats", curve);
    fs.mkdirSync(dir, { recursive: true });
    const src = path.join(dir, "mulchain.circom");
    fs.writeFileSync(src, circuit);
    // circom2 runs under WASI: relative paths, run from the repository root (a common ancestor).
    const rel = path.relative(process.cwd(), dir);
    execFileSync(
        "node_modules/.bin/circom2",
        [path.join(rel, "mulchain.circom"), "--r1cs", "--wasm", "--prime", curve, "-o", rel],
        { stdio: ["ignore", "ignore", "inherit"] },
    );
    const r1cs = path.join(dir, "mulchain.r1cs");
    const wasm = path.join(dir, "mulchain_js", "mulchain.wasm");
    const wtns = path.join(dir, "mulchain.wtns");
    await snarkjs.wtns.calculate({ a: "3", b: "11" }, wasm, wtns);

    const pot0 = path.join(dir, "pot0.ptau");
    const pot1 = path.join(dir, "pot1.ptau");
    const pot = path.join(dir, "pot.ptau");
    await snarkjs.powersOfTau.newAccumulator(await curveObj(curve), POWER, pot0, quiet);
    await snarkjs.powersOfTau.contribute(pot0, pot1, "c1", "formats fixture entropy", quiet);
    await snarkjs.powersOfTau.preparePhase2(pot1, pot, quiet);
    const zkey0 = path.join(dir, "mulchain_0.zkey");
    const zkey = path.join(dir, "mulchain.zkey");
    await snarkjs.zKey.newZKey(r1cs, pot, zkey0, quiet);
    // bn128: contributed key (sections 1..10 in order); bls12381: the setup's own key, whose
    // sections are out of order (1,2,4,3,9,8,5,6,7,10) — both layouts get read.
    if (curve === "bn128") {
        await snarkjs.zKey.contribute(zkey0, zkey, "c1", "more fixture entropy", quiet);
        fs.rmSync(zkey0);
    } else {
        fs.renameSync(zkey0, zkey);
    }
    for (const f of [pot0, pot1, pot]) fs.rmSync(f);

    fs.writeFileSync(path.join(dir, "zkey.json"), jsonify(await snarkjs.zKey.exportJson(zkey)));
    fs.writeFileSync(path.join(dir, "wtns.json"), jsonify(await snarkjs.wtns.exportJson(wtns)));
    fs.writeFileSync(path.join(dir, "r1cs.json"), jsonify(await snarkjs.r1cs.exportJson(r1cs, quiet)));
}

async function curveObj(name) {
    return name === "bn128" ? snarkjs.curves.getCurveFromName("bn128") : snarkjs.curves.getCurveFromName("bls12381");
}

for (const c of ["bn128", "bls12381"]) await makeCurve(c);
process.exit(0);
