#!/usr/bin/env bash
# SnapDeals from the outside (docs/filecoin.md, "SnapDeals"): `cuzk filecoin fake-update`,
# `vanilla-check`, and (not under a sanitizer: the key's setup alone takes about a minute on two
# cores; under ctest the key comes from the filecoin_keys_2k fixture, tests/cli/make_keys_2k.sh)
# `setup`, `prove` and `verify snap-update` of a 2 KiB update; all of them for the
# Poseidon variant (snap-update-poseidon, whose 2 KiB key takes seconds) in every build. Oracles: the independent
# @noble/curves verifier (tests/interop/bellperson_verify.mjs) with the public inputs computed
# from storage-proofs-update's PublicInputs by tests/interop/snap_inputs.mjs; a proof checked
# against another comm_r_old must be invalid; a vanilla proof of
# another update, or one cut short, must be refused by name before any proving.
#   tests/cli/test_snap.sh CUZK SCRATCH_DIR       (run from the source root; ctest does)
set -u
CUZK=${1:?usage: test_snap.sh CUZK SCRATCH_DIR}
T=${2:?usage: test_snap.sh CUZK SCRATCH_DIR}
rm -rf "$T" && mkdir -p "$T/v" "$T/p" || exit 1
. "$(dirname "$0")/lib.sh"
g() { awk -v k="$2" '$1 == k { print $2 }' "$1/request.txt"; }
noble_inputs() { # DIR OUT: the public inputs of DIR's update for the noble verifier, from the
    # specification (tests/interop/snap_inputs.mjs)
    node tests/interop/snap_inputs.mjs "$1/request.txt" >"$2"
}
comms() { echo --comm-r-old "$(g "$1" comm_r_old)" --comm-d-new "$(g "$1" comm_d_new)" \
    --comm-r-new "$(g "$1" comm_r_new)"; }

cz filecoin fake-update --sector-size 2KiB --seed 4 -o "$T/u"
check "fake-update exits 0, its folder made" test "$rc" = 0 -a -s "$T/u/vanilla-0.bin"
cz filecoin fake-update --sector-size 2KiB --seed 4 -o "$T/none/u"
check "fake-update into a folder whose parent is missing: exit 3, named" \
    bash -c "[ $rc = 3 ] && grep -q 'cannot create the folder $T/none/u' '$T/err'"
cz filecoin fake-update --sector-size 2KiB --seed 5 -o "$T/v"
cz filecoin vanilla-check snap-update --registered-proof 0 $(comms "$T/u") --vanilla "$T/u/vanilla-0.bin"
check "vanilla-check: ok" bash -c "[ $rc = 0 ] && grep -q '^ok: 1 partitions of 10 challenges hold' '$T/out'"
cz filecoin vanilla-check snap-update --registered-proof 0 $(comms "$T/u") --vanilla "$T/v/vanilla-0.bin"
check "another update's vanilla proof: exit 3, named" \
    bash -c "[ $rc = 3 ] && grep -q 'partition 0: Poseidon(comm_c, root_r_old) is not comm_r_old' '$T/err'"
head -c 1000 "$T/u/vanilla-0.bin" >"$T/cut.bin"
cz filecoin vanilla-check snap-update --registered-proof 0 $(comms "$T/u") --vanilla "$T/cut.bin"
check "a vanilla proof cut short: exit 3, the place named" \
    bash -c "[ $rc = 3 ] && grep -q 'partition 0: challenge 0: proof_d_new' '$T/err'"
cz filecoin vanilla-check snap-update --registered-proof 9 $(comms "$T/u") --vanilla "$T/u/vanilla-0.bin"
check "registered proof 9: exit 3, named" \
    bash -c "[ $rc = 3 ] && grep -q 'registered update proof 9 is unknown' '$T/err'"
cz filecoin prove snap-update --params-dir "$T/p" --registered-proof 0 $(comms "$T/u") \
    --vanilla "$T/u/vanilla-0.bin" --vanilla "$T/u/vanilla-0.bin" -o "$T/x"
check "two vanilla proofs for one partition: exit 3" \
    bash -c "[ $rc = 3 ] && grep -q '2 vanilla proofs for the 1 partitions' '$T/err'"

