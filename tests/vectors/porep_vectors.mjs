// PoRep verifier-side vectors for tests/filecoin/test_porep_inputs.c, computed here from
// rust-fil-proofs' definitions with Node's crypto (SHA-256, OpenSSL's ChaCha20), @noble/hashes'
// keyed BLAKE2b and BigInt, not from cuzk's code.
// Usage: node tests/vectors/porep_vectors.mjs OUTDIR [seal_regression_records-v*.json ...]
//
// Writes OUTDIR/porep/vectors.txt, one case a line (hex is 32 bytes; a replica id or comm_r is
// the little-endian bytes of a field element):
//   replica <prover hex> <sector id> <ticket hex> <comm_d hex> <porep_id hex> <replica_id hex>
//     replica_id = SHA-256(prover_id ‖ sector_id as u64 big-endian ‖ ticket ‖ comm_d ‖ porep_id)
//     with the top two bits of its last byte cleared (generate_replica_id, bytes_into_fr_repr_safe)
//   challenges <nodes> <per partition> <k> <replica_id hex> <seed hex> <c0> <c1> ...
//     interactive challenges: for i < per partition, j = per·k + i (u32), the little-endian
//     integer of SHA-256(replica_id ‖ seed ‖ j as u32 little-endian), mod (nodes - 1), plus 1
//     (InteractiveChallenges::derive)
//   synth <nodes> <replica_id hex> <comm_r hex> <first> <c_first> <c_first+1> ...
//     synthetic challenges (SynthChallengeGenerator): challenge i is the little-endian integer of
//     bytes [32i, 32i + 32) of the ChaCha20 (IETF: 12-byte nonce "synth-porep\0", 32-bit block
//     counter from 0) keystream keyed by BLAKE2b-256, keyed "filecoin.io|PoRep|1|Synthetic|1|
//     Generation", of replica_id ‖ comm_r; mod (nodes - 1), plus 1
//   synthindex <nsynth> <per> <k> <replica_id hex> <seed hex> <i0> <i1> ...
//     the synthetic indexes that select partition k's challenges (gen_partition_synth_indexes):
//     the u32 little-endian words at byte 4·(per·k + i) of the ChaCha20 keystream (same nonce)
//     keyed by BLAKE2b-256, keyed "filecoin.io|PoRep|1|Synthetic|1|Selection", of replica_id ‖
//     seed, each mod nsynth
//   synthporep <nodes> <per> <k> <replica_id hex> <comm_r hex> <seed hex> <c0> <c1> ...
//     partition k's challenges of a Synthetic PoRep (SynthChallenges::derive): the synthetic
//     challenges at the synthindex indexes, nsynth = min(nodes, 2^18)
//   ni <nodes> <per> <k> <replica_id hex> <comm_r hex> <c0> <c1> ...
//     Non-interactive PoRep (NiChallenges::derive): j = per·k + i, the little-endian integer of
//     SHA-256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id ‖ comm_r ‖ j as u32 LE),
//     mod (nodes - 1), plus 1
//   config <id> <name> <sector size> <kind> <partitions> <per partition> <api minor> <porep_id>
//     registered seal proofs 0..19 (filecoin-proofs-api registry.rs, filecoin-proofs
//     constants.rs, porep_config.rs, parameters.rs select_challenges): kind interactive,
//     synthetic or non-interactive; per partition = ceil(minimum challenges / partitions); api
//     minor the n of ApiVersion 1.n.0; porep_id as RegisteredSealProof::porep_id makes it
//   dispatch <id> <k> <replica_id hex> <comm_r hex> <seed hex> <c0> <c1> ...
//     partition k's challenges of registered proof id, by its kind and figures above
//   record <sector size> <api version> <kind> <partitions> <proof bytes> <nproofs>
//     one line per distinct configuration among rust-fil-proofs' seal regression records
//     (filecoin-proofs/tests/seal_regression_records-v16.json and -v18.json): the record's
//     porep_config.partitions, the proof's length, and for a non-interactive one (an aggregated
//     SnarkPack proof) the u32 little-endian at byte 1488 (GipaProof::nproofs, after com_ab,
//     com_c, ip_ab and agg_c), else 0. The rows are kept below (RECORDS); given the JSON files as
//     further arguments, the script recomputes them from the files and stops if they differ.
// The porep_id of a registered seal proof is its id as a u64 little-endian, then zeros.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { blake2b } from "@noble/hashes/blake2.js";
import { seededRng } from "./lib/prng.mjs";
import * as spec from "./lib/porep_spec.mjs";

