// An independent JavaScript statement of the interactive PoRep (StackedDrg) verifier's public
// inputs, written from rust-fil-proofs (storage-proofs-core, storage-proofs-porep,
// filecoin-proofs) and filecoin-proofs-api, not from cuzk's C code. Not a script of its own (the
// Makefile runs only tests/vectors/*.mjs); tests/vectors/porep_spec_selftest.mjs checks it
// against rust-fil-proofs' published parent-cache digests.
//
// Sources, by function (paths in rust-fil-proofs unless named):
//   porepId            filecoin-proofs-api src/registry.rs RegisteredSealProof::porep_id
//   proverId           filecoin-ffi toProverID (go-address ID-address payload, copied into [32]byte)
//   replicaId          storage-proofs-porep/src/stacked/vanilla/params.rs generate_replica_id,
//                      fr32/src/convert.rs bytes_into_fr_repr_safe
//   graph.drgParents   storage-proofs-core/src/drgraph.rs BucketGraph::parents, derive_drg_seed,
//                      storage-proofs-core/src/crypto/mod.rs derive_porep_domain_seed
//   graph.expParents   storage-proofs-porep/src/stacked/vanilla/graph.rs correspondent,
//                      generate_expanded_parents, derive_feistel_keys;
//                      storage-proofs-core/src/crypto/feistel.rs
//   interactiveChallenges  storage-proofs-porep/src/stacked/vanilla/challenges.rs
//   publicInputs       storage-proofs-porep/src/stacked/circuit/proof.rs generate_public_inputs,
//                      storage-proofs-core/src/gadgets/por.rs PoRCompound::generate_public_inputs,
//                      storage-proofs-core/src/compound_proof.rs verify (k = 0..partitions),
//                      filecoin-proofs/src/api/seal.rs verify_seal, api/util.rs as_safe_commitment
import crypto from "node:crypto";

export const DRG_DEGREE = 6; // storage-proofs-core drgraph::BASE_DEGREE
export const EXP_DEGREE = 8; // storage-proofs-porep stacked::EXP_DEGREE
export const NODE_SIZE = 32;
// BLS12-381 scalar field modulus.
export const FR_MODULUS = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;

const sha256 = (...parts) => {
  const h = crypto.createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
};

function bytes32(x, what) {
  const b = Buffer.from(x);
  if (b.length !== 32) throw new Error(`${what}: expected 32 bytes, got ${b.length}`);
  return b;
}

