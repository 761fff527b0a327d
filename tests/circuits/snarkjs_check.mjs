// snarkjs_check.mjs: snarkjs's independent view of a synthetic PoRep-shaped circuit written by
// cuzk (driven by tests/circuits/test_porep_synth.c, one node process for every check):
//
//   node tests/circuits/snarkjs_check.mjs R1CS WTNS BAD_WTNS NWIRES NCONSTRAINTS NPUBLIC VK PUBLIC PROOF
//
// r1cs.info must report the counts, wtns.check must accept WTNS (snarkjs evaluates every
// constraint itself) and reject BAD_WTNS (one flipped bit), groth16.verify must accept the proof.
// Prints "ok"/"FAIL" per check; exit status 1 if any failed.
import path from "node:path";
import * as snarkjs from "snarkjs";

const [r1cs, wtns, bad, nWires, nCons, nPub, vk, pub, proof] = process.argv.slice(2);
const read = async (p) => JSON.parse(await (await import("node:fs/promises")).readFile(p, "utf8"));
const quiet = { info() {}, warn() {}, error() {}, debug() {} };
let failed = 0;
const check = (name, ok) => {
  console.log(`${ok ? "ok" : "FAIL"} ${name}`);
  if (!ok) failed++;
};
try {
  const cir = await snarkjs.r1cs.info(path.resolve(r1cs));
  check("r1cs info: wires", cir.nVars === Number(nWires));
  check("r1cs info: constraints", cir.nConstraints === Number(nCons));
  check("r1cs info: public inputs", cir.nPubInputs + cir.nOutputs === Number(nPub));
  await cir.curve.terminate();
  check("wtns check: witness is correct", (await snarkjs.wtns.check(r1cs, wtns, quiet)) === true);
  check("wtns check: flipped bit is rejected", (await snarkjs.wtns.check(r1cs, bad, quiet)) === false);
  const ok = await snarkjs.groth16.verify(await read(vk), await read(pub), await read(proof));
  check("groth16 verify: cuzk proof", ok === true);
} catch (e) {
  check(`no exception (${e && e.message})`, false);
}
process.exit(failed ? 1 : 0);
