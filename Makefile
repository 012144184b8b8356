# Hush: the two set-up commands are `make demo` and `make test`; both install what is missing first.
SWIFT ?= swift
CONFIG ?= release
HUSH = .build/$(CONFIG)/hush
MODEL_DIR ?= $(or $(HUSH_MODEL_DIR),$(HOME)/.cache/hush/models/all-MiniLM-L6-v2)

.PHONY: setup build test test-arm64 client-app test-tsan test-reliability test-no-network fuzz demo bench format lint clean

setup:
	@scripts/setup

build: setup
	$(SWIFT) build -c $(CONFIG)

# The whole test suite. Optimised build (the encoder parity tests run the real model), testable imports on;
# every bulk change of an HNSW graph is followed by its invariant checks (HUSH_HNSW_CHECKS=1).
test: setup
	HUSH_MODEL_DIR=$(MODEL_DIR) HUSH_HNSW_CHECKS=1 $(SWIFT) test -c $(CONFIG) -Xswiftc -enable-testing --parallel
	@$(MAKE) --no-print-directory client-app
	@$(MAKE) --no-print-directory test-arm64
	@$(MAKE) --no-print-directory test-tsan
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(CI_FUZZ_SECONDS)

# arm64 code run here: HushKernels and Tests/arm64 cross-compiled (Debian's GCC and the Swift toolchain's clang) and
# run under qemu-user on three CPU models, every level against the reference, and whole e5 embeddings (about 2 min).
test-arm64: setup
	@scripts/arm64/test

# Examples/ClientApp: an app depending on Hush by package, public API only, built and run (exits 1 on a failed check).
client-app: setup
	cd Examples/ClientApp && $(SWIFT) build -c $(CONFIG) && HUSH_MODEL_DIR=$(MODEL_DIR) .build/$(CONFIG)/ClientApp

# The concurrency suites under Thread Sanitizer (own build folder; about 2.5 min cold on 2 cores, then seconds).
TSAN_FILTER = ReliabilityConcurrencyTests|StoreTests.concurrentSearches|SearchBetweenPassesTests|ThreadTeamTests
test-tsan: setup
	HUSH_MODEL_DIR=$(MODEL_DIR) $(SWIFT) test --sanitize=thread --scratch-path .build/tsan --filter '$(TSAN_FILTER)'

# Crash, concurrency, bad-input, disk, model, fuzz-corpus and no-network suites only
# (HUSH_RELIABILITY_KILLS=N changes the number of SIGKILLs per crash run, default 25).
test-reliability: setup
	HUSH_MODEL_DIR=$(MODEL_DIR) $(SWIFT) test -c $(CONFIG) -Xswiftc -enable-testing --filter Reliability

# Index and search in a network namespace with no interfaces, and trace their network system calls.
test-no-network: build
	@scripts/test-no-network $(HUSH)

# libFuzzer targets in Fuzz/, FUZZ_SECONDS (default 60) each; `make test` runs each for CI_FUZZ_SECONDS.
CI_FUZZ_SECONDS ?= 15
FUZZ_SECONDS ?= 60
fuzz:
	@FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz

demo: build
	@scripts/demo $(HUSH)

# Benchmarks against the peers (needs ../shared/bench/setup-peers.sh first); see docs/benchmarks.md.
bench: build
	@scripts/bench/embed.sh
	@scripts/bench/search.sh

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift Examples/ClientApp

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift Examples/ClientApp

clean:
	rm -rf .build
