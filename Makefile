# Muscle-memory shims: each target calls the rocm-perf CLI, which reads the old variables from the environment
# (PERF_ARCH, PERF_TARGETS, PERF_FLEET, PERF_ROOT, PERF_BIND, PERF_COLD_NAMESPACE, REGISTRY_NAME, PUSH), so
# `make perf-cold PERF_ARCH=gfx1201` means the same as `rocm-perf cold --arch gfx1201`.
# No `export` line: make already hands a recipe the variables given on its command line and those of its own
# environment, and `export NAME` would hand an unset NAME down as empty. `rocm-perf contracts` runs every shim
# with a stub CLI and checks what it really receives (pair makefile-shims).
ROCM_PERF ?= node bin/rocm-perf.js

# The CLI runs from dist/: rebuilt only when a source or the build's own files changed since the last build.
BUILD_INPUTS := $(shell find src scripts -type f -name '*.ts') package.json package-lock.json tsconfig.json tsconfig.build.json

.PHONY: perf-plan perf-cold perf-warm perf-bench perf-report perf-serve perf-publish perf-contracts build

build: dist/.built

dist/.built: $(BUILD_INPUTS)
	npm run build
	@touch $@

perf-plan: build
	$(ROCM_PERF) plan

perf-cold: build
	$(ROCM_PERF) cold

perf-warm: build
	$(ROCM_PERF) warm

perf-bench: build
	$(ROCM_PERF) bench

perf-report: build
	$(ROCM_PERF) report

perf-serve: build
	$(ROCM_PERF) serve

perf-publish: build
	$(ROCM_PERF) publish

perf-contracts: build
	$(ROCM_PERF) contracts
