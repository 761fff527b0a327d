# cuzk: a thin front door over CMake. `make test` and `make demo` set up a fresh Debian 12 machine
# themselves (scripts/setup.sh, idempotent and quick when all is present), then build and run.
BUILD      ?= build
BUILD_ASAN ?= build-asan
BUILD_TSAN ?= build-tsan
# make install: PREFIX (bin/, lib/, include/cuzk/, share/cuzk/ under it); DESTDIR is prepended to
# every installed path (staging, packages) and not recorded anywhere.
PREFIX     ?= /usr/local
DESTDIR    ?=
FUZZ_SECONDS ?= 10
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
# ctest runs one test binary per core; a test binary that uses the thread pool still gets all
# cores, so more would only oversubscribe. Tests that hang are killed after CTEST_TIMEOUT seconds.
CTEST_JOBS    ?= $(JOBS)
CTEST_TIMEOUT ?= 600
# The interop test's powers-of-tau ceremony (snarkjs, the slowest step) is made once per build
# tree and reused by the ASan run.
export CZ_INTEROP_PTAU_DIR = $(abspath $(BUILD))/interop-ptau
CTEST      = ctest --output-on-failure --no-tests=error -j $(CTEST_JOBS) --timeout $(CTEST_TIMEOUT)
CMAKE_GEN  := $(shell command -v ninja >/dev/null 2>&1 && echo -G Ninja)
VECTOR_OUT := tests/vectors/out

.PHONY: all setup build build-asan vectors test test-unit test-asan test-tsan test-fuzz test-install \
  install format-check layers-check format demo bench clean

all: build

setup:
	@bash scripts/setup.sh

# The kernels' CUDA targets (with nvcc): sm_90 machine code plus compute_90 PTX where a GPU is
# present, compute_90 PTX alone where none is (CI): every kernel is still compiled, in under half
# the time, and a GPU the build later runs on compiles the PTX when the library first loads.
CUDA_ARCHS ?= $(if $(wildcard /dev/nvidia0),90-real;90-virtual,90-virtual)

build:
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release \
	  "-DCMAKE_CUDA_ARCHITECTURES=$(CUDA_ARCHS)" >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

build-asan:
	cmake -S . -B $(BUILD_ASAN) $(CMAKE_GEN) -DCZ_SANITIZE=address -DCZ_WITH_CUDA=OFF \
	  -DCZ_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=Debug >/dev/null
	cmake --build $(BUILD_ASAN) -j $(JOBS)

# Test vectors from the independent oracles: every tests/vectors/*.mjs writes its files into
# $(VECTOR_OUT). Zero scripts is fine; a failing script fails the target.
# Builds $(BUILD) and installs it (CMake install() rules, CMakeLists.txt).
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

# make install into a temporary DESTDIR, then check the installed files and run the programs.
test-install: build
	@bash scripts/test_install.sh $(BUILD)

