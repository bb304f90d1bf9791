# The README's two commands are `make demo` and `make test`; each sets up and builds as needed.
BUILD      ?= build
BUILD_TYPE ?= Release
JOBS       ?= $(shell nproc)
WERROR     ?= OFF
CLI        := $(BUILD)/gpdp
LAB_CLI    := $(BUILD)/gpdp-lab
DEMO_OUT   ?= demo-out
PYTHON     ?= python3
VENV       ?= .venv
PY_DEPS    := scikit-build-core pybind11 pytest numpy matplotlib scipy scikit-learn xarray selenium \
  'dask[distributed]'
# The formatter the tree is pinned to: Debian's clang-format 14 (scripts/setup installs it).
CLANG_FORMAT ?= clang-format-14
SAN_BUILD  ?= build-asan
CXX_FILES   = $$(git ls-files '*.cpp' '*.hpp')

.PHONY: all setup configure build build-cli test test-slow test-sanitize python python-test demo bench bench-utility fuzz clean format format-check

all: build

setup:
	@scripts/setup

configure: setup
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DGPDP_WERROR=$(WERROR) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# Only the library and the command-line tools, gpdp and gpdp-lab (no tests, no benchmarks).
build-cli: configure
	@cmake --build $(BUILD) -j $(JOBS) --target gpdp_cli gpdp_lab_cli

test: build
	ctest --test-dir $(BUILD) -LE slow --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory python-test

# The Python package: a virtualenv (.venv) with the build and test dependencies from PyPI, the
# package built by scikit-build-core in build-python/ (incremental, ccache), then pytest. The
# dependencies are reinstalled when PY_DEPS (this Makefile) or pyproject.toml changes.
$(VENV)/.deps: pyproject.toml Makefile
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q $(PY_DEPS)
	@touch $@

python: $(VENV)/.deps
	CCACHE_BASEDIR=$(CURDIR) GPDP_WERROR=$(WERROR) $(VENV)/bin/python -m pip install -q --no-build-isolation .

python-test: python
	GPDP_CLI=$(CURDIR)/$(CLI) GPDP_LAB_CLI=$(CURDIR)/$(LAB_CLI) $(VENV)/bin/python -m pytest -q python/tests

test-slow: build
	ctest --test-dir $(BUILD) -L slow --output-on-failure

# A subset of the default test suite under AddressSanitizer + UndefinedBehaviorSanitizer, in its own
# build folder (-O1, GPDP_SANITIZE in CMakeLists.txt; no benchmarks, no Python). Any report fails.
# The subset is what handles private data or proves privacy: the readers (CSV, points, masks), the
# posterior and samplers, the accountant and bounds, the release pipeline and its CLI, the README
# example. The whole default suite under ASan is a second full build (259 objects: every test, the
# slow ones included, beside the library and CLI), too long for CI's 90 minutes next to the plain
# build; run it with `make test-sanitize SAN_TESTS=all`.
SAN_TESTS  ?= test_foundation test_io_data test_io_mask test_posterior test_sampler_dense \
  test_sampler_markov test_circulant test_privacy_accountant test_privacy_bounds \
  test_privacy_calibrate test_label_disagreement test_release_input test_release_postprocess \
  test_cli_release test_readme_example
# allocator_may_return_null: an impossible allocation throws std::bad_alloc as in a normal build (the
# CLI turns it into a resource error, tested), instead of ASan aborting the process.
SAN_ENV    := ASAN_OPTIONS=detect_leaks=1:check_initialization_order=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitizer/lsan.supp:print_suppressions=0

test-sanitize: setup
	@cmake -S . -B $(SAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPDP_SANITIZE=ON \
	  -DGPDP_BUILD_BENCH=OFF -DGPDP_WERROR=$(WERROR) >/dev/null
ifeq ($(SAN_TESTS),all)
	@cmake --build $(SAN_BUILD) -j $(JOBS)
	$(SAN_ENV) ctest --test-dir $(SAN_BUILD) -LE slow --output-on-failure -j $(JOBS)
else
	@cmake --build $(SAN_BUILD) -j $(JOBS) --target gpdp_cli $(SAN_TESTS)
	@cd $(SAN_BUILD) && for t in $(SAN_TESTS); do \
	  $(SAN_ENV) ./$$t --gtest_brief=1 || { echo "test-sanitize: $$t failed" >&2; exit 1; }; done
endif

demo: build-cli
	@scripts/demo $(CLI) $(DEMO_OUT)

bench: build
	@scripts/bench $(BUILD)

# The utility frontier (docs/utility.md): every mechanism against the trivial maps and two simple DP
# baselines on six real data sets, scored at held-out records. Full run; `--quick` is in the tests.
bench-utility: python
	$(VENV)/bin/python bench/utility_frontier.py --out bench-out/utility $(UTILITY_ARGS)

clean:
	rm -rf $(BUILD) $(SAN_BUILD) $(DEMO_OUT) build-python

# `make format` rewrites every tracked C/C++ file; `make format-check` (CI) fails on any difference.
format: setup
	$(CLANG_FORMAT) -i $(CXX_FILES)

format-check: setup
	@$(CLANG_FORMAT) --version | grep -q ' version 14\.' || \
	  { echo "format-check: $(CLANG_FORMAT) is not clang-format 14 (Debian clang-format-14)" >&2; exit 1; }
	@$(CLANG_FORMAT) --dry-run --Werror $(CXX_FILES)
	@echo "format-check: $$(git ls-files '*.cpp' '*.hpp' | wc -l) files match .clang-format ($(CLANG_FORMAT))"
