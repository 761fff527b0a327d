#!/usr/bin/env bash
# The layer check: fails when a file includes a header of a layer above its own (src/LAYERS has
# the order, lowest first, and which layer implements each public header include/cuzk/*.h).
#
# Every `#include "..."` (and <...>) in the layer folders and in include/cuzk/ is mapped to the
# layer that owns the header: "cuzk/x.h" to the layer that lists x.h in src/LAYERS, "<folder>/..."
# (field/field.h, formats/zkey_write.h) to the layer of that folder, a bare name ("ec_impl.h",
# "gpu_field.cuh") that sits beside the file to the file's own layer; other names (system and
# library headers) are not ours. It also fails on an include that climbs out with "..", a folder
# under src/ or a header under include/cuzk/ that src/LAYERS does not place, and a layer or
# header listed twice. With one order for all layers a cycle needs an include that points up, so
# it is reported as one. The build enforces the same rule (each layer compiles against an include
# root with only its headers and those below, CMakeLists.txt); this check says where.
#
#
# With --objects BUILD (a configured and built CMake tree) it also reads the symbols of each
# layer's object files (BUILD/CMakeFiles/cz_<layer>.dir, nm or $NM) and fails when an object uses
# a function or variable that a layer above it defines: `OBJECT: layer X uses S (layer Z above
# it)`. That catches a call that no include shows (a prototype written out by hand).
#
# Usage: scripts/check_layers.sh [ROOT] [--objects BUILD]   (ROOT: default this repository)
# Output: one line per problem, `FILE:LINE: layer X includes Y (layer Z above it)`; exit 1 if any.
set -euo pipefail
status=0
root="$(dirname "$0")/.."
objdir=""
while [ $# -gt 0 ]; do
    case $1 in
    --objects) objdir=$(cd "${2:?--objects needs a build folder}" && pwd); shift 2 ;;
    *) root=$1; shift ;;
    esac
done
cd "$root"
[ -f src/LAYERS ] || { echo "check_layers: no src/LAYERS under $root" >&2; exit 2; }

# The files to read: every source and header of a layer folder that exists, and the public headers.
folders=$(awk '!/^[ \t]*(#|$)/ { sub(/\|.*/, ""); for (i = 2; i <= NF; i++) print $i }' src/LAYERS)
files=$(
    for d in $folders; do
        [ -d "$d" ] && find "$d" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \)
    done
    [ -d include/cuzk ] && find include/cuzk -type f -name '*.h'
)
files=$(echo "$files" | sed '/^$/d' | LC_ALL=C sort)
srcdirs=$(find src -mindepth 1 -maxdepth 1 -type d | LC_ALL=C sort)
pubs=$( ([ -d include/cuzk ] && find include/cuzk -type f -name '*.h' | sed 's|^include/cuzk/||') | LC_ALL=C sort)

