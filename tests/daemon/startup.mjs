// cuzk-daemon start-up: one daemon per socket (the lock file beside it), the socket's mode
// whatever the umask, and the values start-up refuses (exit 2, a message naming the value, nothing
// left at the socket path). A node gRPC client (@grpc/grpc-js) asks the live daemon GetStatus.
//
//   node tests/daemon/startup.mjs <cuzk-daemon> <scratch dir>
// Exit 0 all passed, 1 a check failed, 77 skipped (the npm modules are missing: npm install).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const [daemonBin, scratchArg] = process.argv.slice(2);
if (!daemonBin) {
  console.error("usage: startup.mjs <cuzk-daemon> <scratch dir>");
  process.exit(2);
}
let grpc, protoLoader;
try {
  grpc = await import("@grpc/grpc-js");
  protoLoader = await import("@grpc/proto-loader");
} catch (e) {
  console.log(`SKIP: @grpc/grpc-js or @grpc/proto-loader missing (run npm install): ${e.message}`);
  process.exit(77);
}

let passed = 0, failed = 0;
function check(name, ok, detail = "") {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok || !detail ? "" : ": " + detail}`);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const scratch = path.resolve(scratchArg ?? "build/daemon-startup-test");
fs.rmSync(scratch, { recursive: true, force: true });
fs.mkdirSync(scratch, { recursive: true });
const sock = path.join(scratch, "cuzk.sock");
const lock = `${sock}.lock`;

const def = protoLoader.loadSync(path.join(root, "proto/cuzk/v1/proving.proto"), {
  keepCase: true, longs: String, enums: String, defaults: true,
});
const Engine = grpc.loadPackageDefinition(def).cuzk.v1.ProvingEngine;

// Starts the daemon (umask 0, so the socket's mode is the daemon's doing); args after the defaults.
function start(args, sockPath = sock) {
  const d = spawn("sh", ["-c", 'umask 0; exec "$@"', "sh", daemonBin, "--listen", `unix://${sockPath}`,
                         "--synth-cache", path.join(scratch, "synth"), "--gpus", "none", ...args],
                  { stdio: ["ignore", "ignore", "pipe"] });
  d.stderrText = "";
  d.stderr.on("data", (b) => { d.stderrText += b; });
  d.exited = new Promise((res) => d.on("exit", (code, sig) => res({ code, sig })));
  return d;
}
const timeout = (p, ms) => Promise.race([p, sleep(ms).then(() => ({ code: "timeout" }))]);

async function getStatus() {
  const client = new Engine(`unix://${sock}`, grpc.credentials.createInsecure());
  try {
    await new Promise((res, rej) => client.waitForReady(Date.now() + 20000, (e) => (e ? rej(e) : res())));
    return await new Promise((res) => client.GetStatus({}, { deadline: Date.now() + 10000 },
                                                       (err, resp) => res({ err, resp })));
  } catch (e) {
    return { err: e };
  } finally {
    client.close();
  }
}

// --- one daemon per socket ---------------------------------------------------------------------
const d1 = start(["--budget-gib", "2"]);
for (let i = 0; i < 400 && !d1.stderrText.includes("ready:"); i++) await sleep(50);
check("first daemon ready", d1.stderrText.includes("ready:"), d1.stderrText);
let r = await getStatus();
check("first daemon answers GetStatus", !r.err, String(r.err));
const st = fs.statSync(sock);
check("socket mode is 0660 under umask 0", (st.mode & 0o777) === 0o660, (st.mode & 0o777).toString(8));
check("lock file holds the first daemon's PID",
      fs.existsSync(lock) && fs.readFileSync(lock, "utf8").trim() === String(d1.pid),
      fs.existsSync(lock) ? fs.readFileSync(lock, "utf8") : "no lock file");
const ino = st.ino;
const d2 = start(["--budget-gib", "2"]);
const e2 = await timeout(d2.exited, 30000);
check("second daemon on the live socket exits 2", e2.code === 2, JSON.stringify(e2));
check("second daemon names the first's PID", d2.stderrText.includes(`PID ${d1.pid}`), d2.stderrText);
check("the live daemon's socket is left alone", fs.existsSync(sock) && fs.statSync(sock).ino === ino);
r = await getStatus();
check("first daemon still answers GetStatus", !r.err, String(r.err));
d1.kill("SIGTERM");
const e1 = await timeout(d1.exited, 30000);
check("first daemon exits 0 on SIGTERM", e1.code === 0, JSON.stringify(e1));
check("socket and lock file removed at exit", !fs.existsSync(sock) && !fs.existsSync(lock));

// A stale socket (a file left by a killed daemon) with no lock holder is replaced.
{
  const d = start(["--budget-gib", "2"]);
  for (let i = 0; i < 400 && !d.stderrText.includes("ready:"); i++) await sleep(50);
  d.kill("SIGKILL");
  await d.exited;
  check("a killed daemon leaves its socket", fs.existsSync(sock));
  const d3 = start(["--budget-gib", "2", "--log-level", "info"]);
  for (let i = 0; i < 400 && !d3.stderrText.includes("ready:"); i++) await sleep(50);
  r = await getStatus();
  check("a stale socket is replaced", !r.err, String(r.err) + d3.stderrText);
  d3.kill("SIGTERM");
  await timeout(d3.exited, 30000);
}

// --- values start-up refuses: exit 2, the message names the value, nothing at the socket path ---
{
  const net = await import("node:net");
  const busy = net.createServer();
  await new Promise((res) => busy.listen(0, "127.0.0.1", res));
  const busyPort = busy.address().port;
  const cfgFile = (name, text) => { const f = path.join(scratch, name); fs.writeFileSync(f, text); return f; };
  const bad = [
    [["--threads", "abc"], "--threads abc"],
    [["--threads", "-1"], "--threads -1"],
    [["--threads", "3x"], "--threads 3x"],
    [["--budget-gib", "-4"], "--budget-gib -4"],
    [["--budget-gib", "lots"], "--budget-gib lots"],
    [["--synth-max-scale", "99"], "--synth-max-scale 99"],
    [["--budget-gib", "102400"], "--budget-gib: budget"],
    [["--config", cfgFile("big.toml", '[memory]\ntotal_budget = "100TiB"\n')], "memory.total_budget: budget"],
    [["--config", cfgFile("port.toml", '[daemon]\nlisten = "127.0.0.1:99999"\n')], "port 99999 is out of range"],
    [["--config", cfgFile("st.toml", '[daemon]\nstatus_listen = "127.0.0.1:70000"\n')], "70000"],
    [["--config", cfgFile("st2.toml", '[daemon]\nstatus_listen = "nonsense"\n')], "nonsense"],
    [["--config", cfgFile("st3.toml", `[daemon]\nstatus_listen = "127.0.0.1:${busyPort}"\n`)], "status_listen"],
    [["--config", cfgFile("st4.toml", `[daemon]\nstatus_listen = "256.1.1.1:80"\n`)], "256.1.1.1"],
    [["--config", cfgFile("mode.toml", '[daemon]\nsocket_mode = "0999"\n')], "0999"],
  ];
  for (const [args, what] of bad) {
    const d = start([...args]);
    const e = await timeout(d.exited, 60000);
    check(`refused: ${args.join(" ")} exits 2`, e.code === 2, JSON.stringify(e) + d.stderrText);
    check(`refused: ${args.join(" ")} names ${what}`, d.stderrText.includes(what), d.stderrText);
    check(`refused: ${args.join(" ")} leaves nothing at the socket path`,
          !fs.existsSync(sock) && !fs.existsSync(lock));
  }
  busy.close();
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
