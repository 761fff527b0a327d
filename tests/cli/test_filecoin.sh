#!/usr/bin/env bash
# `cuzk filecoin circuit-info`, `setup`, `fake-vanilla`, `prove` and `verify` from the outside
# (docs/filecoin.md). The sizes it must print are
# the published ones (rust-fil-proofs PR #1325 for WinningPoSt 32 GiB: 370,590 constraints and
# 133 inputs; the research model's aux counts, which reproduce every published figure), checked
# field by field with Node's JSON parser; unknown kinds, kinds not implemented yet, sizes
# Filecoin has no PoSt for and missing arguments exit 2 with a message naming them.
#   tests/cli/test_filecoin.sh CUZK SCRATCH_DIR       (run from the source root; ctest does)
set -u
CUZK=${1:?usage: test_filecoin.sh CUZK SCRATCH_DIR}
T=${2:?usage: test_filecoin.sh CUZK SCRATCH_DIR}
rm -rf "$T" && mkdir -p "$T" || exit 1
. "$(dirname "$0")/lib.sh"
# field NAME: the value of a member of the JSON object in $T/out, by Node.
field() {
    node -e 'const o = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
             process.stdout.write(String(o[process.argv[2]]));' "$T/out" "$1"
}
# shape KIND SIZE CONSTRAINTS INPUTS AUX DOMAIN_LOG
shape() {
    cz filecoin circuit-info "$1" --sector-size "$2"
    check "$1 $2 exits 0" test "$rc" = 0
    check "$1 $2: $3 constraints" test "$(field constraints)" = "$3"
    check "$1 $2: $4 inputs" test "$(field inputs)" = "$4"
    check "$1 $2: $5 aux" test "$(field aux)" = "$5"
    check "$1 $2: domain 2^$6" test "$(field domain_log)" = "$6"
    check "$1 $2: only ONE among the inputs in B" test "$(field b_input_density)" = 1
}
shape winning-post 2KiB 90750 133 91674 17
shape window-post 2KiB 21866 23 22128 15
shape winning-post 32GiB 370590 133 375210 19
shape winning-post 34359738368 370590 133 375210 19

# Recording 2.7 M (PoRep) and 1.7 M (SnapDeals) rows takes minutes under ASan; the plain build
# counts them here and the sanitizer builds record both circuits in their C tests.
sanitized() { [ "${CZ_TEST_SANITIZER:-}" = address ] || [ "${CZ_TEST_SANITIZER:-}" = thread ]; }
sanitized || shape porep-c2 2KiB 2687921 40 2685673 22
cz filecoin circuit-info porep-c2 --sector-size 4KiB
check "porep-c2 4KiB: exit 2, the size named" bash -c "[ $rc = 2 ] && grep -q '4096 bytes' '$T/err'"
# SnapDeals: storage-proofs-update's tests/circuit.rs count 1,705,039 constraints at 2 KiB; the
# 4 public inputs of its PublicInputs and ONE
if ! sanitized; then
    cz filecoin circuit-info snap-update --sector-size 2KiB
    check "snap-update 2KiB exits 0" test "$rc" = 0
    check "snap-update 2KiB: 1705039 constraints" test "$(field constraints)" = 1705039
    check "snap-update 2KiB: 5 inputs" test "$(field inputs)" = 5
    check "snap-update 2KiB: domain 2^21" test "$(field domain_log)" = 21
    check "snap-update 2KiB: only ONE among the inputs in B" test "$(field b_input_density)" = 1
fi
cz filecoin circuit-info snap-update --sector-size 4GiB
check "snap-update 4GiB: exit 2, the size named" bash -c "[ $rc = 2 ] && grep -q '4294967296 bytes' '$T/err'"
# fake-update: a 2 KiB update's one partition, a PartitionProof of 32 (comm_c) + 8 + 8·32 (apex
# leaves) + 8 + 10 challenges × (2 tree R proofs of 556 bytes + a tree D proof of 364)
mkdir -p "$T/fu"
cz filecoin fake-update --sector-size 2KiB --seed 3 -o "$T/fu"
check "fake-update 2KiB exits 0" test "$rc" = 0
check "... one vanilla proof of 15064 bytes" test "$(wc -c <"$T/fu/vanilla-0.bin")" = 15064
check "... registered proof 0, h 1, one partition" \
    bash -c "grep -qx 'registered_proof 0' '$T/fu/request.txt' && grep -qx 'h 1' '$T/fu/request.txt' &&
             grep -qx 'partitions 1' '$T/fu/request.txt'"