vectors:
	@mkdir -p $(VECTOR_OUT)
	@set -e; for s in tests/vectors/*.mjs; do \
	  [ -e "$$s" ] || continue; \
	  echo "node $$s $(VECTOR_OUT)"; \
	  node "$$s" $(VECTOR_OUT); \
	done

# Everything CI checks: formatting, the layer order of the includes, the unit tests, the
# installation, the unit tests again under ASan+UBSan, the threaded engine and the daemon under
# TSan, and the fuzz targets. One sub-make, so the vectors are made once; the interop test's
# snarkjs ceremony (about a minute of node) is made fresh by the plain run and reused by the
# ASan run, in a folder removed at the end (CZ_INTEROP_PTAU_DIR, tests/interop/interop.mjs).
test: setup
	@bash scripts/check_format.sh
	@bash scripts/check_layers.sh
	@ptau=$$(mktemp -d); CZ_INTEROP_PTAU_DIR=$$ptau $(MAKE) --no-print-directory test-unit \
	  test-install test-asan test-tsan test-fuzz; rc=$$?; rm -rf "$$ptau"; exit $$rc

# Each libFuzzer target (fuzz/) for a bounded time: a crash fails the run.
test-fuzz:
	@bash scripts/fuzz.sh $(FUZZ_SECONDS)

test-unit: build vectors
	cd $(BUILD) && $(CTEST)

test-asan: build-asan vectors
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $(CTEST)

# The threaded code under ThreadSanitizer: the engine and the thread pool; then the daemon (its
# config and HTTP tests, and the node gRPC tests against a TSan-built cuzk-daemon: every RPC,
# cancels, a burst, the SIGTERM drain, 1,000 parked calls, keys changed on disk; and its start-up
# test: the lock, the addresses bound, the state directory, a repaired key; WindowPoSt requests,
# good and bad, with a TSan-built cuzk making the keys) when its dependencies are there. A race fails the test: halt_on_error makes the program exit 66 at the first report.
# grpc, absl and libmicrohttpd are
# not built with TSan; their own threads synchronise in ways TSan cannot see (absl's futex-based
# mutexes), so accesses made inside those libraries are ignored (ignore_noninstrumented_modules);
# every access from our code, including in callbacks the libraries' threads run, is checked.
# tests/daemon/tsan.supp names the remaining known library-internal reports.
# Every engine test (tests/engine/test_*.c -> engine_test_*), so a new one cannot be left out; the
# thread pool; and the supra_seal interface, whose split calls share pending proofs, the SRS
# references and the GPU mutex between threads.
TSAN_TESTS = $(patsubst tests/engine/test_%.c,engine_test_%,$(wildcard tests/engine/test_*.c)) \
  core_test_threadpool supraseal_test_supraseal
TSAN_DAEMON_TESTS = daemon_test_config|daemon_test_http|daemon_grpc|daemon_pool|daemon_startup|daemon_keys|daemon_post|daemon_porep|daemon_snap
TSAN_DAEMON_OPTIONS = halt_on_error=1 exitcode=66 ignore_noninstrumented_modules=1 \
  suppressions=$(abspath tests/daemon/tsan.supp)
test-tsan:
	cmake -S . -B $(BUILD_TSAN) $(CMAKE_GEN) -DCZ_SANITIZE=thread -DCZ_WITH_CUDA=OFF \
	  -DCZ_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=Debug >/dev/null
	cmake --build $(BUILD_TSAN) -j $(JOBS) --target $(TSAN_TESTS) daemon-all
	cd $(BUILD_TSAN) && TSAN_OPTIONS=halt_on_error=1 $(CTEST) -R '^(engine_|core_test_threadpool$$|supraseal_test_supraseal$$)'
	cd $(BUILD_TSAN) && CZ_DAEMON_TEST_LIGHT=1 TSAN_OPTIONS="$(TSAN_DAEMON_OPTIONS)" \
	  $(subst --no-tests=error,--no-tests=ignore,$(CTEST)) -R '^($(TSAN_DAEMON_TESTS))$$'

format-check:
	@bash scripts/check_format.sh

# No include points up the layer order (src/LAYERS, docs/build.md).
layers-check:
	@bash scripts/check_layers.sh

format:
	git ls-files '*.c' '*.h' '*.cu' '*.cuh' | xargs clang-format -i

demo: setup build
	@bash scripts/demo.sh $(BUILD)

# Benchmarks: every bench/*.c is a program cuzk-bench-* in $(BUILD) that prints one JSON line per
# result. A scripts/bench_*.sh driver, where one exists, runs them with chosen arguments instead.
bench: build
	@set -e; drivers=$$(ls scripts/bench_*.sh 2>/dev/null || true); \
	if [ -n "$$drivers" ]; then \
	  for d in $$drivers; do echo "bash $$d $(BUILD)" >&2; bash "$$d" $(BUILD); done; \
	else \
	  found=0; for b in $(BUILD)/cuzk-bench-*; do \
	    [ -x "$$b" ] || continue; found=1; echo "$$b" >&2; "$$b"; \
	  done; [ $$found = 1 ] || echo "bench: no benchmark programs yet (bench/*.c)" >&2; \
	fi

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_TSAN) build-fuzz $(VECTOR_OUT)
