# Hush: the two set-up commands are `make demo` and `make test`; both install what is missing first.
SWIFT ?= swift
CONFIG ?= release
HUSH = .build/$(CONFIG)/hush
MODEL_DIR ?= $(or $(HUSH_MODEL_DIR),$(HOME)/.cache/hush/models/all-MiniLM-L6-v2)

.PHONY: setup build test demo bench format lint clean

setup:
	@scripts/setup

build: setup
	$(SWIFT) build -c $(CONFIG)

# The whole test suite. Optimised build (the encoder parity tests run the real model), testable imports on.
test: setup
	HUSH_MODEL_DIR=$(MODEL_DIR) $(SWIFT) test -c $(CONFIG) -Xswiftc -enable-testing --parallel

demo: build
	@scripts/demo $(HUSH)

bench: build
	@scripts/bench $(HUSH)

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

clean:
	rm -rf .build