const outRoot = process.argv[2];
if (!outRoot) {
    console.error("usage: node porep_vectors.mjs OUTDIR [seal_regression_records.json ...]");
    process.exit(2);
}
const dir = path.join(outRoot, "porep");
fs.mkdirSync(dir, { recursive: true });
const rng = seededRng(0x5eed0fc1n);
const bytes = (n) => {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i += 8) b.writeBigUInt64LE(rng.next64(), i);
    return b;
};
const sha = (...parts) => {
    const h = crypto.createHash("sha256");
    for (const p of parts) h.update(p);
    return h.digest();
};
const poRepId = (id) => {
    const b = Buffer.alloc(32);
    b.writeBigUInt64LE(BigInt(id), 0);
    return b;
};
const leInt = (b) => BigInt("0x" + Buffer.from(b).reverse().toString("hex"));
const leBytes = (v) => Buffer.from(v.toString(16).padStart(64, "0"), "hex").reverse();
const R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
const randomFr = () => leBytes(rng.below(R));
const hex = (b) => b.toString("hex");
const fail = (msg) => {
    console.error("porep_vectors: " + msg);
    process.exit(1);
};

// bigint_to_challenge (challenges.rs): never node 0.
const toChallenge = (v, nodes) => (v % (nodes - 1n)) + 1n;

// ---- interactive and non-interactive (SHA-256) ----
const interactive = (nodes, per, k, id, seed) => {
    const cs = [];
    for (let i = 0; i < per; i++) {
        const j = Buffer.alloc(4);
        j.writeUInt32LE(per * k + i);
        cs.push(toChallenge(leInt(sha(id, seed, j)), nodes));
    }
    return cs;
};
const NI_TAG = Buffer.from("filecoin.io|PoRep|1|NonInteractive|1");
const nonInteractive = (nodes, per, k, id, commR) => {
    const cs = [];
    for (let i = 0; i < per; i++) {
        const j = Buffer.alloc(4);
        j.writeUInt32LE(per * k + i);
        cs.push(toChallenge(leInt(sha(NI_TAG, id, commR, j)), nodes));
    }
    return cs;
};

// ---- synthetic (challenges.rs, mod synthetic) ----
const NONCE = Buffer.from("synth-porep\0");
const GEN_KEY = Buffer.from("filecoin.io|PoRep|1|Synthetic|1|Generation");
const SEL_KEY = Buffer.from("filecoin.io|PoRep|1|Synthetic|1|Selection");
const SYNTH_DEFAULT = 1n << 18n; // DEFAULT_SYNTH_CHALLENGE_COUNT
const prfKey = (tag, a, b) =>
    Buffer.from(blake2b(Buffer.concat([a, b]), { key: tag, dkLen: 32 }));
