#!/usr/bin/env bash
# One device call for the engine at the real partition's scale (docs/engine.md, "Scale 2^27"):
# builds cuzk-bench (CUDA, -DCZ_WITH_JSON=OFF, only that target) into $B; optionally a short
# shakedown sweep at PRE_SCALE (into $OUT/pre); then the porep-synth workload with the benchmark
# key over a sweep of GW:PW configurations (one process: the circuit and the key are built once).
# Every JSON line goes to engine.jsonl as soon as it is known (the timeout keeps what was done);
# each config's timeline is drawn (SVG + the text analysis with the per-stage means); host and GPU
# memory are sampled every 2 s into mon.log.
# Environment: SRC (source dir, default .), B (build dir, build-gpu), SCALE (27), PARTS (10),
# COUNT (jobs per config, 1), CONC (1), WARMUP (partitions of the warm-up job, 2), SWEEP (GW:PW
# list, default "2:2,1:2,2:4,2:8,2:12": gw 1 vs 2 at the default workers first), BUDGET (GiB,
# 108 of the machine's 128), PRE_SCALE / PRE_TIMEOUT (shakedown, none / 40 s), TOTAL (s: the
# main sweep gets what is left of it after the build and shakedown, less 30 s; default 300).
set -u
SRC=${SRC:-.}
B=${B:-build-gpu}
OUT=${OUT:-scale-out}
TOTAL=${TOTAL:-300}
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
bench="$B/cuzk-bench"

# sweep DIR SCALE TIMEOUT_S
sweep() {
  local d=$1 s=$2 lim=$3
  mkdir -p "$d"
  (while sleep 2; do
    echo "$(date +%s) host_used_gib=$(free -g | awk '/Mem:/{print $3}') gpu=$(nvidia-smi --query-gpu=memory.used,utilization.gpu --format=csv,noheader | tr -d ' ')"
  done) >"$d/mon.log" 2>&1 &
  local mon=$!
  local cmd=("$bench" engine --workload porep-synth --bench-key --scale "$s" \
    --partitions "${PARTS:-10}" -c "${COUNT:-1}" -j "${CONC:-1}" --gpu --device 0 \
    --budget-gib "${BUDGET:-108}" --warmup "${WARMUP:-2}" --sweep "${SWEEP:-2:2,1:2,2:4,2:8,2:12}" \
    --timeline "$d/tl")
  echo "+ timeout $lim ${cmd[*]}" | tee "$d/engine.err"
  timeout "$lim" "${cmd[@]}" >"$d/engine.jsonl" 2>>"$d/engine.err"
  echo "engine 2^$s rc=$? at $(($(date +%s) - t0)) s"
  kill "$mon"
  for f in "$d"/tl.gw*; do
    case "$f" in *.svg | *.txt) continue ;; esac
    "$bench" timeline "$f" -o "$f.svg" >"$f.txt" 2>&1
  done
  grep -v '^TIMELINE' "$d/engine.err" | grep -v 'ERROR\|WARN' | tail -12
  grep -c 'ERROR' "$d/engine.err" | sed 's/^/error lines: /'
  grep -m3 'ERROR' "$d/engine.err" | cut -c1-300
  grep '"summary"' "$d/engine.jsonl"
  for f in "$d"/tl.gw*.txt; do echo "== $f"; grep -E '^(gpu|stage|steady|job)' "$f"; done
  awk '{split($2,h,"="); split($3,g,"[=,]"); if (h[2]>mh) mh=h[2]; if (g[2]+0>mg) mg=g[2]+0}
    END {print "peak host used " mh " GiB, peak GPU memory " mg " MiB"}' "$d/mon.log"
}

if [ -n "${PRE_SCALE:-}" ]; then
  SWEEP=2:2 sweep "$OUT/pre" "$PRE_SCALE" "${PRE_TIMEOUT:-40}"
fi
left=$((TOTAL - ($(date +%s) - t0) - 30))
[ "$left" -gt 20 ] && sweep "$OUT" "${SCALE:-27}" "$left"
echo "total: $(($(date +%s) - t0)) s"
