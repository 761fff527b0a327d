// cuzk-daemon start-up: one daemon per socket (the lock file beside it, taken before the engine
// and the keys), the socket's mode whatever the umask, the addresses really bound in the ready
// line, the state directory (made private, refused when it is not), the porep-synth key cache
// repairing a damaged key, and the values start-up refuses (exit 2, a message naming the value,
// nothing left at the socket path). A node gRPC client (@grpc/grpc-js) asks the live daemons.
//
//   node tests/daemon/startup.mjs <cuzk-daemon> <scratch dir>
// Exit 0 all passed, 1 a check failed, 77 skipped (the npm modules are missing: npm install).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setup, check, finish, sleep, freePort } from "./harness.mjs";

const { daemonBin, scratch, grpc, Engine, code } = await setup("startup");
const t0 = Date.now();



const sock = path.join(scratch, "cuzk.sock");
const lock = `${sock}.lock`;


// Starts the daemon (umask 0, so the socket's and the directories' modes are the daemon's doing);
// args after the defaults. synth: false leaves out --synth-cache (the key cache is then under
// daemon.state_dir, which the args must set: never the default /var/lib/cuzk in a test).
function start(args, { synth = true } = {}) {
  const d = spawn("sh", ["-c", 'umask 0; exec "$@"', "sh", daemonBin, "--listen", `unix://${sock}`,
                         ...(synth ? ["--synth-cache", path.join(scratch, "synth")] : []),
                         "--gpus", "none", ...args],
                  { stdio: ["ignore", "ignore", "pipe"] });
  d.stderrText = "";
  d.stderr.on("data", (b) => { d.stderrText += b; });
  d.exited = new Promise((res) => d.on("exit", (code, sig) => res({ code, sig })));
  return d;
}
const timeout = (p, ms) => Promise.race([p, sleep(ms).then(() => ({ code: "timeout" }))]);
const waitReady = async (d) => {
  for (let i = 0; i < 600 && !d.stderrText.includes("ready:") && d.exitCode === null; i++) await sleep(50);
  return d.stderrText.includes("ready:");
};
const readyLine = (d) => d.stderrText.split("\n").find((l) => l.includes("ready:")) ?? "";
const cfgFile = (name, text) => { const f = path.join(scratch, name); fs.writeFileSync(f, text); return f; };
const mode = (p) => (fs.existsSync(p) ? (fs.lstatSync(p).mode & 0o777).toString(8) : "missing");