check "... comm_r_old, comm_d_new, comm_r_new as 64 hex digits" \
    test "$(grep -cE '^comm_(r_old|d_new|r_new) [0-9a-f]{64}$' "$T/fu/request.txt")" = 3
cz filecoin fake-update --sector-size 2KiB --h 10 -o "$T/fu"
check "fake-update 2KiB --h 10: exit 2, h named" bash -c "[ $rc = 2 ] && grep -q 'h = 10' '$T/err'"
cz filecoin fake-update --sector-size 4GiB -o "$T/fu"
check "fake-update 4GiB: exit 2, the size named" bash -c "[ $rc = 2 ] && grep -q '4294967296 bytes' '$T/err'"
# the Poseidon variant: storage-proofs-update's tests/circuit_poseidon.rs count 32,164 at 1 KiB
cz filecoin circuit-info snap-update-poseidon --sector-size 1KiB
check "snap-update-poseidon 1KiB: 32164 constraints, 5 inputs" \
    bash -c "[ $rc = 0 ] && grep -q '\"constraints\":32164,\"inputs\":5,' '$T/out'"
cz filecoin circuit-info bogus --sector-size 2KiB
check "unknown kind: exit 2, named" bash -c "[ $rc = 2 ] && grep -q \"unknown kind 'bogus'\" '$T/err'"
cz filecoin circuit-info window-post --sector-size 3KiB
check "3KiB: exit 2, the size named" bash -c "[ $rc = 2 ] && grep -q '3072 bytes' '$T/err'"
cz filecoin circuit-info window-post
check "no size: exit 2" test "$rc" = 2
cz filecoin frobnicate
check "unknown subcommand: exit 2" bash -c "[ $rc = 2 ] && grep -q frobnicate '$T/err'"
cz filecoin --help
check "--help: exit 0, usage on stdout" bash -c "[ $rc = 0 ] && grep -q circuit-info '$T/out'"
# setup: a local key under the Filecoin names; reproducible with --seed; not the official one.
WV=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0
mkdir -p "$T/p1" "$T/p2"
cz filecoin setup window-post --sector-size 2KiB --params-dir "$T/p1" --seed 0102
check "setup window-post 2KiB exits 0" test "$rc" = 0
check "... says INSECURE" grep -q INSECURE "$T/err"
check "... writes the .params and .vk under the Filecoin names" \
    test -s "$T/p1/$WV.params" -a -s "$T/p1/$WV.vk"
cz info "$T/p1/$WV.vk"
check "... the vk has 22 public inputs (2 sectors x (comm_r + 10 challenges))" \
    grep -q "public inputs: 22" "$T/out"
"$CUZK" filecoin setup window-post --sector-size 2KiB --params-dir "$T/p2" --seed 0102 2>/dev/null
check "the same seed makes the same key" cmp -s "$T/p1/$WV.params" "$T/p2/$WV.params"
cz params check --sector-size 2KiB "$T/p1"
check "params check: the local key is a MISMATCH (exit 1)" \
    bash -c "[ $rc = 1 ] && grep -q \"MISMATCH.*$WV.vk\" '$T/out'"
cz filecoin setup window-post --sector-size 2KiB
check "setup without --params-dir: exit 2" test "$rc" = 2
cz filecoin setup window-post --sector-size 2KiB --params-dir "$T/p1" --seed 012
check "setup with an odd --seed: exit 2" test "$rc" = 2

