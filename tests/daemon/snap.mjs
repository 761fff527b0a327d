// SnapDeals through cuzk-daemon over gRPC (docs/daemon.md, "Filecoin proofs"): SNAP_DEALS_UPDATE
// of a 2 KiB update made by `cuzk filecoin fake-update`, on the CPU backend, under a local key
// made by `cuzk filecoin setup snap-update` (under ctest, the filecoin_keys_2k fixture's).
// Oracles: the proof is verified by `cuzk filecoin verify snap-update` and by the independent
// @noble/curves verifier (tests/interop/bellperson_verify.mjs) against public inputs computed
// from storage-proofs-update's PublicInputs (tests/interop/snap_inputs.mjs). Bad requests (a vanilla proof cut short, another
// update's, a changed byte, two proofs for one partition, an unknown registered proof, a
// commitment of the wrong length), each refused with INVALID_ARGUMENT and a message naming what
// is wrong, while a job of another kind completes.
//
// The vanilla proofs are checked before the key is looked for, so under the sanitizers
// (CZ_DAEMON_SANITIZER) and in the ThreadSanitizer run (CZ_DAEMON_TEST_LIGHT=1) no key is made
// and no proof run: the bad requests are refused the same way, and the good one fails for its
// missing key (FAILED_PRECONDITION naming the file).
//
//   node tests/daemon/snap.mjs <cuzk-daemon> <scratch dir> <cuzk>
// Exit 0 all passed, 1 a check failed, 77 skipped (the npm modules are missing).
import fs from "node:fs";
import path from "node:path";
import { setup, check, finish, root, cuzkCli, keys2k, FilecoinDaemon } from "./harness.mjs";

const h = await setup("snap");
const { scratch, grpc, code, codeName } = h;
const { run } = await cuzkCli("snap");
const { verifyFiles } = await import(path.join(root, "tests/interop/bellperson_verify.mjs"));
const { snapInputs, readRequest } = await import(path.join(root, "tests/interop/snap_inputs.mjs"));
const t0 = Date.now();
// CMake passes CZ_SANITIZE as it is: "address", "thread", or OFF (none).
const light = process.env.CZ_DAEMON_TEST_LIGHT === "1" ||
  ["address", "thread"].includes(process.env.CZ_DAEMON_SANITIZER);

const params = keys2k(scratch, run, "snap-update", "0106", light);
let r;
const update = (dir, seed) => {
  fs.mkdirSync(dir);
  const u = run(["filecoin", "fake-update", "--sector-size", "2KiB", "--seed", String(seed), "-o", dir]);
  check(`fake-update ${seed}`, u.rc === 0, u.err);
  const req = readRequest(path.join(dir, "request.txt"));
  req.vanilla = fs.readFileSync(path.join(dir, "vanilla-0.bin"));
  return req;
};
const u = update(path.join(scratch, "u"), 4), other = update(path.join(scratch, "v"), 5);
const hex = (s) => Buffer.from(s, "hex");
const keyFile = (ext) => path.join(params, fs.readdirSync(params).find((x) => x.endsWith(ext)));
const inputs = (q) => JSON.stringify(snapInputs(q));

// --- the daemon
const fd = new FilecoinDaemon(h, params);
const call = (m, req, deadlineMs) => fd.call(m, req, deadlineMs);
const snapRequest = (over = {}) => ({
  proof_kind: "SNAP_DEALS_UPDATE",
  registered_proof: 0, // RegisteredUpdateProof StackedDrg2KiBV1
  comm_r_old: hex(u.comm_r_old),
  comm_d_new: hex(u.comm_d_new),
  comm_r_new: hex(u.comm_r_new),
  vanilla_proofs: [u.vanilla],
  ...over,
});

