#!/usr/bin/env bash
# Builds GPU binaries here (the build machine has nvcc but no GPU) for bench/device_bins_run.sh on
# the device machine, which then needs no CUDA build (about 150 s of device time saved per call).
# libcuzk is built shared (CZ_SHARED_LIB) so the kernels travel once, in libcuzk.so, with the
# CUDA runtime it was linked against (libcudart.so.13); the programs link only libc, libstdc++,
# libgmp (tests) and those two (JSON and daemon off), so they run on the device's newer glibc
# with LD_LIBRARY_PATH set to the unpacked folder. Device code is sm_90 only, no PTX (the device
# tool carries 64 MiB with the checkout). Everything is xz-compressed into DIR (an ignored folder
# to carry).
# Usage: bash bench/device_bins_pack.sh DIR [target ...]
#   (default targets: cuzk-bench, every gpu_test_* and every engine_test_* program)
set -eu
dir=${1:?usage: device_bins_pack.sh DIR [target ...]}
shift
targets=("$@")
B=${B:-build-cuda-shared}
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="${NVCC:-nvcc}" \
  -DCMAKE_CUDA_ARCHITECTURES=90-real -DCZ_SHARED_LIB=ON \
  -DCZ_WITH_JSON=OFF -DCZ_WITH_DAEMON=OFF >/dev/null
if [ ${#targets[@]} -eq 0 ]; then
  targets=(cuzk-bench)
  for f in tests/gpu/test_*.c tests/engine/test_*.c; do
    layer=$(basename "$(dirname "$f")")
    targets+=("${layer}_$(basename "$f" .c)")
  done
fi
cmake --build "$B" -j"${JOBS:-2}" --target "${targets[@]}"
rm -rf "$dir"
mkdir -p "$dir"
for t in "${targets[@]}"; do
  xz -T0 -6 -c "$B/$t" >"$dir/$t.xz"
done
xz -T0 -6 -c "$B/libcuzk.so" >"$dir/libcuzk.so.xz"
cudart=$(ldd "$B/libcuzk.so" | awk '/libcudart/ {print $3}')
xz -T0 -6 -c "$cudart" >"$dir/$(basename "$cudart").xz"
cp bench/device_bins_run.sh "$dir/run.sh"
du -sh "$dir"