// Bytes [offset, offset + len) of the ChaCha20 keystream: OpenSSL's chacha20 takes a 16-byte IV,
// the 32-bit block counter (little-endian, here 0) and then the 12-byte nonce; the keystream is
// the encryption of zeros, taken from its start so that no seeking of ours is involved.
const keystream = (key, offset, len) => {
    const c = crypto.createCipheriv("chacha20", key, Buffer.concat([Buffer.alloc(4), NONCE]));
    return c.update(Buffer.alloc(offset + len)).subarray(offset);
};
const synthCount = (nodes) => (nodes < SYNTH_DEFAULT ? nodes : SYNTH_DEFAULT);
const synthChallenges = (nodes, id, commR, first, n) => {
    const ks = keystream(prfKey(GEN_KEY, id, commR), 32 * first, 32 * n), cs = [];
    for (let i = 0; i < n; i++) cs.push(toChallenge(leInt(ks.subarray(32 * i, 32 * i + 32)), nodes));
    return cs;
};
const synthIndexes = (nsynth, per, k, id, seed) => {
    const ks = keystream(prfKey(SEL_KEY, id, seed), 4 * per * k, 4 * per), is = [];
    for (let i = 0; i < per; i++) is.push(BigInt(ks.readUInt32LE(4 * i)) % nsynth);
    return is;
};
const synthPoRep = (nodes, per, k, id, commR, seed) => {
    const is = synthIndexes(synthCount(nodes), per, k, id, seed).map(Number);
    const ks = keystream(prfKey(GEN_KEY, id, commR), 0, 32 * (Math.max(...is) + 1));
    return is.map((i) => toChallenge(leInt(ks.subarray(32 * i, 32 * i + 32)), nodes));
};

// The oracle checks itself against rust-fil-proofs' own numbers first
// (test_synth_challenges_against_hardcoded: 2^10 nodes, replica id 55, comm_r 101, 21 synthetic
// challenges, 10 porep challenges of seed [1; 32]).
{
    const id = leBytes(55n), commR = leBytes(101n), seed = Buffer.alloc(32, 1);
    const synth = synthChallenges(1024n, id, commR, 0, 21).join(",");
    const porep = synthIndexes(21n, 10, 0, id, seed)
        .map((i) => synthChallenges(1024n, id, commR, Number(i), 1)[0]).join(",");
    if (synth !== "178,297,869,211,875,477,94,781,124,332,856,801,176,692,429,691,290,204,986,210,973")
        fail("synthetic challenges differ from rust-fil-proofs' hardcoded ones: " + synth);
    if (porep !== "176,781,801,986,290,211,692,856,986,332")
        fail("synthetic porep challenges differ from rust-fil-proofs' hardcoded ones: " + porep);
}

// ---- registered seal proofs ----
// constants.rs: POREP_PARTITIONS, get_porep_interactive_minimum_challenges,
// get_porep_non_interactive_minimum_challenges, get_porep_non_interactive_partitions.
const SIZES = [
    { name: "2KiB", bytes: 2048n, partitions: 1, min: 2, niMin: 26, niPartitions: 13 },
    { name: "8MiB", bytes: 8n << 20n, partitions: 1, min: 2, niMin: 26, niPartitions: 13 },
    { name: "512MiB", bytes: 512n << 20n, partitions: 1, min: 2, niMin: 26, niPartitions: 13 },
    { name: "32GiB", bytes: 32n << 30n, partitions: 10, min: 176, niMin: 2253, niPartitions: 126 },
    { name: "64GiB", bytes: 64n << 30n, partitions: 10, min: 176, niMin: 2253, niPartitions: 126 },
];
// registry.rs: five sizes per version, in this order; version() and as_v1_config()'s features.
const VERSIONS = [
    { suffix: "V1", kind: "interactive", apiMinor: 0 },
    { suffix: "V1_1", kind: "interactive", apiMinor: 1 },
    { suffix: "V1_1_Feat_SyntheticPoRep", kind: "synthetic", apiMinor: 2 },
    { suffix: "V1_2_Feat_NonInteractivePoRep", kind: "non-interactive", apiMinor: 2 },
];
const configs = [];
for (let id = 0; id < 20; id++) {
    const size = SIZES[id % 5], v = VERSIONS[Math.floor(id / 5)];
    const ni = v.kind === "non-interactive";
    const partitions = ni ? size.niPartitions : size.partitions;
    const min = ni ? size.niMin : size.min;
    const per = Math.floor((min - 1) / partitions) + 1; // div_ceil
    if (per > 18) fail("more than MAX_CHALLENGES_PER_PARTITION");
    // RegisteredSealProof::porep_id: the id, then the nonce (0), as u64 little-endian, then zeros.
    const porepId = Buffer.alloc(32);
    porepId.writeBigUInt64LE(BigInt(id), 0);
    porepId.writeBigUInt64LE(0n, 8);
    configs.push({ id, name: "StackedDrg" + size.name + v.suffix, bytes: size.bytes,
        nodes: size.bytes / 32n, kind: v.kind, partitions, per, apiMinor: v.apiMinor, porepId });
}

