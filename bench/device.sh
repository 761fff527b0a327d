#!/usr/bin/env bash
# The GPU machine driver: one pack built here (nvcc, no GPU needed), then named phases run on a
# GPU machine that has the CUDA driver but no compiler and none of the -dev packages.
#
#   bash bench/device.sh pack [DIR]            here: build and pack into DIR (default build-dev-bin)
#   bash DIR/device.sh run [PHASE ...]         there, from the repository root, DIR carried
#
# pack: libcuzk is built shared (CZ_SHARED_LIB) with the shared CUDA runtime, so the kernels
# travel once, in libcuzk.so; sm_90 machine code only, no PTX (the carried folder is limited to
# 64 MiB). DIR gets every program xz-compressed (cuzk-bench, cuzk-bench-params, cuzk-daemon when
# the daemon is built here, each gpu_test_*, engine_test_* and daemon_test_gpus), libcuzk.so, the CUDA runtime,
# lib.tar.xz with the other shared libraries they need that a bare machine lacks (everything ldd
# lists except the C and compiler runtimes, the CUDA driver and the loader: the target's glibc
# must be at least this machine's), MANIFEST.txt and this script.
#
# run: phases in the order given (default: unit micro engine daemon), with the library of another
# build when LIB=NAME names one packed by hand as DIR/var/NAME/libcuzk.so.xz (see msmvar), each
# step under its own time limit, cut to what is left of TOTAL seconds (default 540) and skipped
# under 5 s. Every step appends a line to $OUT/summary.txt as it ends (what a call cut short still
# returns); the logs go to $OUT/logs.tgz at the end (the device returns at most 8 files).
#   unit    every packed test program (gpu_test_*, engine_test_*, daemon_test_gpus, and the CPU
#           tests of the IFMA decoder: curve_test_g1_decode8, formats_test_bellperson*),
#           or those named in UNIT_TESTS, UNIT_LIMIT seconds each (default 150); the GPU results
#           are checked against the CPU; engine_test_srs and others read the test vectors
#           that `make vectors` writes: carry tests/vectors/out (13 MB) beside DIR for them
#   micro   G1 MSM 2^MSM_LOG (26) and Fr NTT 2^NTT_LOG (27) of both curves, data on the device,
#           median of 5 (cuzk-bench msm|ntt --gpu --no-copies), the JSON lines into summary.txt
#   cmd     the programs of CMDS, "TAG|SECONDS|PROGRAM ARGS" entries separated by ';' (PROGRAM one
#           of the pack's), each a step of its own, their JSON lines into summary.txt
#   ceiling the pipe and field-multiplication throughput ceilings and the two inversions
#           (cuzk-bench-gpu-ceiling), the JSON lines into summary.txt
#   accum   what a bucket addition costs, XYZZ madd against batch-affine with K accumulators a
#           thread, Fermat and divstep inversions (cuzk-bench-gpu-accumulation), the JSON lines
#           into summary.txt
#   msmprof one BLS12-381 G1 MSM of 2^MPLOG (27) uniform scalars on the device with its phase
#           times (cuzk-bench msm --profile), the last lines into summary.txt
#   engine  the engine at 2^ESCALE (27) with the benchmark key on GPU 0, the pinned pool filled
#           first: ECOUNT proofs (2), EJOBS in flight (2), sweep ESWEEP (gw:pw, 2:4); EARGS are
#           more options (EARGS=--bellperson: the bellperson prover and key)
#   msmvar  this pack's libcuzk.so against other builds packed by hand as DIR/var/NAME/libcuzk.so.xz
#           (`bash bench/device.sh pack` at another source, its libcuzk.so.xz copied there): every
#           MSM of VMSMS (comma-separated "curve group log_n scalars runs", default
#           "bls12381 g1 26 uniform 5,bls12381 g2 24 uniform 3") with each, in turn
#   bp      the bellperson prover on GPU 0 for one PoRep-shaped partition of 2^BPSCALE (27), a key
#           made on the device, BPRUNS (3) timed runs after a warm-up
#           (cuzk-bench-gpu-bellperson), the G1 accumulation BPACC (auto, madd, batch-affine or
#           both), every MSM's phases in bp.log when BPPROF=1, the JSON lines into summary.txt
#   bpsetup the bellperson-format setup of the synthetic PoRep circuit of 2^BSSCALE (27), in
#           memory (cuzk-bench-setup-bellperson), under BSLIMIT seconds (600), with BSARGS
#           (default "--device 0 --ref 22": on GPU 0, then 2^22 on the CPU and on the GPU, the
#           reference of the same run and a check that both make the same key; "" = CPU only)
#   daemon  cuzk-daemon on a Unix socket with GPU 0: GetStatus must list the GPU; DCOUNT (2)
#           porep-synth proofs of 2^DSCALE (18) x DPARTS (2) through gRPC (cuzk-bench batch);
#           then DCOUNT more with 4x the partitions and SIGTERM while they run: every proof must
#           complete and the daemon exit 0
#   params  (not in the default list) the .params load benchmark (docs/params.md): a key of the
#           32 GiB PoRep shape (47.2 GB, for timing only) written by cuzk-bench-params into a
#           temporary folder on the file system with the most room among PARAMS_DIR, TMPDIR,
#           /tmp, /var/tmp and /dev/shm (half the shape, --scale 26, where none has 48 GB free),
#           loaded PRUNS (2) times on PTHREADS (16) threads into heap memory, then once into
#           each host memory of PHOSTS ("pinned malloc cuda-host-alloc": the daemon's pinned memory with
#           GPUs, then the two references, 4 KiB pages and cudaHostAlloc; cuzk-bench-params --host), and
#           deleted; then a key of 2^PSUB (18) loaded
#           with and without the subgroup check, whose per-point cost scales to the full key
#           (PSHAPE, e.g. "--scale 20", writes another shape than the largest that fits).
#           The JSON lines into summary.txt; about 2-3 minutes
#   post    (not in the default list) PoSt on GPU 0: cuzk-bench-post-synth for the WinningPoSt
#           and the WindowPoSt 32 GiB partitions (record, native check, witness on 1 and all
#           cores, synthesis, evaluation, the GPU prover with a benchmark key: PWRUNS runs of the
#           window; PWARGS more options: "--setup" a real key made on the device and every proof
#           verified, "--no-serial" no one-core runs), the 2^27 PoRep-shaped bellperson partition
#           as the GPU line's reference, then WinningPoSt 32 GiB through cuzk-daemon under a local
#           key (cuzk filecoin setup, fake-vanilla): WCOUNT (10) Prove calls one at a time after
#           2 warm-ups
#   porep   (not in the default list) PoRep C2 32 GiB on GPU 0: cuzk-bench-porep-synth (the
#           host's single-core synthesis of one challenge, and of 4 with RSYNTH4=1), a fake 32 GiB C1 (cuzk
#           filecoin fake-c1), a local key made on the device (cuzk filecoin setup porep-c2 --gpu,
#           47 GB, into the disk folder with the most room), then cuzk-daemon under it: one
#           C2 (the key's load and the first recording included), its proof checked again by cuzk
#           filecoin verify, then RCOUNT (3) C2s with RCONC (2) in flight, every proof verified in
#           the daemon; the daemon's peak host memory (VmHWM) and its timeline in the log. About
#           8-10 minutes. RWORKERS: GPU workers (2; an H100's 80 GB holds the 32 GiB key and one),
#           RABC: gpus.abc_on_gpu, one daemon per value in turn ("1 0": both; 1: a, b, c
#           computed on the GPU from the resident matrices),
#           RPARTS: synthesis.partition_workers (2), RBUDGET: memory.total_budget (100GiB: the
#           key, three partitions in flight, the recording beside them), RNOSYNTH=1: no synthesis
#           bench, RPHASES=1: every MSM's phases in the daemon's log. RSTAGE=key stops after
#           the key and the C1 (and the PoSt keys and requests that RWINNING and RWINDOW ask
#           for), which stay in <disk>/cuzk-porep-keep;
#           RSTAGE=prove uses them (a second call on the still-warm machine, within its idle
#           release) and starts at the daemon; RKEEP=1 keeps them after the phase too.
#           RSWEEP=1,2,4: then cuzk-bench sweep of synthesis.partition_workers over those values
#           (one daemon each, the key digest remembered in the shared state_dir, RCOUNT C2s with
#           RCONC in flight after a warm-up); RABC="" skips the single daemons.
#           RWINNING=1: a WinningPoSt 32 GiB key (setup winning-post) and request (fake-vanilla)
#           beside the PoRep key; the daemon then proves RWCOUNT (5) WinningPoSts one at a time
#           on the idle host, and RWCOUNT more RWDELAY (20) s into the batch of C2s, while every
#           GPU worker holds a PoRep partition: their latencies against each other (issue: a
#           WinningPoSt finds a GPU at once on a busy host). RWINDOW=1: the same with a WindowPoSt
#           32 GiB key and a request of one whole partition (RWINCOUNT, 2, calls each; the
#           host needs room for both keys: about 110 GB of disk and of memory).
#           RDEVICES: the daemons' gpus.devices, one daemon per set in turn, e.g. "0 0,1": the
#           same batch on one GPU and then on two (the logs' tags end in -gDEVICES); the GPU
#           samples are per device
#   snap    (not in the default list) SnapDeals 32 GiB on GPU 0: cuzk-bench-snap-synth (one
#           partition's synthesis on one core, its recording, and compact in chunks on all cores;
#           SNOSYNTH=1 skips it), a fake update (cuzk filecoin fake-update, 16 partitions), a local key made on the device (setup snap-update --gpu,
#           about 35 GB), then cuzk-daemon under it as the porep phase configures it (RWORKERS,
#           RPARTS, RBUDGET): one update through cuzk-bench single, its proofs checked again by
#           cuzk filecoin verify, then SCOUNT (3) updates with SCONC (2) in flight; the GPU's
#           utilization, the daemon's peak host memory. SABC: abc_on_gpu values (1); SSTAGE=key
#           stops after the key, SSTAGE=prove reuses it (the warm machine), SKEEP=1 keeps it.
#           porep and snap bring back the single call's proof with the key's vk (and snap its
#           request.txt) in OUT/<phase>-proof-<abc>/, for bellperson_verify.mjs here
set -u

