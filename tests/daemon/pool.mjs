// cuzk-daemon's threads and request memory under many calls (ctest daemon_pool): a Node gRPC
// client against a daemon started here with `daemon.rpc_threads = 4`, CPU backend, one synthesis
// thread and one CPU thread beside the kernels (so a long job is long on any machine).
//
//   node tests/daemon/pool.mjs <cuzk-daemon> <scratch dir>
// Exit 0 all passed, 1 a check failed, 77 skipped (the npm modules are missing: npm install).
//
// 1. 1,000 AwaitProof calls at once on 4 jobs held behind a long one: the daemon's thread count
//    (/proc/PID/task) is sampled while they wait and must stay within the idle baseline (which
//    holds the 4 RPC threads and the waiter thread) plus a margin for grpc's own threads; every
//    call then gets its job's proof. Among them: waits with timeout_ms that answer TIMEOUT, and
//    waits that their client cancels, which leave the others alone; a Prove that its client
//    cancels has its queued job cancelled at once, not when the long job ends.
// 2. Every RPC thread busy in a slow SubmitProof (a porep-synth key being built): GetStatus,
//    GetMetrics, CancelProof and AwaitProof calls are answered, a parked one gets its proof, and
//    a fifth slow call (Prove) waits in line; it completes once the submits end.
// 3. Request memory: 4 Prove calls of 48 MiB each (a porep-synth job with a large field the job
//    does not use) parked behind a long job: the daemon's resident memory (VmRSS) does not keep
//    the requests (less than half of one request's size per call above the level before).
//    Skipped under the sanitizers (CZ_DAEMON_SANITIZER), whose allocators keep freed memory.
// 4. SIGTERM with 100 calls parked on 3 running jobs: all get their proofs, exit 0.
// The daemon's own threads have names: rpc_threads "cuzk-rpc" and one "cuzk-wait", counted too.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setup, check, finish, sleep } from "./harness.mjs";

const { daemonBin, scratch, grpc, Engine, code, codeName } = await setup("pool");

// A sanitizer's allocator keeps freed memory resident (ASan's quarantine, TSan's caches).
// CMake passes CZ_SANITIZE as it is: "address", "thread", or OFF (none).
const sanitizer = ["address", "thread"].includes(process.env.CZ_DAEMON_SANITIZER) ? process.env.CZ_DAEMON_SANITIZER : "";
// The light run (CZ_DAEMON_TEST_LIGHT=1, `make test-tsan`, or a sanitizer-built daemon): smaller
// slow calls and fewer SIGTERM partitions, the same checks.
const light = process.env.CZ_DAEMON_TEST_LIGHT === "1" || sanitizer !== "";

const sock = path.join(scratch, "cuzk.sock");
const cfgPath = path.join(scratch, "cuzk.toml");

const opts = { "grpc.max_send_message_length": 256 << 20, "grpc.max_receive_message_length": 256 << 20 };

const RPC_THREADS = 4;
function startDaemon(rpcThreads) {
  fs.writeFileSync(cfgPath, `[daemon]\nlisten = "unix://${sock}"\nrpc_threads = ${rpcThreads}\n` +
                            `[memory]\ntotal_budget = "4GiB"\n[gpus]\ndevices = "none"\ngpu_threads = 1\n` +
                            `[synthesis]\nthreads = 1\n`);
  const d = spawn(daemonBin, ["--config", cfgPath, "--synth-cache", path.join(scratch, "synth")],
                  { stdio: ["ignore", "inherit", "pipe"] });
  d.stderrText = "";
  d.stderr.on("data", (b) => { d.stderrText += b; });
  d.exited = new Promise((res) => d.on("exit", (code, sig) => res({ code, sig })));
  return d;
}
async function ready(d) {
  for (let i = 0; i < 600 && !d.stderrText.includes("ready:"); i++) await sleep(50);
  const c = new Engine(`unix://${sock}`, grpc.credentials.createInsecure(), opts);
  await new Promise((res, rej) => c.waitForReady(Date.now() + 20000, (e) => (e ? rej(e) : res())));
  return c;
}
const threads = (pid) => { try { return fs.readdirSync(`/proc/${pid}/task`).length; } catch { return -1; } };
// The threads named name ("cuzk-rpc", "cuzk-wait").
const named = (pid, name) => {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).filter((t) => {
      try { return fs.readFileSync(`/proc/${pid}/task/${t}/comm`, "utf8").trim() === name; } catch { return false; }
    }).length;
  } catch { return -1; }
};
const rssBytes = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) * 1024 : -1;
};

