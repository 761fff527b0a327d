// Fixtures for tests/groth16/test_setup.c: small circom
// circuits compiled by circom (circom2, WASM) for bn128 and bls12381, their witnesses computed by
// snarkjs, a fixed trapdoor, and the proving key that trapdoor must give, computed here
// independently of the C code: BigInt field arithmetic, the Lagrange formulas as written in
// research/circom-snarkjs.md §5.5 (H from the 2n-domain basis L'_{2i+1}), and @noble/curves
// scalar multiplications. Usage: node tests/vectors/setup_vectors.mjs OUTDIR
//
// Written under OUTDIR/setup/<curve>/:
//   mulchain.r1cs, mulchain.wtns     x[i+1] = x[i]^2 + b, NSTEPS steps (b public, out public)
//   poseidon.r1cs, poseidon.wtns     circomlib Poseidon(2) chained NHASH times (salt public)
//   trapdoor.json                    {tau, alpha, beta, gamma, delta}: 32-byte LE hex each
//   expected.json                    the mulchain key: header numbers, every point as snarkjs LEM
//                                    hex ("" for nothing), coefficient entries [m, row, signal, hex]
// Deterministic: the trapdoor comes from a fixed-seed PRNG, witnesses from fixed inputs.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import * as snarkjs from "snarkjs";
import { bn254 } from "@noble/curves/bn254.js";
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { seededRng } from "./lib/prng.mjs";

const outRoot = process.argv[2];
if (!outRoot) {
    console.error("usage: node setup_vectors.mjs OUTDIR");
    process.exit(2);
}
const NSTEPS = 5; // 5 constraints + 2 public + 1 = 8 rows: domain 8, exactly full
const NHASH = 3;

const CURVES = {
    bn128: {
        E: bn254,
        q: 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47n,
        r: 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n,
        n8q: 32,
        s: 28,
    },
    bls12381: {
        E: bls12_381,
        q: 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn,
        r: 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n,
        n8q: 48,
        s: 32,
    },
};

const mulchain = `pragma circom 2.0.0;

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

const poseidon = `pragma circom 2.0.0;

include "circomlib/poseidon.circom";

template Chain(m) {
    signal input x;
    signal input salt;
    signal output out;
    signal h[m + 1];
    component p[m];
    h[0] <== x;
    for (var i = 0; i < m; i++) {
        p[i] = Poseidon(2);
        p[i].inputs[0] <== h[i];
        p[i].inputs[1] <== salt;
        h[i + 1] <== p[i].out;
    }
    out <== h[m];
}

