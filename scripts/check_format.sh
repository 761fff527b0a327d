#!/usr/bin/env bash
# Fails when any tracked or new C/CUDA source is not clang-formatted (.clang-format at the root).
set -euo pipefail
cd "$(dirname "$0")/.."
files=$( (git ls-files '*.c' '*.h' '*.cu' '*.cuh'; git ls-files --others --exclude-standard '*.c' '*.h' '*.cu' '*.cuh') | sort -u)
[ -n "$files" ] || exit 0
bad=$(echo "$files" | xargs clang-format --dry-run 2>&1 | grep -c 'warning:' || true)
if [ "$bad" != "0" ]; then
    echo "clang-format: $bad places need formatting; run 'make format'" >&2
    echo "$files" | xargs clang-format --dry-run 2>&1 | grep 'warning:' | sed -n 1,20p >&2 || true
    exit 1
fi
echo "clang-format: ok"
