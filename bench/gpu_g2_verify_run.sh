#!/usr/bin/env bash
# One device call after a change to the G2 path of the GPU prover (docs/gpu.md, G2 MSM), on one
# GPU or more (every GPU of the machine is proved on):
#   1. build everything with CUDA, run the GPU tests and the engine tests (TEST_REGEX; ctest's
#      limit TEST_TIMEOUT, default 420 s: at 240 s session 5's run lost test_gpu_ntt);
#   2. bench/gpu_engine_run.sh: GPU proofs (`cuzk-bench prove --gpu --check`, B2 on the GPU, the
#      default) and a CPU one, a proof on every other GPU, the engine at porep-synth scale 20 with
#      1 and 2 GPU workers and on all GPUs (verified proofs);
#   3. the proofs of PROVE again with CZ_GPU_G2=0 (B2 on the CPU, beside the device work);
#   4. the G2 MSM alone (`cuzk-bench msm --gpu --group g2 --no-copies`): uniform scalars at
#      G2_LOGS and the bit-heavy set (98.7 % zeros and ones) at G2_BITS_LOGS, both curves;
#   5. cuzk-bench copied to $OUT/bin (a later call can carry it instead of building);
#   6. with what is left of TOTAL (s), the engine at 2^27 (bench/engine_scale_run.sh, SWEEP) unless
#      SCALE27=0.
# (G1 MSM variants at 2^26: bench/engine_upload_run.sh, MSM_VARIANTS.)
# Each step's logs go under $OUT/<step>; a failing step does not stop the next.
# Usage: OUT=dir SRC=dir B=build-dir [TOTAL=580] bash bench/gpu_g2_verify_run.sh
set -u
SRC=${SRC:-.}
B=${B:-build-gpu}
OUT=${OUT:-gpu-out}
TOTAL=${TOTAL:-580}
PROVE=${PROVE:-bls12381:20 bn254:20 bls12381:22}
mkdir -p "$OUT/3" "$OUT/4" "$OUT/bin"
t0=$(date +%s)
OUT=$OUT/1 SRC=$SRC B=$B GPU_TEST_TIMEOUT=${TEST_TIMEOUT:-420} \
  TEST_REGEX=${TEST_REGEX:-'^gpu_|^engine_test_(workload|pipeline|bench_key)$'} \
  bash "$SRC/bench/gpu_device_run.sh"
echo "step 1 done at $(($(date +%s) - t0)) s"
OUT=$OUT/2 B=$B PROVE=$PROVE bash "$SRC/bench/gpu_engine_run.sh"
echo "step 2 done at $(($(date +%s) - t0)) s"
for p in $PROVE; do
  IFS=: read -r c k <<<"$p"
  CZ_GPU_G2=0 timeout 120 "$B/cuzk-bench" prove --gpu --curve "$c" --log-n "$k" --runs 3 --check \
    >>"$OUT/3/prove_cpu_g2.jsonl" 2>>"$OUT/3/prove.err" || echo "CZ_GPU_G2=0 prove $p failed"
done
cut -c1-400 "$OUT/3/prove_cpu_g2.jsonl"
echo "step 3 done at $(($(date +%s) - t0)) s"
for c in bn254 bls12381; do
  for s in "uniform:${G2_LOGS:-20,24}" "bits:${G2_BITS_LOGS:-24,26}"; do
    timeout 90 "$B/cuzk-bench" msm --gpu --curve "$c" --group g2 --scalars "${s%%:*}" \
      --log-n "${s#*:}" --no-copies --runs 3 >>"$OUT/4/g2.jsonl" 2>>"$OUT/4/g2.err" ||
      echo "g2 msm $c $s failed"
  done
done
python3 -c "import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r['curve'], r.get('group'), r.get('scalars'), r['log_n'], r['median_ms'], r['min_ms'], r['max_ms'])" \
  "$OUT/4/g2.jsonl"
echo "step 4 done at $(($(date +%s) - t0)) s"
cp "$B/cuzk-bench" "$OUT/bin/"
left=$((TOTAL - ($(date +%s) - t0)))
[ "${SCALE27:-1}" != 0 ] && [ "$left" -gt 120 ] && OUT=$OUT/6 SRC=$SRC B=$B TOTAL=$left \
  SWEEP=${SWEEP:-2:4,2:8} bash "$SRC/bench/engine_scale_run.sh"
echo "total: $(($(date +%s) - t0)) s"