if [ "${CZ_TEST_SANITIZER:-}" != address ] && [ "${CZ_TEST_SANITIZER:-}" != thread ]; then
    # the key: the fixture's (CZ_TEST_KEYS_2K, tests/cli/make_keys_2k.sh) when ctest made one
    if [ -n "${CZ_TEST_KEYS_2K:-}" ]; then
        P=$CZ_TEST_KEYS_2K/snap-update
    else
        P=$T/p
        cz filecoin setup snap-update --sector-size 2KiB --params-dir "$P" --seed 0105
        check "setup exits 0" test "$rc" = 0
    fi
    cz filecoin prove snap-update --params-dir "$P" --registered-proof 0 $(comms "$T/u") \
        --vanilla "$T/u/vanilla-0.bin" -o "$T/u/proof.bin"
    check "prove: one 192-byte proof" bash -c "[ $rc = 0 ] && [ \$(wc -c <'$T/u/proof.bin') = 192 ]"
    cz filecoin verify snap-update --params-dir "$P" --registered-proof 0 $(comms "$T/u") "$T/u/proof.bin"
    check "verify: valid" bash -c "[ $rc = 0 ] && grep -q '^valid' '$T/out'"
    cz filecoin verify snap-update --params-dir "$P" --registered-proof 0 \
        --comm-r-old "$(g "$T/v" comm_r_old)" --comm-d-new "$(g "$T/u" comm_d_new)" \
        --comm-r-new "$(g "$T/u" comm_r_new)" "$T/u/proof.bin"
    check "verify against another comm_r_old: invalid (exit 1)" test "$rc" = 1
    noble_inputs "$T/u" "$T/inputs.json"
    node tests/interop/bellperson_verify.mjs "$P"/*.vk "$T/u/proof.bin" "$T/inputs.json" >"$T/out" 2>&1
    check "the noble verifier accepts the proof" test $? = 0
fi
if [ "${CZ_TEST_SANITIZER:-}" != address ] && [ "${CZ_TEST_SANITIZER:-}" != thread ]; then
    # a 32 GiB update (repeating leaves, about 20 s): its 16 partitions pass the native check
    mkdir -p "$T/big"
    cz filecoin fake-update --sector-size 32GiB -o "$T/big"
    check "fake-update 32GiB: 16 partitions" \
        bash -c "[ $rc = 0 ] && grep -q '^partitions 16' '$T/big/request.txt' && [ -s '$T/big/vanilla-15.bin' ]"
    cz filecoin vanilla-check snap-update --registered-proof 3 $(comms "$T/big") \
        $(for k in $(seq 0 15); do echo --vanilla "$T/big/vanilla-$k.bin"; done)
    check "vanilla-check of the 32 GiB update: ok" \
        bash -c "[ $rc = 0 ] && grep -q '^ok: 16 partitions of 86 challenges hold' '$T/out'"
fi
# The Poseidon variant (snap-update-poseidon): 36 K rows at 2 KiB, cheap enough for every build.
mkdir -p "$T/q" "$T/pq"
cz filecoin fake-update --sector-size 2KiB --poseidon --seed 6 -o "$T/q"
check "fake-update --poseidon: the variant in request.txt" \
    bash -c "[ $rc = 0 ] && grep -q '^variant empty-sector-update-poseidon' '$T/q/request.txt'"
cz filecoin vanilla-check snap-update-poseidon --registered-proof 0 $(comms "$T/q") --vanilla "$T/q/vanilla-0.bin"
check "vanilla-check snap-update-poseidon: ok" bash -c "[ $rc = 0 ] && grep -q '^ok: 1 partitions of 10 challenges hold' '$T/out'"
cz filecoin vanilla-check snap-update --registered-proof 0 $(comms "$T/q") --vanilla "$T/q/vanilla-0.bin"
check "a Poseidon-variant proof taken as SHA-256's: exit 3, named" \
    bash -c "[ $rc = 3 ] && grep -q 'the number of apex leaves is 10, not 8' '$T/err'"
cz filecoin setup snap-update-poseidon --sector-size 2KiB --params-dir "$T/pq" --seed 0106
check "setup snap-update-poseidon: its own key files" \
    bash -c "[ $rc = 0 ] && [ -s '$T/pq/cuzk-empty-sector-update-poseidon-2048.vk' ]"
cz filecoin prove snap-update-poseidon --params-dir "$T/pq" --registered-proof 0 $(comms "$T/q") \
    --vanilla "$T/q/vanilla-0.bin" -o "$T/q/proof.bin"
check "prove snap-update-poseidon: one 192-byte proof" \
    bash -c "[ $rc = 0 ] && [ \$(wc -c <'$T/q/proof.bin') = 192 ]"
cz filecoin verify snap-update-poseidon --params-dir "$T/pq" --registered-proof 0 $(comms "$T/q") "$T/q/proof.bin"
check "verify snap-update-poseidon: valid" bash -c "[ $rc = 0 ] && grep -q '^valid' '$T/out'"
cz filecoin verify snap-update-poseidon --params-dir "$T/pq" --registered-proof 0 \
    --comm-r-old "$(g "$T/u" comm_r_old)" --comm-d-new "$(g "$T/q" comm_d_new)" \
    --comm-r-new "$(g "$T/q" comm_r_new)" "$T/q/proof.bin"
check "... against another comm_r_old: invalid (exit 1)" test "$rc" = 1
noble_inputs "$T/q" "$T/q/inputs.json"
node tests/interop/bellperson_verify.mjs "$T"/pq/*.vk "$T/q/proof.bin" "$T/q/inputs.json" >"$T/out" 2>&1
check "the noble verifier accepts the Poseidon-variant proof" test $? = 0

if [ "$fails" -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all checks passed"
