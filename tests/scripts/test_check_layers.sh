#!/usr/bin/env bash
# Tests the layer rule (src/LAYERS) both ways it is enforced:
# - scripts/check_layers.sh passes on this tree, and fails on a copy of src/ and include/ to which
#   one wrong include (or an unplaced folder or header) was added, naming the file and line;
# - with CC and the build's include roots (<build>/layers, CMakeLists.txt): a core file that
#   includes a header of a layer above does not compile, one that includes its own layer's does;
#   and check_layers.sh --objects refuses an object that calls a function of a layer above.
# Usage: tests/scripts/test_check_layers.sh SRCROOT [CC LAYER_ROOTS]
set -u
src=${1:?usage: test_check_layers.sh SRCROOT [CC LAYER_ROOTS]}
cc=${2:-}
roots=${3:-}
check="$src/scripts/check_layers.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# The real tree passes.
if out=$(bash "$check" "$src" 2>&1); then ok; else bad "check_layers on the tree: $out"; fi

# A copy to break: each case adds lines to one file (or adds a file) and expects the check to fail
# with the given message; the copy is restored after each case.
cp -r "$src/src" "$src/include" "$tmp/"
expect_fail() { # FILE LINE-TO-ADD EXPECTED-MESSAGE
    local file=$1 add=$2 want=$3 out rc
    cp "$tmp/$file" "$tmp/saved"
    printf '%s\n' "$add" >>"$tmp/$file"
    want=${want//@LINE@/$(wc -l <"$tmp/$file")}
    out=$(bash "$check" "$tmp" 2>&1)
    rc=$?
    cp "$tmp/saved" "$tmp/$file"
    if [ $rc -ne 1 ]; then
        bad "$file + '$add': exit $rc, want 1 (output: $out)"
    elif ! grep -qxF "$want" <<<"$out"; then
        bad "$file + '$add': no line '$want' in: $out"
    else
        ok
    fi
}
expect_fail src/core/err.c '#include "groth16/pending.h"' \
    'src/core/err.c:@LINE@: layer core includes groth16/pending.h (layer groth16 above it)'
expect_fail src/formats/zkey.c '#include "cuzk/groth16.h"' \
    'src/formats/zkey.c:@LINE@: layer formats includes cuzk/groth16.h (layer groth16 above it)'
expect_fail src/r1cs/r1cs.c '#include <formats/binfile.h>' \
    'src/r1cs/r1cs.c:@LINE@: layer r1cs includes formats/binfile.h (layer formats above it)'
expect_fail include/cuzk/field.h '#include "cuzk/engine.h"' \
    'include/cuzk/field.h:@LINE@: layer field includes cuzk/engine.h (layer engine above it)'
expect_fail src/engine/workq.c '#include "daemon/config.h"' \
    'src/engine/workq.c:@LINE@: layer engine includes daemon/config.h (layer daemon above it)'
expect_fail src/field/fields.c '#include "../engine/wait.h"' \
    'src/field/fields.c:@LINE@: layer field includes ../engine/wait.h (a path that climbs out with ..)'
# An include of a lower layer, and a folder's own header, are fine.
cp "$tmp/src/engine/workq.c" "$tmp/saved"
printf '#include "field/field.h"\n#include "wait.h"\n' >>"$tmp/src/engine/workq.c"
if out=$(bash "$check" "$tmp" 2>&1); then ok; else bad "downward include refused: $out"; fi
cp "$tmp/saved" "$tmp/src/engine/workq.c"
# A public header or a folder that src/LAYERS does not place.
touch "$tmp/include/cuzk/unplaced.h"
out=$(bash "$check" "$tmp" 2>&1) && bad "unplaced header passed" ||
    { grep -q '^include/cuzk/unplaced.h: public header not placed' <<<"$out" && ok || bad "unplaced header: $out"; }
rm "$tmp/include/cuzk/unplaced.h"
mkdir "$tmp/src/unplaced" && touch "$tmp/src/unplaced/x.c"
out=$(bash "$check" "$tmp" 2>&1) && bad "unplaced folder passed" ||
    { grep -q '^src/unplaced: folder not placed' <<<"$out" && ok || bad "unplaced folder: $out"; }
rm -r "$tmp/src/unplaced"
# The restored copy passes again (so the failures above came from the added lines).
if out=$(bash "$check" "$tmp" 2>&1); then ok; else bad "restored copy: $out"; fi

# The build's include roots: what compiles in the core layer and what does not.
if [ -n "$cc" ]; then
    compiles() { # LAYER INCLUDE...
        local layer=$1
        shift
        printf '#include "%s"\n' "$@" >"$tmp/probe.c"
        "$cc" -std=c11 -D_GNU_SOURCE -fsyntax-only -I"$roots/$layer" "$tmp/probe.c" >"$tmp/cc.out" 2>&1
    }
    if compiles core core/hex.h cuzk/err.h cuzk/curve_id.h; then ok; else bad "core's own headers: $(cat "$tmp/cc.out")"; fi
    if compiles groth16 cuzk/groth16.h formats/zkey_write.h curve/ec.h; then ok; else
        bad "groth16 and below: $(cat "$tmp/cc.out")"
    fi
    for inc in groth16/pending.h cuzk/groth16.h cuzk/engine.h formats/binfile.h; do
        if compiles core "$inc"; then
            bad "core compiled with #include \"$inc\""
        elif grep -qF "$inc" "$tmp/cc.out"; then
            ok
        else
            bad "core + $inc failed without naming it: $(cat "$tmp/cc.out")"
        fi
    done
    if compiles r1cs cuzk/r1cs.h; then ok; else bad "r1cs.h in r1cs: $(cat "$tmp/cc.out")"; fi
    if compiles r1cs cuzk/zkey.h; then bad "r1cs compiled with cuzk/zkey.h (formats)"; else ok; fi

    # --objects: a core object that calls a function defined in groth16 (a prototype written out
    # by hand, no include) fails; groth16 calling core is fine.
    obj() { # LAYER FILE C-SOURCE
        mkdir -p "$tmp/objs/CMakeFiles/cz_$1.dir/src/$1"
        printf '%s\n' "$3" >"$tmp/src/$1/$2"
        "$cc" -c -o "$tmp/objs/CMakeFiles/cz_$1.dir/src/$1/$2.o" "$tmp/src/$1/$2"
    }
    obj core low.c 'int cz_fake_high(void); int cz_fake_low(void); int cz_fake_low(void) { return cz_fake_high(); }'
    obj groth16 high.c 'int cz_fake_high(void); int cz_fake_high(void) { return 1; }'
    out=$(bash "$check" "$tmp" --objects "$tmp/objs" 2>&1) && bad "upward call passed: $out" ||
        { grep -qxF 'src/core/low.c: layer core uses cz_fake_high (layer groth16 above it)' <<<"$out" &&
            ok || bad "upward call: $out"; }
    obj core low.c 'int cz_fake_low(void); int cz_fake_low(void) { return 0; }'
    obj groth16 high.c 'int cz_fake_low(void); int cz_fake_high(void); int cz_fake_high(void) { return cz_fake_low(); }'
    if out=$(bash "$check" "$tmp" --objects "$tmp/objs" 2>&1); then ok; else bad "downward call refused: $out"; fi
    # An object whose source is gone is stale, not read.
    obj core low.c 'int cz_fake_high(void); int cz_fake_low(void); int cz_fake_low(void) { return cz_fake_high(); }'
    rm "$tmp/src/core/low.c"
    if out=$(bash "$check" "$tmp" --objects "$tmp/objs" 2>&1); then ok; else bad "stale object read: $out"; fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
