#!/usr/bin/env bash
# The proving part of one device run, after bench/gpu_device_run.sh has built $B: GPU (and a
# CPU reference) Groth16 proofs of mulchain keys (cuzk-bench prove --check), the same on every
# other GPU of the machine, and the engine on the synthetic PoRep circuit with 1 and 2 GPU workers
# per device (and all devices), its timeline drawn. JSON lines and logs go to $OUT.
# Environment: B (build dir, default build-gpu), PROVE ("curve:log_n ..." for the GPU, default
# "bls12381:20 bls12381:22 bn254:20"), CPU_PROVE (default "bls12381:20"), SCALE (porep-synth
# scale, default 20), COUNT (jobs per engine run, default 4).
set -u
B=${B:-build-gpu}
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
bench="$B/cuzk-bench"
t0=$(date +%s)
ndev=$(nvidia-smi -L 2>/dev/null | wc -l)
run() { echo "+ $*" >>"$OUT/engine.err"; timeout "${RUN_TIMEOUT:-300}" "$@" >>"$OUT/prove.jsonl" 2>>"$OUT/engine.err" || echo "FAILED rc=$? $*" | tee -a "$OUT/engine.err"; }
for spec in ${PROVE:-bls12381:20 bls12381:22 bn254:20}; do
  IFS=: read -r c k <<<"$spec"
  run "$bench" prove --gpu --curve "$c" --log-n "$k" --runs 3 --check
done
for spec in ${CPU_PROVE:-bls12381:20}; do
  IFS=: read -r c k <<<"$spec"
  run "$bench" prove --curve "$c" --log-n "$k" --runs 1 --warmup 0 --check
done
for ((d = 1; d < ndev; d++)); do
  run "$bench" prove --gpu --device "$d" --curve bls12381 --log-n 20 --runs 1 --check
done
echo "prove: $(($(date +%s) - t0)) s"
S=${SCALE:-20}
for gw in 1 2; do
  run "$bench" engine --workload porep-synth --scale "$S" --partitions 10 -c "${COUNT:-4}" -j 2 \
    --gpu --device 0 --gw "$gw" --timeline "$OUT/timeline-gw$gw.log"
done
if [ "$ndev" -gt 1 ]; then
  run "$bench" engine --workload porep-synth --scale "$S" --partitions 10 -c "${COUNT:-4}" -j 4 \
    --gpu --gw 2 --timeline "$OUT/timeline-all.log"
fi
"$bench" timeline "$OUT/timeline-gw2.log" -o "$OUT/timeline-gw2.svg" >"$OUT/timeline-gw2.txt" 2>&1
echo "engine: $(($(date +%s) - t0)) s"
grep -h '"summary"' "$OUT/prove.jsonl" | cut -c1-400
python3 - "$OUT/prove.jsonl" <<'PY' 2>/dev/null
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get('op') == 'prove':
        t = r.get('timings_median', {})
        print(f"prove {r['curve']} 2^{r['log_n']} {r['mode']} dev={r.get('device')} median {r['median_ms']:.1f} ms verified={r.get('verified')} {t}")
PY
tail -5 "$OUT/engine.err"
