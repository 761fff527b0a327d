#!/usr/bin/env bash
# cuzk prove against snarkjs groth16 prove on the same proving key and witness, median of RUNS
# whole-command wall times each (both include reading the files). Keys come from `cuzk setup`
# (insecure test keys) for a multiplication chain written by bench/gen_mulchain.mjs; every proof
# of both tools is checked with snarkjs groth16 verify.
#
# usage: bench/prove_vs_snarkjs.sh [BUILD] [LOG_SIZES] [CURVES] [RUNS]
#   e.g. bench/prove_vs_snarkjs.sh build "16 18" "bn128 bls12381" 3
# Prints one JSON line per (tool, curve, size) and a ratio table. Scratch files: BUILD/bench-prove/.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
sizes=${2:-"16 18"}
curves=${3:-"bn128 bls12381"}
runs=${4:-3}
cuzk="$build/cuzk"
snarkjs=node_modules/.bin/snarkjs
dir="$build/bench-prove"
mkdir -p "$dir"
sha=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

# Median of the numbers on stdin.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
now_ms() { date +%s%3N; }

# time_runs OUT_LIST command...: runs the command RUNS times, prints the wall ms of each.
time_runs() {
    for _ in $(seq "$runs"); do
        local t0 t1
        t0=$(now_ms)
        "$@" >/dev/null 2>&1
        t1=$(now_ms)
        echo $((t1 - t0))
    done
}

declare -A result
for curve in $curves; do
    for k in $sizes; do
        n=$(((1 << k) - 3))
        base="$dir/mulchain-$curve-$k"
        if [ ! -f "$base.zkey" ]; then
            node bench/gen_mulchain.mjs "$curve" "$n" "$base" >&2
            "$cuzk" setup "$base.r1cs" "$base.zkey" >&2
            "$cuzk" vk "$base.zkey" "$base.vk.json"
        fi
        for tool in snarkjs cuzk; do
            if [ "$tool" = snarkjs ]; then
                cmd=("$snarkjs" groth16 prove "$base.zkey" "$base.wtns" "$base.$tool.proof.json" "$base.$tool.public.json")
            else
                cmd=("$cuzk" prove "$base.zkey" "$base.wtns" "$base.$tool.proof.json" "$base.$tool.public.json")
            fi
            times=$(time_runs "${cmd[@]}")
            "$snarkjs" groth16 verify "$base.vk.json" "$base.$tool.public.json" "$base.$tool.proof.json" >/dev/null ||
                { echo "bench: $tool proof at $curve 2^$k does not verify" >&2; exit 1; }
            med=$(echo "$times" | median)
            min=$(echo "$times" | sort -n | head -1)
            max=$(echo "$times" | sort -n | tail -1)
            result[$tool,$curve,$k]=$med
            printf '{"bench":"prove","tool":"%s","curve":"%s","log_n":%d,"constraints":%d,"runs":%d,"ms":%s,"min":%s,"max":%s,"threads":%d,"git":"%s"}\n' \
                "$tool" "$curve" "$k" "$n" "$runs" "$med" "$min" "$max" "$(nproc)" "$sha"
        done
    done
done
echo
printf '%-10s %-6s %12s %12s %10s\n' curve size "snarkjs ms" "cuzk ms" "speed-up"
for curve in $curves; do
    for k in $sizes; do
        s=${result[snarkjs,$curve,$k]}
        c=${result[cuzk,$curve,$k]}
        printf '%-10s 2^%-4s %12s %12s %9.2fx\n' "$curve" "$k" "$s" "$c" "$(echo "$s / $c" | bc -l)"
    done
done
