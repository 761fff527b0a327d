// cuzk-daemon's keys on disk, end to end over gRPC (CPU backend, a temporary Unix socket):
//  - a loaded key truncated while its jobs run: the jobs finish with proofs that snarkjs
//    verifies, the next submit is refused with the path and the reason, the daemon stays up and
//    logs the change; the key put back is loaded again and proves;
//  - a FIFO at a key path, submitted beside a normal job and a PreloadSRS of another key: the
//    FIFO is refused at once (INVALID_ARGUMENT, "not a regular file"), the others complete;
//  - a bellperson .params path in PreloadSRS loads as bellperson parameters (then hit, evicted with
//    its size), and a .zkey's bytes named .params are refused as "not a bellperson key";
//  - a request_id with a newline, a CR and an escape (the job's TIMELINE lines are in the log):
//    every line of the log is one log line; no control character reaches the log.
// Before keys were read into the daemon's memory, the truncation killed the daemon (SIGBUS) and
// the FIFO blocked key loading for good.
//
//   node tests/daemon/keys.mjs <cuzk-daemon> <scratch dir>
// Exit 0 all passed, 1 a check failed, 77 skipped (the npm modules are missing: npm install).
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setup, check, finish, sleep, root, bn254ProofJson, LOG_LINE } from "./harness.mjs";

const { daemonBin, scratch, grpc, snarkjs, Engine, code, codeName } = await setup("keys", { snarkjs: true });



const sock = path.join(scratch, "cuzk.sock");
const srcKey = path.join(root, "examples/poseidon/poseidon_chain.zkey");
const wtnsPath = path.join(root, "examples/poseidon/poseidon_chain.wtns");
const wtns = fs.readFileSync(wtnsPath);
const key = path.join(scratch, "k.zkey");
const other = path.join(scratch, "other.zkey");
const fifo = path.join(scratch, "key.fifo");
fs.copyFileSync(srcKey, key);
fs.copyFileSync(srcKey, other);
execFileSync("mkfifo", [fifo]);

const client = new Engine(`unix://${sock}`, grpc.credentials.createInsecure(),
                          { "grpc.max_send_message_length": 64 << 20, "grpc.max_receive_message_length": 64 << 20 });
const call = (m, req, deadlineMs = 60000) => new Promise((res) => {
  client[m](req, { deadline: Date.now() + deadlineMs }, (err, resp) => res({ err, resp }));
});
const show = (r) => (r.err ? `${codeName(r.err.code)}: ${r.err.details}` : JSON.stringify({ ...r.resp, proof: undefined }));

const vk = await snarkjs.zKey.exportVerificationKey(srcKey);
const pub = (await snarkjs.wtns.exportJson(wtnsPath)).slice(1, 1 + vk.nPublic).map(String);
const verifies = async (proof) => { try { return await snarkjs.groth16.verify(vk, pub, bn254ProofJson(proof)); } catch { return false; } };

const cfgPath = path.join(scratch, "cuzk.toml");
fs.writeFileSync(cfgPath, `[daemon]\nlisten = "unix://${sock}"\nstate_dir = "${path.join(scratch, "state")}"\n` +
                          `[memory]\ntotal_budget = "2GiB"\n[logging]\ntimeline = "log"\n`);
