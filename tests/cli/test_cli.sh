#!/usr/bin/env bash
# The `cuzk` command line from the outside, on the example keys (examples/): what `prove -v`
# prints, `verify` of a proof.json without "curve" (as rapidsnark writes it) and of one whose
# "curve" is not the key's, and the messages for a public input that is not below r and for a
# file that is not JSON (they name the place, never the file's text).
#   tests/cli/test_cli.sh CUZK SCRATCH_DIR       (run from the source root; ctest does)
set -u
CUZK=${1:?usage: test_cli.sh CUZK SCRATCH_DIR}
T=${2:?usage: test_cli.sh CUZK SCRATCH_DIR}
EX=examples/poseidon
rm -rf "$T" && mkdir -p "$T" || exit 1
fails=0
check() { # check NAME COMMAND...: the command must succeed
    local name=$1
    shift
    if "$@"; then
        echo "ok   $name"
    else
        echo "FAIL $name"
        fails=$((fails + 1))
    fi
}
# Runs cuzk, its stdout+stderr in $T/out; the exit status in $rc.
cz() {
    "$CUZK" "$@" >"$T/out" 2>&1
    rc=$?
}

# prove -v: the constraint count and the domain apart, every time with its unit.
cz prove -v "$EX/poseidon_chain.zkey" "$EX/poseidon_chain.wtns" "$T/proof.json" "$T/public.json"
check "prove -v exits 0" test "$rc" = 0
check "prove -v: '2068 constraints, domain 2^12'" grep -q 'bn128, 2068 constraints, domain 2^12,' "$T/out"
check "prove -v: no 'constraints domain'" bash -c "! grep -q 'constraints domain' '$T/out'"
check "prove -v: every step time in ms" \
    grep -Eq 'load [0-9.]+ ms, witness [0-9.]+ ms, ntt [0-9.]+ ms, msm A [0-9.]+ ms, B1 [0-9.]+ ms, B2\(G2\) [0-9.]+ ms, C [0-9.]+ ms, H [0-9.]+ ms; prove [0-9.]+ ms' "$T/out"
cat "$T/out"

cz vk "$EX/poseidon_chain.zkey" "$T/vk.json"
check "vk exits 0" test "$rc" = 0
cz verify "$T/vk.json" "$T/public.json" "$T/proof.json"
check "verify of the proof as written" test "$rc" = 0

# rapidsnark's proof.json: no "curve" key (the proof is written exactly as snarkjs writes it).
sed -e '/"curve":/d' -e 's/"protocol": "groth16",/"protocol": "groth16"/' "$T/proof.json" \
    >"$T/nocurve.json"
check "the test proof has no \"curve\"" bash -c "! grep -q curve '$T/nocurve.json'"
cz verify "$T/vk.json" "$T/public.json" "$T/nocurve.json"
check "verify of a proof without \"curve\" exits 0 (OK)" test "$rc" = 0
check "... and prints OK" grep -qx OK "$T/out"

# A "curve" that is not the key's: refused (exit 3), naming both curves.
sed 's/"curve": "bn128"/"curve": "bls12381"/' "$T/proof.json" >"$T/othercurve.json"
cz verify "$T/vk.json" "$T/public.json" "$T/othercurve.json"
check "verify of a bls12381 proof with a bn128 key exits 3" test "$rc" = 3
check "... saying which curves" \
    grep -q "othercurve.json: the proof's \"curve\" is \"bls12381\" but the verification key's is bn128" "$T/out"
cat "$T/out"

# A public input above r: named by its index and length, never shown (errors quote no file's
# contents).
big=$(printf '9%.0s' $(seq 100))
printf '["%s"]\n' "$big" >"$T/big_public.json"
cz verify "$T/vk.json" "$T/big_public.json" "$T/proof.json"
check "a 100-digit public input exits 3" test "$rc" = 3
check "... and is named by its index and length" \
    grep -q "big_public.json: \[0\]: the value of 100 characters is not a decimal number below r" \
    "$T/out"
check "... without its digits" bash -c "! grep -q 99999 '$T/out'"
cat "$T/out"
over=21888242871839275222246405745257275088548364400416034343698204186575808495617 # r
printf '["%s"]\n' "$over" >"$T/r_public.json"
cz verify "$T/vk.json" "$T/r_public.json" "$T/proof.json"
check "r itself as a public input exits 3, named by its length" \
    grep -q "\[0\]: the value of 77 characters is not a decimal number below r" "$T/out"
check "... without its digits" bash -c "! grep -q 2188824287 '$T/out'"
cat "$T/out"
# A file that is not JSON: the place and the reason, not its text.
printf 'root:x:0:0:secretword\n' >"$T/notjson.json"
cz verify "$T/vk.json" "$T/notjson.json" "$T/proof.json"
check "a file that is not JSON exits 3" test "$rc" = 3
check "... naming the file, line and column" grep -q "notjson.json:1:[0-9]*: not valid JSON" "$T/out"
check "... without its text" bash -c "! grep -q -e secretword -e 'root:x' '$T/out'"
cat "$T/out"

if [ "$fails" -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all checks passed"
