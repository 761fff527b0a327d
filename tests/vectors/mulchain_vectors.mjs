// Fixtures for tests/circuits/test_mulchain.c: the multiplication-chain circuit as written by the
// JavaScript generator bench/gen_mulchain.mjs (BigInt arithmetic, independent of the C code), run
// as it is for a few sizes on both curves. The C generator must give the same bytes.
// Usage: node tests/vectors/mulchain_vectors.mjs OUTDIR
//
// Written under OUTDIR/mulchain/: <curve>-<n>.r1cs and <curve>-<n>.wtns for curve in bn128,
// bls12381 and n in SIZES (x0 = 3, b = 7, the generator's fixed inputs).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const outRoot = process.argv[2];
if (!outRoot) {
    console.error("usage: node mulchain_vectors.mjs OUTDIR");
    process.exit(2);
}
const SIZES = [1, 2, 5, 13, 61, 300];
const gen = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../bench/gen_mulchain.mjs");
const dir = path.join(outRoot, "mulchain");
fs.mkdirSync(dir, { recursive: true });
for (const curve of ["bn128", "bls12381"]) {
    for (const n of SIZES) {
        execFileSync(process.execPath, [gen, curve, String(n), path.join(dir, `${curve}-${n}`)], {
            stdio: ["ignore", "ignore", "inherit"],
        });
    }
}
console.log(`mulchain vectors: ${2 * SIZES.length} circuits in ${dir}`);
