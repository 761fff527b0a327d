// What the daemon's Node tests (grpc.mjs, keys.mjs, pool.mjs, startup.mjs; the Filecoin ones,
// post.mjs, porep.mjs, snap.mjs) share: arguments and scratch directory, the npm modules (exit 77
// when missing), the proto's client class, the check tally, status-code helpers, BN254 proof
// bytes as snarkjs JSON, the cuzk CLI and a daemon with local Filecoin keys.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// `node tests/daemon/NAME.mjs <cuzk-daemon> <scratch dir>`: the daemon, a fresh scratch
// directory, grpc, proto-loader (and snarkjs when asked), and the ProvingEngine client class.
export async function setup(name, { snarkjs: wantSnarkjs = false } = {}) {
  const [daemonBin, scratchArg] = process.argv.slice(2);
  if (!daemonBin) {
    console.error(`usage: ${name}.mjs <cuzk-daemon> <scratch dir>`);
    process.exit(2);
  }
  let grpc, protoLoader, snarkjs;
  try {
    grpc = await import("@grpc/grpc-js");
    protoLoader = await import("@grpc/proto-loader");
    if (wantSnarkjs) snarkjs = await import("snarkjs");
  } catch (e) {
    console.log(`SKIP: an npm module is missing (run npm install): ${e.message}`);
    process.exit(77);
  }
  const scratch = path.resolve(scratchArg ?? `build/daemon-${name}-test`);
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch, { recursive: true });
  const def = protoLoader.loadSync(path.join(root, "proto/cuzk/v1/proving.proto"), {
    keepCase: true, longs: String, enums: String, defaults: true,
  });
  const Engine = grpc.loadPackageDefinition(def).cuzk.v1.ProvingEngine;
  const code = (r) => (r.err ? r.err.code : grpc.status.OK);
  const codeName = (c) => Object.keys(grpc.status).find((k) => grpc.status[k] === c) ?? String(c);
  return { daemonBin, scratch, grpc, protoLoader, snarkjs, Engine, code, codeName };
}

export const tally = { passed: 0, failed: 0 };
export function check(name, ok, detail = "") {
  if (ok) tally.passed++;
  else tally.failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok || !detail ? "" : ": " + detail}`);
}
// The last lines of a test: its time, the counts, the exit status.
export function finish(label, t0) {
  console.log(`${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  console.log(`${tally.passed} passed, ${tally.failed} failed`);
  process.exit(tally.failed ? 1 : 0);
}

// BN254 proof bytes (snarkjs layout: affine little-endian Montgomery; A 64, B 128, C 64 bytes)
// as snarkjs's proof JSON.
function modpow(b, e, m) { let r = 1n; b %= m; for (; e > 0n; e >>= 1n, b = b * b % m) if (e & 1n) r = r * b % m; return r; }
const BN_P = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;
const RINV = modpow(modpow(2n, 256n, BN_P), BN_P - 2n, BN_P);
function fe(buf, off) {
  let x = 0n;
  for (let i = 31; i >= 0; i--) x = (x << 8n) | BigInt(buf[off + i]);
  return (x * RINV % BN_P).toString();
}
export function bn254ProofJson(b) {
  return {
    protocol: "groth16", curve: "bn128",
    pi_a: [fe(b, 0), fe(b, 32), "1"],
    pi_b: [[fe(b, 64), fe(b, 96)], [fe(b, 128), fe(b, 160)], ["1", "0"]],
    pi_c: [fe(b, 192), fe(b, 224), "1"],
  };
}

// A daemon log line: ISO-8601 UTC time with milliseconds, the level in five columns, the text.
export const LOG_LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (ERROR|WARN |INFO |DEBUG|TRACE) \S/;

// A TCP port on 127.0.0.1 that nobody listens on now (asked of the system, then released).
export async function freePort() {
  const net = await import("node:net");
  const srv = net.createServer();
  await new Promise((res) => srv.listen(0, "127.0.0.1", res));
  const port = srv.address().port;
  await new Promise((res) => srv.close(res));
  return port;
}

