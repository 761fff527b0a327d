#!/usr/bin/env bash
# The `cuzk` command line from the outside, on the example keys (examples/): what `prove -v`
# prints, `verify` of a proof.json without "curve" (as rapidsnark writes it) and of one whose
# "curve" is not the key's, and the messages for a public input that is not below r and for a
# file that is not JSON (they name the place, never the file's text); `info` on bellperson files;
# `setup --bellperson`.
#   tests/cli/test_cli.sh CUZK SCRATCH_DIR       (run from the source root; ctest does)
set -u
CUZK=${1:?usage: test_cli.sh CUZK SCRATCH_DIR}
T=${2:?usage: test_cli.sh CUZK SCRATCH_DIR}
EX=examples/poseidon
rm -rf "$T" && mkdir -p "$T" || exit 1
. "$(dirname "$0")/lib.sh"
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

# info on bellperson files (noble's, from tests/vectors/bellperson_vectors.mjs): the kind, the
# counts, the partitions of a proof file; by extension and, without one, by size; clear errors.
BP=tests/vectors/out/bellperson
cz info "$BP/small.vk"
check "info .vk exits 0" test "$rc" = 0
check "... a verifying key with 2 public inputs" \
    bash -c "grep -q 'bellperson Groth16 verifying key (.vk)' '$T/out' && grep -q '^public inputs: 2$' '$T/out'"
cz info "$BP/small.params"
check "info .params exits 0" test "$rc" = 0
check "... H, L and B_G2 counted, points not read" \
    bash -c "grep -q '^H: 7 points (672 bytes, count at offset 1156)$' '$T/out' &&
             grep -q '^L: 5 points' '$T/out' && grep -q '^B_G2: 3 points (576 bytes' '$T/out' &&
             grep -q '^domain: 8 (H + 1)$' '$T/out' && grep -q 'not read' '$T/out'"
cz info --subgroup -t 2 "$BP/small.params"
check "info --subgroup .params checks every point" \
    grep -q '^points: all valid, on the curve and in the subgroup' "$T/out"
cz info "$BP/proofs.bin"
check "info of a proof file counts its partitions" \
    bash -c "grep -q '^partitions: 2$' '$T/out' && grep -q 'Groth16 proofs (bellperson' '$T/out'"
cp "$BP/small.params" "$T/key-no-extension"
cz info "$T/key-no-extension"
check "a .params without its extension is known by its size" \
    grep -q 'bellperson Groth16 parameters (.params)' "$T/out"
head -c 1000 "$BP/small.params" >"$T/cut.params"
cz info "$T/cut.params"
check "a cut .params exits 3 naming the section and offset" \
    bash -c "test $rc = 3 && grep -q 'cut.params: vk IC at offset 864: its 3 points' '$T/out'"
head -c 383 "$BP/proofs.bin" >"$T/cut.proof"
cz info "$T/cut.proof"
check "a file that fits no layout exits 3" \
    bash -c "test $rc = 3 && grep -q 'its 383 bytes fit no bellperson file' '$T/out'"
cat "$T/out"
cz info --check "$BP/small.params" extra
check "two files are a usage error" test "$rc" = 2

# setup --bellperson: a BLS12-381 mulchain (bench/gen_mulchain.mjs writes it), the counts and the
# INSECURE line, the same key for the same seed, the .vk as the first part of the .params; then
# the arguments it refuses (exit 2) and the inputs it refuses (exit 3), each with its message.
node bench/gen_mulchain.mjs bls12381 13 "$T/bp_chain" >/dev/null &&
    node bench/gen_mulchain.mjs bn128 13 "$T/bn_chain" >/dev/null
check "gen_mulchain writes the setup circuits" test -s "$T/bp_chain.r1cs" -a -s "$T/bn_chain.r1cs"
cz setup --bellperson "$T/bp_chain.r1cs" -o "$T/bp.params" --vk "$T/bp.vk" --seed 00ff --threads 2
check "setup --bellperson exits 0" test "$rc" = 0
check "... says the key is INSECURE" grep -q 'INSECURE bellperson test key' "$T/out"
check "... prints the counts" \
    grep -Eq 'domain 16, IC 3, H 15, L 13, A 16, B 13 \(G1 and G2\) on the CPU in [0-9.]+ s' "$T/out"
