#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, -DCZ_FUZZ=ON: ASan + UBSan + coverage) and runs each for a
# bounded time. Usage: scripts/fuzz.sh [seconds per target, default 20] [target ...]
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
status=0
for t in "${TARGETS[@]}"; do
    mkdir -p "build-fuzz/corpus/$t"
    echo "== $t: ${SECS}s"
    if ! (cd build-fuzz && ./"$t" -max_total_time="$SECS" -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 "corpus/$t" "../fuzz/corpus/$t" 2>&1 | tail -n 12); then
        status=1
    fi
done
exit $status