# fake-vanilla -> prove -> verify, WindowPoSt (V1_1 and V1) and WinningPoSt at 2 KiB, under the
# local keys; the verifier is cuzk's (held to @noble/curves by interop_bellperson_verify).
rnd() { awk '/^randomness/{print $2}' "$1/request.txt"; }
for v in v11 v1; do
    F="$T/fake-$v"
    mkdir -p "$F"
    [ $v = v1 ] && V1=--v1 REG=5 || V1= REG=10
    cz filecoin fake-vanilla window-post --sector-size 2KiB --sectors 2 --seed 5 -o "$F" $V1
    check "fake-vanilla window-post ($v) exits 0" test "$rc" = 0
    check "... registered proof $REG, two sectors" \
        bash -c "grep -qx 'registered_proof $REG' '$F/request.txt' && [ \$(grep -c ^sector '$F/request.txt') = 2 ]"
    check "... 5680 bytes per vanilla proof" test "$(wc -c <"$F/vanilla-0.bin")" = 5680
    cz filecoin prove window-post --params-dir "$T/p1" --registered-proof $REG \
        --randomness "$(rnd "$F")" --vanilla "$F/vanilla-0.bin" --vanilla "$F/vanilla-1.bin" \
        -o "$F/proof.bin"
    check "prove window-post ($v) exits 0 and writes 192 bytes" \
        bash -c "[ $rc = 0 ] && [ \$(wc -c <'$F/proof.bin') = 192 ]"
    cz filecoin verify window-post --params-dir "$T/p1" --registered-proof $REG \
        --randomness "$(rnd "$F")" --vanilla "$F/vanilla-0.bin" --vanilla "$F/vanilla-1.bin" \
        "$F/proof.bin"
    check "verify window-post ($v): valid, exit 0" bash -c "[ $rc = 0 ] && grep -qx valid '$T/out'"
done
F="$T/fake-v11"
OTHER=$(rnd "$F" | sed 's/^\(.\)\(.\)/\2\1/')
cz filecoin verify window-post --params-dir "$T/p1" --registered-proof 10 --randomness "$OTHER" \
    --vanilla "$F/vanilla-0.bin" --vanilla "$F/vanilla-1.bin" "$F/proof.bin"
check "verify under another randomness: invalid, exit 1" \
    bash -c "[ $rc = 1 ] && grep -qx invalid '$T/out'"
cz filecoin verify window-post --params-dir "$T/p1" --registered-proof 5 --randomness "$(rnd "$F")" \
    --vanilla "$F/vanilla-0.bin" --vanilla "$F/vanilla-1.bin" "$F/proof.bin"
check "verify with the V1 indexes of a V1_1 proof: exit 1" test "$rc" = 1
cz filecoin prove window-post --params-dir "$T/p1" --registered-proof 10 --randomness "$OTHER" \
    --vanilla "$F/vanilla-0.bin" --vanilla "$F/vanilla-1.bin" -o "$T/bad.bin"
check "prove under another randomness: exit 3 naming sector and challenge" \
    bash -c "[ $rc = 3 ] && grep -q 'sector 1000: challenge 0: the path opens leaf' '$T/err'"
cz filecoin prove window-post --params-dir "$T/p1" --registered-proof 10 --randomness "$(rnd "$F")" \
    --vanilla "$F/vanilla-1.bin" --vanilla "$F/vanilla-0.bin" -o "$T/bad.bin"
check "prove with the sectors out of order: exit 3" \
    bash -c "[ $rc = 3 ] && grep -q 'ascending id' '$T/err'"
head -c 1000 "$F/vanilla-0.bin" >"$T/short.bin"
cz filecoin prove window-post --params-dir "$T/p1" --registered-proof 10 --randomness "$(rnd "$F")" \
    --vanilla "$T/short.bin" -o "$T/bad.bin"
check "prove with a truncated vanilla proof: exit 3 naming it" \
    bash -c "[ $rc = 3 ] && grep -q 'vanilla proof 0' '$T/err'"
# vanilla-check: the native checks alone, no key
cz filecoin vanilla-check window-post --registered-proof 10 --randomness "$(rnd "$F")" \
    --vanilla "$F/vanilla-0.bin" --vanilla "$F/vanilla-1.bin"
check "vanilla-check: exit 0, 20 inclusion proofs hold" \
    bash -c "[ $rc = 0 ] && grep -q '2 vanilla proofs, 20 inclusion proofs hold' '$T/out'"
cz filecoin vanilla-check window-post --registered-proof 10 --randomness "$OTHER" \
    --vanilla "$F/vanilla-0.bin" --vanilla "$F/vanilla-1.bin"
check "vanilla-check under another randomness: exit 3 naming sector and challenge" \
    bash -c "[ $rc = 3 ] && grep -q 'sector 1000: challenge 0: the path opens leaf' '$T/err'"
