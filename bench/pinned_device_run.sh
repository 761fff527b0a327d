#!/usr/bin/env bash
# One device call for the pinned-memory work (docs/gpu.md, "Pinned host memory"): builds only
# what it runs, runs the GPU prover test (pinned round trips, the proof from pinned buffers = the
# CPU proof), the buffer-pool and workload tests, then measures
#   - host->device copies of 2^24 and 2^27 Fr from pageable vs pinned memory (cuzk-bench upload),
#   - the GPU prove of a 2^22 mulchain with CZ_PINNED=0 (a, b pageable: before) and pinned (after).
# Environment: SRC (default .), B (default build-gpu-pinned, outside any carried folder), OUT,
# CACHE (cuzk-bench prove --cache, default ./bench-cache), LOGS (upload sizes, default 24,27),
# PROVE_LOG (default 22; 0 skips the proofs: each 2^22 BLS12-381 proof is ~10 s of CPU G2 MSM,
# and its key is made by our CPU setup unless CACHE already holds it).
set -u
SRC=${SRC:-.}
B=${B:-build-gpu-pinned}
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s)
{ cmake -S "$SRC" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER=nvcc \
    -DCZ_WITH_JSON=OFF &&
    cmake --build "$B" -j16 --target cuzk-bench gpu_test_gpu_groth16 engine_test_bufpool \
      engine_test_workload; } >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
(cd "$B" && CZ_GPU_TEST_MAX_LOG=${CZ_GPU_TEST_MAX_LOG:-12} timeout 120 ctest --output-on-failure \
  -R '^(gpu_test_gpu_groth16|engine_test_bufpool|engine_test_workload)$') >"$OUT/tests.log" 2>&1
grep -E "tests passed|register of|Failed|FAIL" "$OUT/tests.log" | head -20
grep -h "register of" "$B"/Testing/Temporary/LastTest.log 2>/dev/null | head -2
echo "tests: $(($(date +%s) - t0)) s"
"$B/cuzk-bench" upload --gpu --log-n "${LOGS:-24,27}" --runs 5 >"$OUT/upload.jsonl" 2>>"$OUT/bench.err"
for p in 0 1; do
  [ "${PROVE_LOG:-22}" = 0 ] && break
  CZ_PINNED=$p "$B/cuzk-bench" prove --gpu --curve bls12381 --log-n "${PROVE_LOG:-22}" --runs 3 \
    --check --cache "${CACHE:-./bench-cache}" >>"$OUT/prove.jsonl" 2>>"$OUT/bench.err"
done
echo "bench: $(($(date +%s) - t0)) s"
python3 - "$OUT" <<'PY'
import json, sys, os
d = sys.argv[1]
for line in open(os.path.join(d, "upload.jsonl")):
    r = json.loads(line)
    print(f"upload 2^{r['log_n']} {r['host']}: median {r['median_ms']:.1f} ms, {r['gb_per_s']:.1f} GB/s")
pf = os.path.join(d, "prove.jsonl")
for i, line in enumerate(open(pf) if os.path.exists(pf) else []):
    r = json.loads(line)
    t = r.get('median_timings', {})
    print(f"prove 2^{r['log_n']} {'pinned' if i else 'pageable (CZ_PINNED=0)'}: median {r['median_ms']:.1f} ms "
          f"upload {t.get('upload_ms')} gpu {t.get('gpu_ms')} verified={r.get('verified')}")
PY
tail -3 "$OUT/bench.err"