// The Filecoin tests' third argument, the cuzk CLI: { cuzk, run }, run(args) giving
// { rc, out, err }.
export async function cuzkCli(name) {
  const { spawnSync } = await import("node:child_process");
  const cuzk = process.argv[4];
  if (!cuzk) {
    console.error(`usage: ${name}.mjs <cuzk-daemon> <scratch dir> <cuzk>`);
    process.exit(2);
  }
  const run = (args) => {
    const r = spawnSync(cuzk, args, { encoding: "utf8" });
    return { rc: r.status, out: r.stdout, err: r.stderr };
  };
  return { cuzk, run };
}

// The params folder holding a test's 2 KiB key of kind (porep-c2, snap-update): the one ctest's
// filecoin_keys_2k fixture made (CZ_TEST_KEYS_2K, tests/cli/make_keys_2k.sh); else a folder in
// scratch where `cuzk filecoin setup` (run, from cuzkCli) makes it with seed, or, when light, an
// empty one (the test's proofs then fail for the missing key).
export function keys2k(scratch, run, kind, seed, light) {
  if (!light && process.env.CZ_TEST_KEYS_2K) return path.join(process.env.CZ_TEST_KEYS_2K, kind);
  const params = path.join(scratch, "params");
  fs.mkdirSync(params);
  if (!light) {
    const r = run(["filecoin", "setup", kind, "--sector-size", "2KiB", "--params-dir", params, "--seed", seed]);
    check(`setup ${kind} 2KiB`, r.rc === 0, r.err);
  }
  return params;
}

// cuzk-daemon for the Filecoin tests, on unix://<scratch>/cuzk.sock with keys from params
// (srs.allow_untrusted as asked, srs.preload a key or none), /status on a free port, a 6 GiB
// budget; its stderr goes to ours and into proc.stderrText, proc.exited resolves to its exit.
// h: what setup() gave.
export class FilecoinDaemon {
  constructor(h, params) {
    this.h = h;
    this.params = params;
    this.sock = path.join(h.scratch, "cuzk.sock");
  }
  // Starts it and waits until gRPC answers; the process.
  async start({ allowUntrusted = true, preload = "" } = {}) {
    const { spawn } = await import("node:child_process");
    const { daemonBin, scratch, grpc, Engine } = this.h;
    this.statusPort = await freePort();
    const cfg = path.join(scratch, `cuzk-${allowUntrusted}.toml`);
    fs.writeFileSync(cfg, `[daemon]\nstatus_listen = "127.0.0.1:${this.statusPort}"\n` +
                          `[srs]\nparam_cache = "${this.params}"\nallow_untrusted = ${allowUntrusted}\n` +
                          (preload ? `preload = ["${preload}"]\n` : ""));
    const d = spawn(daemonBin, ["--listen", `unix://${this.sock}`, "--config", cfg, "--budget-gib", "6",
                                "--synth-cache", path.join(scratch, "synth")],
                    { stdio: ["ignore", "inherit", "pipe"] });
    d.stderrText = "";
    d.stderr.on("data", (b) => { d.stderrText += b; process.stderr.write(b); });
    d.exited = new Promise((res) => d.on("exit", (c, sig) => res({ code: c, sig })));
    this.proc = d;
    this.client = new Engine(`unix://${this.sock}`, grpc.credentials.createInsecure(),
                             { "grpc.max_receive_message_length": 256 << 20 });
    await new Promise((res, rej) => this.client.waitForReady(Date.now() + 20000, (e) => (e ? rej(e) : res())));
    return d;
  }
  // An RPC: { err, resp }.
  call(m, req, deadlineMs = 900000) {
    return new Promise((res) => {
      this.client[m](req, { deadline: Date.now() + deadlineMs }, (err, resp) => res({ err, resp }));
    });
  }
  // SIGTERM, then the check that it exits 0.
  async stop() {
    this.client.close();
    this.proc.kill("SIGTERM");
    const e = await this.proc.exited;
    check("the daemon stops cleanly on SIGTERM", e.code === 0, JSON.stringify(e));
  }
  kill() {
    this.proc?.kill("SIGKILL");
  }
}
