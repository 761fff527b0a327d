#!/usr/bin/env bash
# The local 2 KiB PoRep C2 and SnapDeals keys that daemon_porep, daemon_snap and cli_test_snap
# prove with, made once per test run (a CTest fixture, CMakeLists.txt) instead of once per test:
# each takes one to two minutes on two cores. `cuzk filecoin setup` into DIR/porep-c2 and
# DIR/snap-update; each must exit 0 and write its .params and .vk under the Filecoin names.
#   tests/cli/make_keys_2k.sh CUZK DIR       (run from the source root; ctest does)
set -u
CUZK=${1:?usage: make_keys_2k.sh CUZK DIR}
T=${2:?usage: make_keys_2k.sh CUZK DIR}
rm -rf "$T" && mkdir -p "$T/porep-c2" "$T/snap-update" || exit 1
. "$(dirname "$0")/lib.sh"
for kind in porep-c2 snap-update; do
    cz filecoin setup "$kind" --sector-size 2KiB --params-dir "$T/$kind" --seed 0105
    check "setup $kind 2KiB exits 0" test "$rc" = 0
    check "... writes one .params and one .vk" \
        test "$(ls "$T/$kind"/v28-*.params | wc -l)" = 1 -a "$(ls "$T/$kind"/v28-*.vk | wc -l)" = 1
done
if [ "$fails" -ne 0 ]; then
    cat "$T/err"
    echo "$fails check(s) failed"
    exit 1
fi
echo "all checks passed"