try {
  await fd.start();
  // a job of another kind, in flight while the bad requests come
  r = await call("SubmitProof", { request_id: "synth", proof_kind: "POREP_SYNTH", synth_scale: 12, synth_partitions: 2 });
  check("a porep-synth job is queued", code(r) === 0, r.err?.details);

  // --- bad requests: each INVALID_ARGUMENT naming what is wrong, before any synthesis
  const flipped = Buffer.from(u.vanilla);
  flipped[40 + 32 * 3 + 5] ^= 1; // a byte of apex leaf 3
  const bad = [
    ["a vanilla proof cut short", { vanilla_proofs: [u.vanilla.subarray(0, 1000)] },
     /SNAP_DEALS_UPDATE: snap vanilla proof of partition 0: challenge 0: proof_d_new: .* at byte \d+/],
    ["another update's vanilla proof", { vanilla_proofs: [other.vanilla] },
     /partition 0: Poseidon\(comm_c, root_r_old\) is not comm_r_old/],
    ["a changed apex leaf", { vanilla_proofs: [flipped] },
     /partition 0: the apex leaves and the partition path do not lead to comm_d_new/],
    ["two vanilla proofs for one partition", { vanilla_proofs: [u.vanilla, u.vanilla] },
     /2 vanilla proofs for the 1 partitions/],
    ["no vanilla proofs", { vanilla_proofs: [] }, /0 vanilla proofs for the 1 partitions/],
    ["an unknown registered proof", { registered_proof: 9 }, /registered update proof 9 is unknown/],
    ["a short comm_d_new", { comm_d_new: Buffer.alloc(31) }, /comm_d_new has 31 bytes, not 32/],
    ["a comm_r_new not below r", { comm_r_new: Buffer.alloc(32, 0xff) }, /comm_r_new is not below r/],
  ];
  for (const [what, over, re] of bad) {
    r = await call("Prove", { submit: snapRequest(over) });
    check(`${what}: INVALID_ARGUMENT`, code(r) === grpc.status.INVALID_ARGUMENT, codeName(code(r)) + " " + (r.err?.details ?? ""));
    check(`... ${re}`, re.test(r.err?.details ?? ""), r.err?.details);
  }

  if (light) {
    r = await call("Prove", { submit: snapRequest() });
    check("a good request without its key: FAILED_PRECONDITION naming the key file",
          code(r) === grpc.status.FAILED_PRECONDITION && /v28-empty-sector-update-.*\.params/.test(r.err?.details ?? ""),
          codeName(code(r)) + " " + (r.err?.details ?? ""));
  }
  // --- the proof, verified by cuzk and by the noble verifier
  r = light ? {} : await call("Prove", { submit: snapRequest() });
  const res = r.resp?.result;
  if (!light)
    check("SNAP_DEALS_UPDATE 2 KiB: COMPLETED", code(r) === 0 && res?.status === "COMPLETED", r.err?.details ?? res?.error_message);
  if (res?.status === "COMPLETED") {
    check("... 192 bytes (one partition)", res.proof.length === 192, String(res.proof.length));
    const pf = path.join(scratch, "proof.bin");
    fs.writeFileSync(pf, res.proof);
    const v = run(["filecoin", "verify", "snap-update", "--params-dir", params, "--registered-proof", "0",
                   "--comm-r-old", u.comm_r_old, "--comm-d-new", u.comm_d_new, "--comm-r-new", u.comm_r_new, pf]);
    check("... cuzk filecoin verify snap-update says valid", v.rc === 0 && v.out.trim() === "valid", v.out + v.err);
    const vk = fs.readFileSync(keyFile(".vk"));
    const nv = verifyFiles(vk, res.proof, inputs(u));
    check("... the noble verifier says valid (inputs from the specification)", nv.status === 0, nv.lines.join("; "));
    check("... and invalid for another update's commitments", verifyFiles(vk, res.proof, inputs(other)).status === 1);
  }
  r = await call("AwaitProof", { job_id: "synth", timeout_ms: 600000 });
  check("the porep-synth job in flight completed", code(r) === 0 && r.resp.status === "COMPLETED", r.err?.details ?? r.resp?.error_message);
  await fd.stop();
} catch (e) {
  check("no exception", false, e.stack);
  fd.kill();
}
finish("snap", t0);
