#!/usr/bin/env bash
# One device call after a change to the GPU compute path (docs/engine.md, "Scale 2^27"):
#   1. build everything with CUDA and run the GPU Groth16 test (staged uploads into a worker's
#      device workspace, byte-equal to the CPU proof) and the engine tests (bench/gpu_device_run.sh,
#      no benchmarks);
#   2. the MSM at 2^26 against the progression oracle (CZ_GPU_TEST_MAX_LOG=26) unless SKIP_MSM26=1;
#   3. the BLS12-381 G1 MSM at 2^26 (points on the device) under each setting of MSM_VARIANTS
#      (';'-separated lists of VAR=VALUE, '-' = the defaults), median of RUNS;
#   4. the engine at 2^27 with the benchmark key (bench/engine_scale_run.sh) over SWEEP, with
#      whatever time is left of TOTAL (s).
# Each step's logs go under $OUT/<step>; a failing step does not stop the next.
# Usage: OUT=dir [B=build-gpu] [SWEEP=2:2,2:4] [TOTAL=560] bash bench/engine_upload_run.sh
set -u
B=${B:-build-gpu}
OUT=${OUT:-gpu-out}
TOTAL=${TOTAL:-560}
mkdir -p "$OUT"
t0=$(date +%s)
OUT=$OUT/1 B=$B TEST_REGEX='^gpu_test_gpu_groth16$|^engine_test_(workload|pipeline|bench_key)$' \
  GPU_TEST_TIMEOUT=${TEST_TIMEOUT:-150} bash bench/gpu_device_run.sh
echo "step 1 done at $(($(date +%s) - t0)) s"
mkdir -p "$OUT/2" "$OUT/3"
if [ "${SKIP_MSM26:-0}" != 1 ]; then
  CZ_GPU_TEST_MAX_LOG=26 timeout 120 "$B/gpu_test_gpu_msm" >"$OUT/2/msm26.log" 2>&1
  echo "msm 2^26 test rc=$? at $(($(date +%s) - t0)) s"
  tail -3 "$OUT/2/msm26.log"
fi
IFS=';' read -r -a vs <<<"${MSM_VARIANTS:--}"
for v in "${vs[@]}"; do
  [ "$v" = - ] && v=""
  read -r -a ev <<<"$v"
  env "${ev[@]}" timeout 60 "$B/cuzk-bench" msm --gpu --curve bls12381 --log-n 26 --no-copies \
    --runs "${RUNS:-3}" 2>>"$OUT/3/msm.err" | tee -a "$OUT/3/msm.jsonl" |
    python3 -c "import json,sys
for l in sys.stdin: r=json.loads(l); print('[${v:-default}]', r['median_ms'], r['min_ms'], r['max_ms'])"
done
echo "step 3 done at $(($(date +%s) - t0)) s"
left=$((TOTAL - ($(date +%s) - t0)))
[ "$left" -gt 90 ] && OUT=$OUT/4 B=$B TOTAL=$left SWEEP=${SWEEP:-2:2,2:4} \
  bash bench/engine_scale_run.sh
echo "total: $(($(date +%s) - t0)) s"