cat "$T/out"
cz info "$T/bp.params"
check "... the .params is one" bash -c "test $rc = 0 && grep -q '^B_G2: 13 points' '$T/out'"
cz info "$T/bp.vk"
want=$(node -e 'const c = require("crypto"), fs = require("fs");
console.log(c.createHash("blake2b512").update(fs.readFileSync(process.argv[1])).digest("hex").slice(0, 32));' "$T/bp.vk")
check "info prints the .vk's digest (BLAKE2b-512 by node)" grep -q "^digest: $want " "$T/out"
cz setup --bellperson "$T/bp_chain.r1cs" -o "$T/bp2.params" --seed 00ff
check "the same seed gives the same .params" cmp -s "$T/bp.params" "$T/bp2.params"
check "the .vk is the start of the .params" \
    cmp -s "$T/bp.vk" <(head -c "$(stat -c %s "$T/bp.vk")" "$T/bp.params")
# --gpu: the same key as the CPU's where a GPU is present; a clear error where there is none
cz setup --bellperson "$T/bp_chain.r1cs" -o "$T/bpg.params" --seed 00ff --gpu
if nvidia-smi -L >/dev/null 2>&1; then
    check "setup --gpu makes the CPU's key" bash -c "test $rc = 0 && cmp -s '$T/bp.params' '$T/bpg.params'"
else
    check "setup --gpu without a GPU fails naming it, writing nothing" \
        bash -c "test $rc != 0 && test $rc != 2 && grep -qi 'gpu' '$T/out' && test ! -e '$T/bpg.params'"
fi
cat "$T/out"
cz setup "$T/bp_chain.r1cs" "$T/x.zkey" --gpu
check "--gpu without --bellperson exits 2" \
    bash -c "test $rc = 2 && grep -q -- '--gpu and --device are for --bellperson' '$T/out'"
cz setup --bellperson "$T/bp_chain.r1cs" -o "$T/bp3.params"
check "a random trapdoor gives another .params" \
    bash -c "test $rc = 0 && ! cmp -s '$T/bp.params' '$T/bp3.params'"
cz setup --bellperson "$T/bp_chain.r1cs"
check "setup --bellperson without -o exits 2" \
    bash -c "test $rc = 2 && grep -q 'expected --bellperson R1CS -o KEY.params' '$T/out'"
cz setup --bellperson "$T/bp_chain.r1cs" "$T/x.zkey" -o "$T/x.params"
check "setup --bellperson with a second file exits 2" test "$rc" = 2
cz setup "$T/bp_chain.r1cs" "$T/x.zkey" -o "$T/x.params"
check "-o without --bellperson exits 2" \
    bash -c "test $rc = 2 && grep -q -- '-o is for --bellperson' '$T/out'"
cz setup --bellperson "$T/bp_chain.r1cs" -o "$T/x.params" --seed 0g
check "a bad --seed exits 2" test "$rc" = 2
cz setup --bellperson "$T/bn_chain.r1cs" -o "$T/x.params"
check "a BN254 circuit exits 3 naming both curves" \
    bash -c "test $rc = 3 && grep -q 'bellperson parameters are over BLS12-381, not bn128' '$T/out'"
cz setup --bellperson "$T/missing.r1cs" -o "$T/x.params"
check "a missing circuit exits 3" test "$rc" = 3
check "no .params is left by the refusals" test ! -e "$T/x.params"
cat "$T/out"

# prove --params / verify --vk with that key: the proof verifies here and with the independent
# noble verifier; fixed --r/--s give the same bytes twice; a changed input is INVALID (exit 1);
# the refusals name what is wrong.
R=0x1234 S=0xabcdef
cz prove --params "$T/bp.params" "$T/bp_chain.r1cs" "$T/bp_chain.wtns" -o "$T/bp.proof" \
    --public "$T/bp_public.json" --r $R --s $S --verify -v
check "prove --params exits 0" test "$rc" = 0
check "... writes one 192-byte proof" test "$(stat -c %s "$T/bp.proof" 2>/dev/null)" = 192
check "... says what it proved" grep -q 'bellperson key, 16 constraints' "$T/out"
cz prove --params "$T/bp.params" "$T/bp_chain.r1cs" "$T/bp_chain.wtns" -o "$T/bp2.proof" \
    --public "$T/bp2_public.json" --r $R --s $S
check "the same r, s give the same proof" cmp -s "$T/bp.proof" "$T/bp2.proof"
cz verify --vk "$T/bp.vk" "$T/bp.proof" "$T/bp_public.json"
check "verify --vk says OK" bash -c "test $rc = 0 && grep -q '^OK$' '$T/out'"
cz verify --vk "$T/bp.params" "$T/bp.proof" "$T/bp_public.json"
check "verify --vk takes the .params too" test "$rc" = 0
node -e 'const fs = require("fs");
fs.writeFileSync(process.argv[2], JSON.stringify([JSON.parse(fs.readFileSync(process.argv[1]))]));' \
    "$T/bp_public.json" "$T/bp_inputs.json"
node tests/interop/bellperson_verify.mjs "$T/bp.vk" "$T/bp.proof" "$T/bp_inputs.json" \
    >"$T/out" 2>&1
check "the noble verifier accepts the proof" test $? = 0
cat "$T/bp.proof" "$T/bp.proof" >"$T/bp_two.proof"
cz verify --vk "$T/bp.vk" "$T/bp_two.proof" "$T/bp_public.json" "$T/bp_public.json"
check "two partitions verify with two public files" test "$rc" = 0
cz verify --vk "$T/bp.vk" "$T/bp_two.proof" "$T/bp_public.json"
check "two proofs and one public file exit 2" \
    bash -c "test $rc = 2 && grep -q 'holds 2 proofs but 1 public files' '$T/out'"
node -e 'const fs = require("fs"), p = JSON.parse(fs.readFileSync(process.argv[1]));
p[0] = (BigInt(p[0]) + 1n).toString();
fs.writeFileSync(process.argv[2], JSON.stringify(p));' "$T/bp_public.json" "$T/bp_bad.json"
check "... (the changed input differs)" bash -c "! cmp -s '$T/bp_public.json' '$T/bp_bad.json'"
cz verify --vk "$T/bp.vk" "$T/bp.proof" "$T/bp_bad.json"
check "a changed input is INVALID, exit 1" bash -c "test $rc = 1 && grep -q '^INVALID$' '$T/out'"
cz prove --params "$T/bp.params" "$T/bn_chain.r1cs" "$T/bn_chain.wtns" -o "$T/x.proof" \
    --public "$T/x.json"
check "prove --params with a BN254 circuit exits 3" test "$rc" = 3
cz prove --params "$T/bp.params" "$T/bp_chain.r1cs" -o "$T/x.proof" --public "$T/x.json"
check "prove --params without a witness exits 2" test "$rc" = 2
check "no proof is left by the refusals" test ! -e "$T/x.proof"
cat "$T/out"

if [ "$fails" -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all checks passed"
