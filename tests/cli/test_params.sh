#!/usr/bin/env bash
# `cuzk params` from the outside (docs/params.md). Every digest it is held to comes from Node's
# crypto (BLAKE2b-512, the first 32 hex digits), not from cuzk: a file named like a known
# verifying key with other bytes is a mismatch that shows both digests (exit 1); a manifest of our
# own (--manifest) whose digest Node computed is a match (exit 0); --quick hashes only the
# verifying keys; FIL_PROOFS_PARAMETER_CACHE is the directory when none is given; a missing
# directory, a directory at a file's name, malformed manifests and unsafe names are refused with
# messages that name them.
#   tests/cli/test_params.sh CUZK SCRATCH_DIR       (run from the source root; ctest does)
set -u
CUZK=${1:?usage: test_params.sh CUZK SCRATCH_DIR}
T=${2:?usage: test_params.sh CUZK SCRATCH_DIR}
rm -rf "$T" && mkdir -p "$T/dir" || exit 1
. "$(dirname "$0")/lib.sh"
# The Filecoin digest of a file, by Node.
node_digest() {
    node -e 'const c = require("crypto"), fs = require("fs");
             process.stdout.write(c.createHash("blake2b512").update(fs.readFileSync(process.argv[1]))
                                  .digest("hex").slice(0, 32));' "$1"
}
# The known 2 KiB Winning PoSt verifying key and 32 GiB PoRep proving key (parameters.json).
VK=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.vk
VK_DIGEST=ffd79788d614d27919ae5bd2d94eacb6
PARAMS=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params

# list: the 45 files of rust-fil-proofs v28, with the manifest's digests.
cz params list
check "list exits 0" test "$rc" = 0
check "list: 45 files" test "$(wc -l <"$T/out")" = 45
check "list: the 2 KiB winning PoSt vk and its digest" \
    grep -Eq "^2KiB +winning-post +vk +$VK_DIGEST +$VK\$" "$T/out"
cz params list --sector-size 32GiB
check "list --sector-size 32GiB: 5 proofs x 2 files and the SRS" test "$(wc -l <"$T/out")" = 11
check "... all 32GiB or the SRS" bash -c "! grep -Ev '^(32GiB|any) ' '$T/out'"
cz params list --json
check "list --json: 45 objects with name, cid, digest, sector_size, proof, type" node -e '
    const a = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const keys = ["name", "cid", "digest", "sector_size", "proof", "type"];
    if (a.length !== 45 || !a.every((f) => keys.every((k) => k in f))) process.exit(1);' "$T/out"

# A file named like the known vk, with other bytes: a mismatch (exit 1) with both digests.
printf 'this is not a verifying key\n' >"$T/dir/$VK"
fake=$(node_digest "$T/dir/$VK")
cz params check "$T/dir"
check "check with a wrong vk exits 1" test "$rc" = 1
check "... reports MISMATCH with Node's digest and the manifest's" \
    grep -q "^MISMATCH .*$VK: digest $fake, the manifest says $VK_DIGEST\$" "$T/out"
check "... the others missing" test "$(grep -c '^missing ' "$T/out")" = 44
check "... and the summary" grep -q '^# 45 known: 1 present (0 match, 1 do not), 44 missing$' "$T/out"
check "... naming the directory it checked" grep -qx "# $T/dir (the argument)" "$T/out"
cat "$T/out" | grep -v '^missing'

# --quick: a .params named like the 32 GiB PoRep key is only looked at; the vk still hashed.
head -c 100000 /dev/zero >"$T/dir/$PARAMS"
cz params check --quick "$T/dir"
check "check --quick still exits 1 for the vk" test "$rc" = 1
check "... the .params present, not hashed, with its size" \
    grep -Eq "^present +97.7 KiB +32GiB +porep +params +$PARAMS: not hashed \(--quick\)\$" "$T/out"
rm "$T/dir/$VK"
cz params check --quick "$T/dir"
check "check --quick without the vk exits 0" test "$rc" = 0
cz params check --sector-size 2KiB "$T/dir"
check "check --sector-size 2KiB: 8 files and the SRS" test "$(grep -vc '^#' "$T/out")" = 9
cat "$T/out" | grep -v '^missing'

# A manifest of our own: the digest Node computed matches; a missing entry does not matter.
head -c 3000000 /dev/urandom >"$T/dir/v28-test-own.vk"
own=$(node_digest "$T/dir/v28-test-own.vk")
cat >"$T/own.json" <<EOF
{
  "v28-test-own.vk": {"cid": "Qmtest", "digest": "$own", "sector_size": 2048},
  "v28-test-absent.params": {"cid": "Qmtest", "digest": "00112233445566778899aabbccddeeff", "sector_size": 2048}
}
EOF
cz params check --manifest "$T/own.json" "$T/dir"
check "check --manifest with Node's digest exits 0" test "$rc" = 0
check "... ok, with its size" grep -Eq "^ok +2.9 MiB +2KiB +unknown +vk +v28-test-own.vk\$" "$T/out"
check "... the absent one missing" grep -Eq '^missing +- .*v28-test-absent.params$' "$T/out"
check "... only the manifest's files" grep -q '^# 2 known: 1 present (1 match, 0 do not), 1 missing$' \
    "$T/out"