function leBytesToBig(b) {
  let v = 0n;
  for (let i = b.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
  return v;
}

export function bigToLe32(v) {
  v = BigInt(v);
  if (v < 0n || v >= 1n << 256n) throw new Error("bigToLe32: out of range");
  const out = Buffer.alloc(32);
  for (let i = 0; i < 32; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Registered seal proofs (filecoin-proofs-api registry.rs; filecoin-proofs constants.rs,
// porep_config.rs, parameters.rs select_challenges). Interactive PoRep = ids 0..9.

const SECTOR_SIZES = [1 << 11, 1 << 23, 1 << 29, 2 ** 35, 2 ** 36]; // 2KiB 8MiB 512MiB 32GiB 64GiB

export function sealProofConfig(registeredProof) {
  const id = Number(registeredProof);
  if (!Number.isInteger(id) || id < 0 || id > 19) throw new Error(`unknown seal proof ${registeredProof}`);
  const sectorSize = SECTOR_SIZES[id % 5];
  const big = sectorSize >= 2 ** 35;
  const apiVersion = id < 5 ? "1.0.0" : id < 10 ? "1.1.0" : "1.2.0";
  const kind = id < 10 ? "interactive" : id < 15 ? "synthetic" : "non-interactive";
  let partitions, minChallenges;
  if (kind === "non-interactive") {
    partitions = big ? 126 : 13;
    minChallenges = big ? 2253 : 26;
  } else {
    partitions = big ? 10 : 1;
    minChallenges = big ? 176 : 2;
  }
  const perPartition = Math.ceil(minChallenges / partitions);
  const layers = big ? 11 : 2;
  return {
    id, sectorSize, nodes: sectorSize / NODE_SIZE, apiVersion, apiV1_0: apiVersion === "1.0.0",
    kind, partitions, perPartition, layers, porepId: porepId(id),
  };
}

// porep_id: the registered proof id as u64 LE ‖ nonce (0) as u64 LE ‖ 16 zero bytes.
export function porepId(registeredProof) {
  const out = Buffer.alloc(32);
  out.writeBigUInt64LE(BigInt(registeredProof), 0);
  out.writeBigUInt64LE(0n, 8); // RegisteredSealProof::nonce() is 0 for every proof
  return out;
}

// prover_id: ID-address payload = unsigned LEB128 varint of the actor id, zero padded to 32.
export function proverId(minerId) {
  let v = BigInt(minerId);
  if (v < 0n || v >= 1n << 64n) throw new Error("proverId: miner id must be a u64");
  const out = Buffer.alloc(32);
  let i = 0;
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    out[i++] = byte;
  } while (v !== 0n);
  return out;
}

// replica_id = bytes_into_fr_repr_safe(SHA-256(prover_id ‖ sector_id u64 BE ‖ ticket ‖ comm_d ‖
// porep_id)): the digest read little-endian with the top two bits of byte 31 cleared.
export function replicaId(proverIdBytes, sectorId, ticket, commD, porepIdBytes) {
  const sid = Buffer.alloc(8);
  sid.writeBigUInt64BE(BigInt(sectorId));
  const h = sha256(bytes32(proverIdBytes, "prover_id"), sid, bytes32(ticket, "ticket"),
    bytes32(commD, "comm_d"), bytes32(porepIdBytes, "porep_id"));
  h[31] &= 0x3f;
  return leBytesToBig(h);
}

// ---------------------------------------------------------------------------------------------
// ChaCha8Rng (rand_chacha 0.3, rand_core 0.6): key = 32-byte seed, 64-bit block counter from 0,
// 64-bit stream 0. BlockRng::next_u64 reads two consecutive keystream words, low word first, even
// across a refill of its 64-word (4-block) buffer, so the u64 stream is the u32 keystream paired.

const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574];

// One ChaCha block with `rounds` rounds. state: Uint32Array(16) input; out: Uint32Array(16).
export function chachaBlock(state, rounds, out) {
  let x0 = state[0], x1 = state[1], x2 = state[2], x3 = state[3];
  let x4 = state[4], x5 = state[5], x6 = state[6], x7 = state[7];
  let x8 = state[8], x9 = state[9], x10 = state[10], x11 = state[11];
  let x12 = state[12], x13 = state[13], x14 = state[14], x15 = state[15];
  for (let r = 0; r < rounds; r += 2) {
    // column round
    x0 = (x0 + x4) | 0; x12 ^= x0; x12 = (x12 << 16) | (x12 >>> 16);
    x8 = (x8 + x12) | 0; x4 ^= x8; x4 = (x4 << 12) | (x4 >>> 20);
    x0 = (x0 + x4) | 0; x12 ^= x0; x12 = (x12 << 8) | (x12 >>> 24);
    x8 = (x8 + x12) | 0; x4 ^= x8; x4 = (x4 << 7) | (x4 >>> 25);
    x1 = (x1 + x5) | 0; x13 ^= x1; x13 = (x13 << 16) | (x13 >>> 16);
    x9 = (x9 + x13) | 0; x5 ^= x9; x5 = (x5 << 12) | (x5 >>> 20);
    x1 = (x1 + x5) | 0; x13 ^= x1; x13 = (x13 << 8) | (x13 >>> 24);
    x9 = (x9 + x13) | 0; x5 ^= x9; x5 = (x5 << 7) | (x5 >>> 25);
    x2 = (x2 + x6) | 0; x14 ^= x2; x14 = (x14 << 16) | (x14 >>> 16);
    x10 = (x10 + x14) | 0; x6 ^= x10; x6 = (x6 << 12) | (x6 >>> 20);
    x2 = (x2 + x6) | 0; x14 ^= x2; x14 = (x14 << 8) | (x14 >>> 24);
    x10 = (x10 + x14) | 0; x6 ^= x10; x6 = (x6 << 7) | (x6 >>> 25);
    x3 = (x3 + x7) | 0; x15 ^= x3; x15 = (x15 << 16) | (x15 >>> 16);
    x11 = (x11 + x15) | 0; x7 ^= x11; x7 = (x7 << 12) | (x7 >>> 20);
    x3 = (x3 + x7) | 0; x15 ^= x3; x15 = (x15 << 8) | (x15 >>> 24);
    x11 = (x11 + x15) | 0; x7 ^= x11; x7 = (x7 << 7) | (x7 >>> 25);
    // diagonal round
    x0 = (x0 + x5) | 0; x15 ^= x0; x15 = (x15 << 16) | (x15 >>> 16);
    x10 = (x10 + x15) | 0; x5 ^= x10; x5 = (x5 << 12) | (x5 >>> 20);
    x0 = (x0 + x5) | 0; x15 ^= x0; x15 = (x15 << 8) | (x15 >>> 24);
    x10 = (x10 + x15) | 0; x5 ^= x10; x5 = (x5 << 7) | (x5 >>> 25);
    x1 = (x1 + x6) | 0; x12 ^= x1; x12 = (x12 << 16) | (x12 >>> 16);
    x11 = (x11 + x12) | 0; x6 ^= x11; x6 = (x6 << 12) | (x6 >>> 20);
    x1 = (x1 + x6) | 0; x12 ^= x1; x12 = (x12 << 8) | (x12 >>> 24);
    x11 = (x11 + x12) | 0; x6 ^= x11; x6 = (x6 << 7) | (x6 >>> 25);
    x2 = (x2 + x7) | 0; x13 ^= x2; x13 = (x13 << 16) | (x13 >>> 16);
    x8 = (x8 + x13) | 0; x7 ^= x8; x7 = (x7 << 12) | (x7 >>> 20);
    x2 = (x2 + x7) | 0; x13 ^= x2; x13 = (x13 << 8) | (x13 >>> 24);
    x8 = (x8 + x13) | 0; x7 ^= x8; x7 = (x7 << 7) | (x7 >>> 25);
    x3 = (x3 + x4) | 0; x14 ^= x3; x14 = (x14 << 16) | (x14 >>> 16);
    x9 = (x9 + x14) | 0; x4 ^= x9; x4 = (x4 << 12) | (x4 >>> 20);
    x3 = (x3 + x4) | 0; x14 ^= x3; x14 = (x14 << 8) | (x14 >>> 24);
    x9 = (x9 + x14) | 0; x4 ^= x9; x4 = (x4 << 7) | (x4 >>> 25);
  }
  out[0] = x0 + state[0]; out[1] = x1 + state[1]; out[2] = x2 + state[2]; out[3] = x3 + state[3];
  out[4] = x4 + state[4]; out[5] = x5 + state[5]; out[6] = x6 + state[6]; out[7] = x7 + state[7];
  out[8] = x8 + state[8]; out[9] = x9 + state[9]; out[10] = x10 + state[10];
  out[11] = x11 + state[11]; out[12] = x12 + state[12]; out[13] = x13 + state[13];
  out[14] = x14 + state[14]; out[15] = x15 + state[15];
}

// A ChaCha8Rng::from_seed(seed32) u64 stream: next() returns [lo, hi] u32 words (Numbers).
class ChaCha8U64 {
  constructor(seed32) {
    const st = new Uint32Array(16);
    st.set(SIGMA, 0);
    const dv = new DataView(seed32.buffer, seed32.byteOffset, 32);
    for (let i = 0; i < 8; i++) st[4 + i] = dv.getUint32(4 * i, true);
    // st[12], st[13]: 64-bit block counter; st[14], st[15]: stream id 0.
    this.state = st;
    this.buf = new Uint32Array(16);
    this.pos = 16;
  }
  word() {
    if (this.pos === 16) {
      chachaBlock(this.state, 8, this.buf);
      this.state[12] = (this.state[12] + 1) >>> 0;
      if (this.state[12] === 0) this.state[13] = (this.state[13] + 1) >>> 0;
      this.pos = 0;
    }
    return this.buf[this.pos++];
  }
  // (u64 from the stream) mod n, n a positive integer Number below 2^53.
  nextMod(n) {
    const lo = this.word();
    const hi = this.word();
    if (n <= 0x3ffffff) {
      // (hi·2^32 + lo) mod n with every product below 2^53.
      return ((hi % n) * (4294967296 % n) + (lo % n)) % n;
    }
    return Number(((BigInt(hi) << 32n) | BigInt(lo)) % BigInt(n));
  }
}

// ---------------------------------------------------------------------------------------------
// Graph seeds (storage-proofs-core crypto::derive_porep_domain_seed).

export function drgSeed(porepIdBytes) {
  return sha256(Buffer.from("Filecoin_DRSample"), bytes32(porepIdBytes, "porep_id")).subarray(0, 28);
}

export function feistelKeys(porepIdBytes) {
  const raw = sha256(Buffer.from("Filecoin_Feistel"), bytes32(porepIdBytes, "porep_id"));
  return [0, 8, 16, 24].map((o) => raw.readBigUInt64LE(o));
}

// feistel::precompute: the smallest log4 >= 1 with 4^log4 >= num_elements.
export function feistelPrecompute(numElements) {
  let nextPow4 = 4;
  let log4 = 1;
  while (nextPow4 < numElements) {
    nextPow4 *= 4;
    log4 += 1;
  }
  return { halfBits: log4, rightMask: 2 ** log4 - 1 };
}

const FEISTEL_ROUNDS = 3; // only keys[0..3] are used

// The StackedGraph of rust-fil-proofs: BucketGraph DRG (degree 6) + Feistel expander (degree 8).
// apiV1_0 selects ApiVersion::V1_0_0 behaviour (else V1_1_0 / V1_2_0, which are identical here).
export function graph(nodes, porepIdBytes, apiV1_0) {
  nodes = Number(nodes);
  if (!Number.isInteger(nodes) || nodes < 2 || nodes > 0xffffffff) throw new Error("graph: bad node count");
  if (nodes * (DRG_DEGREE - 1) > 2 ** 54) throw new Error("graph: too many metagraph nodes");
  const seed = drgSeed(porepIdBytes);
  const seed32 = Buffer.alloc(32);
  seed.copy(seed32, 0);
  const keys = feistelKeys(porepIdBytes);
  const numElements = nodes * EXP_DEGREE; // feistel::Index (u64); below 2^35 here
  const { halfBits, rightMask } = feistelPrecompute(numElements);
  if (halfBits > 30) throw new Error("graph: Feistel half width above 30 bits not supported");

  // Feistel round function F(right, key) = (BE u64 of BLAKE2b-512(right BE u64 ‖ key BE u64)
  // bytes 0..8) & right_mask. It depends only on (round, right), so memoise it per round.
  const keyBytes = keys.map((k) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(k);
    return b;
  });
  const fTable = new Int32Array(FEISTEL_ROUNDS << halfBits).fill(-1);
  const msg = Buffer.alloc(16);
  function roundF(round, right) {
    const idx = (round << halfBits) + right;
    let v = fTable[idx];
    if (v < 0) {
      msg.fill(0, 0, 4);
      msg.writeUInt32BE(right, 4);
      keyBytes[round].copy(msg, 8);
      const hsh = crypto.createHash("blake2b512").update(msg).digest();
      // right_mask < 2^31, so only the low 32 bits of the BE u64 (bytes 4..8) matter.
      v = (hsh.readUInt32BE(4) & rightMask) >>> 0;
      fTable[idx] = v;
    }
    return v;
  }
  const pow = 2 ** halfBits;
  function encode(index) {
    // common_setup: left = (index & left_mask) >> half_bits, right = index & right_mask.
    // index < 4^log4 always (the first input is < num_elements <= 4^log4), so no bits are lost.
    let left = Math.floor(index / pow) & rightMask;
    let right = index % pow;
    for (let r = 0; r < FEISTEL_ROUNDS; r++) {
      const l = right;
      const rr = (left ^ roundF(r, right)) >>> 0;
      left = l;
      right = rr;
    }
    return left * pow + right;
  }
  function permute(index) {
    let u = encode(index);
    while (u >= numElements) u = encode(u);
    return u;
  }

  function drgParents(node) {
    node = Number(node);
    if (!Number.isInteger(node) || node < 0 || node >= nodes) throw new Error(`drgParents: bad node ${node}`);
    const parents = new Array(DRG_DEGREE).fill(0);
    if (node === 0 || node === 1) return parents;
    seed32.writeUInt32LE(node, 28);
    const rng = new ChaCha8U64(seed32);
    const mPrime = DRG_DEGREE - 1;
    const metagraphNode = node * mPrime;
    // n_buckets = ceil(log2(metagraph_node as f64)); metagraph_node >= 10.
    const nBuckets = Math.ceil(Math.log2(metagraphNode));
    const predecessorIndex = apiV1_0 ? mPrime : 0;
    const first = apiV1_0 ? 0 : 1;
    for (let p = first; p < first + mPrime; p++) {
      const bucketIndex = rng.nextMod(nBuckets) + 1;
      const largest = Math.min(metagraphNode, 2 ** bucketIndex);
      const smallest = Math.max(2, Math.floor(largest / 2));
      const nDistances = largest - smallest + 1;
      const distance = smallest + rng.nextMod(nDistances);
      const metagraphParent = metagraphNode - distance;
      const mapped = Math.floor(metagraphParent / mPrime);
      parents[p] = mapped === node ? node - 1 : mapped;
    }
    parents[predecessorIndex] = node - 1;
    return parents;
  }

  function expParents(node) {
    node = Number(node);
    if (!Number.isInteger(node) || node < 0 || node >= nodes) throw new Error(`expParents: bad node ${node}`);
    const out = new Array(EXP_DEGREE);
    for (let i = 0; i < EXP_DEGREE; i++) {
      const a = node * EXP_DEGREE + i;
      const transformed = permute(a);
      // V1_0_0: `transformed as u32 / expansion_degree` (truncates to u32 first);
      // V1_1_0+: `u32::try_from(transformed / expansion_degree)`.
      out[i] = apiV1_0
        ? Math.floor((transformed % 4294967296) / EXP_DEGREE)
        : Math.floor(transformed / EXP_DEGREE);
    }
    return out;
  }

  function parents(node) {
    return drgParents(node).concat(expParents(node));
  }

  return { nodes, apiV1_0: !!apiV1_0, drgSeed: seed, feistelKeys: keys, halfBits, drgParents, expParents, parents };
}

// The parent-cache file content (storage-proofs-porep cache.rs ParentCache::generate): for every
// node in order its 14 parents (6 DRG then 8 expander) as u32 little-endian. Returns its SHA-256
// hex digest (hashed in slices so a large graph does not need the whole file in memory).
export function parentCacheDigest(g, { chunkNodes = 1 << 16 } = {}) {
  const h = crypto.createHash("sha256");
  const per = DRG_DEGREE + EXP_DEGREE;
  for (let start = 0; start < g.nodes; start += chunkNodes) {
    const end = Math.min(g.nodes, start + chunkNodes);
    const buf = Buffer.alloc((end - start) * per * 4);
    let off = 0;
    for (let n = start; n < end; n++) {
      for (const p of g.drgParents(n)) { buf.writeUInt32LE(p, off); off += 4; }
      for (const p of g.expParents(n)) { buf.writeUInt32LE(p, off); off += 4; }
    }
    h.update(buf);
  }
  return h.digest("hex");
}

// The parent_cache.json key of a graph (cache.rs cache_path): "v28-sdr-parent-" + hex SHA-256 of
// H::name() ‖ graph.identifier() ‖ feistel keys as u64 LE ‖ cache entries (= nodes) as u32 LE,
// with H = PoseidonHasher (the production tree hasher, name "poseidon_hasher").
export function parentCacheId(nodes, porepIdBytes, hasherName = "poseidon_hasher") {
  const bg = `drgraph::BucketGraph{size: ${nodes}; degree: ${DRG_DEGREE}; hasher: ${hasherName}}`;
  const id = `stacked_graph::StackedGraph{expansion_degree: ${EXP_DEGREE} base_graph: ${bg} }`;
  const h = crypto.createHash("sha256");
  h.update(hasherName);
  h.update(id);
  for (const k of feistelKeys(porepIdBytes)) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(k);
    h.update(b);
  }
  const n = Buffer.alloc(4);
  n.writeUInt32LE(nodes);
  h.update(n);
  return `v28-sdr-parent-${h.digest("hex")}`;
}