async function getStatus(addr = `unix://${sock}`) {
  const client = new Engine(addr, grpc.credentials.createInsecure());
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
check("the ready line names the socket's path", readyLine(d1).endsWith(`ready: listening on unix://${sock} (CPU backend)`),
      readyLine(d1));
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
// The lock comes before the engine and the keys: a second daemon whose srs.preload names a key
// that is not there (a start-up failure, exit 1, once the engine is built) stops at the lock.
{
  const cfg = cfgFile("preload.toml", '[srs]\npreload = ["/nonexistent/cuzk-startup-test.zkey"]\n');
  const d = start(["--budget-gib", "2", "--config", cfg]);
  const e = await timeout(d.exited, 30000);
  check("a second daemon stops at the lock before its keys (exit 2)", e.code === 2, JSON.stringify(e) + d.stderrText);
  check("... naming the first's PID", d.stderrText.includes(`another daemon (PID ${d1.pid}) holds ${lock}`), d.stderrText);
  check("... without loading a key", !d.stderrText.includes("srs.preload"), d.stderrText);
}
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

// --- the addresses really bound: TCP, a name, every address; a TCP port in use is refused -------
const net = await import("node:net");
{
  const [p, q] = [await freePort(), await freePort()];
  const cfg = cfgFile("tcp.toml", `[daemon]\nstatus_listen = "localhost:${q}"\n`);
  const d = start(["--budget-gib", "2", "--config", cfg, "--listen", `127.0.0.1:${p}`]);
  check("a TCP daemon is ready", await waitReady(d), d.stderrText);
  check("its ready line names both addresses bound (a name as what it resolved to)",
        new RegExp(`ready: listening on 127\\.0\\.0\\.1:${p} \\(CPU backend\\); status on ` +
                   `(127\\.0\\.0\\.1|\\[::1\\]):${q}$`).test(readyLine(d)), readyLine(d));
  r = await getStatus(`127.0.0.1:${p}`);
  check("... and it answers there", !r.err, String(r.err));
  const d2t = start(["--budget-gib", "2", "--listen", `127.0.0.1:${p}`]);
  const e = await timeout(d2t.exited, 30000);
  check("a second daemon on the same TCP port is refused (no SO_REUSEPORT sharing)",
        e.code === 1 && d2t.stderrText.includes(`cannot listen on 127.0.0.1:${p}`), JSON.stringify(e) + d2t.stderrText);
  if (e.code === "timeout") d2t.kill("SIGKILL");
  d.kill("SIGTERM");
  check("the TCP daemon exits 0", (await timeout(d.exited, 30000)).code === 0, d.stderrText);
  const dl = start(["--budget-gib", "2", "--listen", `localhost:${p}`]);
  check("a daemon on localhost:PORT is ready", await waitReady(dl), dl.stderrText);
  check("its ready line names what localhost resolved to, not the name",
        new RegExp(`ready: listening on (\\S+, )*127\\.0\\.0\\.1:${p}(, \\S+)* \\(CPU backend\\)$`).test(readyLine(dl)),
        readyLine(dl));
  dl.kill("SIGTERM");
  await timeout(dl.exited, 30000);
}

// --- daemon.state_dir: made private; the porep-synth key cache in it repairs a damaged key ------
const prove = async (id) => {
  const client = new Engine(`unix://${sock}`, grpc.credentials.createInsecure());
  try {
    await new Promise((res, rej) => client.waitForReady(Date.now() + 20000, (e) => (e ? rej(e) : res())));
    return await new Promise((res) => client.Prove(
      { submit: { request_id: id, proof_kind: "POREP_SYNTH", synth_scale: 10, synth_partitions: 1, synth_seed: 3 } },
      { deadline: Date.now() + 180000 }, (err, resp) => res({ err, resp })));
  } catch (e) {
    return { err: e };
  } finally {
    client.close();
  }
};
{
  const state = path.join(scratch, "state");
  const cache = path.join(state, "synth-cache"), key = path.join(cache, "porep-synth-bls12381-10.zkey");
  const cfg = cfgFile("state.toml", `[daemon]\nstate_dir = "${state}"\n`);
  let d = start(["--budget-gib", "2", "--config", cfg], { synth: false });
  check("a daemon with a new state_dir is ready", await waitReady(d), d.stderrText);
  check("state_dir and its synth-cache/ are made 0700 (under umask 0)",
        mode(state) === "700" && mode(cache) === "700", `${mode(state)} ${mode(cache)}`);
  r = await prove("synth-1");
  check("a porep-synth job completes", !r.err && r.resp.result.status === "COMPLETED", String(r.err?.details ?? r.err));
  check("its key is cached in state_dir/synth-cache/", fs.existsSync(key));
  d.kill("SIGTERM");
  check("the daemon exits 0", (await timeout(d.exited, 60000)).code === 0, d.stderrText);
  // a damaged key (one flipped byte in the middle): the next daemon makes it again, with a warning
  if (fs.existsSync(key)) {
    const fd = fs.openSync(key, "r+"), size = fs.fstatSync(fd).size, b = Buffer.alloc(1);
    fs.readSync(fd, b, 0, 1, size >> 1);
    b[0] ^= 0x20;
    fs.writeSync(fd, b, 0, 1, size >> 1);
    fs.closeSync(fd);
  }
  d = start(["--budget-gib", "2", "--config", cfg], { synth: false });
  check("a daemon on a damaged cached key is ready", await waitReady(d), d.stderrText);
  r = await prove("synth-2");
  check("a porep-synth job on a damaged cached key completes (the key made again)",
        !r.err && r.resp.result.status === "COMPLETED", String(r.err?.details ?? r.err));
  const warn = d.stderrText.split("\n").find((l) => / WARN .*porep-synth: cached key /.test(l)) ?? "";
  check("... with a warning naming the file and why", warn.includes(key) && warn.includes("checksum") &&
        warn.includes("making it again"), d.stderrText);
  d.kill("SIGTERM");
  check("the daemon exits 0", (await timeout(d.exited, 60000)).code === 0, d.stderrText);
}

// --- values start-up refuses: exit 2, the message names the value, nothing at the socket path ---
{
  const busy = net.createServer();
  await new Promise((res) => busy.listen(0, "127.0.0.1", res));
  const busyPort = busy.address().port;
  const big = cfgFile("big.toml", '[memory]\ntotal_budget = "100TiB"\n');
  const real = path.join(scratch, "real-state");
  fs.mkdirSync(real);
  fs.symlinkSync(real, path.join(scratch, "link-state"));
  for (const [name, m] of [["open-state", 0o777], ["group-state", 0o770], ["open-synth", 0o777]]) {
    fs.mkdirSync(path.join(scratch, name));
    fs.chmodSync(path.join(scratch, name), m);
  }
  fs.writeFileSync(path.join(scratch, "file-state"), "");
  const stateCfg = (name, dir) => cfgFile(name, `[daemon]\n\nstate_dir = "${dir}"\n`);
  const badState = [
    [stateCfg("sd1.toml", path.join(scratch, "link-state")),
     `sd1.toml:3: daemon.state_dir: ${path.join(scratch, "link-state")} is a symbolic link`],
    [stateCfg("sd2.toml", path.join(scratch, "open-state")),
     `sd2.toml:3: daemon.state_dir: ${path.join(scratch, "open-state")} is writable by others (mode 0777)`],
    [stateCfg("sd3.toml", path.join(scratch, "group-state")),
     `daemon.state_dir: ${path.join(scratch, "group-state")} is writable by its group (mode 0770)`],
    [stateCfg("sd4.toml", path.join(scratch, "file-state")), "file-state is not a directory"],
    [stateCfg("sd5.toml", path.join(scratch, "no", "such")), "cannot create the directory"],
  ];
  for (const [cfg, what] of badState) {
    const d = start(["--config", cfg], { synth: false });
    const e = await timeout(d.exited, 60000);
    check(`refused: state_dir of ${path.basename(cfg)} exits 2`, e.code === 2, JSON.stringify(e) + d.stderrText);
    check(`refused: state_dir of ${path.basename(cfg)} names ${what}`, d.stderrText.includes(what), d.stderrText);
    check(`refused: state_dir of ${path.basename(cfg)} leaves nothing at the socket path`,
          !fs.existsSync(sock) && !fs.existsSync(lock));
  }
  check("a symbolic link state_dir is not followed (nothing made in its target)", fs.readdirSync(real).length === 0);
  const bad = [
    [["--threads", "abc"], "--threads abc"],
    [["--threads", "-1"], "--threads -1"],
    [["--threads", "3x"], "--threads 3x"],
    [["--budget-gib", "-4"], "--budget-gib -4"],
    [["--budget-gib", "lots"], "--budget-gib lots"],
    [["--synth-max-scale", "99"], "--synth-max-scale 99"],
    [["--budget-gib", "102400"], "--budget-gib: budget"],
    [["--config", big], `${big}:2: memory.total_budget: budget`],
    [["--synth-cache", path.join(scratch, "open-synth")],
     `--synth-cache: ${path.join(scratch, "open-synth")} is writable by others`],
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

finish("daemon_startup", t0);