pack() {
  local dir=${1:-build-dev-bin} B=${B:-build-cuda-shared} t
  set -e
  # -U: JSON and the daemon as this machine's packages allow, whatever an older cache says
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="${NVCC:-nvcc}" \
    -DCMAKE_CUDA_ARCHITECTURES=90-real -DCZ_SHARED_LIB=ON -UCZ_WITH_JSON -UCZ_WITH_DAEMON >/dev/null
  local targets=(cuzk-bench cuzk-bench-params)
  local all
  all=$(ninja -C "$B" -t targets all 2>/dev/null | sed 's/:.*//')
  for t in cuzk-daemon daemon_test_gpus cuzk-bench-gpu-bellperson cuzk-bench-setup-bellperson \
    cuzk-bench-gpu-ceiling cuzk-bench-gpu-accumulation cuzk-bench-gpu-r1cs cuzk-bench-post-synth \
    cuzk-bench-porep-synth cuzk-bench-snap-synth cuzk-cli; do
    grep -qx "$t" <<<"$all" && targets+=("$t")
  done
  # the CPU tests of code that takes a different path on the device's CPU (AVX-512 IFMA) too
  for t in $(grep -E '^(gpu_test_|engine_test_|curve_test_g1_decode8$|formats_test_bellperson)' <<<"$all"); do
    targets+=("$t")
  done
  cmake --build "$B" -j"${JOBS:-2}" --target "${targets[@]}"
  rm -rf "$dir"
  mkdir -p "$dir"
  for t in "${targets[@]}" libcuzk.so; do
    [ "$t" = cuzk-cli ] && t=cuzk # the target's program
    xz -T0 -6 -c "$B/$t" >"$dir/$t.xz"
  done
  local skip='^(linux-vdso|ld-linux|libc|libm|libpthread|libdl|librt|libresolv|libutil|libstdc\+\+|libgcc_s|libcuda|libnvidia-.*)\.so'
  mkdir -p "$dir/lib"
  for t in "${targets[@]/cuzk-cli/cuzk}" libcuzk.so; do ldd "$B/$t"; done | awk '/=> \//{print $1, $3}' |
    sort -u | while read -r name path; do
    [[ $name =~ $skip ]] && continue
    [[ $name == libcuzk.so ]] && continue
    cp -L "$path" "$dir/lib/$name"
  done
  tar -C "$dir" -cf - lib | xz -T0 -6 >"$dir/lib.tar.xz"
  rm -rf "$dir/lib"
  cp bench/device.sh "$dir/device.sh"
  {
    echo "built $(date -u +%FT%TZ) on $(uname -n), $(ldd --version | head -1)"
    echo "source $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+changes')"
    nvcc --version 2>/dev/null | tail -1
    echo "programs: ${targets[*]}"
  } >"$dir/MANIFEST.txt"
  du -sh "$dir"
}

