// The public inputs of a SnapDeals update's partitions, written from storage-proofs-update (not
// from cuzk's C code): circuit.rs PublicInputs for empty-sector-update, k | h_select <<
// log2(partition_count) per partition k, then comm_r_old, comm_d_new, comm_r_new; the Poseidon
// variant (poseidon/circuit.rs) has one partition and h_select alone. constants.rs: sector_nodes
// = bytes / 32; partition_count 1 up to 8 KiB, 2 up to 32 KiB, 4 up to 16 MiB, else 16; hs all 1
// up to 32 KiB, else [7, 8, 9, 10, 11, 12]; h_select = 1 << (the first index of h in hs). The
// commitments are read as little-endian numbers (Fr's byte order).
//
//   node tests/interop/snap_inputs.mjs <request.txt>    (cuzk filecoin fake-update's file)
// writes the inputs as bellperson_verify.mjs reads them: an array per partition of decimal strings.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const KIB = 1024;
const partitionCount = (nodes) => (nodes <= 8 * KIB / 32 ? 1 : nodes <= 32 * KIB / 32 ? 2 :
  nodes <= 16 * KIB * KIB / 32 ? 4 : 16);
const hs = (nodes) => (nodes <= 32 * KIB / 32 ? [1, 1, 1, 1, 1, 1] : [7, 8, 9, 10, 11, 12]);
const leDecimal = (hex) => BigInt("0x" + hex.match(/../g).reverse().join("")).toString();

// req: the fields of request.txt (strings): sector_size, h, comm_r_old, comm_d_new, comm_r_new,
// and variant for the Poseidon one.
export function snapInputs(req) {
  const nodes = Number(req.sector_size) / 32;
  const index = hs(nodes).indexOf(Number(req.h));
  if (index < 0) throw new Error(`h ${req.h} is not one of ${hs(nodes)}`);
  const poseidon = req.variant === "empty-sector-update-poseidon";
  const parts = poseidon ? 1 : partitionCount(nodes);
  const bits = Math.log2(parts);
  const comms = [leDecimal(req.comm_r_old), leDecimal(req.comm_d_new), leDecimal(req.comm_r_new)];
  return Array.from({ length: parts }, (_, k) => [String(BigInt(k) | (1n << BigInt(index)) << BigInt(bits)), ...comms]);
}

// request.txt as an object: "key value" lines.
export function readRequest(file) {
  const req = {};
  for (const line of readFileSync(file, "utf8").trim().split("\n")) {
    const [k, v] = line.split(" ");
    req[k] = v;
  }
  return req;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.length !== 3) {
    console.error("usage: snap_inputs.mjs <request.txt>");
    process.exit(2);
  }
  process.stdout.write(JSON.stringify(snapInputs(readRequest(process.argv[2]))) + "\n");
}
