// cuzk-daemon end to end over gRPC: a Node client (@grpc/grpc-js, the proto loaded from
// proto/cuzk/v1/proving.proto) against a daemon started here on a temporary Unix socket, CPU
// backend. Oracles: snarkjs verifies the zkey job's proof; the engine verifies every porep-synth
// partition before a job is done; counts come from the client's own bookkeeping.
//
//   node tests/daemon/grpc.mjs <cuzk-daemon> <scratch dir>
// Exit 0 all passed, 1 a check failed, 77 skipped (the npm modules are missing: npm install).
// CZ_DAEMON_TEST_LIGHT=1 (the ThreadSanitizer run, `make test-tsan`): a burst of 20 jobs instead
// of 60 and drain jobs of 3 partitions instead of 6, the same checks.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setup, check, finish, sleep, root, bn254ProofJson, LOG_LINE } from "./harness.mjs";

const { daemonBin, scratch, grpc, snarkjs, Engine, code, codeName } = await setup("grpc", { snarkjs: true });



const sock = path.join(scratch, "run", "sub", "cuzk.sock"); // parent directories made by the daemon
const zkey = path.join(root, "examples/poseidon/poseidon_chain.zkey");
const wtns = fs.readFileSync(path.join(root, "examples/poseidon/poseidon_chain.wtns"));


function startDaemon() {
  const d = spawn(daemonBin, ["--listen", `unix://${sock}`, "--synth-cache", path.join(scratch, "synth"),
                              "--budget-gib", "4"], { stdio: ["ignore", "inherit", "pipe"] });
  d.stderrText = "";
  d.stderr.on("data", (b) => { d.stderrText += b; process.stderr.write(b); });
  d.exited = new Promise((res) => d.on("exit", (code, sig) => res({ code, sig })));
  return d;
}

const opts = { "grpc.max_send_message_length": 256 << 20, "grpc.max_receive_message_length": 256 << 20 };
const newClient = () => new Engine(`unix://${sock}`, grpc.credentials.createInsecure(), opts);
let client = newClient();
const call = (m, req, deadlineMs = 60000) => new Promise((res) => {
  client[m](req, { deadline: Date.now() + deadlineMs }, (err, resp) => res({ err, resp }));
});
// Raw bytes to a method (malformed and hand-encoded requests).
const rawCall = (m, bytes) => new Promise((res) => {
  client.makeUnaryRequest(`/cuzk.v1.ProvingEngine/${m}`, (x) => x, (x) => x, bytes, (err, resp) => res({ err, resp }));
});
const light = process.env.CZ_DAEMON_TEST_LIGHT === "1";


// Hand-encoded protobuf: varint field, length-delimited field.
function varint(n) { const o = []; n = BigInt(n); do { let b = Number(n & 0x7fn); n >>= 7n; if (n) b |= 0x80; o.push(b); } while (n); return o; }
const fVar = (f, v) => [...varint((f << 3) | 0), ...varint(v)];
const fBytes = (f, buf) => [...varint((f << 3) | 2), ...varint(buf.length), ...buf];