// ---- seal regression records ----
const RECORDS = [
    "2048 V1_0_0 interactive 1 192 0",
    "2048 V1_1_0 interactive 1 192 0",
    "2048 V1_2_0 interactive 1 192 0",
    "2048 V1_2_0 synthetic 1 192 0",
    "8388608 V1_0_0 interactive 1 192 0",
    "8388608 V1_1_0 interactive 1 192 0",
    "8388608 V1_2_0 interactive 1 192 0",
    "8388608 V1_2_0 synthetic 1 192 0",
    "8388608 V1_2_0 non-interactive 13 14164 16",
    "536870912 V1_0_0 interactive 1 192 0",
    "536870912 V1_1_0 interactive 1 192 0",
    "536870912 V1_2_0 interactive 1 192 0",
    "536870912 V1_2_0 synthetic 1 192 0",
    "536870912 V1_2_0 non-interactive 13 14164 16",
    "34359738368 V1_1_0 interactive 10 1920 0",
    "34359738368 V1_2_0 synthetic 10 1920 0",
    "34359738368 V1_2_0 non-interactive 126 23092 128",
    "68719476736 V1_1_0 interactive 10 1920 0",
];
if (process.argv.length > 3) {
    const seen = new Set();
    for (const file of process.argv.slice(3))
        for (const line of fs.readFileSync(file, "utf8").split("\n")) {
            if (!line.trim()) continue;
            const r = JSON.parse(line), c = r.porep_config, proof = Buffer.from(r.proof);
            const f = c.api_features;
            const kind = f.includes("SyntheticPoRep") ? "synthetic"
                : f.includes("NonInteractivePoRep") ? "non-interactive" : "interactive";
            const nproofs = kind === "non-interactive" ? proof.readUInt32LE(1488) : 0;
            seen.add([c.sector_size, c.api_version, kind, c.partitions, proof.length, nproofs]
                .join(" "));
        }
    const want = [...RECORDS].sort().join("\n"), got = [...seen].sort().join("\n");
    if (want !== got) fail("the records' rows differ from RECORDS:\n" + got);
}

// ---- the vectors ----
const lines = [];
const replicaIds = [];
for (const [sector, proof] of [[0n, 0], [1n, 5], [123456789n, 8], [18446744073709551615n, 3]]) {
    const prover = bytes(32), ticket = bytes(32), commD = bytes(32), porep = poRepId(proof);
    const s = Buffer.alloc(8);
    s.writeBigUInt64BE(sector);
    const id = sha(prover, s, ticket, commD, porep);
    id[31] &= 0x3f;
    replicaIds.push(id);
    lines.push(["replica", hex(prover), sector, hex(ticket), hex(commD), hex(porep), hex(id)]
        .join(" "));
}
for (const [nodes, per, k] of [[64n, 2, 0], [1n << 30n, 18, 0], [1n << 30n, 18, 9],
                               [1n << 31n, 18, 3], [1n << 18n, 2, 0]]) {
    const id = replicaIds[lines.length % replicaIds.length], seed = bytes(32);
    lines.push(["challenges", nodes, per, k, hex(id), hex(seed),
        ...interactive(nodes, per, k, id, seed)].join(" "));
}
// A replica id as generate_replica_id makes one (below 2^254).
const randomReplicaId = () => {
    const id = bytes(32);
    id[31] &= 0x3f;
    return id;
};
const NODE_COUNTS = [64n, 1n << 18n, 1n << 24n, 1n << 30n, 1n << 31n];
// Synthetic challenges at the start, across block boundaries (odd first: the second half of a
// 64-byte block) and at the end of the default set.
for (const nodes of NODE_COUNTS)
    for (const first of [0, 1, 7, 1000, Number(synthCount(nodes)) - 9]) {
        if (first < 0) continue;
        const id = randomReplicaId(), commR = randomFr();
        lines.push(["synth", nodes, hex(id), hex(commR), first,
            ...synthChallenges(nodes, id, commR, first, 9)].join(" "));
    }
