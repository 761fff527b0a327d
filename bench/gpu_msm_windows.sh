#!/usr/bin/env bash
# One device call for the GPU MSM window layout and chunking (docs/gpu.md, MSM): builds the
# library, cuzk-bench and the MSM tests only, runs `ctest -R gpu_msm` (default settings and every
# variant the test sets itself), then times msm:bls12381:26 and msm:bn254:26 (--no-copies) under
# each setting of VARIANTS (';'-separated lists of VAR=VALUE, '-' = defaults) and prints one
# profiled BLS12-381 run of the defaults. MAXLOG=26 also runs gpu_test_gpu_msm up to 2^26.
# Usage: OUT=dir SRC=dir B=build-dir bash bench/gpu_msm_windows.sh
set -u
SRC=${SRC:-.}
B=${B:-build-gpu}
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s)
{ cmake -S "$SRC" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER=nvcc \
    -DCZ_WITH_JSON=OFF && cmake --build "$B" -j16 --target cuzk-bench gpu_test_gpu_msm \
    gpu_test_gpu_msm_affine_cpu; } >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
(cd "$B" && timeout "${TEST_TIMEOUT:-120}" ctest -R gpu_msm --output-on-failure) >"$OUT/tests.log" 2>&1
echo "ctest rc=$? ($(($(date +%s) - t0)) s)"
grep -E "variant|passed|FAIL|tests passed" "$OUT/tests.log" | head -20
bench() { # label env... -- curve
  local label=$1 curve=$2
  shift 2
  env "$@" timeout 60 "$B/cuzk-bench" msm --gpu --curve "$curve" --log-n 26 --no-copies \
    --runs "${RUNS:-5}" 2>>"$OUT/bench.err" | tee -a "$OUT/bench.jsonl" |
    python3 -c "import json,sys
for l in sys.stdin: r=json.loads(l); print('$label', '$curve', r['median_ms'], r['min_ms'], r['max_ms'])"
}
IFS=';' read -r -a vs <<<"${VARIANTS:--}"
for v in "${vs[@]}"; do
  [ "$v" = - ] && v=""
  read -r -a ev <<<"$v"
  bench "[${v:-default}]" bls12381 "${ev[@]}"
  bench "[${v:-default}]" bn254 "${ev[@]}"
done
CZ_GPU_MSM_PROFILE=1 RUNS=1 bench "[default profile]" bls12381 CZ_GPU_MSM_PROFILE=1
grep -E "profile|pippenger" "$OUT/bench.err" | tail -3
echo "bench: $(($(date +%s) - t0)) s"
if [ "${MAXLOG:-0}" -gt 24 ]; then
  CZ_GPU_TEST_MAX_LOG=$MAXLOG timeout "${BIG_TIMEOUT:-120}" "$B/gpu_test_gpu_msm" >"$OUT/big.log" 2>&1
  echo "big test rc=$? ($(($(date +%s) - t0)) s)"
  grep -E "variant|passed" "$OUT/big.log" | tail -12
fi
