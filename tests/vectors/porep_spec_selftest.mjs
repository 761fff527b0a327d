// Self-test of tests/vectors/lib/porep_spec.mjs (the independent JavaScript statement of the
// interactive PoRep verifier's public inputs) against data published with rust-fil-proofs and
// against values computed by hand from the Rust definitions. Writes no files; an OUTDIR argument
// (the Makefile's `node tests/vectors/*.mjs OUTDIR`) is ignored. Exits 0 only if every check
// passes.
//
// Usage: node tests/vectors/porep_spec_selftest.mjs [OUTDIR] [--full]
//   --full (or POREP_SPEC_FULL=1) also recomputes the two 512 MiB parent caches (2^24 nodes
//   each, about a minute apiece).
//
// Checks:
//  1. parent_cache.json (rust-fil-proofs storage-proofs-porep/parent_cache.json, copied below):
//     each of its 10 keys is the cache id (cache.rs cache_path) of the graph of one of the
//     registered seal proofs 0..9, which checks porep_id and the Feistel key derivation; then the
//     SHA-256 of the parent-cache file (14 u32 LE parents per node, 6 DRG then 8 expander) is
//     recomputed for 2 KiB and 8 MiB with the v1.0 graph (porep_id of proof 0 / 1) and the v1.1
//     graph (proof 5 / 6) and compared with the published digest.
//  2. ChaCha: the block function at 20 rounds against OpenSSL's chacha20 (node:crypto), the
//     8-round one being the same code with fewer rounds.
//  3. DRG / expander invariants from drgraph.rs and graph.rs tests: the predecessor is the last
//     DRG parent (v1.0) or the first (v1.1), no parent is the node itself or later; every node is
//     an expander parent exactly 8 times (the Feistel permutation is a bijection on [0, 8n)).
//  4. prover_id, replica_id and interactive challenges against constants computed by hand
//     (Python hashlib/int, from generate_replica_id, bytes_into_fr_repr_safe and
//     InteractiveChallenges::derive), with cases where the two cleared bits of replica_id were set.
//  5. publicInputs: shape (3 + 18·per partition inputs, per partition) and order for a 2 KiB and
//     a 32 GiB interactive proof.
import crypto from "node:crypto";
import * as S from "./lib/porep_spec.mjs";

const full = process.argv.includes("--full") || process.env.POREP_SPEC_FULL === "1";
let failures = 0;
function check(ok, what) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
}

// rust-fil-proofs storage-proofs-porep/parent_cache.json (commit 87348a74).
const PARENT_CACHE = {
  "v28-sdr-parent-21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117": { sector_size: 34359738368, digest: "93deeac5e3052b6927467d4b2641bb782f05491de18d510147c93eeedd8672da" },
  "v28-sdr-parent-2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42": { sector_size: 536870912, digest: "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5" },
  "v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899": { sector_size: 2048, digest: "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d" },
  "v28-sdr-parent-4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b": { sector_size: 68719476736, digest: "2698b74eb2606b55b98d8b095e18b6320b47f46e00075956d48640ccd1641b03" },
  "v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b": { sector_size: 2048, digest: "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97" },
  "v28-sdr-parent-5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5": { sector_size: 8388608, digest: "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab" },
  "v28-sdr-parent-7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34": { sector_size: 536870912, digest: "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a" },
  "v28-sdr-parent-8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6": { sector_size: 68719476736, digest: "2778a732ad46a7dc18e0564dfdf59fd321dcde74ab476fd6d3c4e6735d7cd89c" },
  "v28-sdr-parent-dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc": { sector_size: 8388608, digest: "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce" },
  "v28-sdr-parent-e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13": { sector_size: 34359738368, digest: "3c4f9841fcc75aed8c695800e58d08480629f25af3a2aefd81904181d75cc0b6" },
};

