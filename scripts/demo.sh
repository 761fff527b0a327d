#!/usr/bin/env bash
# `make demo`: starts cuzk-daemon on a Unix socket, sends it a WinningPoSt and a WindowPoSt (2 KiB
# sectors, fake sectors, local keys), a PoRep C2 (a 2 KiB sector sealed by `cuzk filecoin
# seal-2k`) and a SnapDeals update (a 2 KiB fake update) through gRPC with cuzk-bench and
# verifies the proofs with `cuzk filecoin verify`; then
# proves the bundled example circuits with cuzk and verifies the proofs. Each step is printed with its time. Outputs go to BUILD/demo/. If snarkjs is installed (make test installs it),
# snarkjs verifies cuzk's proofs too: a verifier we did not write.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cuzk="$build/cuzk"
out="$build/demo"
mkdir -p "$out"

now_ms() { date +%s%3N; }
step() { # step "what" command...
    local what=$1
    shift
    local t0 t1
    t0=$(now_ms)
    "$@"
    t1=$(now_ms)
    printf '  %-58s %6d ms\n' "$what" $((t1 - t0))
}

# field DIR KEY: the value of KEY in DIR/request.txt ("key value" lines, as the fake-* commands
# write them).
field() { awk -v k="$2" '$1 == k { print $2 }' "$1/request.txt"; }
# timing FILE [WHAT]: cuzk-bench single's times from its JSON line in FILE, WHAT what the job did.
timing() {
    echo "  request to proof $(tr -d '\n' <"$1" | sed 's/.*"wall_ms":\([0-9.]*\),"prove_ms":\([0-9.]*\).*/\1 ms; the job \2 ms/')${2:+ ($2)}"
}

step_to() { # step_to FILE "what" command...: step with the command's output into FILE
    local file=$1 what=$2
    shift 2
    local t0 t1
    t0=$(now_ms)
    "$@" >"$file"
    t1=$(now_ms)
    printf '  %-58s %6d ms\n' "$what" $((t1 - t0))
}

demo() { # demo NAME ZKEY WTNS
    local name=$1 zkey=$2 wtns=$3
    echo
    echo "== $name"
    "$cuzk" info "$zkey" | sed -n '2,5p' | sed 's/^/  /'
    step "cuzk vk: verification key from the proving key" "$cuzk" vk "$zkey" "$out/$name.vk.json"
    step "cuzk prove: Groth16 proof (random r, s)" "$cuzk" prove -v "$zkey" "$wtns" \
        "$out/$name.proof.json" "$out/$name.public.json"
    step "cuzk verify: pairing check" "$cuzk" verify "$out/$name.vk.json" \
        "$out/$name.public.json" "$out/$name.proof.json"
    if [ -x node_modules/.bin/snarkjs ]; then
        step "snarkjs groth16 verify (independent verifier)" node_modules/.bin/snarkjs groth16 \
            verify "$out/$name.vk.json" "$out/$name.public.json" "$out/$name.proof.json"
    fi
    echo "  public inputs: $(tr -d ' \n' <"$out/$name.public.json")"
}