run() {
  local D X=/tmp/cuzk-bin O=/tmp/cuzk-logs S t0
  D=$(cd "$(dirname "$0")" && pwd)
  S=$OUT/summary.txt
  mkdir -p $X $O
  t0=$(date +%s)
  for f in "$D"/*.xz; do
    local n
    n=$(basename "$f" .xz)
    xz -T0 -dc "$f" >$X/$n && chmod +x $X/$n
  done
  tar -C $X -xf $X/lib.tar 2>/dev/null && rm -f $X/lib.tar
  # LIB=NAME: every phase runs with DIR/var/NAME/libcuzk.so.xz as the library
  [ -n "${LIB:-}" ] && xz -dc "$D/var/$LIB/libcuzk.so.xz" >$X/libcuzk.so
  export LD_LIBRARY_PATH=$X:$X/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  say() { echo "$*" | tee -a "$S"; }
  el() { echo $(($(date +%s) - t0)); }
  left() { echo $((${TOTAL:-540} - $(el))); }
  # step TAG SECONDS PROGRAM ARGS...: under timeout (at most what is left); its last "passed"
  # or FAIL line and its exit status into the summary
  step() {
    local tag=$1 lim=$2 l rc
    shift 2
    l=$(left)
    [ "$l" -lt "$lim" ] && lim=$l
    [ "$lim" -lt 5 ] && { say "$tag: skipped (time)"; return 1; }
    timeout "$lim" "$@" >"$O/$tag.log" 2>&1
    rc=$?
    say "$tag rc=$rc at $(el) s: $(grep -E 'passed|FAIL' "$O/$tag.log" | tail -2 | tr '\n' ' ' | cut -c1-300)"
    return $rc
  }
  say "$(nvidia-smi -L | head -2); $(nproc) cores; $(head -2 "$D/MANIFEST.txt" | tr '\n' ' ')"
  say "cpu: $(lscpu 2>/dev/null | grep -E '^(Model name|Thread\(s\) per core|Core\(s\) per socket|Socket\(s\))' | tr -s ' ' | tr '\n' ';'); thp: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
  for p in "${@:-unit micro engine daemon}"; do
    for q in $p; do
      case $q in
      unit)
        local tests=()
        if [ -n "${UNIT_TESTS:-}" ]; then
          for t in $UNIT_TESTS; do tests+=("$X/$t"); done
        else
          tests=($X/gpu_test_* $X/engine_test_* $X/daemon_test_gpus $X/curve_test_* $X/formats_test_*)
        fi
        for t in "${tests[@]}"; do
          [ -x "$t" ] && step "$(basename "$t")" "${UNIT_LIMIT:-150}" "$t"
        done
        ;;
      micro)
        step msm 90 $X/cuzk-bench msm --gpu --curve bn254,bls12381 --log-n "${MSM_LOG:-26}" \
          --runs 5 --no-copies
        grep -h '^{' "$O/msm.log" >>"$S"
        step ntt 60 $X/cuzk-bench ntt --gpu --curve bn254,bls12381 --log-n "${NTT_LOG:-27}" \
          --runs 5 --no-copies
        grep -h '^{' "$O/ntt.log" >>"$S"
        ;;
      cmd)
        # CMDS: "TAG|SECONDS|PROGRAM ARGS" entries separated by ';', a step each (PROGRAM from
        # the pack), its JSON lines into summary.txt
        local e es tag lim args
        IFS=';' read -ra es <<<"${CMDS:-}"
        for e in "${es[@]}"; do
          IFS='|' read -r tag lim args <<<"$e"
          # shellcheck disable=SC2086 # the arguments are words
          step "$tag" "$lim" $X/$args
          grep -h '^{' "$O/$tag.log" >>"$S"
        done
        ;;
      ceiling)
        step ceiling 60 $X/cuzk-bench-gpu-ceiling
        grep -h '^{' "$O/ceiling.log" >>"$S"
        ;;
      accum)
        step accum 120 $X/cuzk-bench-gpu-accumulation
        grep -h '^{' "$O/accum.log" >>"$S"
        ;;
      msmprof)
        step msmprof 120 $X/cuzk-bench msm --gpu --curve bls12381 --log-n "${MPLOG:-27}" \
          --runs 2 --warmup 1 --no-copies --profile
        grep -hE '^\{|gpu msm profile' "$O/msmprof.log" | tail -6 >>"$S"
        ;;
      msmvar)
        # this pack's libcuzk.so against the builds of other sources packed by hand as
        # DIR/var/NAME/libcuzk.so.xz (the same programs load each through LD_LIBRARY_PATH):
        # every MSM of VMSMS, comma-separated "curve group log_n scalars runs"
        local vl v m
        mkdir -p $X/var/pack && cp $X/libcuzk.so $X/var/pack/
        for v in "$D"/var/*/; do
          mkdir -p "$X/var/$(basename "$v")"
          xz -dc "$v/libcuzk.so.xz" >"$X/var/$(basename "$v")/libcuzk.so"
        done
        IFS=, read -ra vl <<<"${VMSMS:-bls12381 g1 26 uniform 5,bls12381 g2 24 uniform 3}"
        for m in "${vl[@]}"; do
          for v in $X/var/*/; do
            set -- $m
            LD_LIBRARY_PATH=$v:$X/lib step "msmvar-$(basename "$v")-$1-$2-$3-$4" 120 \
              $X/cuzk-bench msm --gpu --curve "$1" --group "$2" --log-n "$3" --scalars "$4" \
              --runs "$5" --no-copies
            echo "$(basename "$v"): $(grep -h '^{' "$O/msmvar-$(basename "$v")-$1-$2-$3-$4.log")" >>"$S"
          done
        done
        ;;
      engine)
        step engine "$(left)" $X/cuzk-bench engine --workload porep-synth --bench-key \
          --scale "${ESCALE:-27}" --partitions 10 \
          --budget-gib "${BUDGET:-$(($(free -g | awk '/Mem:/{print $2}') * 80 / 100))}" \
          --warmup 2 --timeline $O/timeline -c "${ECOUNT:-2}" -j "${EJOBS:-2}" --gpu --device 0 \
          --sweep "${ESWEEP:-2:4}" --pinned --prefill ${EARGS:-}
        grep -h '"summary"' "$O/engine.log" >>"$S"
        ;;
      bp)
        # shellcheck disable=SC2086 # BPPROF is a word or nothing
        step bp "${BPLIMIT:-240}" $X/cuzk-bench-gpu-bellperson "${BPSCALE:-27}" "${BPRUNS:-3}" 0 \
          "${BPACC:-auto}" ${BPPROF:+profile}
        grep -h '^{' "$O/bp.log" >>"$S"
        ;;
      bpsetup)
        step bpsetup "${BSLIMIT:-600}" $X/cuzk-bench-setup-bellperson "${BSSCALE:-27}" \
          ${BSARGS:---device 0 --ref 22}
        grep -h '^{' "$O/bpsetup.log" >>"$S"
        ;;
      daemon)
        daemon_phase
        ;;
      params)
        params_phase
        ;;
      post)
        post_phase
        ;;
      porep)
        porep_phase
        ;;
      snap)
        snap_phase
        ;;
      *)
        say "unknown phase $q (unit micro cmd ceiling accum msmprof msmvar engine bp bpsetup daemon params post porep snap)"
        ;;
      esac
    done
  done
  say "total $(el) s"
  tar -C /tmp -czf "$OUT/logs.tgz" cuzk-logs
}

# The daemon phase (see the file comment); X, O, say, step, el and left come from run.
daemon_phase() {
  local T SOCK dpid bpid drc n=${DCOUNT:-2}
  [ -x $X/cuzk-daemon ] || { say "daemon: not packed (no grpc here)"; return; }
  T=$(mktemp -d /tmp/cuzk-daemon.XXXXXX)
  SOCK="unix://$T/cuzk.sock"
  cat >"$T/cuzk.toml" <<EOF
[daemon]
listen = "$SOCK"
[memory]
total_budget = "32GiB"
[gpus]
devices = [0]
[srs]
param_cache = "$T"
EOF
  $X/cuzk-daemon --config "$T/cuzk.toml" --synth-cache "$T/synth" --synth-max-scale 22 \
    >"$O/daemon.log" 2>&1 &
  dpid=$!
  for _ in $(seq 1 150); do
    $X/cuzk-bench -a "$SOCK" status >"$O/status.txt" 2>/dev/null && break
    kill -0 $dpid 2>/dev/null || break
    sleep 0.2
  done
  if grep -Eq '^gpu +0 .*vram' "$O/status.txt" 2>/dev/null; then
    say "daemon: up at $(el) s, GetStatus lists the GPU"
  else
    say "daemon: FAIL: not up or no GPU in GetStatus ($(tail -2 "$O/daemon.log" | tr '\n' ' '))"
    kill $dpid 2>/dev/null
    return
  fi
  step daemon-batch 120 $X/cuzk-bench -a "$SOCK" batch --workload porep-synth \
    --scale "${DSCALE:-18}" --partitions "${DPARTS:-2}" -c "$n" -j "$n" --warmup 1
  grep -h '"summary"' "$O/daemon-batch.log" | cut -c1-400 >>"$S"
  $X/cuzk-bench -a "$SOCK" batch --workload porep-synth --scale "${DSCALE:-18}" \
    --partitions $((4 * ${DPARTS:-2})) -c "$n" -j "$n" >"$O/daemon-drain.log" 2>&1 &
  bpid=$!
  sleep 2
  kill -TERM $dpid
  wait $bpid
  local brc=$?
  wait $dpid
  drc=$?
  if [ $brc = 0 ] && [ $drc = 0 ]; then
    say "daemon: SIGTERM with $n proofs in flight: all done, exit 0"
  else
    say "daemon: FAIL: SIGTERM drain: batch rc=$brc, daemon exit $drc"
  fi
  rm -rf "$T"
}

# The post phase (see the file comment); X, O, S, say, step and el come from run.
post_phase() {
  local T SOCK dpid
  T=$(mktemp -d /tmp/cuzk-post.XXXXXX)
  SOCK="unix://$T/cuzk.sock"
  say "post: $(df -Ph /tmp | awk 'NR == 2 { print $4 " free in /tmp" }'), $(free -g | awk '/Mem:/{print $2}') GiB"
  step post-synth-winning 90 $X/cuzk-bench-post-synth --kind winning-post --sector-size 32GiB \
    --runs 5 --gpu 0
  grep -h '^{' "$O/post-synth-winning.log" >>"$S"
  step post-synth-window "${PWLIMIT:-330}" $X/cuzk-bench-post-synth --kind window-post \
    --sector-size 32GiB --runs "${PWRUNS:-2}" --gpu 0 ${PWARGS:-}
  grep -h '^{' "$O/post-synth-window.log" >>"$S"
  # the reference of the GPU line: the PoRep-shaped bellperson partition of 2^27 (phase bp)
  step post-ref-bp 240 $X/cuzk-bench-gpu-bellperson 27 2
  grep -h '"summary"' "$O/post-ref-bp.log" >>"$S"
  post_inputs winning-post fw 1 0104 120 post "$T"
  cat >"$T/cuzk.toml" <<EOF
[daemon]
listen = "$SOCK"
[gpus]
devices = [0]
[srs]
param_cache = "$T/p"
allow_untrusted = true
EOF
  $X/cuzk-daemon --config "$T/cuzk.toml" >"$O/post-daemon.log" 2>&1 &
  dpid=$!
  for _ in $(seq 1 150); do
    $X/cuzk-bench -a "$SOCK" status >/dev/null 2>&1 && break
    sleep 0.2
  done
  post_calls winning-post fw 150 post-winning "$SOCK" "$T" 2 "${WCOUNT:-10}"
  kill -TERM $dpid
  wait $dpid
  say "post: daemon exit $?"
  rm -rf "$T"
}

# The porep phase (see the file comment); X, O, S, say, step and el come from run.
# SnapDeals 32 GiB (the snap phase): a fake update, a local key made on the device, then the daemon
# under it (the porep phase's configuration: RWORKERS, RPARTS, RBUDGET), one update with its proof
# checked again by cuzk filecoin verify, then SCOUNT updates with SCONC in flight, for each
# abc_on_gpu value of SABC (default 1).
snap_phase() {
  local T SOCK abc
  if [ -z "${SNOSYNTH:-}" ]; then
    step snap-synth 150 $X/cuzk-bench-snap-synth --runs 1 --record
    grep -h '^{' "$O/snap-synth.log" >>"$S"
  fi
  keep_dir cuzk-snap-keep 40 snap "${SSTAGE:-}" || return
  SOCK="unix://$T/cuzk.sock"
  if [ "${SSTAGE:-}" = prove ] && [ -s "$T/u/vanilla-15.bin" ] && ls "$T"/p/*.params >/dev/null 2>&1; then
    say "snap: the key and the update of the call before, in $T"
  else
    rm -rf "$T"
    mkdir -p "$T/p" "$T/u"
    step snap-fake 90 $X/cuzk filecoin fake-update --sector-size 32GiB --seed 9 -o "$T/u"
    local src=0
    step snap-setup 400 $X/cuzk filecoin setup snap-update --sector-size 32GiB --params-dir "$T/p" \
      --seed 0109 --gpu || src=$?
    grep -hE 'ms|GPU|recorded|wrote' "$O/snap-setup.log" | tail -5 | cut -c1-300 >>"$S"
    if [ "$src" != 0 ]; then
      say "snap: FAIL: no key (setup exit $src)"
      rm -rf "$T"
      return
    fi
    [ "${SSTAGE:-}" = key ] && { say "snap: key made, kept for SSTAGE=prove"; return; }
  fi
  g() { awk -v k="$1" '$1 == k { print $2 }' "$T/u/request.txt"; }
  VERIFY=($X/cuzk filecoin verify snap-update --params-dir "$T/p" --registered-proof 3
    --comm-r-old "$(g comm_r_old)" --comm-d-new "$(g comm_d_new)" --comm-r-new "$(g comm_r_new)"
    "$T/proof.bin")
  for abc in ${SABC-1}; do
    kind_daemon snap "$abc" "$T" "$SOCK" "${SCOUNT:-3}" "${SCONC:-2}" --workload snap-update \
      --request "$T/u"
  done
  [ "${SKEEP:-}" = 1 ] || rm -rf "$T"
}

porep_phase() {
  local T SOCK DEVS # DEVS: the device set of the daemon in turn (porep_config, kind_daemon)
  if [ -z "${RNOSYNTH:-}" ]; then
    step porep-synth-1 60 $X/cuzk-bench-porep-synth --runs 2
    grep -h '^{' "$O/porep-synth-1.log" >>"$S"
  fi
  if [ -n "${RSYNTH4:-}" ]; then
    step porep-synth-4 90 $X/cuzk-bench-porep-synth --runs 2 --challenges 4
    grep -h '"prove"' "$O/porep-synth-4.log" >>"$S"
  fi
  keep_dir cuzk-porep-keep 50 porep "${RSTAGE:-}" || return
  SOCK="unix://$T/cuzk.sock"
  if [ "${RSTAGE:-}" = prove ] && [ -s "$T/c1.json" ] && ls "$T"/p/*.params >/dev/null 2>&1; then
    say "porep: the key and the C1 of the call before, in $T"
  else
    rm -rf "$T"
    mkdir -p "$T/p"
    say "porep: key and C1 in $T ($(df -PhT "$ROOMY" | awk 'NR == 2 { print $2 ", " $5 " free" }')), $(free -g | awk '/Mem:/{print $2}') GiB"
    step porep-fake 60 $X/cuzk filecoin fake-c1 --sector-size 32GiB --seed 9 --miner 1000 \
      --sector 1 -o "$T/c1.json"
    local src=0
    step porep-setup 330 $X/cuzk filecoin setup porep-c2 --sector-size 32GiB --params-dir "$T/p" \
      --seed 0108 --gpu || src=$?
    grep -hE 'ms|GPU|recorded' "$O/porep-setup.log" | tail -5 | cut -c1-300 >>"$S"
    if [ "$src" != 0 ]; then
      say "porep: FAIL: no key (setup exit $src)"
      rm -rf "$T"
      return
    fi
  fi
  if [ -n "${RWINNING:-}" ] && [ ! -s "$T/fw/request.txt" ]; then
    post_inputs winning-post fw 1 0104 120 porep-winning "$T" --gpu ||
      say "porep: FAIL: no WinningPoSt key or request"
  fi
  if [ -n "${RWINDOW:-}" ] && [ ! -s "$T/fwin/request.txt" ]; then
    # one whole 32 GiB partition: 2,349 sectors
    post_inputs window-post fwin 2349 0106 240 porep-window "$T" --gpu ||
      say "porep: FAIL: no WindowPoSt key or request"
  fi
  [ "${RSTAGE:-}" = key ] && { say "porep: keys and requests made, kept for RSTAGE=prove"; return; }
  for abc in ${RABC-1}; do
    for DEVS in ${RDEVICES:-0}; do
      porep_daemon "$abc" "$T" "$SOCK"
    done
  done
  [ -n "${RSWEEP:-}" ] && porep_sweep "$T"
  [ "${RKEEP:-}" = 1 ] || rm -rf "$T"
}

# The daemon configuration of the porep phase in $2/cuzk.toml: gpus.abc_on_gpu = $1, listening on
# $3 (none: the sweep sets it), the key's folder, state (digests remembered) and the R* knobs.
porep_config() {
  local abc=$1 T=$2 SOCK=${3:-}
  mkdir -p "$T/state"
  {
    echo "[daemon]"
    [ -n "$SOCK" ] && echo "listen = \"$SOCK\""
    cat <<EOF
state_dir = "$T/state"
[gpus]
devices = [${DEVS:-0}]
gpu_workers_per_device = ${RWORKERS:-2}
abc_on_gpu = $abc
[memory]
total_budget = "${RBUDGET:-100GiB}"
[synthesis]
partition_workers = ${RPARTS:-2}
[srs]
param_cache = "$T/p"
allow_untrusted = true
[logging]
timeline = "log"
EOF
    # RPHASES=1: every MSM's layout and phases in the daemon's log (logging.msm_phases)
    [ -n "${RPHASES:-}" ] && echo "msm_phases = true"
  } >"$T/cuzk.toml"
}

# cuzk-bench sweep of synthesis.partition_workers over RSWEEP under the porep phase's key (folder
# $1): one daemon per value with a, b, c on the GPU, RCOUNT C2s with RCONC in flight after one
# warm-up each; the table into summary.txt.
porep_sweep() {
  local T=$1
  porep_config 1 "$T"
  say "porep: sweep of synthesis.partition_workers over $RSWEEP at $(el) s"
  step porep-sweep "$(left)" $X/cuzk-bench sweep --key synthesis.partition_workers \
    --values "$RSWEEP" --config "$T/cuzk.toml" --daemon $X/cuzk-daemon --start-timeout 300 \
    --workload porep-c2 --c1 "$T/c1.json" --miner 1000 -c "${RCOUNT:-3}" -j "${RCONC:-2}" \
    --warmup 1
  grep -v '^{' "$O/porep-sweep.log" | tail -8 | cut -c1-200 >>"$S"
}

# One cuzk-daemon under the porep phase's key, gpus.abc_on_gpu = $1, folder $2, socket $3: a first
# C2, its proof checked again by cuzk filecoin verify, a batch with the GPU sampled, the daemon's
# peak memory and its log's key lines (the logs' tags end in -$1).
# A Filecoin proof kind through cuzk-daemon under T's key (porep_config with abc_on_gpu = abc):
# one proof (cuzk-bench single with the workload arguments after the first six, -o T/proof.bin)
# checked again by the command in the array VERIFY, then COUNT proofs with CONC in flight; the
# GPU's utilization, the daemon's peak host memory and its log's highlights into the summary.
kind_daemon() {
  local name=$1 abc=$2 T=$3 SOCK=$4 count=$5 conc=$6 dpid spid
  shift 6
  porep_config "$abc" "$T" "$SOCK"
  # the logs' tags: abc_on_gpu, and the device set where DEVS names one (RDEVICES)
  [ -n "${RDEVICES:-}" ] && abc="$abc-g${DEVS//,/}"
  say "$name: daemon with abc_on_gpu = ${abc%%-*}, devices [${DEVS:-0}] at $(el) s"
  $X/cuzk-daemon --config "$T/cuzk.toml" >"$O/$name-daemon-$abc.log" 2>&1 &
  dpid=$!
  for _ in $(seq 1 150); do
    $X/cuzk-bench -a "$SOCK" status >/dev/null 2>&1 && break
    sleep 0.2
  done
  step $name-first-$abc 300 $X/cuzk-bench -a "$SOCK" single "$@" -o "$T/proof.bin"
  grep -h '^{' "$O/$name-first-$abc.log" | cut -c1-500 >>"$S"
  step $name-verify-$abc 120 "${VERIFY[@]}"
  # the proof, the vk and the request's commitments come back (kilobytes), for a verifier that
  # does not run there (tests/interop/bellperson_verify.mjs needs node)
  mkdir -p "$O/$name-proof-$abc"
  cp "$T/proof.bin" "$T"/p/*.vk "$O/$name-proof-$abc/" 2>/dev/null
  [ -f "$T/u/request.txt" ] && cp "$T/u/request.txt" "$O/$name-proof-$abc/"
  # the GPU's utilization and memory every 0.5 s while the batch runs
  nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv,noheader,nounits \
    -lms 500 >"$O/$name-gpu-$abc.csv" 2>/dev/null &
  spid=$!
  # with a WinningPoSt request beside the key (porep, RWINNING): its latency on the idle daemon,
  # then RWDELAY s into the batch
  local win=0 wwin=0 bpid
  [ "$name" = porep ] && [ -s "$T/fw/request.txt" ] && win=1
  [ "$name" = porep ] && [ -s "$T/fwin/request.txt" ] && wwin=1
  [ $win = 1 ] &&
    post_calls winning-post fw 150 "$name-winning-idle-$abc" "$SOCK" "$T" 1 "${RWCOUNT:-5}"
  [ $wwin = 1 ] &&
    post_calls window-post fwin 200 "$name-window-idle-$abc" "$SOCK" "$T" 1 "${RWINCOUNT:-2}"
  step $name-batch-$abc 300 $X/cuzk-bench -a "$SOCK" batch "$@" -c "$count" -j "$conc" --warmup 0 &
  bpid=$!
  if [ $win = 1 ] || [ $wwin = 1 ]; then
    sleep "${RWDELAY:-20}"
    [ $win = 1 ] &&
      post_calls winning-post fw 150 "$name-winning-busy-$abc" "$SOCK" "$T" 0 "${RWCOUNT:-5}"
    [ $wwin = 1 ] &&
      post_calls window-post fwin 200 "$name-window-busy-$abc" "$SOCK" "$T" 0 "${RWINCOUNT:-2}"
  fi
  wait $bpid
  kill $spid 2>/dev/null
  grep -h '"summary"' "$O/$name-batch-$abc.log" | cut -c1-600 >>"$S"
  # per device: the samples, the mean utilization, the peak memory
  say "$name: GPU during the batch: $(awk -F', ' '{u[$1] += $2; if ($3 > m[$1]) m[$1] = $3; n[$1]++} END {for (d in n) printf "GPU %s: %d samples, mean utilization %.1f %%, peak memory %d MiB; ", d, n[d], u[d] / n[d], m[d]}' "$O/$name-gpu-$abc.csv")"
  say "$name: daemon peak host memory $(grep VmHWM /proc/$dpid/status 2>/dev/null | tr -s ' ')"
  kill -TERM $dpid
  wait $dpid
  say "$name: daemon exit $?"
  grep -hE 'digest|recorded|UNTRUSTED|resident|ERROR|WARN|out of' "$O/$name-daemon-$abc.log" |
    head -12 | cut -c1-300 >>"$S"
  say "$name: $(grep -c TIMELINE "$O/$name-daemon-$abc.log") timeline lines in $name-daemon-$abc.log"
}

# A 32 GiB key of PoSt KIND (winning-post, window-post) into $7/p, made with seed SEED under LIMIT
# s, and a request of SECTORS fake sectors into $7/DIR under a quarter of it (steps TAG-setup and
# TAG-fake; more arguments go to the setup, e.g. --gpu); 1 where either fails. X, O, S, say and
# step come from run.
post_inputs() { # KIND DIR SECTORS SEED LIMIT TAG T [SETUP ARGS]
  local kind=$1 dir=$2 sectors=$3 seed=$4 limit=$5 tag=$6 T=$7 rc=0
  shift 7
  mkdir -p "$T/p" "$T/$dir"
  step $tag-setup "$limit" $X/cuzk filecoin setup $kind --sector-size 32GiB --params-dir "$T/p" \
    --seed "$seed" "$@" || rc=1
  step $tag-fake "$((limit / 4))" $X/cuzk filecoin fake-vanilla $kind --sector-size 32GiB \
    --sectors "$sectors" --seed 9 -o "$T/$dir" || rc=1
  return $rc
}

# COUNT Prove calls of PoSt KIND with the request in T/DIR, one at a time through the daemon at
# SOCK after WARMUP warm-up calls, as step TAG under LIMIT s; its summary line (the latencies)
# into the summary.
post_calls() { # KIND DIR LIMIT TAG SOCK T WARMUP COUNT
  step "$4" "$3" $X/cuzk-bench -a "$5" batch --workload "$1" --request "$6/$2" -c "$8" -j 1 \
    --warmup "$7"
  grep -h '"summary"' "$O/$4.log" | cut -c1-500 >>"$S"
}

porep_daemon() {
  local abc=$1 T=$2 SOCK=$3
  VERIFY=($X/cuzk filecoin verify porep-c2 --c1 "$T/c1.json" --miner 1000 --params-dir "$T/p"
    "$T/proof.bin")
  kind_daemon porep "$abc" "$T" "$SOCK" "${RCOUNT:-3}" "${RCONC:-2}" --workload porep-c2 \
    --c1 "$T/c1.json" --miner 1000
}

# The folders a phase may keep its key in: PARAMS_DIR, TMPDIR, /tmp and /var/tmp (disks, not
# /dev/shm: the daemon holds the key in memory beside it).
disk_dirs() { echo ${PARAMS_DIR:-} ${TMPDIR:-} /tmp /var/tmp; }

# The folder with the most room of disk_dirs into ROOMY, its free KiB into ROOMY_KB.
roomiest_dir() {
  local d avail
  ROOMY="" ROOMY_KB=0
  for d in $(disk_dirs); do
    [ -d "$d" ] && [ -w "$d" ] || continue
    avail=$(df -Pk "$d" | awk 'NR == 2 { print $4 }')
    if [ "${avail:-0}" -gt "$ROOMY_KB" ]; then ROOMY_KB=$avail ROOMY=$d; fi
  done
}

# A phase's folder NAME into T (its disk folder into ROOMY): with STAGE prove, where the call
# before kept it, whatever room is left beside it; else NAME in the roomiest folder, which must
# have NEED_GB free (1 and a FAIL line of PHASE when none has).
keep_dir() { # NAME NEED_GB PHASE STAGE
  local d
  if [ "$4" = prove ]; then
    for d in $(disk_dirs); do
      [ -d "$d/$1" ] && { T=$d/$1 ROOMY=$d; return 0; }
    done
  fi
  roomiest_dir
  [ "$ROOMY_KB" -gt $(($2 * 1000000)) ] ||
    { say "$3: FAIL: no folder with $2 GB free ($ROOMY_KB KiB)"; return 1; }
  T=$ROOMY/$1
}

# The params phase (see the file comment); X, O, S, say, step and el come from run.
params_phase() {
  local d dir="" best=0 avail K key shape="--shape porep-32g" th=${PTHREADS:-16}
  for d in ${PARAMS_DIR:-} ${TMPDIR:-} /tmp /var/tmp /dev/shm; do
    [ -d "$d" ] && [ -w "$d" ] || continue
    avail=$(df -Pk "$d" | awk 'NR == 2 { print $4 }')
    if [ "${avail:-0}" -gt "$best" ]; then best=$avail dir=$d; fi
  done
  [ -n "$dir" ] || { say "params: FAIL: no writable folder"; return; }
  # 47.2 GB and a little more, in KiB; PSHAPE (e.g. "--scale 20") chooses another shape
  [ "$best" -lt 46500000 ] && shape="--scale 26"
  shape=${PSHAPE:-$shape}
  say "params: key in $dir ($(df -PhT "$dir" | awk 'NR == 2 { print $2 ", " $5 " free" }')), $shape"
  K=$(mktemp -d "$dir/cuzk-params.XXXXXX")
  key=$K/porep.params
  step params-write 200 $X/cuzk-bench-params write "$key" $shape
  grep -h '^{' "$O/params-write.log" >>"$S"
  if [ -s "$key" ]; then
    step params-load 150 $X/cuzk-bench-params load "$key" --threads "$th" --runs "${PRUNS:-2}"
    grep -h '^{' "$O/params-load.log" >>"$S"
    for h in ${PHOSTS:-pinned malloc cuda-host-alloc}; do
      step params-load-$h 90 $X/cuzk-bench-params load "$key" --threads "$th" --runs 1 --host $h
      grep -h '^{' "$O/params-load-$h.log" >>"$S"
    done
  fi
  rm -f "$key"
  step params-sub-write 30 $X/cuzk-bench-params write "$K/sub.params" --scale "${PSUB:-18}"
  step params-sub 90 $X/cuzk-bench-params load "$K/sub.params" --threads "$th" --runs 2 --subgroup
  grep -h '^{' "$O/params-sub.log" >>"$S"
  rm -rf "$K"
}

case ${1:-} in
pack)
  shift
  pack "$@"
  ;;
run)
  shift
  : "${OUT:?run needs OUT (the folder whose files come back)}"
  run "$@"
  ;;
*)
  sed -n '2,71p' "$0"
  exit 2
  ;;
esac