// ---------------------------------------------------------------------------------------------
// Interactive challenges (InteractiveChallenges::derive): for i < per partition,
// j = (per·k + i) as u32 with k cast to u8, the LE integer of
// SHA-256(replica_id as 32 LE bytes ‖ seed ‖ j as u32 LE), mod (nodes − 1), plus 1.
export function interactiveChallenges(nodes, perPartition, k, replicaIdBig, seed) {
  const n = BigInt(nodes);
  const rid = bigToLe32(replicaIdBig);
  const sd = bytes32(seed, "seed");
  const k8 = Number(k) & 0xff; // `k as u8`
  const out = [];
  for (let i = 0; i < perPartition; i++) {
    const j = Buffer.alloc(4);
    j.writeUInt32LE((perPartition * k8 + i) >>> 0);
    const v = leBytesToBig(sha256(rid, sd, j));
    out.push(Number(v % (n - 1n) + 1n));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The verifier's public inputs (StackedCompound::verify → generate_public_inputs(k) for
// k = 0..partitions). Per partition: replica_id, comm_d, comm_r, then per challenge c:
//   c (comm_d / tree-D inclusion: PoR with private root → one input, the leaf index),
//   the 6 DRG parents of c (tree-C inclusion, index each),
//   the 8 expander parents of c (tree-C inclusion, index each),
//   c (the challenge as a packed u64),
//   c (tree-R / comm_r_last inclusion),
//   c (tree-C inclusion of the challenged column).
// 3 + 18·perPartition inputs per partition. Interactive PoRep (proof kinds 0..9) only.
export function publicInputs({
  registeredProof, minerId, proverId: proverIdBytes, sectorId, ticket, seed, commD, commR,
  nodes, perPartition, partitions, apiV1_0, porepId: porepIdBytes,
}) {
  const cfg = registeredProof !== undefined ? sealProofConfig(registeredProof) : null;
  if (cfg && cfg.kind !== "interactive") throw new Error(`publicInputs: proof ${registeredProof} is ${cfg.kind}`);
  nodes = nodes ?? cfg?.nodes;
  perPartition = perPartition ?? cfg?.perPartition;
  partitions = partitions ?? cfg?.partitions;
  apiV1_0 = apiV1_0 ?? cfg?.apiV1_0;
  porepIdBytes = porepIdBytes ?? cfg?.porepId;
  if (nodes === undefined || perPartition === undefined || partitions === undefined ||
      apiV1_0 === undefined || porepIdBytes === undefined) {
    throw new Error("publicInputs: need registeredProof or nodes/perPartition/partitions/apiV1_0/porepId");
  }
  const prover = proverIdBytes ?? proverId(minerId);
  // verify_seal: as_safe_commitment (a canonical field element) and not all zero.
  const cd = bytes32(commD, "comm_d");
  const cr = bytes32(commR, "comm_r");
  const commDBig = leBytesToBig(cd);
  const commRBig = leBytesToBig(cr);
  for (const [nm, v] of [["comm_d", commDBig], ["comm_r", commRBig]]) {
    if (v === 0n) throw new Error(`publicInputs: all zero ${nm}`);
    if (v >= FR_MODULUS) throw new Error(`publicInputs: ${nm} is not a canonical field element`);
  }
  const rid = replicaId(prover, sectorId, ticket, cd, porepIdBytes);
  const g = graph(nodes, porepIdBytes, apiV1_0);
  const all = [];
  for (let k = 0; k < partitions; k++) {
    const inputs = [rid, commDBig, commRBig];
    for (const c of interactiveChallenges(nodes, perPartition, k, rid, seed)) {
      inputs.push(BigInt(c));
      for (const p of g.drgParents(c)) inputs.push(BigInt(p));
      for (const p of g.expParents(c)) inputs.push(BigInt(p));
      inputs.push(BigInt(c));
      inputs.push(BigInt(c));
      inputs.push(BigInt(c));
    }
    all.push(inputs);
  }
  return all;
}