# PoSt through the daemon: local keys (INSECURE, made here), fake sectors, gRPC.
post_demo() {
    local daemon="$build/cuzk-daemon" bench="$build/cuzk-bench" p sock
    if [ ! -x "$daemon" ] || [ ! -x "$bench" ]; then
        echo
        echo "== PoSt through cuzk-daemon: skipped (cuzk-daemon or cuzk-bench not built here)"
        return
    fi
    echo
    echo "== WinningPoSt, WindowPoSt, PoRep C2 and SnapDeals (2 KiB sectors) through cuzk-daemon over gRPC"
    p="$(cd "$out" && pwd)/params"
    rm -rf "$p" "$out/winning" "$out/window" "$out/porep" "$out/snap"
    mkdir -p "$p" "$out/winning" "$out/window" "$out/porep"
    step "cuzk filecoin setup: local WinningPoSt key (INSECURE)" "$cuzk" filecoin setup \
        winning-post --sector-size 2KiB --params-dir "$p" --seed 01 2>/dev/null
    step "cuzk filecoin setup: local WindowPoSt key (INSECURE)" "$cuzk" filecoin setup \
        window-post --sector-size 2KiB --params-dir "$p" --seed 02 2>/dev/null
    step "cuzk filecoin fake-vanilla: 1 sector, 66 challenges" "$cuzk" filecoin fake-vanilla \
        winning-post --sector-size 2KiB --sectors 1 --seed 3 -o "$out/winning"
    step "cuzk filecoin fake-vanilla: a partition of 2 sectors" "$cuzk" filecoin fake-vanilla \
        window-post --sector-size 2KiB --sectors 2 --seed 4 -o "$out/window"
    step "cuzk filecoin setup: local PoRep C2 key (INSECURE)" "$cuzk" filecoin setup \
        porep-c2 --sector-size 2KiB --params-dir "$p" --seed 05 2>/dev/null
    step "cuzk filecoin seal-2k: seal a 2 KiB sector, write its C1" "$cuzk" filecoin seal-2k \
        --miner 1000 --sector 7 --seed 6 -o "$out/porep" 2>/dev/null
    step "cuzk filecoin setup: local SnapDeals key (INSECURE)" "$cuzk" filecoin setup \
        snap-update --sector-size 2KiB --params-dir "$p" --seed 07 2>/dev/null
    step "cuzk filecoin fake-update: a 2 KiB sector update" "$cuzk" filecoin fake-update \
        --sector-size 2KiB --seed 8 -o "$out/snap" 2>/dev/null
    sock="$(cd "$out" && pwd)/cuzk.sock"
    cat >"$out/cuzk.toml" <<EOF
[daemon]
listen = "unix://$sock"
[srs]
param_cache = "$p"
allow_untrusted = true
EOF
    "$daemon" --config "$out/cuzk.toml" --budget-gib 2 2>"$out/daemon.log" &
    demo_daemon=$!
    trap 'kill $demo_daemon 2>/dev/null' EXIT
    for _ in $(seq 1 100); do
        "$bench" -a "unix://$sock" status >/dev/null 2>&1 && break
        sleep 0.1
    done
    echo "  cuzk-daemon pid $demo_daemon on unix://$sock (local keys allowed: srs.allow_untrusted)"
    local kind
    for kind in winning window; do
        step_to "$out/$kind/single.json" "cuzk-bench single --workload $kind-post: Prove, gRPC" \
            "$bench" -a "unix://$sock" single --workload "$kind-post" --request "$out/$kind" \
            -o "$out/$kind/proof.bin"
        timing "$out/$kind/single.json" "synthesis, prover, self-check"
        local args=(filecoin verify "$kind-post" --params-dir "$p"
            --registered-proof "$(field "$out/$kind" registered_proof)"
            --randomness "$(field "$out/$kind" randomness)")
        for v in "$out/$kind"/vanilla-*.bin; do args+=(--vanilla "$v"); done
        step_to /dev/null "cuzk filecoin verify: the daemon's proof is valid" "$cuzk" \
            "${args[@]}" "$out/$kind/proof.bin"
    done
    step_to "$out/porep/single.json" "cuzk-bench single --workload porep-c2: Prove, gRPC" \
        "$bench" -a "unix://$sock" single --workload porep-c2 --c1 "$out/porep/c1.json" \
        --miner 1000 -o "$out/porep/proof.bin"
    timing "$out/porep/single.json" "C1 checks, synthesis, prover, self-check"
    step_to /dev/null "cuzk filecoin verify porep-c2: the daemon's proof is valid" "$cuzk" \
        filecoin verify porep-c2 --c1 "$out/porep/c1.json" --miner 1000 --params-dir "$p" \
        "$out/porep/proof.bin"
    step_to "$out/snap/single.json" "cuzk-bench single --workload snap-update: Prove, gRPC" \
        "$bench" -a "unix://$sock" single --workload snap-update --request "$out/snap" \
        -o "$out/snap/proof.bin"
    timing "$out/snap/single.json" "vanilla checks, synthesis, prover, self-check"
    step_to /dev/null "cuzk filecoin verify snap-update: the daemon's proof is valid" "$cuzk" \
        filecoin verify snap-update --params-dir "$p" \
        --registered-proof "$(field "$out/snap" registered_proof)" \
        --comm-r-old "$(field "$out/snap" comm_r_old)" --comm-d-new "$(field "$out/snap" comm_d_new)" \
        --comm-r-new "$(field "$out/snap" comm_r_new)" "$out/snap/proof.bin"
    step_to "$out/winning/again.json" "cuzk-bench single: WinningPoSt again (key resident)" \
        "$bench" -a "unix://$sock" single --workload winning-post --request "$out/winning"
    timing "$out/winning/again.json"
    kill -TERM $demo_daemon
    wait $demo_daemon
    trap - EXIT
    echo "  cuzk-daemon stopped (exit 0)"
}

echo "cuzk demo: Filecoin PoSt, PoRep C2 and SnapDeals through the daemon, then the bundled circuits" \
    "(outputs in $out/)"
post_demo
demo poseidon-bn254 examples/poseidon/poseidon_chain.zkey examples/poseidon/poseidon_chain.wtns
demo mulchain-bls12381 examples/mulchain/mulchain.zkey examples/mulchain/mulchain.wtns
echo
echo "demo: all proofs verified"
