#!/usr/bin/env bash
# Runs the field benchmarks of cuzk (C, build/cuzk-bench-field) and @noble/curves (node) and prints,
# per op and field, both times and the ratio noble/cuzk. The raw JSON lines go to
# $BUILD/bench_field.jsonl.   Usage: scripts/bench_field.sh [runs]   (BUILD defaults to build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
RUNS=${1:-11}
[ -x "$BUILD/cuzk-bench-field" ] || cmake --build "$BUILD" --target cuzk-bench-field >/dev/null
out="$BUILD/bench_field.jsonl"
{
    "$BUILD/cuzk-bench-field" "$RUNS"
    node bench/noble_bench_field.mjs "$RUNS"
} | tee "$out" >/dev/null
node - "$out" <<'JS'
const fs = require("fs");
const rows = fs.readFileSync(process.argv[2], "utf8").trim().split("\n").map((l) => JSON.parse(l));
const key = (r) => r.field + " " + r.op;
const c = new Map(), n = new Map();
for (const r of rows) (r.impl === "noble" ? n : c).set(key(r), r.ns);
console.log("field        op    cuzk ns   noble ns  noble/cuzk");
for (const [k, ns] of c) {
  const [field, op] = k.split(" ");
  const nb = n.get(k);
  console.log(field.padEnd(12), op.padEnd(4), ns.toFixed(1).padStart(9), nb === undefined ? "        -" :
    nb.toFixed(1).padStart(10), nb === undefined ? "" : (nb / ns).toFixed(1).padStart(10) + "x");
}
JS
