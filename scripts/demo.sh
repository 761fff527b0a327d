#!/usr/bin/env bash
# `make demo`: proves the bundled example circuits with cuzk and verifies the proofs, printing each
# step and its time. Outputs go to BUILD/demo/. If snarkjs is installed (make test installs it),
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

echo "cuzk demo: prove and verify the bundled circuits (outputs in $out/)"
demo poseidon-bn254 examples/poseidon/poseidon_chain.zkey examples/poseidon/poseidon_chain.wtns
demo mulchain-bls12381 examples/mulchain/mulchain.zkey examples/mulchain/mulchain.wtns
echo
echo "demo: all proofs verified"