// 1. parent cache ids and digests -------------------------------------------------------------
const keyOf = {};
{
  const seen = new Set();
  for (let id = 0; id < 10; id++) {
    const c = S.sealProofConfig(id);
    const key = S.parentCacheId(c.nodes, c.porepId);
    const entry = PARENT_CACHE[key];
    check(entry !== undefined && entry.sector_size === c.sectorSize,
      `parent_cache.json has the cache id of proof ${id} (${c.sectorSize} B, api ${c.apiVersion}): ${key}`);
    keyOf[id] = key;
    seen.add(key);
  }
  check(seen.size === Object.keys(PARENT_CACHE).length, "every parent_cache.json entry is one of proofs 0..9");
}
const digestIds = full ? [0, 5, 1, 6, 2, 7] : [0, 5, 1, 6];
for (const id of digestIds) {
  const c = S.sealProofConfig(id);
  const g = S.graph(c.nodes, c.porepId, c.apiV1_0);
  const t0 = Date.now();
  const d = S.parentCacheDigest(g);
  const ms = Date.now() - t0;
  check(d === PARENT_CACHE[keyOf[id]].digest,
    `parent cache digest, proof ${id} (${c.nodes} nodes, ${c.apiV1_0 ? "v1.0" : "v1.1"} graph, porep_id ${c.porepId.toString("hex").slice(0, 16)}…): ${d} (${ms} ms)`);
}
if (!full) console.log("     (512 MiB / 32 GiB / 64 GiB digests not recomputed; --full adds 512 MiB)");

// 2. ChaCha block function vs OpenSSL ChaCha20 ------------------------------------------------
{
  const key = crypto.createHash("sha256").update("porep_spec chacha").digest();
  const iv = Buffer.alloc(16); // 32-bit LE counter 0 ‖ 12-byte nonce 0
  const c = crypto.createCipheriv("chacha20", key, iv);
  const ref = Buffer.concat([c.update(Buffer.alloc(192)), c.final()]);
  const st = new Uint32Array(16);
  st.set([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574], 0);
  for (let i = 0; i < 8; i++) st[4 + i] = key.readUInt32LE(4 * i);
  const out = new Uint32Array(16);
  const mine = Buffer.alloc(192);
  for (let b = 0; b < 3; b++) {
    st[12] = b;
    S.chachaBlock(st, 20, out);
    for (let i = 0; i < 16; i++) mine.writeUInt32LE(out[i] >>> 0, 64 * b + 4 * i);
  }
  check(mine.equals(ref), "ChaCha block function (20 rounds) matches OpenSSL chacha20, 3 blocks");
}

// 3. graph invariants -------------------------------------------------------------------------
for (const [id, v10] of [[0, true], [5, false]]) {
  const n = 2048;
  const g = S.graph(n, S.porepId(id), v10);
  let ok = true;
  const hits = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const p = g.drgParents(i);
    if (p.length !== 6) ok = false;
    if (i < 2) {
      if (p.some((x) => x !== 0)) ok = false;
    } else {
      if (p[v10 ? 5 : 0] !== i - 1) ok = false;
      if (p.some((x) => x >= i)) ok = false;
    }
    for (const e of g.expParents(i)) hits[e]++;
  }
  check(ok, `DRG (${n} nodes, ${v10 ? "v1.0" : "v1.1"}): nodes 0,1 all-zero; predecessor ${v10 ? "last" : "first"}; every parent < node`);
  check(hits.every((h) => h === 8), `expander (${n} nodes, ${v10 ? "v1.0" : "v1.1"}): every node is an expander parent exactly 8 times`);
}