component main { public [salt] } = Chain(${NHASH});
`;

// ---- BigInt field helpers -------------------------------------------------------------------
const mod = (a, m) => ((a % m) + m) % m;
function pow(b, e, m) {
    let r = 1n;
    b = mod(b, m);
    while (e > 0n) {
        if (e & 1n) r = (r * b) % m;
        b = (b * b) % m;
        e >>= 1n;
    }
    return r;
}
const inv = (a, m) => pow(a, m - 2n, m);

// ffjavascript's roots: w[s] = 5^((r-1) >> s), w[k] = w[k+1]^2.
function rootOfUnity(C, k) {
    let w = pow(5n, (C.r - 1n) >> BigInt(C.s), C.r);
    for (let i = C.s; i > k; i--) w = (w * w) % C.r;
    return w;
}

// Deterministic scalars: values reduced mod r from 512 bits.
const { next64 } = seededRng(0x9e3779b97f4a7c15n);
function randomScalar(r) {
    let x = 0n;
    for (let i = 0; i < 8; i++) x = (x << 64n) | next64();
    return mod(x, r - 1n) + 1n; // non-zero
}

const leHex = (v, n) => {
    let s = "";
    for (let i = 0; i < n; i++) s += Number((v >> BigInt(8 * i)) & 0xffn).toString(16).padStart(2, "0");
    return s;
};

// snarkjs LEM: coordinates x·R mod q little-endian, R = 2^(8·n8q); infinity = all zero.
function lemG1(C, P) {
    if (P.is0()) return "00".repeat(2 * C.n8q);
    const R = 1n << BigInt(8 * C.n8q);
    const a = P.toAffine();
    return leHex((a.x * R) % C.q, C.n8q) + leHex((a.y * R) % C.q, C.n8q);
}
function lemG2(C, P) {
    if (P.is0()) return "00".repeat(4 * C.n8q);
    const R = 1n << BigInt(8 * C.n8q);
    const a = P.toAffine();
    return [a.x.c0, a.x.c1, a.y.c0, a.y.c1].map((c) => leHex((c * R) % C.q, C.n8q)).join("");
}
const mulG1 = (C, k) => (k === 0n ? C.E.G1.Point.ZERO : C.E.G1.Point.BASE.multiply(k));
const mulG2 = (C, k) => (k === 0n ? C.E.G2.Point.ZERO : C.E.G2.Point.BASE.multiply(k));

// ---- .r1cs reader (file order of terms, which the zkey's coefficient section follows) -----------
function readR1cs(file) {
    const b = fs.readFileSync(file);
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    let pos = 12;
    const nsect = dv.getUint32(8, true);
    const sect = {};
    for (let i = 0; i < nsect; i++) {
        const id = dv.getUint32(pos, true);
        const size = Number(dv.getBigUint64(pos + 4, true));
        sect[id] = pos + 12;
        pos += 12 + size;
    }
    let h = sect[1];
    const n8 = dv.getUint32(h, true);
    h += 4 + n8;
    const nWires = dv.getUint32(h, true);
    const nPubOut = dv.getUint32(h + 4, true);
    const nPubIn = dv.getUint32(h + 8, true);
    const nConstraints = dv.getUint32(h + 24, true);
    const readBig = (p) => {
        let v = 0n;
        for (let i = n8 - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[p + i]);
        return v;
    };
    let p = sect[2];
    const constraints = [];
    for (let c = 0; c < nConstraints; c++) {
        const lcs = [];
        for (let m = 0; m < 3; m++) {
            const nt = dv.getUint32(p, true);
            p += 4;
            const terms = [];
            for (let t = 0; t < nt; t++) {
                terms.push([dv.getUint32(p, true), readBig(p + 4)]);
                p += 4 + n8;
            }
            lcs.push(terms);
        }
        constraints.push(lcs);
    }
    return { nWires, nPublic: nPubOut + nPubIn, nConstraints, constraints };
}

// ---- the expected key --------------------------------------------------------------------------
function expectedKey(C, cs, td) {
    const r = C.r;
    const { nWires, nPublic, nConstraints, constraints } = cs;
    const nrows = nConstraints + nPublic + 1;
    let k = 0;
    while (1 << k < nrows) k++;
    const n = 1 << k;
    const N = BigInt(n);
    const omega = rootOfUnity(C, k);
    const tau = td.tau;
    // n-domain Lagrange basis at tau.
    const zn = mod(pow(tau, N, r) - 1n, r);
    const L = [];
    for (let i = 0, wi = 1n; i < n; i++, wi = (wi * omega) % r)
        L.push((((zn * inv(N, r)) % r) * wi % r) * inv(mod(tau - wi, r), r) % r);
    const u = Array(nWires).fill(0n), v = Array(nWires).fill(0n), w = Array(nWires).fill(0n);
    const coefs = [];
    const R2 = (1n << 512n) % r;
    constraints.forEach(([A, B, Cc], row) => {
        for (const [s, c] of A) {
            u[s] = (u[s] + c * L[row]) % r;
            coefs.push([0, row, s, leHex((c * R2) % r, 32)]);
        }
        for (const [s, c] of B) {
            v[s] = (v[s] + c * L[row]) % r;
            coefs.push([1, row, s, leHex((c * R2) % r, 32)]);
        }
        for (const [s, c] of Cc) w[s] = (w[s] + c * L[row]) % r;
    });
    for (let s = 0; s <= nPublic; s++) {
        u[s] = (u[s] + L[nConstraints + s]) % r;
        coefs.push([0, nConstraints + s, s, leHex(R2, 32)]);
    }
    const gi = inv(td.gamma, r), di = inv(td.delta, r);
    const lin = (s) => (td.beta * u[s] + td.alpha * v[s] + w[s]) % r;
    // H_i = L'_{2i+1}(tau)/delta over the 2n-domain generated by g = w[k+1].
    const g = rootOfUnity(C, k + 1);
    const z2n = mod(pow(tau, 2n * N, r) - 1n, r);
    const H = [];
    for (let i = 0; i < n; i++) {
        const gj = pow(g, BigInt(2 * i + 1), r);
        const Lp = (((z2n * inv(2n * N, r)) % r) * gj % r) * inv(mod(tau - gj, r), r) % r;
        H.push(lemG1(C, mulG1(C, (Lp * di) % r)));
    }
    const range = (a, b) => Array.from({ length: b - a }, (_, i) => a + i);
    return {
        nvars: nWires,
        npublic: nPublic,
        domain_size: n,
        alpha1: lemG1(C, mulG1(C, td.alpha)),
        beta1: lemG1(C, mulG1(C, td.beta)),
        beta2: lemG2(C, mulG2(C, td.beta)),
        gamma2: lemG2(C, mulG2(C, td.gamma)),
        delta1: lemG1(C, mulG1(C, td.delta)),
        delta2: lemG2(C, mulG2(C, td.delta)),
        ic: range(0, nPublic + 1).map((s) => lemG1(C, mulG1(C, (lin(s) * gi) % r))),
        coefs,
        a: u.map((x) => lemG1(C, mulG1(C, x))),
        b1: v.map((x) => lemG1(C, mulG1(C, x))),
        b2: v.map((x) => lemG2(C, mulG2(C, x))),
        c: range(nPublic + 1, nWires).map((s) => lemG1(C, mulG1(C, (lin(s) * di) % r))),
        h: H,
    };
}

function compile(dir, name, curve) {
    const rel = path.relative(process.cwd(), dir);
    execFileSync(
        "node_modules/.bin/circom2",
        [path.join(rel, `${name}.circom`), "--r1cs", "--wasm", "--prime", curve, "-o", rel],
        { stdio: ["ignore", "ignore", "inherit"] },
    );
}

async function makeCurve(curve) {
    const C = CURVES[curve];
    const dir = path.join(outRoot, "setup", curve);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "mulchain.circom"), mulchain);
    fs.writeFileSync(path.join(dir, "poseidon.circom"), poseidon);
    // circom2 (WASI) cannot follow node_modules when it is a link out of the tree: copy the two
    // circomlib files next to the circuit.
    fs.mkdirSync(path.join(dir, "circomlib"), { recursive: true });
    for (const f of ["poseidon.circom", "poseidon_constants.circom"])
        fs.copyFileSync(path.join("node_modules", "circomlib", "circuits", f), path.join(dir, "circomlib", f));
    compile(dir, "mulchain", curve);
    compile(dir, "poseidon", curve);
    await snarkjs.wtns.calculate({ a: "3", b: "11" }, path.join(dir, "mulchain_js", "mulchain.wasm"),
        path.join(dir, "mulchain.wtns"));
    await snarkjs.wtns.calculate({ x: "5", salt: "77" }, path.join(dir, "poseidon_js", "poseidon.wasm"),
        path.join(dir, "poseidon.wtns"));

    // gamma != 1 on purpose: the key must not depend on snarkjs's gamma = 1.
    const td = {};
    for (const name of ["tau", "alpha", "beta", "gamma", "delta"]) td[name] = randomScalar(C.r);
    fs.writeFileSync(path.join(dir, "trapdoor.json"),
        JSON.stringify(Object.fromEntries(Object.entries(td).map(([k, v]) => [k, leHex(v, 32)]))));
    const cs = readR1cs(path.join(dir, "mulchain.r1cs"));
    fs.writeFileSync(path.join(dir, "expected.json"), JSON.stringify(expectedKey(C, cs, td)));
}

for (const c of ["bn128", "bls12381"]) await makeCurve(c);
process.exit(0);
