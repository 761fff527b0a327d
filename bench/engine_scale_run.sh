#!/usr/bin/env bash
# One device call for the engine at the real partition's scale (docs/engine.md, "Scale 2^27"):
# builds cuzk-bench (CUDA, -DCZ_WITH_JSON=OFF, only that target) into $B, then runs the
# porep-synth workload with the benchmark key over a sweep of GW:PW configurations (one process:
# the circuit and the key are built once), writes every JSON line to $OUT/engine.jsonl as soon as
# it is known (a timeout keeps what was done), draws each config's timeline (SVG + text analysis
# with the per-stage means) and samples host/GPU memory every 2 s into $OUT/mon.log.
# Environment: SRC (source dir, default .), B (build dir, default build-gpu), SCALE (27), PARTS
# (10), COUNT (jobs per config, 1), CONC (1), WARMUP (partitions of the warm-up job, 2), SWEEP
# (GW:PW list, default "2:2,1:2,2:4,2:8,2:12": gw 1 vs 2 at the default workers first), BUDGET
# (GiB, 108 of the machine's 128), RUN_TIMEOUT (s, for the whole sweep, 240).
set -u
SRC=${SRC:-.}
B=${B:-build-gpu}
OUT=${OUT:-scale-out}
mkdir -p "$OUT"
t0=$(date +%s)
if ! { cmake -S "$SRC" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCZ_WITH_JSON=OFF \
    >"$OUT/configure.log" 2>&1 && cmake --build "$B" --target cuzk-bench >"$OUT/build.log" 2>&1; }; then
  tail -40 "$OUT/configure.log" "$OUT/build.log"
  exit 1
fi
echo "build: $(($(date +%s) - t0)) s"
nproc; free -g | head -2
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
(while sleep 2; do
  echo "$(date +%s) host_used_gib=$(free -g | awk '/Mem:/{print $3}') gpu=$(nvidia-smi --query-gpu=memory.used,utilization.gpu --format=csv,noheader | tr -d ' ')"
done) >"$OUT/mon.log" 2>&1 &
mon=$!
bench="$B/cuzk-bench"
cmd=("$bench" engine --workload porep-synth --bench-key --scale "${SCALE:-27}" \
  --partitions "${PARTS:-10}" -c "${COUNT:-1}" -j "${CONC:-1}" --gpu --device 0 \
  --budget-gib "${BUDGET:-108}" --warmup "${WARMUP:-2}" --sweep "${SWEEP:-2:2,1:2,2:4,2:8,2:12}" \
  --timeline "$OUT/tl")
echo "+ ${cmd[*]}" | tee "$OUT/engine.err"
timeout "${RUN_TIMEOUT:-240}" "${cmd[@]}" >"$OUT/engine.jsonl" 2>>"$OUT/engine.err"
echo "engine rc=$? after $(($(date +%s) - t0)) s"
kill "$mon"
for f in "$OUT"/tl.gw*; do
  case "$f" in *.svg | *.txt) continue ;; esac
  "$bench" timeline "$f" -o "$f.svg" >"$f.txt" 2>&1
done
grep -v '^TIMELINE' "$OUT/engine.err" | tail -20
grep '"summary"' "$OUT/engine.jsonl"
for f in "$OUT"/tl.gw*.txt; do echo "== $f"; grep -E '^(gpu|stage|steady|job)' "$f"; done
awk '{split($2,h,"="); split($3,g,"[=,]"); if (h[2]>mh) mh=h[2]; if (g[2]+0>mg) mg=g[2]+0}
  END {print "peak host used " mh " GiB, peak GPU memory " mg " MiB"}' "$OUT/mon.log"