const daemon = spawn(daemonBin, ["--config", cfgPath], { stdio: ["ignore", "inherit", "pipe"] });
let log = "";
daemon.stderr.on("data", (b) => { log += b; process.stderr.write(b); });
const exited = new Promise((res) => daemon.on("exit", (c, sig) => res({ c, sig })));
const t0 = Date.now();
try {
  await new Promise((res, rej) => client.waitForReady(Date.now() + 20000, (e) => (e ? rej(e) : res())));
  const submit = (id, zkeyPath) => call("SubmitProof", { request_id: id, proof_kind: "SNARKJS_ZKEY",
                                                         zkey_path: zkeyPath, witness: wtns });

  // --- truncated while its jobs run
  let r = await call("PreloadSRS", { circuit_id: key });
  check("PreloadSRS of the key", code(r) === 0 && !r.resp.already_loaded, show(r));
  const ids = Array.from({ length: 8 }, (_, i) => `t-${i}`);
  const subs = await Promise.all(ids.map((id) => submit(id, key)));
  check("eight jobs accepted", subs.every((x) => code(x) === 0), subs.map(show).join("; "));
  fs.truncateSync(key, Math.floor(fs.statSync(srcKey).size / 2));
  r = await call("GetStatus", {});
  const q = code(r) === 0 ? r.resp.queues.find((x) => x.proof_kind === "snarkjs-zkey") : null;
  check("jobs were still queued or running when the key was truncated",
        q && q.pending + q.in_progress > 0, show(r));
  const waits = await Promise.all(ids.map((id) => call("AwaitProof", { job_id: id })));
  const done = waits.every((x) => code(x) === 0 && x.resp.status === "COMPLETED");
  check("the jobs accepted before the truncation complete", done, waits.map(show).join("; "));
  if (done) {
    const ok = await Promise.all(waits.map((x) => verifies(x.resp.proof)));
    check("snarkjs verifies each of their proofs", ok.every(Boolean), ok.join(","));
  }
  r = await submit("t-after", key);
  check("a submit after the truncation: INVALID_ARGUMENT naming the key",
        code(r) === grpc.status.INVALID_ARGUMENT && r.err.details.includes(key), show(r));
  const changed = /WARN .*srs: key .*k\.zkey changed on disk \(size \d+ -> \d+ bytes\)/;
  for (let i = 0; i < 100 && !changed.test(log); i++) await sleep(50); // the log pipe lags the answer
  check("the daemon logged the change", changed.test(log), log.slice(-2000));
  r = await call("GetStatus", {});
  check("the daemon is still up", code(r) === 0, show(r));
  fs.copyFileSync(srcKey, key);
  r = await call("Prove", { submit: { request_id: "t-back", proof_kind: "SNARKJS_ZKEY", zkey_path: key, witness: wtns } });
  check("the key put back is loaded again and proves",
        code(r) === 0 && r.resp.result.status === "COMPLETED" && await verifies(r.resp.result.proof), show(r));

  // --- a FIFO beside a normal job and a PreloadSRS
  const started = Date.now();
  const [f, p, j, fp] = await Promise.all([
    submit("fifo", fifo),
    call("PreloadSRS", { circuit_id: path.join(root, "examples/mulchain/mulchain.zkey") }, 20000),
    call("Prove", { submit: { request_id: "beside", proof_kind: "SNARKJS_ZKEY", zkey_path: other, witness: wtns } }, 20000),
    call("PreloadSRS", { circuit_id: fifo }, 20000),
  ]);
  check("a FIFO key path: INVALID_ARGUMENT, not a regular file",
        code(f) === grpc.status.INVALID_ARGUMENT && /key\.fifo: not a regular file \(a FIFO\)/.test(f.err.details), show(f));
  check("PreloadSRS of the FIFO: INVALID_ARGUMENT", code(fp) === grpc.status.INVALID_ARGUMENT &&
        fp.err.details.includes("not a regular file"), show(fp));
  check("PreloadSRS of another key beside it", code(p) === 0, show(p));
  check("a job beside it completes and verifies",
        code(j) === 0 && j.resp.result.status === "COMPLETED" && await verifies(j.resp.result.proof), show(j));
  check("all four answered within 20 s", Date.now() - started < 20000, `${Date.now() - started} ms`);

  // --- .params keys: the extension picks the bellperson loader
  const bpKey = path.join(scratch, "small.params"), zkAsParams = path.join(scratch, "zk.params");
  fs.copyFileSync(path.join(root, "tests/vectors/out/bellperson/small.params"), bpKey);
  fs.copyFileSync(srcKey, zkAsParams);
  r = await call("PreloadSRS", { circuit_id: bpKey });
  check("PreloadSRS of a .params loads it", code(r) === 0 && !r.resp.already_loaded, show(r));
  r = await call("PreloadSRS", { circuit_id: bpKey });
  check("... a second PreloadSRS finds it loaded", code(r) === 0 && r.resp.already_loaded, show(r));
  r = await call("EvictSRS", { circuit_id: bpKey });
  check("... EvictSRS frees its size", code(r) === 0 && Number(r.resp.freed_bytes) === fs.statSync(bpKey).size,
        show(r));
  r = await call("PreloadSRS", { circuit_id: zkAsParams });
  check("a zkey named .params: INVALID_ARGUMENT, not a bellperson key",
        code(r) === grpc.status.INVALID_ARGUMENT && r.err.details.includes("not a bellperson key"), show(r));

  // --- a client string with control characters cannot forge a log line
  const forged = "nl\n2026-01-01T00:00:00.000Z ERROR forged\r\x1b[2J";
  r = await call("Prove", { submit: { request_id: forged, proof_kind: "POREP_SYNTH", synth_scale: 10,
                                      synth_partitions: 1, synth_seed: 3 } });
  check("a job whose request_id has a newline, CR and ESC completes",
        code(r) === 0 && r.resp.result.status === "COMPLETED", show(r));

  daemon.kill("SIGTERM");
  const e = await exited;
    const lines = log.trim().split("\n");
  check("every log line is a log line; the id's lines hold it on one line, its control characters replaced",
        lines.every((l) => LOG_LINE.test(l)) && !lines.some((l) => l.startsWith("2026-01-01T00:00:00.000Z")) &&
        lines.some((l) => /TIMELINE,[0-9.]+,DONE,nl.2026-01-01T00:00:00\.000Z.ERROR.forged/.test(l)) &&
        !/[\r\x1b]/.test(log),
        lines.filter((l) => !LOG_LINE.test(l) || l.includes("forged")).join("\n").slice(0, 1000));
  check("SIGTERM: exit 0", e.c === 0, JSON.stringify(e));
} catch (e) {
  check("no exception", false, e.stack);
} finally {
  client.close();
  daemon.kill("SIGKILL");
}
finish("daemon_keys", t0);
