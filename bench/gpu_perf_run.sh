#!/usr/bin/env bash
# One device call for the field/NTT performance work: build (from the repo root given as $1,
# default .) into build-gpu-perf (or $BUILD), record SASS instruction counts and registers of the
# fmul/NTT kernels, run ctest -R '^gpu_', then the fmul and NTT benchmarks. Logs to $OUT.
# Usage: OUT=dir bash bench/gpu_perf_run.sh [srcdir] [builddir]
set -u
SRC=${1:-.}
B=${2:-build-gpu-perf}
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
t0=$(date +%s)
{ cmake -S "$SRC" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCZ_WITH_JSON=OFF \
    -DCMAKE_CUDA_COMPILER=nvcc && cmake --build "$B" -j16; } >"$OUT/build.log" 2>&1 ||
  { tail -40 "$OUT/build.log"; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
obj=$(find "$B" -name 'gpu_ntt.cu.o' | head -1)
cuobjdump -sass "$obj" >"$OUT/ntt.sass" 2>&1
cuobjdump --dump-resource-usage "$obj" 2>&1 | grep -E "Function|REG" | sed 's/^ *//' >"$OUT/resources.txt"
python3 - "$OUT/ntt.sass" >"$OUT/sass_counts.txt" <<'PY'
import re, sys, collections
cur = None; c = {}
for line in open(sys.argv[1]):
    m = re.search(r'Function : (\S+)', line)
    if m: cur = m.group(1); c[cur] = collections.Counter(); continue
    m = re.search(r'/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_]+)', line)
    if m and cur: c[cur][m.group(1)] += 1
for f, cc in c.items():
    print(f, 'total', sum(cc.values()), dict(cc.most_common(10)))
PY
cat "$OUT/sass_counts.txt" | cut -c1-300
(cd "$B" && timeout "${GPU_TEST_TIMEOUT:-300}" ctest -R '^gpu_' --output-on-failure) >"$OUT/tests.log" 2>&1
echo "tests rc=$? ($(($(date +%s) - t0)) s)"; grep -E "passed|FAIL|differs|Skipped|tests passed" "$OUT/tests.log" | head -20
for spec in ${BENCH:-fmul:bn254:20 fmul:bls12381:20 ntt:bn254:20 ntt:bls12381:20 ntt:bn254:24 ntt:bls12381:24 ntt:bn254:27 ntt:bls12381:27}; do
  IFS=: read -r op curve k <<<"$spec"
  timeout 120 "$B/cuzk-bench-gpu" "$op" --curve "$curve" --log-n "$k" \
    >>"$OUT/bench.jsonl" 2>>"$OUT/bench.err" || echo "bench $spec failed rc=$?" >>"$OUT/bench.err"
done
echo "total: $(($(date +%s) - t0)) s"
tail -5 "$OUT/bench.err" 2>/dev/null
python3 - "$OUT/bench.jsonl" <<'PY' 2>/dev/null || cat "$OUT/bench.jsonl"
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if 'ms' not in r: print(r); continue
    extra = f" {r['gops']:.2f} Gop/s" if 'gops' in r else ''
    print(f"{r['op']:<22} {r['curve']:<9} 2^{r['log_n']:<3} copies={str(r['copies']):<5} {r['ms']:10.3f} ms (min {r['min']:.3f}){extra}")
PY