let client;
const call = (m, req, deadlineMs = 300000) => new Promise((res) => {
  client[m](req, { deadline: Date.now() + deadlineMs }, (err, resp) => res({ err, resp }));
});
// A call the test cancels itself: { done, cancel }.
function cancellable(m, req) {
  let c;
  const done = new Promise((res) => { c = client[m](req, { deadline: Date.now() + 300000 }, (err, resp) => res({ err, resp })); });
  return { done, cancel: () => c.cancel() };
}
const synth = (id, scale, parts, extra = {}) =>
  ({ request_id: id, proof_kind: "POREP_SYNTH", synth_scale: scale, synth_partitions: parts, synth_seed: 9, ...extra });
// A job that keeps the pipeline busy until it is cancelled: 64 partitions of 2^14 on one CPU
// thread (the configuration), seconds each, whatever the machine's number of cores.
const LONG = (id) => synth(id, 14, 64);
async function waitRunning(id) {
  for (let i = 0; i < 400; i++) {
    const r = await call("AwaitProof", { job_id: id, timeout_ms: 1 });
    if (code(r) !== 0 || r.resp.status !== "TIMEOUT") return false; // ended, or unknown
    const st = await call("GetStatus", {});
    if (st.resp.queues.find((q) => q.proof_kind === "porep-synth").in_progress > 0) return true;
    await sleep(25);
  }
  return false;
}
const pending = async () =>
  (await call("GetStatus", {})).resp.queues.find((q) => q.proof_kind === "porep-synth").pending;

