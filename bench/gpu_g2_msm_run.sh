#!/usr/bin/env bash
# One device call for the G2 MSM (docs/gpu.md, G2 MSM): builds cuzk-bench and the G2 and G1 MSM
# tests only, runs test_gpu_g2_msm (CPU oracle up to 2^16, progression up to 2^20), times
# `cuzk-bench msm --gpu --group g2 --no-copies` on uniform scalars at LOGS (default 20,22,24) and
# on the bit-heavy set (98.7 % zeros and ones, split automatic) at BITS_LOGS (default 25) for both
# curves, one G1 line per curve at 2^24 (unchanged G1 performance), PROFILE=1 adds one profiled
# BLS12-381 bit-heavy 2^25 run, then test_gpu_msm (G1) up to 2^G1_MAX_LOG (default 18).
# Usage: OUT=dir SRC=dir B=build-dir bash bench/gpu_g2_msm_run.sh
set -u
SRC=${SRC:-.}
B=${B:-build-gpu}
OUT=${OUT:-gpu-out}
LOGS=${LOGS:-20,22,24}
BITS_LOGS=${BITS_LOGS:-25}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s)
{ cmake -S "$SRC" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER=nvcc \
    -DCZ_WITH_JSON=OFF && cmake --build "$B" -j16 --target cuzk-bench gpu_test_gpu_g2_msm \
    gpu_test_gpu_msm; } >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
timeout "${G2_TIMEOUT:-120}" "$B/gpu_test_gpu_g2_msm" >"$OUT/test_g2.log" 2>&1
echo "test_gpu_g2_msm rc=$? ($(($(date +%s) - t0)) s)"
grep -E "variant|passed|differs|G1 handle|CHECK" "$OUT/test_g2.log" | head -20
bench() { # curve group scalars logs
  timeout 60 "$B/cuzk-bench" msm --gpu --curve "$1" --group "$2" --scalars "$3" --log-n "$4" \
    --no-copies --runs "${RUNS:-3}" 2>>"$OUT/bench.err" | tee -a "$OUT/bench.jsonl" |
    python3 -c "import json,sys
for l in sys.stdin:
    r=json.loads(l); print(r['curve'], r['group'], r['scalars'], 'log', r['log_n'], 'median', r['median_ms'], 'min', r['min_ms'], 'max', r['max_ms'])"
}
for c in bn254 bls12381; do
  bench "$c" g2 uniform "$LOGS"
  bench "$c" g2 bits "$BITS_LOGS"
  bench "$c" g1 uniform 24
done
if [ "${PROFILE:-0}" = 1 ]; then
  CZ_GPU_MSM_PROFILE=1 RUNS=1 bench bls12381 g2 bits 25
  grep -E "profile|pippenger" "$OUT/bench.err" | tail -3
fi
echo "bench: $(($(date +%s) - t0)) s"
CZ_GPU_TEST_MAX_LOG=${G1_MAX_LOG:-18} timeout "${G1_TIMEOUT:-90}" "$B/gpu_test_gpu_msm" \
  >"$OUT/test_g1.log" 2>&1
echo "test_gpu_msm rc=$? ($(($(date +%s) - t0)) s)"
grep -E "variant|passed" "$OUT/test_g1.log" | tail -12
