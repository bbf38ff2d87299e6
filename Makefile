# Muscle-memory shims: each target calls the rocm-perf CLI and passes the old variables through.
# PERF_ARCH, PERF_TARGETS, PERF_BIND, PERF_COLD_NAMESPACE, REGISTRY_NAME and PUSH are read by the CLI from the
# environment, so `make perf-cold PERF_ARCH=gfx1201` means the same as `rocm-perf cold --arch gfx1201`.
ROCM_PERF ?= node bin/rocm-perf.js
export PERF_ARCH PERF_TARGETS PERF_BIND PERF_COLD_NAMESPACE REGISTRY_NAME PUSH PERF_ROOT PERF_FLEET

.PHONY: perf-plan perf-cold perf-warm perf-bench perf-report perf-serve perf-publish perf-contracts build

build:
	npm run build

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
