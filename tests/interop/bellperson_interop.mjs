// cuzk's BLS12-381 proofs in bellperson's byte formats, checked by an independent verifier
// (ctest interop_bellperson_verify, docs/groth16.md "The bellperson oracle"):
//
//   node tests/interop/bellperson_interop.mjs <cz-bellperson-export> <scratch dir>
//
// cz-bellperson-export (tests/interop/bellperson_export.c) proves with cuzk's prover and writes
// each set as vk / proofs / inputs.json, printing cuzk's verdict per set. The oracle
// (bellperson_verify.mjs, @noble/curves) must agree on every set: exit 0 for the valid ones
// (several proofs of a γ ≠ 1 key, one proof alone, a snarkjs-ceremony key), exit 1 for the ones
// cuzk rejects (a moved A, a changed input). A copy of valid proofs with one byte damaged must be
// refused as malformed (exit 2), and valid proofs with another set's inputs as invalid (exit 1).
// Ends with "N passed, N failed".
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const oracle = join(here, "bellperson_verify.mjs");
const [exporter, scratch] = process.argv.slice(2);
if (!exporter || !scratch) {
  console.error("usage: node bellperson_interop.mjs <cz-bellperson-export> <scratch dir>");
  process.exit(2);
}
mkdirSync(scratch, { recursive: true });

let passed = 0, failed = 0;
const check = (ok, what) => {
  if (ok) passed++;
  else {
    failed++;
    console.error(`FAIL ${what}`);
  }
};

const ex = spawnSync(exporter, [scratch], { encoding: "utf8" });
if (ex.status !== 0) {
  console.error(`${exporter} exited ${ex.status}: ${ex.stderr}`);
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const sets = ex.stdout.trim().split("\n").map((l) => l.split(" "));
check(sets.length === 5, `the exporter wrote ${sets.length} sets, expected 5`);

const verify = (dir, proofs = join(dir, "proofs"), inputs = join(dir, "inputs.json")) => {
  const res = spawnSync(process.execPath, [oracle, join(dir, "vk"), proofs, inputs], { encoding: "utf8" });
  return { status: res.status, out: res.stdout + res.stderr };
};

for (const [name, verdict] of sets) {
  const { status, out } = verify(join(scratch, name));
  const want = verdict === "valid" ? 0 : 1;
  check(status === want, `${name}: cuzk says ${verdict}, the oracle exits ${status}: ${out.trim()}`);
}
check(sets.some(([n, v]) => n === "ptc" && v === "valid") && sets.some(([, v]) => v === "invalid"),
  "the sets include valid and invalid ones");

{
  const dir = join(scratch, "ptc");
  const damaged = Buffer.from(readFileSync(join(dir, "proofs")));
  damaged[192 + 48 + 30] ^= 0x04; // proof 1's B: x moved, off the curve or the subgroup
  const p = join(scratch, "ptc_damaged_proofs");
  writeFileSync(p, damaged);
  const { status, out } = verify(dir, p);
  check(status === 2, `one byte of proof 1 damaged: the oracle exits ${status}: ${out.trim()}`);

  // The proofs of ptc with the inputs of ptc_bad_input: well-formed, proof 1 invalid.
  const r = verify(dir, join(dir, "proofs"), join(scratch, "ptc_bad_input", "inputs.json"));
  check(r.status === 1 && /partition 1: INVALID/.test(r.out) && /partition 0: valid/.test(r.out),
    `ptc with ptc_bad_input's inputs: the oracle exits ${r.status}: ${r.out.trim()}`);
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
