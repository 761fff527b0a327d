#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, -DCZ_FUZZ=ON: ASan + UBSan + coverage) and runs each for a
# bounded time, FUZZ_JOBS of them at once. Usage: scripts/fuzz.sh [seconds per target, default 20]
# [target ...]
# New inputs go to build-fuzz/corpus/<target>/ (the seeds in fuzz/corpus/<target>/ are only read);
# a crash leaves its input as build-fuzz/crash-* and makes the script fail.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-20}
shift || true
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
    TARGETS=()
    for f in fuzz/fuzz_*.c; do TARGETS+=("$(basename "$f" .c)"); done
fi
GEN=$(command -v ninja >/dev/null 2>&1 && echo "-G Ninja" || true)
CC=${CC:-clang} cmake -S . -B build-fuzz $GEN -DCZ_FUZZ=ON -DCZ_WITH_CUDA=OFF -DCZ_BUILD_BENCH=OFF \
    -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-fuzz --target "${TARGETS[@]}"
# The targets run FUZZ_JOBS at a time (default: one per core; each libFuzzer process is single
# threaded); each one's output is kept in build-fuzz/<target>.log and its tail printed in order.
JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
run_one() {
    local t=$1
    mkdir -p "build-fuzz/corpus/$t"
    local rc=0
    (cd build-fuzz && ./"$t" -max_total_time="$SECS" -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 "corpus/$t" "../fuzz/corpus/$t") >"build-fuzz/$t.log" 2>&1 || rc=$?
    echo "$rc" >"build-fuzz/$t.rc"
}
for t in "${TARGETS[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
        wait -n || true
    done
    rm -f "build-fuzz/$t.rc"
    run_one "$t" &
done
wait
status=0
for t in "${TARGETS[@]}"; do
    echo "== $t: ${SECS}s"
    tail -n 12 "build-fuzz/$t.log"
    if [ "$(cat "build-fuzz/$t.rc" 2>/dev/null)" != 0 ]; then
        echo "== $t FAILED (exit $(cat "build-fuzz/$t.rc" 2>/dev/null || echo none))"
        status=1
    fi
done
exit $status
