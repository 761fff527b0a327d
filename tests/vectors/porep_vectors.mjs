// PoRep verifier-side vectors for tests/filecoin/test_porep_inputs.c, computed here from
// rust-fil-proofs' definitions with Node's crypto and BigInt, not from cuzk's code.
// Usage: node tests/vectors/porep_vectors.mjs OUTDIR
//
// Writes OUTDIR/porep/vectors.txt, one case a line:
//   replica <prover hex> <sector id> <ticket hex> <comm_d hex> <porep_id hex> <replica_id hex>
//     replica_id = SHA-256(prover_id ‖ sector_id as u64 big-endian ‖ ticket ‖ comm_d ‖ porep_id)
//     with the top two bits of its last byte cleared (generate_replica_id, bytes_into_fr_repr_safe)
//   challenges <nodes> <per partition> <k> <replica_id hex> <seed hex> <c0> <c1> ...
//     interactive challenges: for i < per partition, j = per·k + i (u32), the little-endian
//     integer of SHA-256(replica_id ‖ seed ‖ j as u32 little-endian), mod (nodes - 1), plus 1
//     (InteractiveChallenges::derive)
// The porep_id of a registered seal proof is its id as a u64 little-endian, then zeros.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { seededRng } from "./lib/prng.mjs";

const outRoot = process.argv[2];
if (!outRoot) {
    console.error("usage: node porep_vectors.mjs OUTDIR");
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

const lines = [];
const replicaIds = [];
for (const [sector, proof] of [[0n, 0], [1n, 5], [123456789n, 8], [18446744073709551615n, 3]]) {
    const prover = bytes(32), ticket = bytes(32), commD = bytes(32), porep = poRepId(proof);
    const s = Buffer.alloc(8);
    s.writeBigUInt64BE(sector);
    const id = sha(prover, s, ticket, commD, porep);
    id[31] &= 0x3f;
    replicaIds.push(id);
    lines.push(["replica", prover.toString("hex"), sector, ticket.toString("hex"),
        commD.toString("hex"), porep.toString("hex"), id.toString("hex")].join(" "));
}
for (const [nodes, per, k] of [[64n, 2, 0], [1n << 30n, 18, 0], [1n << 30n, 18, 9],
                               [1n << 31n, 18, 3], [1n << 18n, 2, 0]]) {
    const id = replicaIds[lines.length % replicaIds.length], seed = bytes(32), cs = [];
    for (let i = 0; i < per; i++) {
        const j = Buffer.alloc(4);
        j.writeUInt32LE(per * k + i);
        cs.push((leInt(sha(id, seed, j)) % (nodes - 1n)) + 1n);
    }
    lines.push(["challenges", nodes, per, k, id.toString("hex"), seed.toString("hex"), ...cs]
        .join(" "));
}
fs.writeFileSync(path.join(dir, "vectors.txt"), lines.join("\n") + "\n");
