// BLAKE2b test vectors for tests/core/test_blake2b.c from two implementations we did not write:
// Node's crypto (OpenSSL's BLAKE2b-512) and Python's hashlib.blake2b (CPython's own, the only one
// of the two with other output lengths and keys). Usage: node tests/vectors/blake2b_vectors.mjs OUTDIR
//
// Writes OUTDIR/blake2b/stream.bin, 3 MiB from the seeded PRNG (lib/prng.mjs), and
// OUTDIR/blake2b/vectors.txt, one vector a line, every message a slice of the stream:
//   <oracle> <outlen> <key hex, or - for none> <offset> <length> <digest hex>
// oracle is "node" or "python". OUTDIR/blake2b/repeat.txt holds "<copies> <bytes> <digest hex>":
// BLAKE2b-512 of the stream written that many times over (21 MiB, more than one read of the file
// digest's loop, tests/formats/test_params.c), which is not written out. The lengths cover 0..300 byte by byte, every block boundary
// (multiples of 128, one less, one more) up to 20 blocks, and a few long ones up to the whole
// stream; the Python lines cover every output length 1..64 and key lengths 1..64.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { seededRng } from "./lib/prng.mjs";

const outRoot = process.argv[2];
if (!outRoot) {
    console.error("usage: node blake2b_vectors.mjs OUTDIR");
    process.exit(2);
}
const dir = path.join(outRoot, "blake2b");
fs.mkdirSync(dir, { recursive: true });

const STREAM_LEN = 3 << 20;
const rng = seededRng(0xb1a4e2bn);
const stream = Buffer.alloc(STREAM_LEN);
for (let i = 0; i < STREAM_LEN; i += 8) stream.writeBigUInt64LE(rng.next64(), i);
const streamPath = path.join(dir, "stream.bin");
fs.writeFileSync(streamPath, stream);
const small = (n) => Number(rng.next64() % BigInt(n));

// Node: BLAKE2b-512, unkeyed (all that Node's crypto offers).
const lines = [];
const nodeCase = (offset, length) => {
    const d = crypto.createHash("blake2b512").update(stream.subarray(offset, offset + length));
    lines.push(`node 64 - ${offset} ${length} ${d.digest("hex")}`);
};
for (let n = 0; n <= 300; n++) nodeCase(small(4096), n);
for (let b = 1; b <= 20; b++) for (const n of [128 * b - 1, 128 * b, 128 * b + 1]) nodeCase(small(4096), n);
for (const n of [4096, 65535, 65536, 1 << 20, (1 << 20) + 1, 2500000]) nodeCase(small(1000), n);
nodeCase(0, STREAM_LEN);

// Python: every output length and key length, over a few message lengths each.
const pyCases = [];
for (let outlen = 1; outlen <= 64; outlen++)
    for (const n of [0, 1, 127, 128, 129, 1000]) pyCases.push([outlen, 0, small(4096), n]);
for (let keylen = 1; keylen <= 64; keylen++)
    for (const n of [0, 3, 128, 257]) pyCases.push([1 + small(64), keylen, small(4096), n]);
function rngHex(n) {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = small(256);
    return b.toString("hex");
}
const keys = pyCases.map(([, keylen]) => rngHex(keylen));
const pyScript = `
import hashlib, sys
data = open(sys.argv[1], "rb").read()
for line in sys.stdin:
    outlen, key, off, n = line.split()
    outlen, off, n = int(outlen), int(off), int(n)
    k = b"" if key == "-" else bytes.fromhex(key)
    h = hashlib.blake2b(data[off:off + n], digest_size=outlen, key=k)
    print("python", outlen, key, off, n, h.hexdigest())
`;
const pyInput = pyCases
    .map(([outlen, keylen, off, n], i) => `${outlen} ${keylen ? keys[i] : "-"} ${off} ${n}`)
    .join("\n");
let pyOut;
try {
    pyOut = execFileSync("python3", ["-c", pyScript, streamPath], { input: pyInput + "\n" });
} catch (e) {
    console.error(`blake2b vectors: python3 (the oracle for output lengths and keys) failed: ${e.message}`);
    process.exit(1);
}
const pyLines = pyOut.toString().trim().split("\n");
if (pyLines.length !== pyCases.length) {
    console.error(`blake2b vectors: python3 gave ${pyLines.length} lines for ${pyCases.length} cases`);
    process.exit(1);
}
lines.push(...pyLines);
fs.writeFileSync(path.join(dir, "vectors.txt"), lines.join("\n") + "\n");
const COPIES = 7;
const rep = crypto.createHash("blake2b512");
for (let i = 0; i < COPIES; i++) rep.update(stream);
fs.writeFileSync(path.join(dir, "repeat.txt"), `${COPIES} ${COPIES * STREAM_LEN} ${rep.digest("hex")}\n`);
console.log(`blake2b vectors: ${lines.length} in ${path.join(dir, "vectors.txt")}`);
