# Hush: the two set-up commands are `make demo` and `make test`; both install what is missing first.
SWIFT ?= swift
CONFIG ?= release
HUSH = .build/$(CONFIG)/hush
MODEL_DIR ?= $(or $(HUSH_MODEL_DIR),$(HOME)/.cache/hush/models/all-MiniLM-L6-v2)

.PHONY: setup build check check-layers test test-arm64 client-app test-tsan test-reliability test-no-network fuzz demo bench format lint clean

setup:
	@scripts/setup

build: setup
	$(SWIFT) build -c $(CONFIG)

# Everything CI runs (scripts/test): one release build (testable imports on), every Swift suite with the HNSW
# invariant checks, Examples/ClientApp, arm64 under qemu (beside the build), then one debug build under Thread
# Sanitizer with libFuzzer's coverage for the concurrency suites and a fuzzing smoke run.
test: setup
	@FUZZ_SECONDS=$(CI_FUZZ_SECONDS) HUSH_MODEL_DIR=$(MODEL_DIR) SWIFT=$(SWIFT) CONFIG=$(CONFIG) scripts/test

# The everyday loop: an incremental debug build and every suite that needs no real model and kills no process
# (HUSH_TEST_TIER=check; the traits in Tests/HushTestSupport/TestTier.swift say what is left to make test). The
# models are hidden, as for a user without one: a test that loads one without saying so fails here.
NO_MODEL = $(CURDIR)/.build/no-model
check:
	@scripts/check-layers
	@scripts/check-file-sizes
	@scripts/check-apple-kernels
	$(SWIFT) build --build-tests
	@scripts/check-doc-snippets debug
	@scripts/check-apple-swift debug
	@scripts/check-docs debug
	HUSH_TEST_TIER=check HUSH_MODEL_DIR=$(NO_MODEL) HUSH_E5_MODEL=$(NO_MODEL)/e5-small-q4.bin HUSH_MODEL= \
		$(SWIFT) test --skip-build --parallel

# arm64 code run here: HushKernels and Tests/arm64 cross-compiled (Debian's GCC and the Swift toolchain's clang) and
# run under qemu-user on three CPU models, every level against the reference, and whole e5 embeddings (about 2 min).
test-arm64: setup
	@scripts/arm64/test

# Examples/ClientApp built on its own, as an app depending on Hush by package would be, and run (exits 1 on a failed
# check). make test checks the same program without a second compile (scripts/client-app-check).
client-app: setup
	cd Examples/ClientApp && $(SWIFT) build -c $(CONFIG) && HUSH_MODEL_DIR=$(MODEL_DIR) .build/$(CONFIG)/ClientApp

# The concurrency suites under Thread Sanitizer: the library, those suites and the libFuzzer harnesses alone
# (HUSH_TSAN_ONLY=1, see Package.swift: ReliabilityConcurrencyTests, StoreConcurrencyTests, SearchBetweenPassesTests,
# ThreadTeamTests), in their own build folder; about 1.5-2 min cold on 2 cores, then seconds. (make test builds the
# same with libFuzzer's coverage instrumentation in .build/tsan-fuzz and fuzzes from it.)
test-tsan: setup
	HUSH_TSAN_ONLY=1 HUSH_MODEL_DIR=$(MODEL_DIR) $(SWIFT) test --sanitize=thread --scratch-path .build/tsan

# Crash, concurrency, bad-input, disk, model, fuzz-corpus and no-network suites only
# (HUSH_RELIABILITY_KILLS=N changes the number of SIGKILLs per crash run, default 25).
test-reliability: setup
	HUSH_MODEL_DIR=$(MODEL_DIR) $(SWIFT) test -c $(CONFIG) -Xswiftc -enable-testing --filter Reliability

# Index and search in a network namespace with no interfaces, and trace their network system calls.
test-no-network: build
	@scripts/test-no-network $(HUSH)

# libFuzzer targets in Fuzz/, FUZZ_SECONDS (default 60) each; `make test` runs each for CI_FUZZ_SECONDS.
CI_FUZZ_SECONDS ?= 5
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
