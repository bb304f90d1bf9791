# The README's two commands are `make demo` and `make test`; each sets up and builds as needed.
BUILD      ?= build
BUILD_TYPE ?= Release
JOBS       ?= $(shell nproc)
WERROR     ?= OFF
CLI        := $(BUILD)/gpdp
DEMO_OUT   ?= demo-out

.PHONY: all setup configure build test test-slow demo bench fuzz clean format

all: build

setup:
	@scripts/setup

configure: setup
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DGPDP_WERROR=$(WERROR) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) -LE slow --output-on-failure -j $(JOBS)

test-slow: build
	ctest --test-dir $(BUILD) -L slow --output-on-failure

demo: build
	@scripts/demo $(CLI) $(DEMO_OUT)

bench: build
	@scripts/bench $(BUILD)

clean:
	rm -rf $(BUILD) $(DEMO_OUT)

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')
