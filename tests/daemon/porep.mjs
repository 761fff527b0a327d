// PoRep C2 through cuzk-daemon over gRPC (docs/daemon.md, "Filecoin proofs"): POREP_SEAL_COMMIT
// of a 2 KiB sector sealed by `cuzk filecoin seal-2k` (its C1 in Curio's envelope), on the CPU
// backend, under a local key made by `cuzk filecoin setup porep-c2` (under ctest, once for every
// test that proves with it: the filecoin_keys_2k fixture).
// Oracles: the proof is verified by `cuzk filecoin verify porep-c2` and by the independent
// @noble/curves verifier (tests/interop/bellperson_verify.mjs) against public inputs computed
// here from the specification (tests/vectors/lib/porep_spec.mjs: the replica id from the miner,
// the sector, the ticket and comm_d; the challenges from the seed; the parents from the graph).
// Bad C1s (truncated, another sector size, a changed label, a changed path element, a wrong
// comm_d, another miner or sector), each refused with INVALID_ARGUMENT and a message naming
// what is wrong, while a job of another kind completes.
//
// The C1 is checked before the key is looked for, so under the sanitizers (CZ_DAEMON_SANITIZER)
// and in the ThreadSanitizer run (CZ_DAEMON_TEST_LIGHT=1) no key is made and no proof run (a 2 KiB
// partition is 2.7 M rows): the bad C1s are refused the same way, and the good one fails for its
// missing key (FAILED_PRECONDITION naming the file).
//
//   node tests/daemon/porep.mjs <cuzk-daemon> <scratch dir> <cuzk>
// Exit 0 all passed, 1 a check failed, 77 skipped (the npm modules are missing).
import fs from "node:fs";
import path from "node:path";
import { setup, check, finish, root, cuzkCli, keys2k, FilecoinDaemon } from "./harness.mjs";

const h = await setup("porep");
const { scratch, grpc, code, codeName } = h;
const { run } = await cuzkCli("porep");
const { verifyFiles } = await import(path.join(root, "tests/interop/bellperson_verify.mjs"));
const spec = await import(path.join(root, "tests/vectors/lib/porep_spec.mjs"));
const t0 = Date.now();
const MINER = 1000, SECTOR = 7, REGISTERED = 5; // StackedDrg2KiBV1_1
// CMake passes CZ_SANITIZE as it is: "address", "thread", or OFF (none).
const light = process.env.CZ_DAEMON_TEST_LIGHT === "1" ||
  ["address", "thread"].includes(process.env.CZ_DAEMON_SANITIZER);

const params = keys2k(scratch, run, "porep-c2", "0105", light);
let r;
const sealed = path.join(scratch, "sealed");
r = run(["filecoin", "seal-2k", "--miner", String(MINER), "--sector", String(SECTOR), "--seed", "9", "-o", sealed]);
check("seal-2k", r.rc === 0, r.err);
const c1File = path.join(sealed, "c1.json");
const envelope = fs.readFileSync(c1File);
const keyFile = (ext) => path.join(params, fs.readdirSync(params).find((x) => x.endsWith(ext)));

// The envelope's C1, and an envelope of a changed C1.
const env = JSON.parse(envelope);
const c1 = JSON.parse(Buffer.from(env.Phase1Out, "base64"));
const wrap = (c, over = {}) => Buffer.from(JSON.stringify({
  SectorNum: SECTOR, Phase1Out: Buffer.from(JSON.stringify(c)).toString("base64"), SectorSize: 2048, ...over,
}));
const changed = (edit) => { const c = structuredClone(c1); edit(c); return wrap(c); };

