#!/usr/bin/env bash
# Interop test of `cuzk setup`: keys written by cuzk for circom circuits (a multiplication chain
# and a circomlib Poseidon chain, bn128 and bls12381) are used by snarkjs itself:
#   snarkjs groth16 prove   with cuzk's zkey and snarkjs's witness,
#   snarkjs groth16 verify  with cuzk's verification_key.json (--vk) and with the one snarkjs
#                           exports from the zkey, and must reject a changed public input.
# Usage (from the repository root, after node tests/vectors/setup_vectors.mjs tests/vectors/out):
#   bash tests/interop/test_setup_snarkjs.sh PATH/TO/cuzk
# Ends with "N passed, N failed"; exit 1 on any failure, 77 (skipped) when node is missing.
set -u
SETUP=${1:?usage: test_setup_snarkjs.sh PATH/TO/cuzk}
VEC=tests/vectors/out/setup
SNARKJS=node_modules/snarkjs/build/cli.cjs
passed=0
failed=0

if ! command -v node >/dev/null 2>&1 || [ ! -f "$SNARKJS" ]; then
    echo "node or snarkjs missing: skipped"
    exit 77
fi
if [ ! -d "$VEC" ]; then
    echo "missing fixtures $VEC: run node tests/vectors/setup_vectors.mjs tests/vectors/out" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
TMP=$(mktemp -d /tmp/cuzk_setup_interop.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

check() { # name, command...
    local name=$1
    shift
    if "$@" >"$TMP/log" 2>&1; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $name" >&2
        head -n 20 "$TMP/log" | sed 's/^/    /' >&2
    fi
}
check_fails() { # name, command... (must exit non-zero)
    local name=$1
    shift
    if "$@" >"$TMP/log" 2>&1; then
        failed=$((failed + 1))
        echo "FAIL $name (accepted)" >&2
    else
        passed=$((passed + 1))
    fi
}

for curve in bn128 bls12381; do
    for circ in mulchain poseidon; do
        d=$VEC/$curve
        o=$TMP/$curve-$circ
        mkdir -p "$o"
        check "$curve $circ setup" "$SETUP" setup "$d/$circ.r1cs" "$o/key.zkey" --seed 0123abcd \
            --vk "$o/vk_cuzk.json" --threads 2
        check "$curve $circ snarkjs prove" node "$SNARKJS" groth16 prove "$o/key.zkey" \
            "$d/$circ.wtns" "$o/proof.json" "$o/public.json"
        check "$curve $circ snarkjs verify (cuzk vk)" node "$SNARKJS" groth16 verify \
            "$o/vk_cuzk.json" "$o/public.json" "$o/proof.json"
        check "$curve $circ snarkjs export vk" node "$SNARKJS" zkey export verificationkey \
            "$o/key.zkey" "$o/vk_snarkjs.json"
        check "$curve $circ snarkjs verify (snarkjs vk)" node "$SNARKJS" groth16 verify \
            "$o/vk_snarkjs.json" "$o/public.json" "$o/proof.json"
        # A changed public input must be rejected (snarkjs verify exits non-zero).
        node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));
                 p[p.length-1]=(BigInt(p[p.length-1])+1n).toString();
                 fs.writeFileSync(process.argv[2],JSON.stringify(p));' \
            "$o/public.json" "$o/public_bad.json" 2>/dev/null
        check_fails "$curve $circ snarkjs rejects a changed input" node "$SNARKJS" groth16 verify \
            "$o/vk_cuzk.json" "$o/public_bad.json" "$o/proof.json"
    done
done
check_fails "setup refuses a missing r1cs" "$SETUP" setup "$TMP/none.r1cs" "$TMP/none.zkey"
check "setup --help says insecure" bash -c "'$SETUP' setup --help | grep -q INSECURE"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
