#!/usr/bin/env bash
# cuzk-bench-params from the outside, at a small shape (docs/params.md, "Loading a key"). The
# written key must be what a reader accepts and what the writer says: the counts of Filecoin's
# 32 GiB PoRep key scaled to 2^13 (worked out here from the PoRep counts, not by the program), the
# size they imply, `cuzk info --check` decoding every point, the verifying key's points distinct
# and the first 4096 H points distinct (read by Node from the file's bytes), the words "for timing
# only" on stderr; then the load benchmark's lines (two loads, a pread, a load with the subgroup
# check) with the file's size and point counts. No time is asserted. Bad arguments exit 2, a key
# that is not there exits 1 naming it.
#   tests/bench/test_bench_params.sh BENCH_PARAMS CUZK SCRATCH_DIR   (run from the source root)
set -u
BENCH=${1:?usage: test_bench_params.sh BENCH_PARAMS CUZK SCRATCH_DIR}
CUZK=${2:?usage: test_bench_params.sh BENCH_PARAMS CUZK SCRATCH_DIR}
T=${3:?usage: test_bench_params.sh BENCH_PARAMS CUZK SCRATCH_DIR}
rm -rf "$T" && mkdir -p "$T" || exit 1
. "$(dirname "$0")/../cli/lib.sh"
run() { # run PROGRAM ARGS...: stdout in $T/out, stderr in $T/err, the exit status in $rc
    "$@" >"$T/out" 2>"$T/err"
    rc=$?
}
K=13
KEY=$T/k$K.params
# The PoRep 32 GiB counts times 2^K / 2^27; H is the domain less one.
ic=329 h=$(((1 << K) - 1))
l=$((130169893 * (1 << K) / 134217728)) a=$((129753620 * (1 << K) / 134217728))
b=$((33112282 * (1 << K) / 134217728))
size=$((888 + 96 * (ic + h + l + a + b) + 192 * b))

run "$BENCH" write "$KEY" --scale $K
check "write --scale $K exits 0" test "$rc" = 0
check "... says the key is for timing only" grep -q "for timing only" "$T/err"
check "... the file has the size of the scaled counts ($size)" test "$(stat -c %s "$KEY")" = "$size"
check "... one JSON line: op write, timing_only, the bytes" node -e '
    const l = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n");
    const j = JSON.parse(l[0]);
    if (l.length !== 1 || j.op !== "write" || j.timing_only !== true || j.bytes !== +process.argv[2] ||
        !(j.gb_s > 0)) process.exit(1);' "$T/out" "$size"

run "$CUZK" info --check -t 2 "$KEY"
check "cuzk info --check accepts every point" test "$rc" = 0
check "... the counts" bash -c "grep -q '^IC: $ic points' '$T/out' && grep -q '^H: $h points' '$T/out' &&
    grep -q '^L: $l points' '$T/out' && grep -q '^A: $a points' '$T/out' &&
    grep -q '^B_G1: $b points' '$T/out' && grep -q '^B_G2: $b points' '$T/out'"
check "... all on the curve" grep -q '^points: all valid, on the curve' "$T/out"
cat "$T/out"

check "the vk's points are distinct, and H's first 4096" node -e '
    const d = require("fs").readFileSync(process.argv[1]), hex = (o, n) => d.toString("hex", o, o + n);
    const vk = [hex(0, 96), hex(96, 96), hex(576, 96), hex(192, 192), hex(384, 192), hex(672, 192)];
    const nic = d.readUInt32BE(864);
    for (let i = 0; i < nic; i++) vk.push(hex(868 + 96 * i, 96));
    const hoff = 868 + 96 * nic + 4, hs = [];
    for (let i = 0; i < 4096; i++) hs.push(hex(hoff + 96 * i, 96));
    if (new Set(vk).size !== vk.length || new Set(hs).size !== 4096) process.exit(1);' "$KEY"

# The load lines: OPS in order, each with the file's size and points, on 2 threads.
check_lines() { # check_lines OPS SIZE G1 G2
    node -e '
    const l = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
    const [size, g1, g2] = process.argv.slice(3).map(Number);
    if (l.map((j) => j.op).join(",") !== process.argv[2]) process.exit(1);
    for (const j of l)
        if (j.bench !== "params" || j.bytes !== size || j.g1_points !== g1 || j.g2_points !== g2 ||
            j.threads !== 2 || !(j.s > 0) || !(j.gb_s > 0) || j.min > j.ns || j.ns > j.max)
            process.exit(1);
    if (l[0].run !== 1 || l[1].run !== 2) process.exit(1);
    const sub = l.find((j) => j.op === "load_subgroup");
    if (sub && !("subgroup_s" in sub && "subgroup_cpu_ns_per_point" in sub)) process.exit(1);' \
        "$T/out" "$@"
}
run "$BENCH" load "$KEY" --threads 2 --runs 2
check "load exits 0" test "$rc" = 0
check "... two loads and a pread, with the file's size and points" \
    check_lines load,load,pread "$size" $((ic + h + l + a + b)) "$b"
cat "$T/out"
# The subgroup check costs a scalar multiplication per point: a key of 2^6 keeps it short.
run "$BENCH" write "$T/k6.params" --scale 6
run "$BENCH" load "$T/k6.params" --threads 2 --runs 2 --subgroup
check "load --subgroup of a 2^6 key exits 0" test "$rc" = 0
check "... two loads, a pread and a load with the check" check_lines load,load,pread,load_subgroup \
    "$(stat -c %s "$T/k6.params")" $((ic + 63 + 62 + 61 + 15)) 15
cat "$T/out"

run "$BENCH" write "$T/x.params" --scale 28
check "write --scale 28 exits 2" test "$rc" = 2
run "$BENCH" write "$T/x.params" --shape porep-64g
check "an unknown shape exits 2" test "$rc" = 2
run "$BENCH" load "$KEY" --runs 0
check "load --runs 0 exits 2" test "$rc" = 2
run "$BENCH" load "$T/absent.params"
check "load of a missing key exits 1, naming it" \
    bash -c "test $rc = 1 && grep -q '$T/absent.params' '$T/err'"
run "$BENCH" write "$T/no-such-dir/k.params" --scale 4
check "write into a missing directory exits 1, naming it" \
    bash -c "test $rc = 1 && grep -q 'no-such-dir/k.params' '$T/err'"

rm -rf "$T"
if [ "$fails" -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all checks passed"
