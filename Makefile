# cuzk: a thin front door over CMake. `make test` and `make demo` set up a fresh Debian machine
# themselves (scripts/setup.sh), then build and run.
BUILD      ?= build
BUILD_ASAN ?= build-asan
JOBS       ?= $(shell nproc)
CMAKE_GEN  := $(shell command -v ninja >/dev/null 2>&1 && echo -G Ninja)

.PHONY: all setup build test test-unit test-asan format-check format demo bench clean

all: build

setup:
	@bash scripts/setup.sh

build:
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

# Everything CI checks: formatting, the unit tests, and the unit tests again under ASan+UBSan.
test: setup
	@bash scripts/check_format.sh
	$(MAKE) --no-print-directory test-unit
	$(MAKE) --no-print-directory test-asan

test-unit: build
	node tests/vectors/gen_vectors.mjs tests/vectors/out
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan:
	cmake -S . -B $(BUILD_ASAN) $(CMAKE_GEN) -DCZ_SANITIZE=address -DCZ_WITH_CUDA=OFF \
	  -DCZ_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=Debug >/dev/null
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

format-check:
	@bash scripts/check_format.sh

format:
	git ls-files '*.c' '*.h' '*.cu' '*.cuh' | xargs clang-format -i

demo: setup build
	@bash scripts/demo.sh $(BUILD)

bench: build
	@bash scripts/bench_field.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD_ASAN)
