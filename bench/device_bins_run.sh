#!/usr/bin/env bash
# One device call from binaries built here (bench/device_bins_pack.sh DIR; carry DIR, default
# build-dev-bin). Steps, in the order of PHASES (default "msmtest msm ntt ntttest engine gpu"),
# each under its own time limit, cut to what is left of TOTAL seconds (default 500) and skipped
# when under 5 s are left:
#   msmtest  gpu_test_gpu_msm up to 2^MSM_TEST_LOG (16; every accumulation variant it lists,
#            the prefetch ones included), once as built or under each setting of MSM_TEST_ENVS
#            (";"-separated, "A=1,B=2" for two variables)
#   msm      G1 MSM 2^MSM_LOG (26) of CURVE (bls12381), data on the device, median of 5, the
#            settings of MSM_ENVS (CZ_BENCH_MSM_ENVS syntax "A=1,B=2;C=3") after the default
#   ntttest  gpu_test_gpu_ntt for the variants NTT_TEST_VARIANTS (default 9; the CPU up to 2^20,
#            Horner checks and round trips at 2^24 and 2^NTT_BIG_LOG, default 27)
#   engine   every engine_test_* program (the engine tests on the GPU backend)
#   gpu      the other gpu_test_* programs (G2 MSM, Groth16, ...)
#   ntt      Fr NTT 2^27 of both curves, data on the device, median of 5, the variants
#            NTT_VARIANTS (default 7,9) one after another on the same input
#   e27      the engine at 2^27 with the benchmark key on GPU 0, pinned buffers filled first
#            (C27 proofs, J27 in flight, SWEEP27 gw:pw list; 3, 2, 2:4)
# Every step appends to $OUT/summary.txt as it ends (what a call cut short by its limit still
# returns); logs go to /tmp/o, returned as $OUT/all.tgz when the script reaches its end (the
# device returns at most 8 files).
# Usage (device): BINS=build-dev-bin bash build-dev-bin/run.sh
set -u
D=${BINS:-build-dev-bin}
X=/tmp/bin
FINAL=$OUT
O=/tmp/o
S=$FINAL/summary.txt
mkdir -p $X $O/e
t0=$(date +%s)
for f in $D/*.xz; do
  n=$(basename "$f" .xz)
  xz -T0 -dc "$f" >$X/$n && chmod +x $X/$n
done
export LD_LIBRARY_PATH=$X${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
say() { echo "$*" | tee -a $S; }
el() { echo $(($(date +%s) - t0)); }
left() { echo $((${TOTAL:-500} - $(el))); }
say "$(nvidia-smi -L | head -2); $(nproc) cores; unpacked in $(el) s"
# run TAG SECONDS PROGRAM ARGS...: the program under timeout (at most what is left), its last
# "passed" line and its exit status into the summary
run() {
  local tag=$1 lim=$2 l
  shift 2
  l=$(left)
  [ "$l" -lt "$lim" ] && lim=$l
  [ "$lim" -lt 5 ] && { say "$tag: skipped (time)"; return; }
  timeout $lim "$@" >$O/$tag.log 2>&1
  local rc=$?
  say "$tag rc=$rc at $(el) s: $(grep -E 'passed|FAIL' $O/$tag.log | tail -2 | tr '\n' ' ' | cut -c1-300)"
}
for p in ${PHASES-msmtest msm ntt ntttest engine gpu}; do
  case $p in
  msmtest)
    IFS=';' read -ra envs <<<"${MSM_TEST_ENVS-}"
    [ ${#envs[@]} -gt 0 ] || envs=("")
    for i in "${!envs[@]}"; do
      run msmtest$i 120 env CZ_GPU_TEST_MAX_LOG=${MSM_TEST_LOG:-16} ${envs[$i]//,/ } \
        $X/gpu_test_gpu_msm
    done
    ;;
  msm)
    run msm 60 env CZ_BENCH_MSM_ENVS="${MSM_ENVS-CZ_GPU_MSM_PREFETCH=1;CZ_GPU_MSM_PREFETCH=-1;CZ_GPU_MSM_PREFETCH=1,CZ_GPU_MSM_SEGS=131072}" \
      $X/cuzk-bench msm --gpu --curve ${CURVE:-bls12381} --log-n ${MSM_LOG:-26} --runs 5 --no-copies
    python3 -c "import json,sys
for l in open(sys.argv[1]):
    if not l.startswith('{'): continue
    r=json.loads(l); print('msm', r.get('curve'), r.get('log_n'), r.get('env') or 'default', 'median', r.get('median_ms'), 'min', r.get('min_ms'), 'max', r.get('max_ms'))" \
      $O/msm.log | tee -a $S
    ;;
  ntttest)
    run ntttest 120 env CZ_GPU_TEST_NTT_VARIANTS=${NTT_TEST_VARIANTS:-9} \
      CZ_GPU_TEST_BIG_LOG=${NTT_BIG_LOG:-27} $X/gpu_test_gpu_ntt
    ;;
  engine | gpu)
    [ $p = gpu ] && pre=gpu_test_gpu || pre=engine_test
    for t in $X/${pre}_*; do
      case $t in *gpu_test_gpu_msm | *gpu_test_gpu_ntt) continue ;; esac
      run $(basename $t) 90 $t
    done
    ;;
  ntt)
    for c in bls12381 bn254; do
      run ntt-$c 30 env CZ_BENCH_NTT_VARIANTS=${NTT_VARIANTS:-7,9} $X/cuzk-bench ntt --gpu \
        --curve $c --log-n 27 --runs 5 --no-copies
      python3 -c "import json,sys
for l in open(sys.argv[1]):
    if not l.startswith('{'): continue
    r=json.loads(l); print('ntt', r.get('curve'), r.get('log_n'), r.get('kind'), 'variant', r.get('variant'), 'median', r.get('median_ms'), 'min', r.get('min_ms'))" \
        $O/ntt-$c.log | tee -a $S
    done
    ;;
  e27)
    run e27 $(left) $X/cuzk-bench engine --workload porep-synth --bench-key --scale 27 \
      --partitions 10 --budget-gib ${BUDGET:-$(($(free -g | awk '/Mem:/{print $2}') * 80 / 100))} \
      --warmup 2 --timeline $O/e/tl-e27 -c ${C27:-3} -j ${J27:-2} --gpu --device 0 \
      --sweep ${SWEEP27:-2:4} --pinned --prefill
    grep '"summary"' $O/e27.log | cut -c1-600 | tee -a $S
    ;;
  esac
done
say "total $(el) s"
tar -C /tmp -czf $FINAL/all.tgz o
