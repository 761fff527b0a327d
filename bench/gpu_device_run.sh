#!/usr/bin/env bash
# One device call: build with CUDA, run the GPU tests, then the GPU benchmarks given as arguments
# ("msm:bn254:20 ntt:bls12381:24 ..."; `cuzk-bench OP --gpu`, docs/bench.md). Logs and JSON lines
# go to $OUT (or ./gpu-out).
# Usage: bash bench/gpu_device_run.sh [op:curve:log_n ...]
set -u
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv \
  >"$OUT/device.txt" 2>&1
t0=$(date +%s)
{ cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER=nvcc &&
  cmake --build build-gpu -j16; } >"$OUT/build.log" 2>&1 || { tail -50 "$OUT/build.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
cuobjdump --dump-resource-usage build-gpu/libcuzk.a 2>&1 | grep -E "Function|REG" |
  sed 's/^ *//' >"$OUT/resources.txt"
(cd build-gpu && timeout "${GPU_TEST_TIMEOUT:-240}" ctest -R '^gpu_' --output-on-failure) \
  >"$OUT/tests.log" 2>&1
echo "tests rc=$? ($(($(date +%s) - t0)) s)"; grep -E "passed|FAIL|Skipped|tests passed" "$OUT/tests.log" | head -20
for spec in "$@"; do
  IFS=: read -r op curve k <<<"$spec"
  extra=()
  [ "$op" = ntt ] && extra=(--kind forward,inverse,coset-forward)
  timeout "${GPU_BENCH_TIMEOUT:-90}" ./build-gpu/cuzk-bench "$op" --gpu --curve "$curve" --log-n "$k" \
    "${extra[@]}" >>"$OUT/bench.jsonl" 2>>"$OUT/bench.err" ||
    echo "bench $spec failed rc=$?" >>"$OUT/bench.err"
done
echo "total: $(($(date +%s) - t0)) s"
cat "$OUT/bench.err" 2>/dev/null | tail -5
python3 - "$OUT/bench.jsonl" <<'PY' 2>/dev/null || cat "$OUT/bench.jsonl"
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    op = r['op'] + '_' + (r.get('kind') or r.get('group') or '')
    print(f"{op:<22} {r['curve']:<9} 2^{r['log_n']:<3} copies={str(r.get('copies')):<5} {r['median_ms']:10.3f} ms (min {r['min_ms']:.3f} max {r['max_ms']:.3f})")
PY