for (const [nsynth, per, k] of [[64n, 2, 0], [21n, 10, 0], [1n << 18n, 18, 0], [1n << 18n, 18, 9],
                                [1n << 18n, 18, 5], [1n << 18n, 2, 0], [1000n, 7, 3]]) {
    const id = randomReplicaId(), seed = bytes(32);
    lines.push(["synthindex", nsynth, per, k, hex(id), hex(seed),
        ...synthIndexes(nsynth, per, k, id, seed)].join(" "));
}
for (const nodes of NODE_COUNTS)
    for (const [per, k] of [[2, 0], [18, 0], [18, 4], [18, 9]]) {
        const id = randomReplicaId(), commR = randomFr(), seed = bytes(32);
        lines.push(["synthporep", nodes, per, k, hex(id), hex(commR), hex(seed),
            ...synthPoRep(nodes, per, k, id, commR, seed)].join(" "));
    }
for (const nodes of NODE_COUNTS)
    for (const [per, k] of [[2, 0], [2, 12], [18, 0], [18, 77], [18, 125]]) {
        const id = randomReplicaId(), commR = randomFr();
        lines.push(["ni", nodes, per, k, hex(id), hex(commR),
            ...nonInteractive(nodes, per, k, id, commR)].join(" "));
    }
for (const c of configs)
    lines.push(["config", c.id, c.name, c.bytes, c.kind, c.partitions, c.per, c.apiMinor,
        hex(c.porepId)].join(" "));
// Every registered proof, its first, a middle and its last partition.
for (const c of configs)
    for (const k of new Set([0, Math.floor(c.partitions / 2), c.partitions - 1])) {
        const id = randomReplicaId(), commR = randomFr(), seed = bytes(32);
        const cs = c.kind === "interactive" ? interactive(c.nodes, c.per, k, id, seed)
            : c.kind === "synthetic" ? synthPoRep(c.nodes, c.per, k, id, commR, seed)
            : nonInteractive(c.nodes, c.per, k, id, commR);
        lines.push(["dispatch", c.id, k, hex(id), hex(commR), hex(seed), ...cs].join(" "));
    }
for (const r of RECORDS) lines.push("record " + r);
// The graph's parents (lib/porep_spec.mjs, from the Rust source): both graph versions at 2 KiB,
// 32 GiB and 64 GiB, where 8·nodes passes 2^32 and v1.0's expander truncates to 32 bits.
for (const [id, nodes] of [[0, 64n], [5, 64n], [3, 1n << 30n], [8, 1n << 30n], [4, 1n << 31n], [9, 1n << 31n]]) {
    const g = spec.graph(nodes, spec.porepId(id), id < 5);
    const picks = [1n, 2n, nodes - 1n];
    for (let i = 0; i < 5; i++) picks.push(2n + rng.below(nodes - 2n));
    for (const node of picks)
        lines.push(["graph", id, nodes, node, ...g.drgParents(Number(node)), ...g.expParents(Number(node))].join(" "));
}
fs.writeFileSync(path.join(dir, "vectors.txt"), lines.join("\n") + "\n");