const t0 = Date.now();
let daemon = startDaemon(RPC_THREADS);
try {
  client = await ready(daemon);
  // Warm up: the scale-10 and scale-14 keys, the engine's and grpc's threads.
  let r = await call("Prove", { submit: synth("warm-1", 10, 1) });
  check("warm-up Prove", code(r) === 0 && r.resp.result.status === "COMPLETED", r.err?.details);
  r = await call("Prove", { submit: synth("warm-2", 14, 1) });
  check("warm-up Prove (2^14)", code(r) === 0 && r.resp.result.status === "COMPLETED", r.err?.details);
  await Promise.all(Array.from({ length: 8 }, () => call("GetStatus", {})));
  await sleep(200);
  const base = threads(daemon.pid);
  console.log(`threads at rest: ${base} (with ${RPC_THREADS} RPC threads and the waiter)`);
  check(`rpc_threads = ${RPC_THREADS}: ${RPC_THREADS} "cuzk-rpc" threads and one "cuzk-wait"`,
        named(daemon.pid, "cuzk-rpc") === RPC_THREADS && named(daemon.pid, "cuzk-wait") === 1,
        `${named(daemon.pid, "cuzk-rpc")} ${named(daemon.pid, "cuzk-wait")}`);

  // --- 1. 1,000 waiting calls on 4 jobs held behind a long one
  r = await call("SubmitProof", LONG("long-1"));
  check("SubmitProof long-1", code(r) === 0 && (await waitRunning("long-1")), r.err?.details);
  const jobs = ["j-0", "j-1", "j-2", "j-3"];
  for (const [i, id] of jobs.entries()) {
    r = await call("SubmitProof", synth(id, 10, 1 + (i % 2), { synth_seed: 20 + i }));
    check(`SubmitProof ${id}`, code(r) === 0, r.err?.details);
  }
  r = await call("SubmitProof", synth("t-low", 10, 1, { priority: "LOW" }));
  check("SubmitProof t-low (LOW: behind everything)", code(r) === 0, r.err?.details);
  const NWAIT = 1000, NTIMEOUT = 20, NGONE = 50;
  let maxThreads = 0, sampling = true;
  const sampler = (async () => {
    while (sampling) {
      maxThreads = Math.max(maxThreads, threads(daemon.pid));
      await sleep(20);
    }
  })();
  const waits = Array.from({ length: NWAIT }, (_, i) => call("AwaitProof", { job_id: jobs[i % 4] }));
  const timeouts = Array.from({ length: NTIMEOUT }, () => call("AwaitProof", { job_id: "t-low", timeout_ms: 400 }));
  const gone = Array.from({ length: NGONE }, () => cancellable("AwaitProof", { job_id: "t-low" }));
  const proveGone = cancellable("Prove", { submit: synth("p-gone", 10, 1, { priority: "LOW", synth_seed: 5 }) });
  // Every call has reached the daemon once a later one is answered on the same connection; the
  // threads are sampled for a while longer (a thread per call would show here).
  r = await call("GetStatus", {});
  const tr = await Promise.all(timeouts);
  check(`${NTIMEOUT} AwaitProof timeout_ms 400 on a queued job: TIMEOUT`,
        tr.every((x) => code(x) === 0 && x.resp.status === "TIMEOUT"), JSON.stringify(tr.find((x) => x.err || x.resp.status !== "TIMEOUT")));
  // The clients of the gone calls cancel them once the Prove's job is queued (so it is parked).
  let pgState = null;
  for (let i = 0; i < 2400 && pgState !== "TIMEOUT"; i++) {
    const a = await call("AwaitProof", { job_id: "p-gone", timeout_ms: 1 });
    pgState = a.resp?.status ?? codeName(code(a));
    if (pgState !== "TIMEOUT") await sleep(25);
  }
  check("Prove p-gone submitted and queued", pgState === "TIMEOUT", pgState);
  gone.forEach((g) => g.cancel());
  proveGone.cancel();
  const gr = await Promise.all(gone.map((g) => g.done));
  check(`${NGONE} parked AwaitProof calls cancelled by their client: CANCELLED`,
        gr.every((x) => code(x) === grpc.status.CANCELLED), codeName(code(gr[0])));
  const pg = await proveGone.done;
  check("a parked Prove cancelled by its client: CANCELLED", code(pg) === grpc.status.CANCELLED, codeName(code(pg)));
  // The daemon cancels the Prove's job when it sees the client go, while long-1 still runs.
  for (let i = 0; i < 2400 && pgState !== "CANCELLED"; i++) {
    const a = await call("AwaitProof", { job_id: "p-gone", timeout_ms: 1 });
    pgState = a.resp?.status ?? codeName(code(a));
    if (pgState !== "CANCELLED") await sleep(25);
  }
  const longNow = await call("AwaitProof", { job_id: "long-1", timeout_ms: 1 });
  check("... and its queued job is cancelled at once (the long job still runs)",
        pgState === "CANCELLED" && longNow.resp?.status === "TIMEOUT", `${pgState} ${longNow.resp?.status}`);
  await sleep(light ? 1500 : 1000);
  sampling = false;
  await sampler;
  const rpcNow = named(daemon.pid, "cuzk-rpc");
  const bound = base + 8;
  console.log(`threads: at rest ${base}, at most ${maxThreads} with ${NWAIT + NTIMEOUT + NGONE} calls waiting (bound ${bound})`);
  check(`${NWAIT} parked AwaitProof calls hold no thread each (threads ${maxThreads} <= ${base} + 8)`,
        maxThreads > 0 && maxThreads <= bound, `${maxThreads}`);
  check(`... and the pool is still ${RPC_THREADS} threads`, rpcNow === RPC_THREADS, `${rpcNow}`);
  r = await call("CancelProof", { job_id: "long-1" });
  check("CancelProof long-1", code(r) === 0, r.err?.details);
  const wr = await Promise.all(waits);
  const good = wr.filter((x, i) => code(x) === 0 && x.resp.status === "COMPLETED" && x.resp.job_id === jobs[i % 4] &&
                                   x.resp.proof.length === 192 * (1 + ((i % 4) % 2))).length;
  check(`${NWAIT} of ${NWAIT} waiting calls get their job's proof`, good === NWAIT,
        `${good}; ${JSON.stringify(wr.find((x) => x.err)?.err?.details)}`);
  const same = wr.every((x, i) => i < 4 || Buffer.compare(x.resp.proof, wr[i % 4].resp.proof) === 0);
  check("... the same proof for every waiter of a job", same);
  r = await call("AwaitProof", { job_id: "t-low" });
  check("t-low completes after its timeouts and gone waiters", code(r) === 0 && r.resp.status === "COMPLETED", r.resp?.status);

  // --- 2. every RPC thread in a slow call: the rest is still served. The slow calls are
  // submits of a porep-synth scale whose key is not built yet: the first builds it (a test setup
  // of 2^16 constraints, seconds; 2^15 in the light run, still seconds under the sanitizer), the
  // others wait for that build.
  r = await call("SubmitProof", synth("b-1", 10, 2, { synth_seed: 31 }));
  check("SubmitProof b-1", code(r) === 0, r.err?.details);
  let slowDone = 0;
  const slow = Array.from({ length: RPC_THREADS }, (_, i) =>
    call("SubmitProof", synth(`slow-${i}`, light ? 15 : 16, 1, { synth_seed: 50 + i }), 600000).then((x) => { slowDone++; return x; }));
  await sleep(200);
  const fifth = call("Prove", { submit: synth("fifth", 10, 1, { synth_seed: 32 }) }, 600000).then((x) => { slowDone++; return x; });
  const fast = await Promise.all([call("GetStatus", {}), call("GetMetrics", {}), call("CancelProof", { job_id: "nope" }),
                                  call("AwaitProof", { job_id: "b-1" }), call("AwaitProof", { job_id: "warm-1" })]);
  const doneBefore = slowDone;
  check("pool busy: GetStatus, GetMetrics, CancelProof answered",
        code(fast[0]) === 0 && code(fast[1]) === 0 && code(fast[2]) === grpc.status.NOT_FOUND, codeName(code(fast[2])));
  check("pool busy: a parked AwaitProof gets its proof, a finished job's at once",
        code(fast[3]) === 0 && fast[3].resp.status === "COMPLETED" && fast[3].resp.proof.length === 384 &&
        code(fast[4]) === 0 && fast[4].resp.status === "COMPLETED", JSON.stringify(fast[3].err ?? fast[3].resp.status));
  check(`... while ${RPC_THREADS} slow submits hold every RPC thread and a fifth slow call waits in line`,
        doneBefore === 0, `${doneBefore} returned`);
  const sr = await Promise.all(slow);
  check("the slow submits are accepted", sr.every((x) => code(x) === 0), JSON.stringify(sr.map((x) => x.err?.details)));
  const f5 = await fifth;
  check("the fifth slow call completes", code(f5) === 0 && f5.resp.result.status === "COMPLETED", f5.err?.details);
  const sw = await Promise.all(Array.from({ length: RPC_THREADS }, (_, i) => call("AwaitProof", { job_id: `slow-${i}` }, 600000)));
  check("... and so do the slow submits' jobs", sw.every((x) => code(x) === 0 && x.resp.status === "COMPLETED"),
        JSON.stringify(sw.map((x) => x.err?.details ?? x.resp.status)));

  // --- 3. request memory: Prove calls parked behind a long job do not keep their requests
  r = await call("SubmitProof", LONG("long-2"));
  check("SubmitProof long-2", code(r) === 0 && (await waitRunning("long-2")), r.err?.details);
  const NBIG = 4, BIG = 48 << 20;
  const pad = Buffer.alloc(BIG, 0x5a);
  await sleep(300);
  const rss0 = rssBytes(daemon.pid);
  const pend0 = await pending();
  const bigs = Array.from({ length: NBIG }, (_, i) =>
    call("Prove", { submit: synth(`big-${i}`, 10, 1, { synth_seed: 40 + i, vanilla_proof: pad }) }));
  let pend = pend0;
  for (let i = 0; i < 1200 && pend < pend0 + NBIG; i++) {
    await sleep(50);
    pend = await pending();
  }
  check(`${NBIG} large Prove calls submitted and waiting`, pend === pend0 + NBIG, `${pend - pend0}`);
  await sleep(500);
  const rss1 = rssBytes(daemon.pid);
  const held = rss1 - rss0;
  console.log(`VmRSS: ${(rss0 / 2 ** 20).toFixed(0)} MiB before, ${(rss1 / 2 ** 20).toFixed(0)} MiB with ${NBIG} x ` +
              `${BIG >> 20} MiB Prove calls waiting (${(held / 2 ** 20).toFixed(0)} MiB more)`);
  if (sanitizer)
    console.log(`skip: request memory under the ${sanitizer} sanitizer (its allocator keeps freed memory)`);
  else
    check(`waiting Prove calls do not keep their requests (${(held / 2 ** 20).toFixed(0)} MiB < ${NBIG} x ${BIG >> 21} MiB)`,
          held < NBIG * (BIG / 2), `${held}`);
  r = await call("CancelProof", { job_id: "long-2" });
  const br = await Promise.all(bigs);
  check("the large Prove calls complete", br.every((x) => code(x) === 0 && x.resp.result.status === "COMPLETED"),
        JSON.stringify(br.map((x) => x.err?.details ?? x.resp.result.status)));

  // --- 4. SIGTERM with calls parked on running jobs: answered, exit 0
  const term = ["term-1", "term-2", "term-3"];
  for (const id of term) await call("SubmitProof", synth(id, 14, light ? 1 : 3));
  const NTERM = 100;
  const tw = Array.from({ length: NTERM }, (_, i) => call("AwaitProof", { job_id: term[i % 3] }));
  await call("GetStatus", {});
  daemon.kill("SIGTERM");
  const twr = await Promise.all(tw);
  check(`SIGTERM: ${NTERM} parked calls get their proofs`,
        twr.every((x) => code(x) === 0 && x.resp.status === "COMPLETED"),
        JSON.stringify(twr.find((x) => x.err || x.resp.status !== "COMPLETED")?.err?.details));
  const ex = await daemon.exited;
  check("daemon exits 0 after draining", ex.code === 0, JSON.stringify(ex) + daemon.stderrText.slice(-2000));
  daemon = null;
  client.close();

} catch (e) {
  check("no exception", false, e.stack);
} finally {
  client?.close();
  if (daemon) daemon.kill("SIGKILL");
}
finish("daemon_pool", t0);
