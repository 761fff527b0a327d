#!/usr/bin/env bash
# One device call (the H200 machine): configure and build with CUDA, record registers (and, with
# SASS=1, per-kernel SASS instruction counts), run the GPU tests, then the benchmarks given as
# arguments, each `op:curve:log_n[:extra cuzk-bench options, '+' for spaces]`, e.g.
#   msm:bls12381:26  ntt:bn254:27  fmul:bn254:20  msm:bn254:26:--scalars+bits+--no-copies
# run as `cuzk-bench OP --gpu --curve C --log-n K [extra]` (docs/bench.md). Logs, JSON lines and
# a summary go to $OUT (or ./gpu-out).
# Environment: SRC (source root, default .), B (build dir, default build-gpu: keep it outside a
# carried folder so a warm machine builds incrementally), TESTS=0 skips the tests, TEST_REGEX
# (default ^gpu_), CZ_GPU_TEST_MAX_LOG / CZ_GPU_TEST_BIG_LOG / CZ_GPU_MSM_* pass through.
# Usage: OUT=dir bash bench/gpu_device_run.sh [spec ...]
set -u
SRC=${SRC:-.}
B=${B:-build-gpu}
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv \
  >"$OUT/device.txt" 2>&1
t0=$(date +%s)
{ cmake -S "$SRC" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER=nvcc \
    -DCZ_WITH_JSON=OFF && cmake --build "$B" -j16; } >"$OUT/build.log" 2>&1 ||
  { tail -50 "$OUT/build.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
cuobjdump --dump-resource-usage "$B/libcuzk.a" 2>&1 | grep -E "Function|REG" |
  sed 's/^ *//' >"$OUT/resources.txt"
if [ "${SASS:-0}" = 1 ]; then
  cuobjdump -sass "$B/libcuzk.a" 2>/dev/null | python3 -c '
import re, sys, collections
cur = None; c = {}
for line in sys.stdin:
    m = re.search(r"Function : (\S+)", line)
    if m: cur = m.group(1); c[cur] = collections.Counter(); continue
    m = re.search(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_]+)", line)
    if m and cur: c[cur][m.group(1)] += 1
for f, cc in c.items():
    print(f, "total", sum(cc.values()), dict(cc.most_common(8)))' >"$OUT/sass_counts.txt"
fi
if [ "${TESTS:-1}" != 0 ]; then
  (cd "$B" && timeout "${GPU_TEST_TIMEOUT:-300}" ctest -R "${TEST_REGEX:-^gpu_}" \
    --output-on-failure) >"$OUT/tests.log" 2>&1
  echo "tests rc=$? ($(($(date +%s) - t0)) s)"
  grep -E "passed|FAIL|Skipped|differs|tests passed" "$OUT/tests.log" | head -30
fi
for spec in "$@"; do
  IFS=: read -r op curve k extra <<<"$spec"
  args=()
  [ "$op" = ntt ] && args=(--kind forward,inverse,coset-forward)
  [ -n "${extra:-}" ] && read -r -a args <<<"${extra//+/ }"
  timeout "${GPU_BENCH_TIMEOUT:-120}" "$B/cuzk-bench" "$op" --gpu --curve "$curve" --log-n "$k" \
    "${args[@]}" >>"$OUT/bench.jsonl" 2>>"$OUT/bench.err" ||
    echo "bench $spec failed rc=$?" >>"$OUT/bench.err"
done
echo "total: $(($(date +%s) - t0)) s"
tail -8 "$OUT/bench.err" 2>/dev/null
python3 - "$OUT/bench.jsonl" <<'PY' 2>/dev/null || cat "$OUT/bench.jsonl" 2>/dev/null
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    tag = '/'.join(str(r[k]) for k in ('kind', 'group', 'scalars', 'split', 'field', 'variant') if k in r)
    g = f" {r['gops']:.1f} Gop/s" if 'gops' in r else ''
    print(f"{r['op']:<6} {tag:<22} {r['curve']:<9} 2^{r['log_n']:<3} copies={str(r.get('copies')):<5} "
          f"{r['median_ms']:10.3f} ms (min {r['min_ms']:.3f} max {r['max_ms']:.3f}){g}")
PY