# shellcheck disable=SC2086
awk -v srcdirs="$srcdirs" -v pubs="$pubs" -v files="$files" '
function fail(msg) { print msg; bad++ }
function layer_of_path(p,    best, f, n) {
    # The layer whose folder is the longest prefix of p.
    best = ""; n = 0
    for (f in folder_layer)
        if (index(p, f "/") == 1 && length(f) > n) { best = folder_layer[f]; n = length(f) }
    return best
}
function dirname(p) { sub(/\/[^\/]*$/, "", p); return p }
FILENAME == "src/LAYERS" {
    if ($0 ~ /^[ \t]*(#|$)/) next
    line = $0; hdrs = ""
    if (index(line, "|")) { hdrs = substr(line, index(line, "|") + 1); line = substr(line, 1, index(line, "|") - 1) }
    n = split(line, w, /[ \t]+/)
    if (w[1] == "") { for (i = 1; i < n; i++) w[i] = w[i + 1]; n-- }
    name = w[1]
    if (name in rank) { fail("src/LAYERS:" FNR ": layer " name " listed twice"); next }
    rank[name] = ++nlayers
    for (i = 2; i <= n; i++) if (w[i] != "") {
        folder_layer[w[i]] = name
        base = w[i]; sub(/.*\//, "", base)
        if (base in short_layer && short_layer[base] != name)
            fail("src/LAYERS:" FNR ": folder name " base " used by two layers")
        short_layer[base] = name
    }
    m = split(hdrs, h, /[ \t]+/)
    for (i = 1; i <= m; i++) if (h[i] != "") {
        if (h[i] in pub_layer) fail("src/LAYERS:" FNR ": cuzk/" h[i] " listed twice")
        pub_layer[h[i]] = name
    }
    next
}
FNR == 1 {
    # A new source file: its layer (include/cuzk/x.h: the one that implements x.h).
    if (index(FILENAME, "include/cuzk/") == 1) {
        pub = substr(FILENAME, length("include/cuzk/") + 1)
        me = (pub in pub_layer) ? pub_layer[pub] : ""
    } else
        me = layer_of_path(FILENAME)
    dir = dirname(FILENAME)
    nfiles++
}
/^[ \t]*#[ \t]*include[ \t]*["<]/ {
    if (me == "") next
    inc = $0
    sub(/^[ \t]*#[ \t]*include[ \t]*["<]/, "", inc)
    quoted = ($0 ~ /#[ \t]*include[ \t]*"/)
    sub(/[">].*$/, "", inc)
    ninc++
    if (inc ~ /(^|\/)\.\.(\/|$)/) {
        fail(FILENAME ":" FNR ": layer " me " includes " inc " (a path that climbs out with ..)")
        next
    }
    owner = ""
    if (index(inc, "cuzk/") == 1) {
        pub = substr(inc, 6)
        if (pub in pub_layer) owner = pub_layer[pub]
        else { fail(FILENAME ":" FNR ": layer " me " includes " inc " (no layer in src/LAYERS implements it)"); next }
    } else if (index(inc, "/")) {
        first = inc; sub(/\/.*/, "", first)
        if (first in short_layer) owner = short_layer[first]
    } else if (quoted && ((dir "/" inc) in scanned))
        owner = me
    if (owner == "") next
    if (rank[owner] > rank[me])
        fail(FILENAME ":" FNR ": layer " me " includes " inc " (layer " owner " above it)")
}
BEGIN {
    nf = split(files, fl, "\n"); for (i = 1; i <= nf; i++) scanned[fl[i]] = 1
}
END {
    nd = split(srcdirs, d, "\n")
    for (i = 1; i <= nd; i++) if (d[i] != "" && !(d[i] in folder_layer))
        fail(d[i] ": folder not placed in src/LAYERS")
    np = split(pubs, p, "\n")
    for (i = 1; i <= np; i++) if (p[i] != "" && !(p[i] in pub_layer))
        fail("include/cuzk/" p[i] ": public header not placed in src/LAYERS (which layer implements it?)")
    if (bad) { print "check_layers: " bad " problem(s)" > "/dev/stderr"; exit 1 }
    printf "check_layers: ok (%d layers, %d files, %d includes)\n", nlayers, nfiles, ninc
}
' src/LAYERS $files || status=$?

# The symbols: D(efined) and U(sed) lines per object file, in the order of the layers.
if [ -n "$objdir" ]; then
    nm=${NM:-nm}
    layers=$(awk '!/^[ \t]*(#|$)/ { print $1 }' src/LAYERS)
    for l in $layers; do
        d="$objdir/CMakeFiles/cz_$l.dir"
        [ -d "$d" ] || continue
        while IFS= read -r o; do
            name=${o#"$d"/}
            name=${name%.o}
            # An object whose source is gone (moved or deleted since it was built) is stale.
            [ -f "$name" ] || continue
            "$nm" -g --defined-only "$o" | awk -v l="$l" '$2 ~ /^[TDBRCGS]$/ { print "D", $3, l }'
            "$nm" -u "$o" | awk -v l="$l" -v o="$name" '{ print "U", $NF, l, o }'
        done < <(find "$d" -name '*.o' | LC_ALL=C sort)
    done | awk -v layers="$layers" '
        BEGIN { n = split(layers, ls, "\n"); for (i = 1; i <= n; i++) rank[ls[i]] = i }
        $1 == "D" { def[$2] = $3; next }
        { nu++; us[nu] = $2; ul[nu] = $3; uo[nu] = $4 }
        END {
            for (i = 1; i <= nu; i++)
                if ((us[i] in def) && rank[def[us[i]]] > rank[ul[i]]) {
                    print uo[i] ": layer " ul[i] " uses " us[i] " (layer " def[us[i]] " above it)"
                    bad++
                }
            if (bad) { print "check_layers: " bad " symbol(s) from a layer above" > "/dev/stderr"; exit 1 }
            printf "check_layers: symbols ok (%d uses)\n", nu
        }' || status=$?
fi
exit "${status:-0}"
