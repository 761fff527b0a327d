#!/usr/bin/env bash
# Runs a packed cuzk-daemon (bench/daemon_device_pack.sh) on a GPU machine that has the CUDA
# driver but none of the daemon's -dev libraries, and checks it end to end:
#   1. the packed binaries resolve every library (ldd) with LD_LIBRARY_PATH=PACK/lib;
#   2. bin/daemon_test_gpus (GPU selection and status against the CUDA runtime), when packed;
#   3. the daemon starts on a temporary Unix socket with gpus.devices = [GPU] and an HTTP status
#      port; GetStatus must list that GPU (its name, not "cpu"), /status and /metrics are saved;
#   4. COUNT porep-synth proofs (2^K constraints, PARTS partitions) through the daemon: with
#      `cuzk-bench batch` when the packed cuzk-bench has it, else with daemon_client.py (python3's
#      grpcio, requests encoded by hand); every proof must be COMPLETED (the engine verifies each
#      job's proof before it completes it) with PARTS x 192 bytes;
#   5. COUNT more proofs, SIGTERM while they run: they must complete and the daemon exit 0.
# Logs and JSON go to $OUT (default ./daemon-out); the last line says PASS or FAIL.
#
#   OUT=dir bash daemon_device_run.sh [PACK_DIR]      (PACK_DIR default: this script's folder)
# Environment: GPU (default 0), K (default 18), PARTS (default 2), COUNT (default 2),
# WORKERS (gpu_workers_per_device, default 2), PY (default python3); DEVICES (gpus.devices,
# default [GPU]; '"none"' tries the script on a machine without a GPU, skipping the GPU checks).
set -u
PACK=$(cd "${1:-$(dirname "$0")}" && pwd)
OUT=${OUT:-daemon-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
GPU=${GPU:-0} DEVICES=${DEVICES:-[${GPU:-0}]} K=${K:-18} PARTS=${PARTS:-2} COUNT=${COUNT:-2} WORKERS=${WORKERS:-2} PY=${PY:-python3}
if [ ! -d "$PACK/bin" ] && [ -f "$PACK/pack.tar.xz" ]; then # a compressed pack: unpack aside
  U=$(mktemp -d /tmp/cuzk-pack.XXXXXX)
  tar -C "$U" -xJf "$PACK/pack.tar.xz" 2>/dev/null ||
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
      "$PACK/pack.tar.xz" "$U"
  cp "$PACK"/*.py "$PACK"/*.sh "$U/"
  PACK=$U
fi
export LD_LIBRARY_PATH="$PACK/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
t0=$(date +%s%N)
el() { local d=$((($(date +%s%N) - t0) / 100000000)); echo "$((d / 10)).$((d % 10)) s"; }

nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv >"$OUT/device.txt" 2>&1
cat "$OUT/device.txt"
for b in "$PACK"/bin/*; do
  ldd "$b" >"$OUT/ldd-$(basename "$b").txt" 2>&1
  grep -q "not found" "$OUT/ldd-$(basename "$b").txt" &&
    bad "$(basename "$b"): $(grep 'not found' "$OUT/ldd-$(basename "$b").txt" | tr '\n' ' ')"
done
$PY -c 'import grpc; print("python grpcio", grpc.__version__)' 2>&1 | tee "$OUT/python.txt"
$PY -c 'import grpc_tools' >/dev/null 2>&1 && echo "grpcio-tools present" || echo "grpcio-tools absent"

if [ -x "$PACK/bin/daemon_test_gpus" ]; then
  (cd "$OUT" && timeout 60 "$PACK/bin/daemon_test_gpus") >"$OUT/test_gpus.log" 2>&1
  rc=$?
  echo "daemon_test_gpus rc=$rc: $(tail -1 "$OUT/test_gpus.log") ($(el))"
  [ $rc = 0 ] || { [ $rc = 77 ] && [ "$DEVICES" = '"none"' ]; } || bad "daemon_test_gpus rc=$rc"
fi

T=$(mktemp -d /tmp/cuzk-daemon-run.XXXXXX)
SOCK="unix://$T/cuzk.sock"
PORT=$((20000 + $$ % 20000))
cat >"$T/cuzk.toml" <<EOF
[daemon]
listen = "$SOCK"
status_listen = "127.0.0.1:$PORT"
[memory]
total_budget = "32GiB"
[gpus]
devices = $DEVICES
gpu_workers_per_device = $WORKERS
[srs]
param_cache = "$T"
EOF
cp "$T/cuzk.toml" "$OUT/cuzk.toml"
start_daemon() {
  "$PACK/bin/cuzk-daemon" --config "$T/cuzk.toml" --synth-cache "$T/synth" --synth-max-scale 22 \
    >>"$OUT/daemon.log" 2>&1 &
  DPID=$!
  for _ in $(seq 1 100); do
    $PY "$PACK/daemon_client.py" "$SOCK" status >"$OUT/status.json" 2>/dev/null && return 0
    kill -0 $DPID 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}
client() { $PY "$PACK/daemon_client.py" "$SOCK" "$@"; }
http_get() { $PY -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "http://127.0.0.1:$PORT/$1"; }

if ! start_daemon; then
  bad "daemon did not start"
  tail -20 "$OUT/daemon.log"
  echo FAIL
  exit 1
fi
echo "daemon up ($(el)):"
sed 's/^/  /' "$OUT/daemon.log"
$PY - "$OUT/status.json" "$GPU" "$DEVICES" <<'PY' || bad "GetStatus does not list GPU $GPU"
import json, sys
s = json.load(open(sys.argv[1]))
g = s["gpus"]
print("GetStatus gpus:", json.dumps(g))
sys.exit(0 if "none" in sys.argv[3] or len(g) == 1 and g[0]["ordinal"] == int(sys.argv[2]) and g[0]["name"] != "cpu"
         and g[0]["vram_total_bytes"] > 0 and g[0]["workers"] > 0 else 1)
PY
http_get status >"$OUT/http_status_before.json" 2>&1 || bad "GET /status"

# proofs: the first builds the scale-K key (cached in $T/synth), so time a warm-up separately
echo "warm-up: 1 proof, 2^$K x $PARTS ($(el))"
client synth "$K" "$PARTS" 1 >"$OUT/warmup.jsonl" 2>&1 || bad "warm-up proof: $(tail -2 "$OUT/warmup.jsonl")"
cat "$OUT/warmup.jsonl"
if "$PACK/bin/cuzk-bench" --help 2>&1 | grep -q "batch"; then
  echo "cuzk-bench batch: $COUNT proofs ($(el))"
  "$PACK/bin/cuzk-bench" batch -a "$SOCK" --workload porep-synth --scale "$K" --partitions "$PARTS" \
    -c "$COUNT" -j "$COUNT" >"$OUT/batch.jsonl" 2>"$OUT/batch.err" || bad "cuzk-bench batch rc=$?"
  cat "$OUT/batch.jsonl" "$OUT/batch.err" | tail -12
else
  echo "python client: $COUNT proofs at once ($(el))"
  client synth "$K" "$PARTS" "$COUNT" >"$OUT/batch.jsonl" 2>&1 || bad "proofs: $(tail -2 "$OUT/batch.jsonl")"
  cat "$OUT/batch.jsonl"
fi
client metrics >"$OUT/metrics.txt" 2>&1
grep -E '^cuzk_gpu|^cuzk_proofs_completed_total' "$OUT/metrics.txt"
http_get status >"$OUT/http_status_after.json" 2>&1
http_get metrics >"$OUT/http_metrics.txt" 2>&1
$PY -c 'import json,sys; print("/status devices:", json.dumps(json.load(open(sys.argv[1]))["devices"]))' \
  "$OUT/http_status_after.json" || bad "/status devices"

# SIGTERM while COUNT proofs (4 x PARTS partitions each, to be still running) are in flight:
# once every submit is accepted, they must complete and the daemon exit 0
client synth-submit "$K" $((4 * PARTS)) "$COUNT" >"$OUT/drain.jsonl" 2>&1 &
CPID=$!
for _ in $(seq 1 600); do
  [ "$(grep -c '"submitted"' "$OUT/drain.jsonl")" -ge "$COUNT" ] && break
  kill -0 $CPID 2>/dev/null || break
  sleep 0.05
done
kill -TERM $DPID
wait $CPID || bad "proofs in flight at SIGTERM did not all complete: $(tail -2 "$OUT/drain.jsonl")"
wait $DPID
drc=$?
echo "SIGTERM with $COUNT proofs in flight: daemon exit $drc ($(el))"
cat "$OUT/drain.jsonl"
[ $drc = 0 ] || bad "daemon exit $drc after SIGTERM"
tail -3 "$OUT/daemon.log"

# BENCH=1: the synthetic PoRep through the daemon against the same batch in process (same
# binaries, same key cache, same engine settings), then a sweep of partition_workers, each value
# a daemon of its own (cuzk-bench sweep), on GPU $GPU. BK = scale, BC = proofs, BJ = in flight.
if [ "${BENCH:-0}" = 1 ] && "$PACK/bin/cuzk-bench" --help 2>&1 | grep -q "sweep"; then
  BK=${BK:-20} BC=${BC:-4} BJ=${BJ:-2}
  sed -i "s/^gpu_workers_per_device = .*/gpu_workers_per_device = $WORKERS/" "$T/cuzk.toml"
  start_daemon || bad "bench daemon did not start"
  "$PACK/bin/cuzk-bench" batch -a "$SOCK" --workload porep-synth --scale "$BK" --partitions 10     -c "$BC" -j "$BJ" >"$OUT/bench_daemon.jsonl" 2>"$OUT/bench_daemon.err" || bad "daemon batch"
  kill -TERM $DPID
  wait $DPID
  echo "daemon batch ($(el)): $(grep -h 's/proof' "$OUT/bench_daemon.err" | tail -1)"
  "$PACK/bin/cuzk-bench" engine --workload porep-synth --scale "$BK" --partitions 10 -c "$BC"     -j "$BJ" --gpu --device "$GPU" --gw "$WORKERS" --cache "$T/synth"     >"$OUT/bench_engine.jsonl" 2>"$OUT/bench_engine.err" || bad "in-process batch"
  echo "in-process batch ($(el)): $(grep -h 's/proof' "$OUT/bench_engine.err" | tail -1)"
  $PY - "$OUT/bench_daemon.jsonl" "$OUT/bench_engine.jsonl" <<'PY' | tee "$OUT/bench_ratio.txt"
import json, sys
def summ(p):
    for line in open(p):
        r = json.loads(line)
        if r.get("summary"):
            return r
d, e = summ(sys.argv[1]), summ(sys.argv[2])
print(f"s/proof daemon {d['s_per_proof']:.3f} in-process {e['s_per_proof']:.3f} "
      f"ratio {d['s_per_proof'] / e['s_per_proof']:.4f}")
PY
  cp "$T/cuzk.toml" "$T/base.toml"
  "$PACK/bin/cuzk-bench" sweep --key synthesis.partition_workers --values "${SWEEP:-2,4,8,12}"     --config "$T/base.toml" --daemon "$PACK/bin/cuzk-daemon" --daemon-arg --synth-cache     --daemon-arg "$T/synth" --daemon-arg --synth-max-scale --daemon-arg 22     --workload porep-synth --scale "$BK" --partitions 10 -c "$BC" -j "$BJ"     >"$OUT/sweep.txt" 2>"$OUT/sweep.err" || bad "sweep"
  cat "$OUT/sweep.txt"
fi
rm -rf "$T"
echo "total $(el)"
[ $fail = 0 ] && echo PASS || echo FAIL
exit $fail
