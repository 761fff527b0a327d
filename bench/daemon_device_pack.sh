#!/usr/bin/env bash
# Builds cuzk-daemon and cuzk-bench with CUDA on this machine (nvcc, the grpc / protobuf-c /
# libmicrohttpd / jansson -dev packages; no GPU needed) and packs them, with the shared libraries
# they need that a bare CUDA machine lacks, into one folder that can be copied (or carried by the
# device tool) to a GPU machine without those packages and run there with bench/daemon_device_run.sh.
#
#   bash bench/daemon_device_pack.sh [PACK_DIR]
#
# PACK_DIR (default build-dev-daemon): made afresh; gets bin/cuzk-daemon, bin/cuzk-bench,
# bin/daemon_test_gpus (when built), lib/*.so.* (every library ldd lists except the C runtime,
# libstdc++/libgcc, libcuda and the loader, which the target has: its glibc must be at least this
# machine's), daemon_device_run.sh, daemon_client.py, proving.proto and MANIFEST.txt; with
# COMPRESS=1 (the default) bin/ and lib/ are replaced by pack.tar.xz.
# Environment: SRC (source root, default: this script's repository), B (build dir, default
# build-cuda-daemon, incremental), JOBS (default 2), CUDA_ARCH (default: the CMakeLists default, 90).
set -euo pipefail
SRC=${SRC:-$(cd "$(dirname "$0")/.." && pwd)}
PACK=${1:-build-dev-daemon}
B=${B:-build-cuda-daemon}
JOBS=${JOBS:-2}
arch=()
[ -n "${CUDA_ARCH:-}" ] && arch=(-DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCH")

cmake -S "$SRC" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCZ_WITH_CUDA=ON "${arch[@]}" >/dev/null
grep -Eq '^CMAKE_CUDA_COMPILER:[A-Z]+=/' "$B/CMakeCache.txt" ||
  { echo "daemon_device_pack: no CUDA compiler found" >&2; exit 1; }
targets=(cuzk-daemon cuzk-bench)
ninja -C "$B" -t targets all 2>/dev/null | grep -q '^daemon_test_gpus:' && targets+=(daemon_test_gpus)
cmake --build "$B" -j"$JOBS" --target "${targets[@]}"

rm -rf "$PACK"
mkdir -p "$PACK/bin" "$PACK/lib"
for t in "${targets[@]}"; do
  cp "$B/$t" "$PACK/bin/"
  strip --strip-unneeded "$PACK/bin/$t" # symbols only; the carried folder has a size limit
done
# The libraries to carry: everything but the C runtime, the compiler runtime, the CUDA driver and
# the loader (the target's own copies must be used; its glibc is newer or equal).
skip='^(linux-vdso|ld-linux|libc|libm|libpthread|libdl|librt|libresolv|libutil|libstdc\+\+|libgcc_s|libcuda|libnvidia-.*)\.so'
for t in "${targets[@]}"; do ldd "$B/$t"; done | awk '/=> \//{print $1, $3}' | sort -u |
  while read -r name path; do
    [[ $name =~ $skip ]] && continue
    cp -L "$path" "$PACK/lib/$name"
  done
cp "$SRC/bench/daemon_device_run.sh" "$SRC/bench/daemon_client.py" "$SRC/proto/cuzk/v1/proving.proto" "$PACK/"
{
  echo "built $(date -u +%FT%TZ) on $(uname -n), $(ldd --version | head -1)"
  echo "source $(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$SRC" diff --quiet 2>/dev/null || echo '+changes')"
  nvcc --version 2>/dev/null | tail -1
  echo "glibc symbols needed (highest): $(objdump -T "$PACK"/bin/* "$PACK"/lib/* 2>/dev/null |
    grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)"
  (cd "$PACK" && du -sh bin lib && ls lib)
} >"$PACK/MANIFEST.txt"
if [ "${COMPRESS:-1}" = 1 ]; then
  # bin/ and lib/ as one xz archive (about 60 -> 35 MiB; the device tool carries at most 64 MiB
  # with the checkout); daemon_device_run.sh unpacks it into a temporary folder
  tar -C "$PACK" -cf - bin lib | xz -T"$JOBS" -6 >"$PACK/pack.tar.xz"
  rm -rf "$PACK/bin" "$PACK/lib"
fi
head -4 "$PACK/MANIFEST.txt"
du -sh "$PACK"
