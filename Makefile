# The README's two commands are `make demo` and `make test`; each sets up and builds as needed.
BUILD      ?= build
BUILD_TYPE ?= Release
JOBS       ?= $(shell nproc)
WERROR     ?= OFF
CLI        := $(BUILD)/gpdp
DEMO_OUT   ?= demo-out
PYTHON     ?= python3
VENV       ?= .venv
PY_DEPS    := scikit-build-core pybind11 pytest numpy matplotlib scipy scikit-learn xarray

.PHONY: all setup configure build build-cli test test-slow python python-test demo bench fuzz clean format

all: build

setup:
	@scripts/setup

configure: setup
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DGPDP_WERROR=$(WERROR) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# Only the library and the command-line tool: what `make demo` needs (no tests, no benchmarks).
build-cli: configure
	@cmake --build $(BUILD) -j $(JOBS) --target gpdp_cli

test: build
	ctest --test-dir $(BUILD) -LE slow --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory python-test

# The Python package: a virtualenv (.venv) with the build and test dependencies from PyPI, the
# package built by scikit-build-core in build-python/ (incremental, ccache), then pytest.
$(VENV)/.deps: pyproject.toml
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q $(PY_DEPS)
	@touch $@

python: $(VENV)/.deps
	CCACHE_BASEDIR=$(CURDIR) GPDP_WERROR=$(WERROR) $(VENV)/bin/python -m pip install -q --no-build-isolation .

python-test: python
	GPDP_CLI=$(CURDIR)/$(CLI) $(VENV)/bin/python -m pytest -q python/tests

test-slow: build
	ctest --test-dir $(BUILD) -L slow --output-on-failure

demo: build-cli
	@scripts/demo $(CLI) $(DEMO_OUT)

bench: build
	@scripts/bench $(BUILD)

clean:
	rm -rf $(BUILD) $(DEMO_OUT) build-python

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')
