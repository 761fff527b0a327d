#!/usr/bin/env bash
# One device call that checks and measures the GPU backend end to end (the closing-note run):
#   1. build everything with CUDA (bench/gpu_device_run.sh), run the GPU tests and the engine
#      tests that use the GPU (NTT variants $NTT_VARIANTS, MSM up to 2^24), then the NTT
#      benchmarks (every variant, one process per curve) and the G1 MSM benchmarks 2^20..2^26;
#   2. (run after 3) the MSM at 2^26 against the progression oracle (CZ_GPU_TEST_MAX_LOG=26) and the
#      CZ_GPU_MSM_NREG=1 accumulation timed at 2^26;
#   3. bench/gpu_engine_run.sh: GPU Groth16 proofs (checked) of mulchain keys, the same on every
#      other GPU, the engine on the synthetic PoRep with gw 1 and 2 and on all GPUs;
#   4. cuzk-bench upload: host->device copies from pageable and pinned memory.
# Each step's logs go under $OUT/<step>; a step that fails does not stop the next.
# Environment: NTT_VARIANTS (default 1678), SKIP (steps to skip, e.g. "2 4").
set -u
OUT=${OUT:-gpu-out}
B=${B:-build-gpu}
mkdir -p "$OUT"
skip() { case " ${SKIP:-} " in *" $1 "*) return 0 ;; esac; return 1; }
t0=$(date +%s)
nv=${NTT_VARIANTS:-1678}
nvl=$(echo "$nv" | sed 's/./&,/g; s/,$//')
if ! skip 1; then
  OUT=$OUT/1 B=$B TEST_REGEX='^gpu_|^engine_test_(workload|bufpool|pipeline|bench_key)$' \
    CZ_GPU_TEST_BIG_LOG=24 CZ_GPU_TEST_NTT_VARIANTS=$nv GPU_TEST_TIMEOUT=${TEST_TIMEOUT:-240} \
    CZ_BENCH_NTT_VARIANTS=$nvl bash bench/gpu_device_run.sh \
    ntt:bn254:20,24,27:--kind+forward,inverse,coset-forward+--no-copies \
    ntt:bls12381:20,24,27:--kind+forward,inverse,coset-forward+--no-copies \
    msm:bn254:20,22,24,26:--no-copies msm:bls12381:20,22,24,26:--no-copies
fi
echo "step 1 done at $(($(date +%s) - t0)) s"
if ! skip 3; then
  OUT=$OUT/3 B=$B CPU_PROVE="${CPU_PROVE:- }" bash bench/gpu_engine_run.sh
fi
echo "step 3 done at $(($(date +%s) - t0)) s"
if ! skip 2; then
  mkdir -p "$OUT/2"
  (CZ_GPU_TEST_MAX_LOG=26 timeout 120 "$B/gpu_test_gpu_msm" 2>&1 | tail -5) >"$OUT/2/msm26.log"
  tail -2 "$OUT/2/msm26.log"
  for v in "" "CZ_GPU_MSM_NREG=1"; do
    env $v timeout 60 "$B/cuzk-bench" msm --gpu --curve bls12381 --log-n 26 --no-copies \
      --runs 3 >>"$OUT/2/msm-nreg.jsonl" 2>>"$OUT/2/msm-nreg.err"
  done
  cut -c1-200 "$OUT/2/msm-nreg.jsonl"
fi
echo "step 2 done at $(($(date +%s) - t0)) s"
if ! skip 4; then
  mkdir -p "$OUT/4"
  timeout 60 "$B/cuzk-bench" upload --gpu --log-n 24,27 --runs 5 >"$OUT/4/upload.jsonl" \
    2>"$OUT/4/upload.err"
  cut -c1-300 "$OUT/4/upload.jsonl"
fi
echo "total $(($(date +%s) - t0)) s"
