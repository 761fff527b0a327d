#!/usr/bin/env bash
# `make install` into a temporary DESTDIR with PREFIX=/usr, then checks what was installed:
# the programs built in BUILD (cuzk, cuzk-daemon, cuzk-bench) and that they run, libcuzk.a, every
# public header (each one compiles on its own from the installed tree, except the *_api.h
# templates), the example configuration (byte for byte, and the installed daemon reads it back
# unchanged with --print-config), the .proto and the systemd unit with ExecStart pointing at
# /usr/bin. Nothing may land outside DESTDIR/usr.
# Usage: scripts/test_install.sh [BUILD dir, default build]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # check NAME COMMAND...
    local name=$1
    shift
    if "$@" >/dev/null 2>&1; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}

make --no-print-directory install BUILD="$BUILD" DESTDIR="$tmp/root" PREFIX=/usr >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; echo "FAIL make install"; exit 1; }
r=$tmp/root/usr

check "everything under DESTDIR/usr" test -z "$(cd "$tmp/root" && find . -mindepth 1 -maxdepth 1 ! -name usr)"
for prog in cuzk cuzk-daemon cuzk-bench; do
    if [ -x "$BUILD/$prog" ]; then
        check "bin/$prog installed" test -x "$r/bin/$prog"
    fi
done
lib=$(find "$r" -name libcuzk.a | head -n 1)
check "libcuzk.a installed (lib/ or lib/<multiarch>/)" test -n "$lib"
nsrc=$(ls include/cuzk/*.h | wc -l)
ninst=$(ls "$r"/include/cuzk/*.h 2>/dev/null | wc -l)
check "include/cuzk: all $nsrc public headers" test "$nsrc" = "$ninst"
check "include/cuzk: the same contents" diff -r include/cuzk "$r/include/cuzk"
bad=""
for h in "$r"/include/cuzk/*.h; do
    case $h in *_api.h) continue ;; esac # X-macro templates, included with their parameters
    echo "#include <cuzk/$(basename "$h")>" |
        ${CC:-cc} -std=c11 -D_GNU_SOURCE -fsyntax-only -I"$r/include" -x c - 2>/dev/null || bad="$bad $h"
done
check "each installed header compiles on its own${bad:+ (not:$bad)}" test -z "$bad"
check "share/cuzk/cuzk.example.toml" cmp cuzk.example.toml "$r/share/cuzk/cuzk.example.toml"
check "share/cuzk/proving.proto" cmp proto/cuzk/v1/proving.proto "$r/share/cuzk/proving.proto"
check "share/cuzk/cuzk-daemon.service: ExecStart=/usr/bin/cuzk-daemon" \
    grep -q '^ExecStart=/usr/bin/cuzk-daemon --config /etc/cuzk/cuzk.toml' "$r/share/cuzk/cuzk-daemon.service"
# daemon.state_dir's default, /var/lib/cuzk, is the unit's StateDirectory, private to its user
check "share/cuzk/cuzk-daemon.service: StateDirectory=cuzk, mode 0700, for state_dir = /var/lib/cuzk" \
    bash -c "grep -qx StateDirectory=cuzk '$r/share/cuzk/cuzk-daemon.service' &&
             grep -qx StateDirectoryMode=0700 '$r/share/cuzk/cuzk-daemon.service' &&
             grep -qx 'state_dir = \"/var/lib/cuzk\"' cuzk.example.toml"

if [ -x "$r/bin/cuzk" ]; then
    check "installed cuzk --help" "$r/bin/cuzk" --help
    check "installed cuzk info on a key" "$r/bin/cuzk" info examples/poseidon/poseidon_chain.zkey
fi
if [ -x "$r/bin/cuzk-daemon" ]; then
    check "installed cuzk-daemon --help" "$r/bin/cuzk-daemon" --help
    "$r/bin/cuzk-daemon" --config "$r/share/cuzk/cuzk.example.toml" --print-config >"$tmp/printed.toml" 2>&1 || true
    check "installed cuzk-daemon reads the installed example back unchanged" \
        cmp "$tmp/printed.toml" cuzk.example.toml
fi
if [ -x "$r/bin/cuzk-bench" ]; then
    check "installed cuzk-bench --help" "$r/bin/cuzk-bench" --help
fi
[ $fail = 0 ] && echo "test-install: passed" || echo "test-install: FAILED"
exit $fail