// --- the public inputs from the specification
const leBig = (a) => { let x = 0n; for (let i = a.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(a[i]); return x; };
function publicInputs(miner = MINER, sector = SECTOR) {
  return spec.publicInputs({
    registeredProof: REGISTERED, minerId: miner, sectorId: sector, ticket: Buffer.from(c1.ticket),
    seed: Buffer.from(c1.seed), commD: Buffer.from(c1.comm_d), commR: Buffer.from(c1.comm_r),
    nodes: 64, perPartition: 2, partitions: 1, apiV1_0: false,
  }).map((p) => p.map((x) => x.toString()));
}

// --- the daemon
const fd = new FilecoinDaemon(h, params);
const call = (m, req, deadlineMs) => fd.call(m, req, deadlineMs);
const porepRequest = (over = {}) => ({
  proof_kind: "POREP_SEAL_COMMIT",
  registered_proof: REGISTERED,
  sector_size: 2048,
  vanilla_proof: envelope,
  sector_number: SECTOR,
  miner_id: MINER,
  ...over,
});

try {
  await fd.start();
  // a job of another kind, in flight while the bad requests come
  r = await call("SubmitProof", { request_id: "synth", proof_kind: "POREP_SYNTH", synth_scale: 12, synth_partitions: 2 });
  check("a porep-synth job is queued", code(r) === 0, r.err?.details);

  // --- bad C1s: each INVALID_ARGUMENT naming what is wrong, before any synthesis
  const label = (c) => { c.vanilla_proofs.StackedDrg2KiBV1[0][1].labeling_proofs[1].parents[3][0] ^= 1; };
  const sibling = (c) => {
    c.vanilla_proofs.StackedDrg2KiBV1[0][0].replica_column_proofs.drg_parents[2].inclusion_proof.data.Single.path.path[1].hashes[0][5] ^= 1;
  };
  const bad = [
    ["a truncated C1", { vanilla_proof: envelope.subarray(0, envelope.length >> 1) }, /POREP_SEAL_COMMIT: porep c1: .*offset \d+/],
    ["a C1 of another sector size", { vanilla_proof: wrap(c1, { SectorSize: 8 << 20 }) }, /SectorSize 8388608 is not the C1's 2048/],
    ["a sector_size that is not the registered proof's", { sector_size: 8 << 20 }, /sector_size 8388608 is not the registered proof's/],
    ["a changed label", { vanilla_proof: changed(label) }, /partition 0, challenge 1: layer 2: labeling parent 3 is not its column's value/],
    ["a changed path element", { vanilla_proof: changed(sibling) }, /partition 0, challenge 0: the column of node \d+ \(tree C\) does not lead to its root/],
    ["a wrong comm_d", { vanilla_proof: changed((c) => { c.comm_d[0] ^= 1; }) }, /replica_id is not the one of miner 1000, sector 7/],
    ["another miner", { miner_id: MINER + 1 }, /replica_id is not the one of miner 1001/],
    ["a sector number that is not the envelope's", { sector_number: SECTOR + 1 }, /the C1 is of sector 7, the request's 8/],
    ["a registered proof that is not the C1's", { registered_proof: 0 }, /the C1 is of registered proof 5, the request 0/],
    ["a non-interactive PoRep", { registered_proof: 15 }, /aggregate/],
    ["no C1", { vanilla_proof: Buffer.alloc(0) }, /no vanilla_proof/],
  ];
  for (const [what, over, re] of bad) {
    r = await call("Prove", { submit: porepRequest(over) });
    check(`${what}: INVALID_ARGUMENT`, code(r) === grpc.status.INVALID_ARGUMENT, codeName(code(r)) + " " + (r.err?.details ?? ""));
    check(`... ${re}`, re.test(r.err?.details ?? ""), r.err?.details);
  }

  if (light) {
    r = await call("Prove", { submit: porepRequest() });
    check("a good C1 without its key: FAILED_PRECONDITION naming the key file",
          code(r) === grpc.status.FAILED_PRECONDITION && /v28-stacked-proof-of-replication-.*\.params/.test(r.err?.details ?? ""),
          codeName(code(r)) + " " + (r.err?.details ?? ""));
  }
  // --- the proof, verified by cuzk and by the noble verifier
  r = light ? {} : await call("Prove", { submit: porepRequest() });
  const res = r.resp?.result;
  if (!light)
    check("POREP_SEAL_COMMIT 2 KiB: COMPLETED", code(r) === 0 && res?.status === "COMPLETED", r.err?.details ?? res?.error_message);
  if (res?.status === "COMPLETED") {
    check("... 192 bytes (one partition)", res.proof.length === 192, String(res.proof.length));
    const ms = (k) => Number(res[k]);
    check("... the response's times: synthesis and compute > 0, within the total; the key's first load > 0",
          ms("synthesis_ms") > 0 && ms("gpu_compute_ms") > 0 && ms("srs_load_ms") > 0 &&
          ms("synthesis_ms") + ms("gpu_compute_ms") <= ms("total_ms"),
          JSON.stringify({ s: res.synthesis_ms, c: res.gpu_compute_ms, l: res.srs_load_ms, t: res.total_ms }));
    const pf = path.join(scratch, "proof.bin");
    fs.writeFileSync(pf, res.proof);
    const v = run(["filecoin", "verify", "porep-c2", "--c1", c1File, "--miner", String(MINER), "--params-dir", params, pf]);
    check("... cuzk filecoin verify porep-c2 says valid", v.rc === 0 && v.out.trim() === "valid", v.out + v.err);
    const vk = fs.readFileSync(keyFile(".vk"));
    const nv = verifyFiles(vk, res.proof, JSON.stringify(publicInputs()));
    check("... the noble verifier says valid (inputs from the specification)", nv.status === 0, nv.lines.join("; "));
    check("... and invalid for another sector",
          verifyFiles(vk, res.proof, JSON.stringify(publicInputs(MINER, SECTOR + 1))).status === 1);
  }
  r = await call("AwaitProof", { job_id: "synth", timeout_ms: 600000 });
  check("the porep-synth job in flight completed", code(r) === 0 && r.resp.status === "COMPLETED", r.err?.details ?? r.resp?.error_message);
  await fd.stop();
} catch (e) {
  check("no exception", false, e.stack);
  fd.kill();
}
finish("porep", t0);
