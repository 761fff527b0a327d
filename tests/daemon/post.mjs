// PoSt through cuzk-daemon over gRPC (docs/daemon.md, "Filecoin proofs"): WINDOW_POST_PARTITION
// at 2 KiB (V1_1 and a short V1 partition) and WINNING_POST at 32 GiB, on the CPU backend, under
// local keys made by `cuzk filecoin setup` from fake sectors made by `cuzk filecoin fake-vanilla`.
// Oracles: every proof is verified by `cuzk filecoin verify` and by the independent @noble/curves
// verifier (tests/interop/bellperson_verify.mjs) against public inputs computed here from the
// specification (comm_r, then each challenge's leaf: SHA-256(randomness | sector id LE | index
// LE), its first 8 bytes LE modulo the sector's leaves); the key's trust (refused without
// srs.allow_untrusted, in /status and the log with it); the default priorities; bad requests,
// each refused with a message naming what is wrong, while a job of another kind completes.
//
//   node tests/daemon/post.mjs <cuzk-daemon> <scratch dir> <cuzk>
// Exit 0 all passed, 1 a check failed, 77 skipped (the npm modules are missing).
// CZ_DAEMON_TEST_LIGHT=1 (the ThreadSanitizer run, `make test-tsan`) and a sanitizer-built daemon
// (CZ_DAEMON_SANITIZER, as CMake passes CZ_SANITIZE): WindowPoSt only (no 32 GiB WinningPoSt key
// and proofs, which take minutes under ASan), the same checks otherwise.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { setup, check, finish, root, cuzkCli, FilecoinDaemon } from "./harness.mjs";

const h = await setup("post");
const { daemonBin, scratch, grpc, code, codeName } = h;
const { run } = await cuzkCli("post");
const { verifyFiles } = await import(path.join(root, "tests/interop/bellperson_verify.mjs"));
const t0 = Date.now();
const light = process.env.CZ_DAEMON_TEST_LIGHT === "1" ||
  ["address", "thread"].includes(process.env.CZ_DAEMON_SANITIZER);
const R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;

const params = path.join(scratch, "params");
fs.mkdirSync(params);

// --- keys and fake sectors
const KEYS = [["window-post", "2KiB", "0102"], ...(light ? [] : [["winning-post", "32GiB", "0104"]])];
for (const [kind, size, seed] of KEYS) {
  const r = run(["filecoin", "setup", kind, "--sector-size", size, "--params-dir", params, "--seed", seed]);
  check(`setup ${kind} ${size}`, r.rc === 0, r.err);
}
// request.txt: registered_proof, randomness, partition, then "sector ID FILE" (FILE in the
// directory) and "comm_r ID HEX".
function fake(name, kind, size, sectors, extra = []) {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir);
  const r = run(["filecoin", "fake-vanilla", kind, "--sector-size", size, "--sectors", String(sectors),
                 "--seed", "7", "-o", dir, ...extra]);
  check(`fake-vanilla ${name}`, r.rc === 0, r.err);
  const req = { sectors: [] };
  for (const line of fs.readFileSync(path.join(dir, "request.txt"), "utf8").trim().split("\n")) {
    const [k, a, b] = line.split(" ");
    if (k === "registered_proof") req.registered = Number(a);
    else if (k === "randomness") req.randomness = Buffer.from(a, "hex");
    else if (k === "partition") req.partition = Number(a);
    else if (k === "sector") {
      const file = path.resolve(dir, b);
      req.sectors.push({ id: BigInt(a), file, vanilla: fs.readFileSync(file) });
    }
    else if (k === "comm_r") req.sectors.find((s) => s.id === BigInt(a)).commR = Buffer.from(b, "hex");
  }
  req.dir = dir;
  req.kind = kind;
  req.size = size;
  return req;
}
const win2 = fake("window-v11", "window-post", "2KiB", 2);
const win1 = fake("window-v1", "window-post", "2KiB", 1, ["--v1"]); // a short last partition
// V1 partition 1: its challenge indexes start after partition 0's sectors
const win1p1 = fake("window-v1-p1", "window-post", "2KiB", 2, ["--v1", "--partition", "1"]);
const winning = light ? null : fake("winning", "winning-post", "32GiB", 1);

