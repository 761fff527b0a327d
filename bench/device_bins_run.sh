#!/usr/bin/env bash
# One device call from binaries built here (bench/device_bins_pack.sh DIR; carry DIR, default
# build-dev-bin): test_gpu_g2_msm, a compute-sanitizer memcheck of the BN254 G2 MSM on 2^18
# bit-heavy scalars without the split (the case that read through a corrupted pointer),
# test_gpu_groth16, test_bench_key (GPU-G2 and CPU-G2 benchmark-key proofs byte-equal) when
# packed, a 2^18 proof on every GPU (checked), the engine on all GPUs at porep-synth
# scale 16 (verified proofs), then the engine at 2^27 with the benchmark key: pinned and
# pageable buffers on GPU 0 (gw 2 : pw 4, one job), and on GPUs 0 and 1 if time is left; the
# pinned runs fill the buffer pool first (--prefill; PREFILL= runs them without, as in session 5).
# Also the H MSM's shape alone (G1 MSM 2^27, uniform scalars, per-phase profile) and the Fr NTT at
# 2^27. Knobs: C27 / J27 = proofs / jobs in flight of the one-GPU pinned run (default 3 / 2, a
# steady state across jobs; SWEEP27 its gw:pw list, default 2:4; LIM27 its seconds, 200),
# C27B / SWEEP27B the same for the two-GPU run (4, 2:8), PAGEABLE=0 skips the pageable run, SAN=0
# the memcheck, TESTS = the tests to run (default "g2 msm groth16 benchkey"), SMALL=0 / BIG=0 skip
# the small proofs and engine / the big kernels, MSM_TEST_LOG = top size of gpu_test_gpu_msm (20),
# TOTAL = seconds for all (445).
# Everything is written under /tmp/o and comes back as one $OUT/all.tgz (the device returns at
# most 8 files). Made for the two-GPU machine; on one GPU the device-1 steps fail and are skipped.
# Usage (device): BINS=build-dev-bin bash build-dev-bin/run.sh
set -u
D=${BINS:-build-dev-bin}; X=/tmp/bin; FINAL=$OUT; OUT=/tmp/o; mkdir -p $X $OUT/e
t0=$(date +%s)
for f in $D/*.xz; do xz -T0 -dc "$f" > $X/$(basename "$f" .xz) && chmod +x $X/$(basename "$f" .xz); done
nvidia-smi -L; nproc; free -g | sed -n 2p
echo "unpacked $(($(date +%s)-t0)) s"
T=" ${TESTS-g2 msm groth16 benchkey} "
want() { case "$T" in *" $1 "*) return 0;; esac; return 1; }
want g2 && { timeout 120 $X/gpu_test_gpu_g2_msm > $OUT/g2test.log 2>&1; echo "gpu_test_gpu_g2_msm rc=$?"; grep -E "variant|passed" $OUT/g2test.log | tail -6; }
want msm && [ -x $X/gpu_test_gpu_msm ] && { CZ_GPU_TEST_MAX_LOG=${MSM_TEST_LOG:-20} timeout 150 $X/gpu_test_gpu_msm > $OUT/msmtest.log 2>&1; echo "gpu_test_gpu_msm (to 2^${MSM_TEST_LOG:-20}) rc=$?"; grep -E "^variant|passed" $OUT/msmtest.log | tail -4; }
[ "${SAN:-1}" = 0 ] || timeout 100 compute-sanitizer --tool memcheck --print-limit 3 $X/cuzk-bench msm --gpu --group g2 --curve bn254 --scalars bits --split off --log-n 18 --runs 1 --warmup 0 --no-copies > $OUT/san.log 2>&1; echo "sanitizer rc=$?"; grep -E "ERROR SUMMARY|Invalid" $OUT/san.log | head -3
echo "g2 checks $(($(date +%s)-t0)) s"
want groth16 && { timeout 120 $X/gpu_test_gpu_groth16 > $OUT/groth16.log 2>&1; echo "gpu_test_gpu_groth16 rc=$?"; grep FAIL $OUT/groth16.log | head -3; tail -1 $OUT/groth16.log; }
if want benchkey && [ -x $X/engine_test_bench_key ]; then
  timeout 200 $X/engine_test_bench_key > $OUT/bench_key.log 2>&1; echo "engine_test_bench_key rc=$?"; grep -E "bench key|passed" $OUT/bench_key.log | tail -3
fi
[ "${SMALL:-1}" = 0 ] || for d in 0 1; do
  timeout 60 $X/cuzk-bench prove --gpu --device $d --curve bls12381 --log-n 18 --runs 3 --check >> $OUT/prove.jsonl 2>>$OUT/prove.err || echo "prove dev $d failed"
done
[ "${SMALL:-1}" = 0 ] || python3 -c "import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print('prove', r['curve'], r['log_n'], 'device', r.get('device'), r['median_ms'], 'verified', r.get('verified'))" $OUT/prove.jsonl
[ "${SMALL:-1}" = 0 ] || timeout 120 $X/cuzk-bench engine --workload porep-synth --scale 16 --partitions 10 -c 4 -j 2 --gpu --device 0,1 --gw 2 --timeline $OUT/e/tl-both16 > $OUT/e/both16.jsonl 2> $OUT/e/both16.err; echo "engine scale 16 both GPUs rc=$?"; grep '"summary"' $OUT/e/both16.jsonl | cut -c1-600
echo "small done $(($(date +%s)-t0)) s"
B=$OUT/big.jsonl; E=$OUT/big.err
if [ "${BIG:-1}" != 0 ]; then
CZ_GPU_MSM_PROFILE=1 timeout 90 $X/cuzk-bench msm --gpu --curve bls12381 --log-n 27 --runs 3 --no-copies >> $B 2>> $E || echo "msm 2^27 failed"
grep "profile" $E | tail -1 | cut -c1-400
CZ_BENCH_MSM_ENVS="${MSM_ENVS-CZ_GPU_MSM_SEGS=131072;CZ_GPU_MSM_ROUNDS=8;CZ_GPU_MSM_ROUNDS=6;CZ_GPU_MSM_ROUNDS=4;CZ_GPU_MSM_SEGS=131072,CZ_GPU_MSM_ROUNDS=8}" timeout 120 $X/cuzk-bench msm --gpu --curve bls12381 --log-n 26 --runs 5 --no-copies >> $B 2>> $E || echo "msm 2^26 variants failed"
for comp in 0 ""; do  # sparse bases (75 % infinity with --scalars porep): dense upload, then compacted
  CZ_GPU_BASES_COMPACT=$comp timeout 60 $X/cuzk-bench msm --gpu --group g2 --curve bls12381 --scalars porep --log-n 24 --runs 3 --no-copies >> $B 2>> $E || echo "g2 porep compact '$comp' failed"
done
for c in bls12381 bn254; do
  timeout 60 $X/cuzk-bench ntt --gpu --curve $c --log-n 27 --runs 5 --no-copies >> $B 2>> $E || echo "ntt $c 2^27 failed"
done
python3 -c "import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print(r.get('op'), r.get('curve'), r.get('group',''), r.get('log_n'), r.get('scalars',''), r.get('env',''), 'median', r.get('median_ms'), 'min', r.get('min_ms'))" $B
fi
echo "big kernels done $(($(date +%s)-t0)) s"
e27() { # tag timeout args...
  local tag=$1 lim=$2; shift 2
  local rest=$((${TOTAL:-445} - 5 - ($(date +%s)-t0)))
  [ $rest -lt $lim ] && lim=$rest
  [ $lim -lt 60 ] && { echo "engine 2^27 $tag skipped (time)"; return; }
  timeout $lim $X/cuzk-bench engine --workload porep-synth --bench-key --scale 27 --partitions 10 --budget-gib ${BUDGET:-$(($(free -g | awk '/Mem:/{print $2}') * 80 / 100))} --warmup 2 --timeline $OUT/e/tl-$tag "$@" > $OUT/e/$tag.jsonl 2> $OUT/e/$tag.err
  echo "engine 2^27 $tag rc=$? at $(($(date +%s)-t0)) s"
  grep '"summary"' $OUT/e/$tag.jsonl | python3 -c "import json,sys
for l in sys.stdin:
    r=json.loads(l); print({k:r.get(k) for k in ('devices','gpu_workers_per_device','partition_workers','gpu_queue_depth','buffers','s_per_proof','avg_wall_s','gpu_s_per_partition','busy_pct','pool_allocs','pool_prefilled','pool_reuses','pool_adopted','pool_frees','peak_budget_gib')})"
  for f in $OUT/e/tl-$tag*; do case $f in *.svg|*.txt) continue;; esac; $X/cuzk-bench timeline $f -o $f.svg > $f.txt 2>&1; grep -E '^(gpu|stage (ntt_h|tail|g2|upload|lock_held|device))' $f.txt; done
}
e27 pinned ${LIM27:-200} -c ${C27:-3} -j ${J27:-2} --gpu --device 0 --sweep ${SWEEP27:-2:4} --pinned ${PREFILL---prefill}
[ "${PAGEABLE:-1}" = 0 ] || e27 pageable 100 -c 1 -j 1 --gpu --device 0 --sweep 2:4 --pageable
left=$((${TOTAL:-445} - ($(date +%s)-t0)))
[ $left -gt 80 ] && nvidia-smi -L | grep -q "GPU 1" && e27 both $left -c ${C27B:-4} -j 2 --gpu --device 0,1 --sweep ${SWEEP27B:-2:8} --pinned ${PREFILL---prefill}
echo "total $(($(date +%s)-t0)) s"
tar -C /tmp -czf $FINAL/all.tgz o