cat "$T/out"
# Upper-case digits in a manifest are the same digest.
up=$(printf '%s' "$own" | tr a-f A-F)
printf '{"v28-test-own.vk": {"cid": "Q", "digest": "%s", "sector_size": 2048}}\n' "$up" >"$T/up.json"
cz params check --manifest "$T/up.json" "$T/dir"
check "an upper-case digest matches too" test "$rc" = 0
# The same file against another digest, as JSON: mismatch, ok false, exit 1.
printf '{"v28-test-own.vk": {"cid": "Q", "digest": "ffffffffffffffffffffffffffffffff", "sector_size": 2048}}\n' \
    >"$T/bad.json"
cz params check --json --manifest "$T/bad.json" "$T/dir"
check "check --json of a mismatch exits 1" test "$rc" = 1
check "... JSON: state mismatch, Node's digest, the expected one, the size, ok false" node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const f = r.files[0];
    if (r.ok !== false || r.files.length !== 1 || f.state !== "mismatch" || f.digest !== process.argv[2] ||
        f.expected !== "ffffffffffffffffffffffffffffffff" || f.size !== 3000000) process.exit(1);' \
    "$T/out" "$own"

# digest FILE: Node's digest; a missing file exits 3.
cz params digest "$T/dir/v28-test-own.vk" "$T/dir/$PARAMS"
check "digest exits 0" test "$rc" = 0
check "... prints Node's digests" test "$(cat "$T/out")" = "$own  $T/dir/v28-test-own.vk
$(node_digest "$T/dir/$PARAMS")  $T/dir/$PARAMS"
cz params digest "$T/nonexistent"
check "digest of a missing file exits 3, naming it" \
    bash -c "test $rc = 3 && grep -q '$T/nonexistent' '$T/err'"

# The directory: FIL_PROOFS_PARAMETER_CACHE when none is given; a missing one is refused.
FIL_PROOFS_PARAMETER_CACHE="$T/dir" cz params check --manifest "$T/own.json"
check "FIL_PROOFS_PARAMETER_CACHE is the directory" \
    bash -c "test $rc = 0 && grep -qx '# $T/dir (FIL_PROOFS_PARAMETER_CACHE)' '$T/out'"
cz params check "$T/no-such-dir"
check "a missing directory exits 3" test "$rc" = 3
check "... saying so" grep -q "cuzk params: $T/no-such-dir: no such directory (the parameter directory, from the argument)" "$T/err"
FIL_PROOFS_PARAMETER_CACHE="$T/no-such-dir" cz params check
check "... and where the name came from" grep -q "$T/no-such-dir: no such directory (the parameter directory, from FIL_PROOFS_PARAMETER_CACHE)" "$T/err"
cz params check "$T/own.json"
check "a file as the directory exits 3" \
    bash -c "test $rc = 3 && grep -q 'own.json: not a directory' '$T/err'"
cat "$T/err"
# A directory where a file should be: unreadable, exit 3.
mkdir "$T/dir/$VK"
cz params check --sector-size 2KiB "$T/dir"
check "a directory at a file's name exits 3" test "$rc" = 3
check "... UNREADABLE, saying why" \
    bash -c "grep -q '^UNREADABLE .*$VK' '$T/out' && grep -q 'not a regular file (a directory)' '$T/err'"
rmdir "$T/dir/$VK"

# Malformed manifests: named by file and place, never quoted.
printf 'secretword {\n' >"$T/notjson.json"
cz params check --manifest "$T/notjson.json" "$T/dir"
check "a manifest that is not JSON exits 3" test "$rc" = 3
check "... naming the file, line and column, not its text" \
    bash -c "grep -q 'notjson.json:1:[0-9]*: not valid JSON' '$T/err' && ! grep -q secretword '$T/err'"
printf '{"v28-x.vk": {"cid": "Q", "digest": "abc", "sector_size": 2048}}\n' >"$T/short.json"
cz params check --manifest "$T/short.json" "$T/dir"
check "a short digest exits 3, naming the entry" \
    bash -c "test $rc = 3 && grep -q 'short.json: v28-x.vk: expected' '$T/err'"
printf '{"v28-../../etc/passwd.vk": {"cid": "Q", "digest": "%s", "sector_size": 0}}\n' "$own" \
    >"$T/escape.json"
cz params check --manifest "$T/escape.json" "$T/dir"
check "a name with '/' exits 3, by its position, not its text" \
    bash -c "test $rc = 3 && grep -q 'escape.json: entry 1: .*not a parameter file name' '$T/err' && ! grep -q passwd '$T/err'"
cat "$T/err"

# Usage errors.
cz params frobnicate
check "an unknown subcommand exits 2" test "$rc" = 2
cz params check --sector-size 3x "$T/dir"
check "a bad --sector-size exits 2" test "$rc" = 2
cz params check "$T/dir" "$T/dir"
check "two directories exit 2" test "$rc" = 2
cz params --help
check "--help exits 0 and names the variable" \
    bash -c "test $rc = 0 && grep -q FIL_PROOFS_PARAMETER_CACHE '$T/out'"

if [ "$fails" -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all checks passed"