// --- the public inputs from the specification
const leBig = (buf) => { let x = 0n; for (let i = buf.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(buf[i]); return x; };
const u64le = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); return b; };
const LEAVES = { "2KiB": 64n, "32GiB": (32n << 30n) / 32n };
function challenge(randomness, sectorId, index, nleaves) {
  const h = crypto.createHash("sha256").update(randomness).update(u64le(sectorId)).update(u64le(index)).digest();
  return h.readBigUInt64LE(0) % nleaves;
}
function publicInputs(req) {
  const n = LEAVES[req.size], out = [];
  if (req.kind === "winning-post") { // 66 one-challenge circuit sectors of the one sector
    const s = req.sectors[0];
    for (let c = 0; c < 66; c++) out.push(leBig(s.commR), challenge(req.randomness, s.id, c, n));
  } else { // 2 circuit sectors of 10 challenges; a short partition repeats its last sector's
    // inputs (rust-fil-proofs' generate_public_inputs), challenges and all
    const v1 = req.registered < 10;
    for (let i = 0; i < 2; i++) {
      const k = Math.min(i, req.sectors.length - 1), s = req.sectors[k];
      out.push(leBig(s.commR));
      for (let c = 0; c < 10; c++) {
        const index = v1 ? (req.partition * 2 + k) * 10 + c : c;
        out.push(challenge(req.randomness, s.id, index, n));
      }
    }
  }
  return out.map((x) => (x % R).toString());
}
// The key files: the WinningPoSt 32 GiB names have -8-8-0-, the WindowPoSt 2 KiB ones -8-0-0-.
const keyFile = (req, ext) => {
  const f = fs.readdirSync(params).filter((x) => x.endsWith(ext));
  const want = req.kind === "winning-post" ? "-8-8-0-" : "-8-0-0-";
  return path.join(params, f.find((x) => x.includes(want)));
};

// --- the daemon
const fd = new FilecoinDaemon(h, params);
let daemon;
const startDaemon = (allowUntrusted, preload = "") => fd.start({ allowUntrusted, preload });
const call = (m, req, deadlineMs = 600000) => fd.call(m, req, deadlineMs);
const status = async () => (await fetch(`http://127.0.0.1:${fd.statusPort}/status`)).json();
const postRequest = (req, over = {}) => ({
  proof_kind: req.kind === "winning-post" ? "WINNING_POST" : "WINDOW_POST_PARTITION",
  registered_proof: req.registered,
  randomness: req.randomness,
  partition_index: req.partition,
  miner_id: 1000,
  vanilla_proofs: req.sectors.map((s) => s.vanilla),
  ...over,
});