cz filecoin vanilla-check window-post --registered-proof 10 --randomness "$(rnd "$F")" \
    --vanilla "$T/short.bin"
check "vanilla-check of a truncated proof: exit 3" test "$rc" = 3
cz filecoin vanilla-check window-post --registered-proof 10 --vanilla "$F/vanilla-0.bin"
check "vanilla-check without --randomness: exit 2" test "$rc" = 2
# an unreadable C1 is named before any other work (it once freed a C1 never read)
for args in "vanilla-check" "prove --params-dir $T -o $T/x" "verify --params-dir $T $T/x"; do
    set -- $args
    sub=$1
    shift
    cz filecoin "$sub" porep-c2 --c1 "$T/no-such-c1.json" "$@"
    check "porep-c2 $sub with an unreadable --c1: exit 3 naming it" \
        bash -c "[ $rc = 3 ] && grep -q 'no-such-c1.json: No such file' '$T/err'"
done
mkdir -p "$T/fw"
"$CUZK" filecoin setup winning-post --sector-size 2KiB --params-dir "$T/p1" --seed 0103 2>/dev/null
cz filecoin fake-vanilla winning-post --sector-size 2KiB --sectors 1 --seed 9 -o "$T/fw"
check "fake-vanilla winning-post: 66 inclusion proofs (36816 bytes)" \
    test "$(wc -c <"$T/fw/vanilla-0.bin")" = 36816
cz filecoin prove winning-post --params-dir "$T/p1" --registered-proof 0 \
    --randomness "$(rnd "$T/fw")" --vanilla "$T/fw/vanilla-0.bin" -o "$T/fw/proof.bin"
check "prove winning-post exits 0" test "$rc" = 0
cz filecoin verify winning-post --params-dir "$T/p1" --registered-proof 0 \
    --randomness "$(rnd "$T/fw")" --vanilla "$T/fw/vanilla-0.bin" "$T/fw/proof.bin"
check "verify winning-post: valid" test "$rc" = 0
# the key and proof files verify reads (cz__cli_vk_and_proofs): each refused with exit 3, naming it
mkdir -p "$T/novk"
cz filecoin verify winning-post --params-dir "$T/novk" --registered-proof 0 \
    --randomness "$(rnd "$T/fw")" --vanilla "$T/fw/vanilla-0.bin" "$T/fw/proof.bin"
check "verify without the .vk: exit 3 naming the file" \
    bash -c "[ $rc = 3 ] && grep -q 'novk/v28-proof-of-spacetime-.*\.vk: cannot open' '$T/err'"
head -c 100 "$T/fw/proof.bin" >"$T/fw/short-proof.bin"
cz filecoin verify winning-post --params-dir "$T/p1" --registered-proof 0 \
    --randomness "$(rnd "$T/fw")" --vanilla "$T/fw/vanilla-0.bin" "$T/fw/short-proof.bin"
check "verify of a truncated proof file: exit 3 naming it" \
    bash -c "[ $rc = 3 ] && grep -q 'short-proof.bin: 100 bytes are not a whole number' '$T/err'"
# A's infinity flag (0x40 of its first byte) set beside its non-zero x: never an encoding
cp "$T/fw/proof.bin" "$T/fw/bad-proof.bin"
b0=$(od -An -tu1 -N1 "$T/fw/proof.bin" | tr -d ' ')
printf "\\$(printf '%03o' $((b0 | 0x40)))" | dd of="$T/fw/bad-proof.bin" bs=1 conv=notrunc 2>/dev/null
cz filecoin verify winning-post --params-dir "$T/p1" --registered-proof 0 \
    --randomness "$(rnd "$T/fw")" --vanilla "$T/fw/vanilla-0.bin" "$T/fw/bad-proof.bin"
check "verify of a proof whose A is flagged infinity beside its x: exit 3 naming it" \
    bash -c "[ $rc = 3 ] && grep -q 'bad-proof.bin: .*not a point of the curve (A)' '$T/err'"
cz filecoin verify window-post --params-dir "$T/p1" --registered-proof 0 \
    --randomness "$(rnd "$T/fw")" --vanilla "$T/fw/vanilla-0.bin" "$T/fw/proof.bin"
check "a WinningPoSt registered proof for window-post: exit 2" test "$rc" = 2

if [ "$fails" -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all checks passed"
