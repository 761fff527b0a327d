#!/usr/bin/env bash
# Builds GPU binaries here (the build machine has nvcc but no GPU) for bench/device_bins_run.sh on
# the device machine, which then needs no CUDA build (about 150 s of device time saved per call).
# The binaries link only libc/libstdc++ (JSON and daemon off), so they run on the device's
# newer glibc. They are xz-compressed into DIR (an ignored folder to carry; 64 MiB in all).
# Usage: bash bench/device_bins_pack.sh DIR [target ...]
#   (default targets: cuzk-bench gpu_test_gpu_msm gpu_test_gpu_g2_msm gpu_test_gpu_groth16
#   engine_test_bench_key; device code for sm_90 only, no PTX, which halves the binaries: the
#   device tool carries 64 MiB with the checkout)
set -eu
dir=${1:?usage: device_bins_pack.sh DIR [target ...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
  targets=(cuzk-bench gpu_test_gpu_msm gpu_test_gpu_g2_msm gpu_test_gpu_groth16 engine_test_bench_key)
B=${B:-build-cuda-bins}
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="${NVCC:-nvcc}" \
  -DCMAKE_CUDA_ARCHITECTURES=90-real \
  -DCZ_WITH_JSON=OFF -DCZ_WITH_DAEMON=OFF >/dev/null
cmake --build "$B" -j"${JOBS:-2}" --target "${targets[@]}"
mkdir -p "$dir"
for t in "${targets[@]}"; do
  xz -T0 -6 -c "$B/$t" >"$dir/$t.xz"
done
cp bench/device_bins_run.sh "$dir/run.sh"
du -sh "$dir"
