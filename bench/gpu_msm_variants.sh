#!/usr/bin/env bash
# One device call comparing the GPU MSM bucket-accumulation variants (docs/gpu.md, MSM): builds
# and runs the GPU tests once through gpu_device_run.sh (test_gpu_msm checks every variant
# itself), then, for each variant CZ_GPU_MSM_ACC=xyzz|affine x CZ_GPU_MSM_SQR=0|1, times the MSM
# specs given as arguments (default msm:bn254:26:--no-copies msm:bls12381:26:--no-copies) and
# prints one profiled BLS12-381 run (CZ_GPU_MSM_PROFILE=1, per-phase times). Logs under
# $OUT/<variant>/; VARIANTS="affine:0 ..." picks variants; PROFILE_SPEC picks the profiled spec.
# Usage: OUT=dir bash bench/gpu_msm_variants.sh [spec ...]
set -u
OUT=${OUT:-gpu-out}
dir=$(dirname "$0")
specs=("$@")
[ ${#specs[@]} -eq 0 ] && specs=(msm:bn254:26:--no-copies msm:bls12381:26:--no-copies)
prof=${PROFILE_SPEC:-msm:bls12381:26:--no-copies+--runs+1}
OUT=$OUT/tests bash "$dir/gpu_device_run.sh" || exit 1
grep -E "^variant" "$OUT/tests/tests.log" 2>/dev/null
grep -E "gpu_msm|Function" "$OUT/tests/resources.txt" 2>/dev/null | grep -A1 "acc" | head -20
for v in ${VARIANTS:-xyzz:0 affine:0 xyzz:1 affine:1}; do
  acc=${v%:*} sqr=${v#*:}
  echo "== CZ_GPU_MSM_ACC=$acc CZ_GPU_MSM_SQR=$sqr"
  CZ_GPU_MSM_ACC=$acc CZ_GPU_MSM_SQR=$sqr TESTS=0 OUT=$OUT/$acc-sqr$sqr \
    bash "$dir/gpu_device_run.sh" "${specs[@]}" | grep -E "^msm|failed"
  CZ_GPU_MSM_ACC=$acc CZ_GPU_MSM_SQR=$sqr CZ_GPU_MSM_PROFILE=1 TESTS=0 \
    OUT=$OUT/$acc-sqr$sqr-profile bash "$dir/gpu_device_run.sh" "$prof" >/dev/null
  grep -E "profile|pippenger" "$OUT/$acc-sqr$sqr-profile/bench.err" | tail -2
done
