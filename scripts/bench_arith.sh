#!/usr/bin/env bash
# The arithmetic benchmarks of cuzk (build/cuzk-bench-field, -curve, -pairing) beside the same
# operations in @noble/curves, measured in the same run: per operation both times and the ratio
# noble/cuzk, plus blst's published time on this machine's CPU where we have one (for scale).
# The raw JSON lines go to $BUILD/bench_arith.jsonl.
#   usage: scripts/bench_arith.sh [runs]   (BUILD defaults to build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
RUNS=${1:-11}
for b in field curve pairing; do
    [ -x "$BUILD/cuzk-bench-$b" ] || cmake --build "$BUILD" --target "cuzk-bench-$b" >/dev/null
done
out="$BUILD/bench_arith.jsonl"
{
    "$BUILD/cuzk-bench-field" "$RUNS"
    node bench/noble_bench_field.mjs "$RUNS"
    "$BUILD/cuzk-bench-curve" "$RUNS"
    node bench/noble_bench_curve.mjs "$RUNS"
    "$BUILD/cuzk-bench-pairing" "$RUNS"
    node bench/noble_bench_pairing.mjs "$RUNS"
} | tee "$out" >/dev/null
node - "$out" <<'JS'
const fs = require("fs");
const rows = fs.readFileSync(process.argv[2], "utf8").trim().split("\n").map((l) => JSON.parse(l));
// blst on this machine's CPU (hand-written x86-64 assembly), from the project's issue text.
const blst = { "bls12381_fp mul": 35.8, "bls12381_fr mul": 18.6, "bls12381 g1_add_mixed": 531,
               "bls12381 pairing": 597000 };
const key = (r) => (r.field || r.curve) + " " + r.op;
const c = new Map(), n = new Map();
for (const r of rows) (r.impl === "noble" ? n : c).set(key(r), r.ns);
console.log("what                          cuzk ns     noble ns  noble/cuzk    blst ns  cuzk/blst");
for (const [k, ns] of c) {
  const nb = n.get(k), bl = blst[k];
  console.log(k.padEnd(26), ns.toFixed(1).padStart(11),
    nb === undefined ? "           -" : nb.toFixed(1).padStart(12),
    nb === undefined ? "           " : ((nb / ns).toFixed(1) + "x").padStart(11),
    bl === undefined ? "" : bl.toFixed(1).padStart(10) + ((ns / bl).toFixed(2) + "x").padStart(11));
}
JS