try {
  // --- a local key is refused without srs.allow_untrusted
  daemon = await startDaemon(false);
  let r = await call("Prove", { submit: postRequest(win2) });
  check("untrusted key refused: FAILED_PRECONDITION", code(r) === grpc.status.FAILED_PRECONDITION, codeName(code(r)));
  check("... the message names the digest and srs.allow_untrusted",
        /digest [0-9a-f]{32} is not the manifest's [0-9a-f]{32}.*allow_untrusted/.test(r.err?.details ?? ""), r.err?.details);
  let st = await status();
  check("/status: the key is listed untrusted, allow_untrusted false",
        st.filecoin.allow_untrusted === false && st.filecoin.keys.length === 1 && st.filecoin.keys[0].trusted === false,
        JSON.stringify(st.filecoin));
  check("the log says it was refused", /refused: its digest/.test(daemon.stderrText));
  r = await call("PreloadSRS", { circuit_id: keyFile(win2, ".params") });
  check("PreloadSRS of the untrusted key: FAILED_PRECONDITION naming the digest",
        code(r) === grpc.status.FAILED_PRECONDITION && /digest/.test(r.err?.details ?? ""),
        codeName(code(r)) + " " + (r.err?.details ?? ""));
  await fd.stop();

  // srs.preload of a key that would be refused stops the start-up
  {
    const cfg = path.join(scratch, "cuzk-preload.toml");
    fs.writeFileSync(cfg, `[srs]\nparam_cache = "${params}"\npreload = ["${path.basename(keyFile(win2, ".params"))}"]\n`);
    const d = spawnSync(daemonBin, ["--listen", `unix://${fd.sock}`, "--config", cfg, "--budget-gib", "2"],
                        { encoding: "utf8", timeout: 60000 });
    check("srs.preload of an untrusted key: start-up fails naming the digest",
          d.status !== 0 && /digest [0-9a-f]{32} is not the manifest's/.test(d.stderr), `${d.status} ${d.stderr}`);
  }

  daemon = await startDaemon(true, keyFile(win2, ".params"));
  check("srs.preload of the key with allow_untrusted: the daemon starts, the log says UNTRUSTED",
        /UNTRUSTED/.test(daemon.stderrText), daemon.stderrText.slice(-500));
  // a job of another kind, in flight while the PoSt requests (good and bad) come
  r = await call("SubmitProof", { request_id: "synth", proof_kind: "POREP_SYNTH", synth_scale: 12, synth_partitions: 3 });
  check("a porep-synth job is queued", code(r) === 0, r.err?.details);

  // --- proofs, verified by cuzk and by the noble verifier
  const proofs = [["WindowPoSt 2 KiB V1_1", win2], ["WindowPoSt 2 KiB V1, short partition", win1],
                  ["WindowPoSt 2 KiB V1, partition 1", win1p1]];
  if (!light) proofs.push(["WinningPoSt 32 GiB", winning]);
  for (const [name, req] of proofs) {
    r = await call("Prove", { submit: postRequest(req) });
    const res = r.resp?.result;
    check(`${name}: COMPLETED`, code(r) === 0 && res.status === "COMPLETED", r.err?.details ?? res?.error_message);
    if (!res || res.status !== "COMPLETED") continue;
    check(`${name}: 192 bytes`, res.proof.length === 192, String(res.proof.length));
    const pf = path.join(req.dir, "proof.bin");
    fs.writeFileSync(pf, res.proof);
    const args = ["filecoin", "verify", req.kind, "--params-dir", params, "--registered-proof", String(req.registered),
                  "--randomness", req.randomness.toString("hex"), "--partition", String(req.partition)];
    for (const s of req.sectors) args.push("--vanilla", s.file);
    const v = run([...args, pf]);
    check(`${name}: cuzk filecoin verify says valid`, v.rc === 0 && v.out.trim() === "valid", v.out + v.err);
    const nv = verifyFiles(fs.readFileSync(keyFile(req, ".vk")), res.proof, JSON.stringify([publicInputs(req)]));
    check(`${name}: the noble verifier says valid (inputs from the specification)`, nv.status === 0, nv.lines.join("; "));
    const wrong = publicInputs(req);
    wrong[1] = ((BigInt(wrong[1]) + 1n) % LEAVES[req.size]).toString();
    check(`${name}: ... and invalid for another challenge`,
          verifyFiles(fs.readFileSync(keyFile(req, ".vk")), res.proof, JSON.stringify([wrong])).status === 1);
  }
  check("the log says the key is UNTRUSTED", /UNTRUSTED, used because srs.allow_untrusted = true/.test(daemon.stderrText));
  st = await status();
  check("/status: allow_untrusted true, every key untrusted",
        st.filecoin.allow_untrusted === true && st.filecoin.keys.length === KEYS.length &&
        st.filecoin.keys.every((k) => !k.trusted), JSON.stringify(st.filecoin));

  // --- default priorities: Winning CRITICAL, Window HIGH; an explicit one is kept
  const prios = [["p-window", win2, {}, "high"], ["p-low", win2, { priority: "LOW" }, "low"]];
  if (!light) prios.unshift(["p-win", winning, {}, "critical"]);
  for (const [id, req, over] of prios) {
    r = await call("SubmitProof", { request_id: id, ...postRequest(req, over) });
    check(`SubmitProof ${id}`, code(r) === 0, r.err?.details);
  }
  st = await status();
  for (const [id, , , want] of prios) {
    const j = st.jobs.find((x) => x.job_id === id);
    check(`${id}: priority ${want}`, j && j.priority === want, JSON.stringify(j));
  }

  // --- bad requests: each a clear error, before any synthesis
  const v0 = win2.sectors[0].vanilla, v1 = win2.sectors[1].vanilla;
  const flip = (buf, at) => { const b = Buffer.from(buf); b[at] ^= 1; return b; };
  const bad = [
    ["truncated bincode", { vanilla_proofs: [v0.subarray(0, 1000), v1] }, /vanilla proof 0: .*at byte/],
    ["three sectors for a partition of two", { vanilla_proofs: [v0, v1, v1] }, /3 vanilla proofs for a WindowPoSt partition/],
    ["a wrong comm_r", { vanilla_proofs: [flip(v0, 8), v1] }, /sector 1000: comm_r is not Poseidon/],
    ["a path that does not reach the root", { vanilla_proofs: [v0, flip(v1, 140)] },
     /sector 1001: challenge 0: the path does not lead from the leaf to comm_r_last/],
    ["a challenge that does not match", { randomness: flip(win2.randomness, 0) }, /sector 1000: challenge 0: the path opens leaf \d+, the challenge is leaf \d+/],
    ["an unknown registered proof", { registered_proof: 99 }, /registered proof 99 is not a PoSt/],
    ["a WinningPoSt id for WINDOW_POST_PARTITION", { registered_proof: 0 }, /registered proof 0 is a WinningPoSt, the request is WINDOW_POST_PARTITION/],
    ["31 bytes of randomness", { randomness: win2.randomness.subarray(0, 31) }, /randomness has 31 bytes/],
    ["randomness not below r", { randomness: Buffer.alloc(32, 0xff) }, /randomness is not a field element below r/],
    ["a sector size that is not the registered proof's", { sector_size: 8 << 20 }, /sector_size 8388608 is not the registered proof's/],
    ["no vanilla proofs", { vanilla_proofs: [] }, /no vanilla_proofs/],
    ["sectors out of order", { vanilla_proofs: [v1, v0] }, /ascending id/],
  ];
  for (const [what, over, re] of bad) {
    r = await call("Prove", { submit: postRequest(win2, over) });
    check(`${what}: INVALID_ARGUMENT`, code(r) === grpc.status.INVALID_ARGUMENT, codeName(code(r)) + " " + (r.err?.details ?? ""));
    check(`... ${re}`, re.test(r.err?.details ?? ""), r.err?.details);
  }
  r = await call("AwaitProof", { job_id: "synth", timeout_ms: 300000 });
  check("the porep-synth job in flight completed", code(r) === 0 && r.resp.status === "COMPLETED", r.err?.details ?? r.resp?.error_message);
  for (const [id] of prios) {
    r = await call("AwaitProof", { job_id: id, timeout_ms: 300000 });
    check(`${id} completed`, code(r) === 0 && r.resp.status === "COMPLETED", r.err?.details ?? r.resp?.error_message);
  }
  await fd.stop();
} catch (e) {
  check("no exception", false, e.stack);
  fd.kill();
}
finish("post", t0);
