// What the daemon's Node tests (grpc.mjs, keys.mjs, pool.mjs, startup.mjs) share: arguments and
// scratch directory, the npm modules (exit 77 when missing), the proto's client class, the check
// tally, status-code helpers, and BN254 proof bytes as snarkjs JSON.
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
