#!/usr/bin/env bash
# One device call comparing the GPU NTT variants (docs/gpu.md, NTT): configures and builds only
# cuzk-bench and the NTT test, records registers and SASS instruction counts of the radix-2 pass
# kernels, times `cuzk-bench ntt --gpu --no-copies` for each CZ_GPU_NTT_VARIANT in $VARIANTS
# (default 1,6,7,8; one process per curve through CZ_BENCH_NTT_VARIANTS, so one input set) on
# both curves at the sizes in $SIZES (default 20,24,27), kinds $KINDS, then runs the NTT
# test (every variant byte-equal to the CPU NTT up to 2^20, Horner and round trips at 2^24 and
# 2^CZ_GPU_TEST_BIG_LOG; TESTS=0 skips it). Logs under $OUT.
# Usage: OUT=dir bash bench/gpu_ntt_variants.sh
set -u
SRC=${SRC:-.}
B=${B:-build-gpu}
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$OUT/device.txt" 2>&1
t0=$(date +%s)
{ cmake -S "$SRC" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER=nvcc \
    -DCZ_WITH_JSON=OFF && cmake --build "$B" -j16 --target cuzk-bench gpu_test_gpu_ntt gpu_test_gpu_ntt_lazy gpu_test_gpu_ntt2_map; } \
  >"$OUT/build.log" 2>&1 || { tail -50 "$OUT/build.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
cuobjdump --dump-resource-usage "$B/libcuzk.a" 2>&1 | grep -A1 "ntt_pass_kern" |
  grep -E "Function|REG" | sed 's/^ *//' >"$OUT/resources.txt"
cuobjdump -sass "$B/libcuzk.a" 2>/dev/null | python3 -c '
import re, sys, collections
cur = None; c = {}
for line in sys.stdin:
    m = re.search(r"Function : (\S+)", line)
    if m: cur = m.group(1) if "ntt_pass_kern" in m.group(1) else None
    if m and cur: c[cur] = collections.Counter(); continue
    m = re.search(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_.]+)", line)
    if m and cur: c[cur][m.group(1).split(".")[0]] += 1
for f, cc in c.items():
    print(f, "total", sum(cc.values()), dict(cc.most_common(12)))' >"$OUT/sass_counts.txt"
vs=${VARIANTS:-1,6,7,8}
for curve in bn254 bls12381; do
  CZ_BENCH_NTT_VARIANTS=$vs timeout 150 "$B/cuzk-bench" ntt --gpu --no-copies --curve $curve \
    --log-n "${SIZES:-20,24,27}" --kind "${KINDS:-forward,inverse,coset-forward}" --runs 10 \
    >"$OUT/bench-$curve.jsonl" 2>>"$OUT/bench.err" || echo "bench $curve failed rc=$?"
done
python3 - "$OUT"/bench-*.jsonl <<'PY'
import json, sys
for f in sys.argv[1:]:
    for line in open(f):
        r = json.loads(line)
        print(f"v{r.get('variant', '?')} {r['curve']:<9} 2^{r['log_n']:<3} {r['kind']:<14}"
              f" {r['median_ms']:9.3f} ms (min {r['min_ms']:.3f} max {r['max_ms']:.3f})")
PY
echo "bench: $(($(date +%s) - t0)) s"
if [ "${TESTS:-1}" != 0 ]; then
  (cd "$B" && timeout "${GPU_TEST_TIMEOUT:-300}" ctest -R gpu_ntt --output-on-failure) \
    >"$OUT/tests.log" 2>&1
  echo "tests rc=$? ($(($(date +%s) - t0)) s)"
  grep -E "passed|FAIL|differs|Test +#" "$OUT/tests.log" | head -30
fi
