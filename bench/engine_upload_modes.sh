#!/usr/bin/env bash
# One device call comparing how the engine's GPU workers upload a partition's inputs
# (docs/engine.md, "Uploads and the device lock"): builds cuzk-bench (CUDA, only that target),
# times host->device copies alone (`cuzk-bench upload`: pageable vs pinned, 2^24 and 2^27 Fr),
# then runs the engine at SCALE (27) with the benchmark key once per MODES entry (';'-separated
# lists of VAR=VALUE, '-' = the defaults), e.g. CZ_GPU_COPY_CHUNK_MB=64 (uploads cut into 64 MiB
# pieces) or CZ_ENGINE_UPLOAD_IN_LOCK=1 (uploads under the device lock), each through
# bench/engine_scale_run.sh with PARTS partitions (4) and SWEEP (2:4); logs under $OUT/mode<i>.
set -u
B=${B:-build-gpu}
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
t0=$(date +%s)
{ cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCZ_WITH_JSON=OFF &&
  cmake --build "$B" --target cuzk-bench; } >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
timeout 90 "$B/cuzk-bench" upload --gpu --log-n 24,27 --runs 3 >"$OUT/upload.jsonl" 2>"$OUT/upload.err"
cut -c1-300 "$OUT/upload.jsonl"
IFS=';' read -r -a ms <<<"${MODES:--}"
i=0
for m in "${ms[@]}"; do
  [ "$m" = - ] && m=""
  read -r -a ev <<<"$m"
  echo "=== mode $i: ${m:-default} at $(($(date +%s) - t0)) s"
  env "${ev[@]}" OUT="$OUT/mode$i" B="$B" PARTS=${PARTS:-4} WARMUP=${WARMUP:-1} \
    SWEEP=${SWEEP:-2:4} TOTAL=${MODE_TOTAL:-120} bash bench/engine_scale_run.sh 2>&1 |
    grep -E 'done;|^gpu0|stage (ntt_h|upload|device|lock_held|lock_wait|g2_msm)|error lines|peak'
  i=$((i + 1))
done
echo "total: $(($(date +%s) - t0)) s"