// 4. hand-computed prover_id / replica_id / challenges ----------------------------------------
{
  const hx = (b) => Buffer.from(b).toString("hex");
  const pad = (s) => s.padEnd(64, "0");
  check(hx(S.proverId(0)) === pad("00"), "proverId(0) = 00…");
  check(hx(S.proverId(127)) === pad("7f"), "proverId(127) = 7f…");
  check(hx(S.proverId(128)) === pad("8001"), "proverId(128) = 8001…");
  check(hx(S.proverId(1000)) === pad("e807"), "proverId(1000) = e807…");
  check(hx(S.proverId((1n << 64n) - 1n)) === pad("ffffffffffffffffff01"), "proverId(2^64-1) = ff×9 01…");
  check(hx(S.porepId(5)) === pad("05"), "porepId(5) = 05 then 31 zero bytes");
  check(hx(S.porepId(19)) === pad("13"), "porepId(19) = 13 then 31 zero bytes");

  // Computed with Python's hashlib and int from the Rust definitions:
  //   h = sha256(prover ‖ sector_id.to_bytes(8,'big') ‖ ticket ‖ comm_d ‖ porep_id); h[31] &= 0x3f;
  //   replica_id = int.from_bytes(h,'little')  (raw h[31] was 0x8e and 0x70: both cleared bits hit)
  //   challenge_i = int.from_bytes(sha256(replica_id LE32 ‖ seed ‖ (per·k+i) u32 LE),'little') % (nodes-1) + 1
  const prover = S.proverId(1000);
  const ticket = Buffer.from("0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20", "hex");
  const commD = Buffer.from("6465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f8081821f", "hex");
  const seed = Buffer.from("c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7", "hex");
  const cases = [
    {
      sid: 42n, kind: 5, rid: 0xe2e9a85fbb1262483a37f6190d27097ebc79d25ac08183f9992f907b9e46db5n,
      ch: [[64, 2, 0, [51, 29]], [64, 2, 3, [28, 46]],
        [1 << 30, 18, 9, [733174783, 792674492, 661024883, 251366528, 125681600, 651367864, 535443894,
          666120496, 705270756, 287774694, 922008742, 968930903, 182845309, 759398336, 1057749614,
          295668686, 281729743, 471984980]]],
    },
    {
      sid: 0x0102030405060708n, kind: 0, rid: 0x3033303122b4306d6fc0fb9564269daac84b0f0c33a866589bd734bd629c9064n,
      ch: [[64, 2, 0, [24, 45]], [64, 2, 3, [51, 45]],
        [1 << 30, 18, 9, [180816983, 28661461, 780230299, 930042438, 5233661, 742099556, 754272703,
          561357639, 406343098, 1027448160, 105789994, 637842643, 262905170, 829837529, 206463965,
          413323600, 356706600, 1013155592]]],
    },
  ];
  for (const cs of cases) {
    const rid = S.replicaId(prover, cs.sid, ticket, commD, S.porepId(cs.kind));
    check(rid === cs.rid, `replicaId(miner 1000, sector ${cs.sid}, porep_id ${cs.kind}) = 0x${rid.toString(16)}`);
    for (const [nodes, per, k, want] of cs.ch) {
      const got = S.interactiveChallenges(nodes, per, k, cs.rid, seed);
      check(JSON.stringify(got) === JSON.stringify(want),
        `interactiveChallenges(nodes ${nodes}, per ${per}, k ${k}) = ${JSON.stringify(got.slice(0, 4))}${got.length > 4 ? "…" : ""}`);
    }
  }
}

// 5. publicInputs shape and order -------------------------------------------------------------
{
  const ticket = Buffer.alloc(32, 7);
  const seed = Buffer.alloc(32, 9);
  const commD = Buffer.alloc(32, 0x11); commD[31] = 0x0a;
  const commR = Buffer.alloc(32, 0x22); commR[31] = 0x0b;
  for (const id of [0, 5, 8]) {
    const c = S.sealProofConfig(id);
    const t0 = Date.now();
    const pi = S.publicInputs({ registeredProof: id, minerId: 1000, sectorId: 3, ticket, seed, commD, commR });
    const ms = Date.now() - t0;
    const rid = S.replicaId(S.proverId(1000), 3, ticket, commD, c.porepId);
    const g = S.graph(c.nodes, c.porepId, c.apiV1_0);
    let ok = pi.length === c.partitions;
    for (let k = 0; k < pi.length && ok; k++) {
      const v = pi[k];
      ok = v.length === 3 + 18 * c.perPartition && v[0] === rid &&
        v[1] === BigInt("0x" + Buffer.from(commD).reverse().toString("hex")) &&
        v[2] === BigInt("0x" + Buffer.from(commR).reverse().toString("hex"));
      const chs = S.interactiveChallenges(c.nodes, c.perPartition, k, rid, seed);
      for (let i = 0; i < chs.length && ok; i++) {
        const ch = chs[i];
        const want = [ch, ...g.drgParents(ch), ...g.expParents(ch), ch, ch, ch].map(BigInt);
        const got = v.slice(3 + 18 * i, 3 + 18 * (i + 1));
        ok = JSON.stringify(got.map(String)) === JSON.stringify(want.map(String));
      }
    }
    check(ok, `publicInputs proof ${id} (${c.sectorSize} B): ${pi.length} partition(s) × ${pi[0].length} inputs, ` +
      `[rid, comm_d, comm_r, (c, 6 drg, 8 exp, c, c, c)×${c.perPartition}] (${ms} ms)`);
  }
  let threw = false;
  try {
    S.publicInputs({ registeredProof: 5, minerId: 1, sectorId: 1, ticket, seed, commD: Buffer.alloc(32, 0xff), commR });
  } catch { threw = true; }
  check(threw, "publicInputs rejects a non-canonical comm_d (as_safe_commitment)");
}

console.log(failures === 0 ? "porep_spec self-test: all checks passed" : `porep_spec self-test: ${failures} check(s) FAILED`);
process.exit(failures === 0 ? 0 : 1);
