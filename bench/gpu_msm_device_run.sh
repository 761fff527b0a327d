#!/usr/bin/env bash
# One device call for the GPU MSM: build the GPU targets into ../build-gpu-msm (outside the
# carried tree, so a warm machine builds incrementally), run ctest -R '^gpu_', then the MSM
# benchmarks listed in $MSM_BENCH (lines "curve log_n scalars split c", c = 0 for the default),
# with CZ_GPU_MSM_PROFILE=${PROF:-1}. Logs under $OUT. Run from the source root's parent:
#   OUT=$OUT bash SRC/bench/gpu_msm_device_run.sh SRC BUILD
set -u
SRC=$1
B=$2
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s)
{ cmake -S "$SRC" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER=nvcc \
    -DCZ_WITH_JSON=OFF &&
  cmake --build "$B" -j16 --target gpu_test_gpu_msm gpu_test_gpu_ntt gpu_test_gpu_consts \
    cuzk-bench; } >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  (cd "$B" && timeout "${GPU_TEST_TIMEOUT:-150}" ctest -R '^gpu_' --output-on-failure) \
    >"$OUT/tests.log" 2>&1
  echo "tests rc=$? ($(($(date +%s) - t0)) s)"
  grep -E "passed|FAIL|Skipped|differs|tests passed" "$OUT/tests.log" | head -20
fi
echo "$MSM_BENCH" | while read -r curve k scal split c; do
  [ -z "$curve" ] && continue
  CZ_GPU_MSM_C=$c CZ_GPU_MSM_PROFILE=${PROF:-1} timeout 60 "$B/cuzk-bench" msm --gpu --curve "$curve" \
    --log-n "$k" --scalars "$scal" --split "$split" --runs 3 --no-copies \
    >"$OUT/b.json" 2>"$OUT/b.err"
  echo "rc=$? $curve 2^$k $scal split=$split c=$c: $(grep -o '"median_ms":[0-9.]*' "$OUT/b.json" | tail -1)"
  grep "profile" "$OUT/b.err" | tail -1
  cat "$OUT/b.json" >>"$OUT/bench.jsonl"
done
echo "total: $(($(date +%s) - t0)) s"