const t0 = Date.now();
let daemon = startDaemon();
try {
  await new Promise((res, rej) => client.waitForReady(Date.now() + 20000, (e) => (e ? rej(e) : res())));
  check("daemon listens on a Unix socket in a directory it created", fs.existsSync(sock));

  // --- GetStatus, GetMetrics on an idle daemon
  let r = await call("GetStatus", {});
  check("GetStatus", code(r) === 0 && r.resp.gpus.length === 1 && r.resp.queues.length === 6 &&
        r.resp.queues.some((x) => x.proof_kind === "porep-c2"), JSON.stringify(r.err ?? r.resp));
  const g0 = r.resp.gpus[0];
  const onCpu = g0.name === "cpu";
  check("GetStatus: each device with its name, workers (2) and busy state",
        r.resp.gpus.every((g) => g.name.length > 0 && g.workers === 2 && g.busy === false &&
                                 g.out_of_service === false && g.out_of_service_reason === "" &&
                                 (onCpu || Number(g.vram_total_bytes) > 0)), JSON.stringify(r.resp.gpus));
  if (onCpu)
    check("no GPU: the default starts the CPU backend and says so",
          daemon.stderrText.includes("CPU backend (no GPU visible") && g0.ordinal === 0, daemon.stderrText);
  r = await call("GetMetrics", {});
  check("GetMetrics: per-device busy counters",
        code(r) === 0 && /cuzk_gpu_busy_seconds_total\{device="0"\} /.test(r.resp.prometheus_text) &&
        /cuzk_gpu_busy\{device="0"\} 0\n/.test(r.resp.prometheus_text) &&
        /cuzk_gpu_in_service\{device="0"\} 1\n/.test(r.resp.prometheus_text), r.resp?.prometheus_text);
  check("GetMetrics text", code(r) === 0 && /cuzk_proofs_completed_total 0\n/.test(r.resp.prometheus_text) &&
        /cuzk_queue_depth 0/.test(r.resp.prometheus_text), r.err?.message);

  // --- SRS: preload, evict, evict again, preload again
  r = await call("PreloadSRS", { circuit_id: zkey });
  check("PreloadSRS loads", code(r) === 0 && r.resp.already_loaded === false, JSON.stringify(r.err ?? r.resp));
  r = await call("PreloadSRS", { circuit_id: zkey });
  check("PreloadSRS again: already loaded", code(r) === 0 && r.resp.already_loaded === true);
  r = await call("GetStatus", {});
  check("GetStatus lists the preloaded key", r.resp.loaded_srs.some((s) => s.circuit_id === zkey));
  r = await call("EvictSRS", { circuit_id: zkey });
  check("EvictSRS frees the key", code(r) === 0 && r.resp.was_loaded && Number(r.resp.freed_bytes) > 0,
        JSON.stringify(r.err ?? r.resp));
  r = await call("EvictSRS", { circuit_id: zkey });
  check("EvictSRS of a key not loaded: was_loaded false", code(r) === 0 && !r.resp.was_loaded);
  r = await call("PreloadSRS", { circuit_id: path.join(scratch, "missing.zkey") });
  check("PreloadSRS of a missing file: INVALID_ARGUMENT", code(r) === grpc.status.INVALID_ARGUMENT, codeName(code(r)));
  // a message longer than the daemon's buffer, cut where it has blanks: still delivered (an
  // HTTP/2 field value may not end in whitespace; the daemon trims it)
  r = await call("PreloadSRS", { circuit_id: path.join(scratch, "k".repeat(200) + " ".repeat(300) + ".zkey") });
  check("an error message cut at blanks still arrives", code(r) === grpc.status.INVALID_ARGUMENT &&
        /^\/.*k{200}$/.test(r.err?.details ?? ""), JSON.stringify(r.err?.details));

  // --- a zkey job, verified by snarkjs
  r = await call("SubmitProof", { request_id: "zk-1", proof_kind: "SNARKJS_ZKEY", priority: "HIGH",
                                  zkey_path: zkey, witness: wtns });
  check("SubmitProof zkey", code(r) === 0 && r.resp.job_id === "zk-1", JSON.stringify(r.err ?? r.resp));
  r = await call("EvictSRS", { circuit_id: zkey });
  check("EvictSRS refused while a job holds the key (FAILED_PRECONDITION)",
        code(r) === grpc.status.FAILED_PRECONDITION, codeName(code(r)) + " " + (r.err?.details ?? ""));
  r = await call("AwaitProof", { job_id: "zk-1", timeout_ms: 0 });
  const ok1 = code(r) === 0 && r.resp.status === "COMPLETED" && r.resp.proof.length === 256;
  check("AwaitProof zkey: COMPLETED, 256-byte proof", ok1, JSON.stringify(r.err ?? { ...r.resp, proof: r.resp?.proof.length }));
  if (ok1) {
    const vk = await snarkjs.zKey.exportVerificationKey(zkey);
    const w = await snarkjs.wtns.exportJson(path.join(root, "examples/poseidon/poseidon_chain.wtns"));
    const pub = w.slice(1, 1 + vk.nPublic).map(String);
    check("snarkjs verifies the daemon's proof", await snarkjs.groth16.verify(vk, pub, bn254ProofJson(r.resp.proof)));
    const bad = Buffer.from(r.resp.proof); bad[0] ^= 1;
    let badOk = false;
    try { badOk = await snarkjs.groth16.verify(vk, pub, bn254ProofJson(bad)); } catch { badOk = false; }
    check("snarkjs rejects the proof with one bit flipped", !badOk);
    check("timings: total_ms >= queue_wait_ms", Number(r.resp.total_ms) >= Number(r.resp.queue_wait_ms));
  }
  r = await call("AwaitProof", { job_id: "zk-1" });
  check("AwaitProof of a finished job answers again", code(r) === 0 && r.resp.status === "COMPLETED");

  // --- errors
  r = await call("AwaitProof", { job_id: "no-such-job" });
  check("AwaitProof unknown job: NOT_FOUND", code(r) === grpc.status.NOT_FOUND, codeName(code(r)));
  r = await call("CancelProof", { job_id: "no-such-job" });
  check("CancelProof unknown job: NOT_FOUND", code(r) === grpc.status.NOT_FOUND, codeName(code(r)));
  r = await rawCall("SubmitProof", Buffer.from([0xff, 0xff, 0xff, 0xff]));
  check("malformed SubmitProofRequest: INVALID_ARGUMENT with a message",
        code(r) === grpc.status.INVALID_ARGUMENT && /malformed/.test(r.err.details), codeName(code(r)));
  r = await call("AwaitProof", { job_id: "" });
  check("AwaitProof without job_id: INVALID_ARGUMENT", code(r) === grpc.status.INVALID_ARGUMENT);
  r = await rawCall("SubmitProof", Buffer.from([...fBytes(1, Buffer.from("k-77")), ...fVar(2, 77)]));
  check("unknown proof kind 77: INVALID_ARGUMENT", code(r) === grpc.status.INVALID_ARGUMENT &&
        /unknown proof kind 77/.test(r.err.details), r.err?.details);
  r = await call("SubmitProof", { request_id: "c2", proof_kind: "POREP_SEAL_COMMIT", vanilla_proof: Buffer.from("{}") });
  check("POREP_SEAL_COMMIT of a C1 that is no C1: INVALID_ARGUMENT naming the reader",
        code(r) === grpc.status.INVALID_ARGUMENT && /porep c1: an empty object/.test(r.err?.details ?? ""),
        codeName(code(r)) + " " + (r.err?.details ?? ""));
  r = await call("SubmitProof", { request_id: "su", proof_kind: "SNAP_DEALS_UPDATE", vanilla_proof: Buffer.from("{}") });
  check("SNAP_DEALS_UPDATE without its commitments: INVALID_ARGUMENT naming comm_r_old",
        code(r) === grpc.status.INVALID_ARGUMENT && /SNAP_DEALS_UPDATE: comm_r_old has 0 bytes/.test(r.err?.details ?? ""),
        codeName(code(r)) + " " + (r.err?.details ?? ""));
  r = await call("SubmitProof", { request_id: "bw", proof_kind: "SNARKJS_ZKEY", zkey_path: zkey,
                                  witness: Buffer.from("not a witness") });
  check("bad witness: INVALID_ARGUMENT at submit", code(r) === grpc.status.INVALID_ARGUMENT, codeName(code(r)));
  r = await call("SubmitProof", { request_id: "big", proof_kind: "SNARKJS_ZKEY", zkey_path: zkey,
                                  witness: Buffer.alloc((128 << 20) + 1024) }, 180000); // slow on a loaded 2-core box
  check("a 128 MiB + 1 KiB request: RESOURCE_EXHAUSTED", code(r) === grpc.status.RESOURCE_EXHAUSTED, codeName(code(r)));
  r = await call("SubmitProof", { proof_kind: "POREP_SYNTH", synth_scale: 5 });
  check("porep-synth scale 5: INVALID_ARGUMENT", code(r) === grpc.status.INVALID_ARGUMENT, codeName(code(r)));

  // --- Prove with the synthetic PoRep workload (builds its key once: the first call is slow)
  r = await call("Prove", { submit: { request_id: "synth-1", proof_kind: "POREP_SYNTH", synth_scale: 10,
                                      synth_partitions: 2, synth_seed: 7 } }, 120000);
  check("Prove porep-synth 2^10 x 2: COMPLETED, 2 x 192 bytes",
        code(r) === 0 && r.resp.result.status === "COMPLETED" && r.resp.result.proof.length === 384,
        JSON.stringify(r.err?.details ?? r.resp?.result?.status));

  // --- duplicate live id; cancel of a queued and a running job; AwaitProof timeout
  const big = { proof_kind: "POREP_SYNTH", synth_scale: 12, synth_partitions: 64, synth_seed: 1 };
  r = await call("SubmitProof", { ...big, request_id: "run-1" });
  check("SubmitProof run-1", code(r) === 0);
  for (let i = 0; i < 50; i++) {
    r = await call("GetStatus", {});
    if (r.resp.queues.find((x) => x.proof_kind === "porep-synth").in_progress > 0) break;
    await sleep(50);
  }
  check("GetStatus shows run-1 in progress", r.resp.queues.find((x) => x.proof_kind === "porep-synth").in_progress === 1);
  // The dispatcher may take one more job while run-1's partitions are in flight: a filler job
  // in between keeps queued-1 queued.
  r = await call("SubmitProof", { ...big, request_id: "filler" });
  check("SubmitProof filler", code(r) === 0);
  r = await call("SubmitProof", { ...big, request_id: "queued-1" });
  check("SubmitProof queued-1 (queued behind run-1)", code(r) === 0 && r.resp.queue_position >= 1, JSON.stringify(r.resp));
  r = await call("SubmitProof", { ...big, request_id: "queued-1", synth_seed: 2 });
  check("duplicate live id: ALREADY_EXISTS", code(r) === grpc.status.ALREADY_EXISTS, codeName(code(r)));
  r = await call("AwaitProof", { job_id: "queued-1", timeout_ms: 150 });
  check("AwaitProof timeout_ms 150 on a queued job: TIMEOUT", code(r) === 0 && r.resp.status === "TIMEOUT",
        JSON.stringify(r.err ?? r.resp.status));
  r = await call("CancelProof", { job_id: "queued-1" });
  check("CancelProof queued: was_running false", code(r) === 0 && r.resp.was_running === false, JSON.stringify(r.err ?? r.resp));
  r = await call("AwaitProof", { job_id: "queued-1" });
  check("cancelled queued job awaits CANCELLED", code(r) === 0 && r.resp.status === "CANCELLED");
  r = await call("CancelProof", { job_id: "run-1" });
  check("CancelProof running: was_running true", code(r) === 0 && r.resp.was_running === true, JSON.stringify(r.err ?? r.resp));
  r = await call("AwaitProof", { job_id: "run-1" });
  check("cancelled running job awaits CANCELLED", code(r) === 0 && r.resp.status === "CANCELLED", r.resp?.status);
  r = await call("CancelProof", { job_id: "filler" });
  check("CancelProof filler", code(r) === 0);
  r = await call("CancelProof", { job_id: "run-1" });
  check("CancelProof of a finished job: FAILED_PRECONDITION", code(r) === grpc.status.FAILED_PRECONDITION, codeName(code(r)));

  // --- a burst of small mixed-priority jobs: none lost
  const prios = ["LOW", "NORMAL", "HIGH", "CRITICAL", "PRIORITY_UNSPECIFIED"];
  const N = light ? 20 : 60;
  const subs = await Promise.all(Array.from({ length: N }, (_, i) => (i % 3 === 0
    ? call("SubmitProof", { request_id: `burst-${i}`, proof_kind: "SNARKJS_ZKEY", priority: prios[i % 5],
                            zkey_path: zkey, witness: wtns })
    : call("SubmitProof", { request_id: `burst-${i}`, proof_kind: "POREP_SYNTH", priority: prios[i % 5],
                            synth_scale: 10, synth_partitions: 1, synth_seed: i }))));
  check(`burst: ${N} submits accepted`, subs.every((s) => code(s) === 0), subs.find((s) => s.err)?.err?.details);
  const res = await Promise.all(Array.from({ length: N }, (_, i) => call("AwaitProof", { job_id: `burst-${i}` }, 120000)));
  const good = res.filter((x, i) => code(x) === 0 && x.resp.status === "COMPLETED" &&
                                    x.resp.proof.length === (i % 3 === 0 ? 256 : 192)).length;
  check(`burst: ${N} of ${N} COMPLETED with proofs of the right size`, good === N, `${good}`);
  r = await call("GetMetrics", {});
  const m = /cuzk_proofs_completed_total (\d+)/.exec(r.resp.prometheus_text);
  check("GetMetrics counts every completed proof (1 + 1 + burst)", m && Number(m[1]) === N + 2, m?.[1]);
  check("GetMetrics per kind", new RegExp(`cuzk_proofs_completed\\{proof_kind="snarkjs_zkey"\\} ${1 + Math.ceil(N / 3)}`)
        .test(r.resp.prometheus_text), r.resp.prometheus_text);

  // --- SIGTERM with jobs in flight: they finish, new submits are refused, exit 0
  const inflight = ["term-1", "term-2", "term-3"];
  for (const id of inflight)
    await call("SubmitProof", { request_id: id, proof_kind: "POREP_SYNTH", synth_scale: 12, synth_partitions: light ? 3 : 6, synth_seed: 3 });
  const waits = inflight.map((id) => call("AwaitProof", { job_id: id }, 120000));
  daemon.kill("SIGTERM");
  // Submit once the daemon has taken the signal (it says so), while it still drains the jobs
  // above (large enough to outlast this): a fixed sleep raced a fast drain, after which the
  // server is gone and the connection is reset instead of answering UNAVAILABLE.
  for (let i = 0; i < 200 && !daemon.stderrText.includes("stopping"); i++)
    await sleep(25);
  r = await call("SubmitProof", { request_id: "late", proof_kind: "POREP_SYNTH", synth_scale: 10, synth_seed: 1 });
  check("after SIGTERM: SubmitProof UNAVAILABLE", code(r) === grpc.status.UNAVAILABLE, `${codeName(code(r))}: ${r.err?.details}`);
  const wr = await Promise.all(waits);
  check("after SIGTERM: jobs in flight complete", wr.every((x) => code(x) === 0 && x.resp.status === "COMPLETED"),
        JSON.stringify(wr.map((x) => x.err?.details ?? x.resp.status)));
  const ex = await daemon.exited;
  check("daemon exits 0 after draining", ex.code === 0, JSON.stringify(ex));
  check("socket file removed", !fs.existsSync(sock));
  check("every log line has a timestamp and a level",
        daemon.stderrText.trim().split("\n").every((l) => LOG_LINE.test(l)), daemon.stderrText);
  daemon = null;

  // --- the configuration file: status_listen starts GET /metrics; srs.preload loads a key (a
  // name in param_cache) before the socket exists; logging.timeline appends the engine's
  // TIMELINE lines to a file; reserved keys warn. Then timeline = "log" puts them into the log.
  const port = 20000 + (process.pid % 20000);
  const cfgPath = path.join(scratch, "cuzk.toml");
  const tlPath = path.join(scratch, "timeline.log");
  const zkeyDir = path.dirname(zkey), zkeyName = path.basename(zkey);
  // Every daemon started from a file keeps its own files in the scratch directory, never in the
  // default /var/lib/cuzk (CI runs as a user who cannot write there).
  const stateDir = path.join(scratch, "state");
  const stateLine = `state_dir = "${stateDir}"\n`;
  const startCfg = (text, level) => {
    fs.writeFileSync(cfgPath, text);
    const d = spawn(daemonBin, ["--config", cfgPath, "--log-level", level], { stdio: ["ignore", "ignore", "pipe"] });
    d.stderrText = "";
    d.stderr.on("data", (b) => { d.stderrText += b; });
    d.exited = new Promise((res) => d.on("exit", (c) => res(c)));
    return d;
  };
  // Connects as soon as the socket exists: the daemon creates it only after the preload.
  const firstStatus = async () => {
    for (let i = 0; i < 300 && !fs.existsSync(sock); i++) await sleep(50);
    client.close();
    client = newClient(); // a fresh channel: the old one backs off after its daemon went away
    await new Promise((res, rej) => client.waitForReady(Date.now() + 20000, (e) => (e ? rej(e) : res())));
    return call("GetStatus", {});
  };
  const d2 = startCfg(`[daemon]\n${stateLine}listen = "unix://${sock}"\nstatus_listen = "127.0.0.1:${port}"\n` +
                      `[memory]\neviction_min_idle = "1m"\n[gpus]\ndevices = "none"\n` +
                      `[srs]\nparam_cache = "${zkeyDir}"\npreload = ["${zkeyName}"]\n` +
                      `[logging]\ntimeline = "${tlPath}"\n`, "warn");
  r = await firstStatus();
  check("srs.preload: the key is loaded when the daemon first answers",
        code(r) === 0 && r.resp.loaded_srs.some((x) => x.circuit_id === zkey), JSON.stringify(r.err ?? r.resp.loaded_srs));
  let metrics = "";
  for (let i = 0; i < 50 && !metrics.includes("cuzk_uptime_seconds"); i++) {
    metrics = await fetch(`http://127.0.0.1:${port}/metrics`).then((x) => x.text()).catch(() => "");
    if (!metrics) await sleep(100);
  }
  check("--config: status_listen serves /metrics", metrics.includes("cuzk_proofs_submitted_total"));
  r = await call("Prove", { submit: { request_id: "tl-1", proof_kind: "POREP_SYNTH", synth_scale: 10,
                                      synth_partitions: 2, synth_seed: 5 } }, 120000);
  check("Prove with a timeline file", code(r) === 0 && r.resp.result.status === "COMPLETED", r.err?.details);
  {
    const key = path.join(stateDir, "synth-cache", "porep-synth-bls12381-10.zkey");
    const mode = (p) => (fs.existsSync(p) ? (fs.statSync(p).mode & 0o777).toString(8) : "missing");
    check("daemon.state_dir: 0700, the porep-synth key cached in its synth-cache/ (0700)",
          mode(stateDir) === "700" && mode(path.dirname(key)) === "700" && fs.existsSync(key),
          `${mode(stateDir)} ${mode(path.dirname(key))} ${fs.existsSync(key)}`);
  }
  d2.kill("SIGTERM");
  check("--config daemon exits 0", (await d2.exited) === 0, d2.stderrText);
  const tl = fs.existsSync(tlPath) ? fs.readFileSync(tlPath, "utf8") : "";
  const tlJob = tl.split("\n").filter((l) => /^TIMELINE,[0-9.]+,[A-Z_]+,tl-1,/.test(l)).map((l) => l.split(",")[2]);
  check("logging.timeline file: the job's lines, 2 partitions synthesized, then DONE",
        tlJob.filter((e) => e === "SYNTH_START").length === 2 && tlJob.filter((e) => e === "GPU_END").length === 2 &&
        tlJob[tlJob.length - 1] === "DONE", tl.slice(0, 400));
  check("reserved keys warn at start-up",
        /WARN .*memory\.eviction_min_idle is reserved/.test(d2.stderrText) &&
        !/gpus\.devices is reserved/.test(d2.stderrText), d2.stderrText);
  check("--log-level warn: no INFO lines", !/ INFO /.test(d2.stderrText), d2.stderrText);

  const d4 = startCfg(`[daemon]\n${stateLine}listen = "unix://${sock}"\n[logging]\ntimeline = "log"\n`, "info");
  r = await firstStatus();
  r = await call("Prove", { submit: { request_id: "tl-2", proof_kind: "POREP_SYNTH", synth_scale: 10,
                                      synth_partitions: 1, synth_seed: 6 } }, 120000);
  check("Prove with the timeline in the log", code(r) === 0 && r.resp.result.status === "COMPLETED", r.err?.details);
  d4.kill("SIGTERM");
  const c4 = await d4.exited;
  const lines4 = d4.stderrText.trim().split("\n");
  check("timeline = \"log\": TIMELINE lines in the log, with timestamp and level",
        c4 === 0 && lines4.some((l) => / INFO  TIMELINE,[0-9.]+,DONE,tl-2,/.test(l)) &&
        lines4.every((l) => LOG_LINE.test(l)), d4.stderrText.slice(0, 2000));

  const d5 = startCfg(`[daemon]\n${stateLine}listen = "unix://${sock}"\n[srs]\nparam_cache = "${scratch}"\npreload = ["missing.zkey"]\n`, "info");
  const c5 = await d5.exited;
  check("srs.preload of a missing key stops start-up (exit 1, no socket)",
        c5 === 1 && /ERROR .*srs\.preload: .*missing\.zkey/.test(d5.stderrText) && !fs.existsSync(sock), `${c5} ${d5.stderrText}`);

  fs.writeFileSync(cfgPath, "[daemon]\n\nlisten = 5\n");
  const d3 = spawn(daemonBin, ["--config", cfgPath], { stdio: ["ignore", "ignore", "pipe"] });
  let err3 = "";
  d3.stderr.on("data", (b) => { err3 += b; });
  const c3 = await new Promise((res) => d3.on("exit", (c) => res(c)));
  check("a bad config stops start-up with FILE:LINE", c3 === 2 && err3.includes(`${cfgPath}:3:`), err3);
  // a configured GPU that does not exist (1023; on a machine without GPUs, any) stops start-up
  const runBad = async (args) => {
    const d = spawn(daemonBin, args, { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    d.stderr.on("data", (b) => { err += b; });
    return { code: await new Promise((res) => d.on("exit", (c) => res(c))), err };
  };
  fs.writeFileSync(cfgPath, `[daemon]\nlisten = "unix://${sock}"\n${stateLine}[gpus]\ndevices = [1023]\n`);
  let b = await runBad(["--config", cfgPath]);
  check("gpus.devices naming a missing GPU stops start-up with FILE:LINE",
        b.code === 2 && b.err.includes(`${cfgPath}:5: gpus.devices = [1023]: `) &&
        (onCpu ? b.err.includes("no GPU is visible") : b.err.includes("there is no GPU 1023")), b.err);
  if (onCpu) {
    b = await runBad(["--config", cfgPath, "--gpus", "all"]);
    check("--gpus all without a GPU stops start-up", b.code === 2 &&
          b.err.includes("command line: gpus.devices = \"all\": no GPU is visible"), b.err);
  }
} catch (e) {
  check("no exception", false, e.stack);
} finally {
  client.close();
  if (daemon) daemon.kill("SIGKILL");
}
finish("daemon_grpc", t0);
