# OpenBench builds engines with `make EXE=<name> [EVALFILE=<network>]`; `make` alone builds
# target/release/cutoff for the building machine's CPU (.cargo/config.toml) and copies it
# to $(EXE). Portable release binaries: `make portable` (any x86-64), `make x86-64-v2`
# (popcnt, SSE4.2: 2009 on), `make x86-64-v3` (BMI2, AVX2: 2015 on), `make x86-64-v4`
# (AVX-512: Skylake-X, Zen 4 on). Each builds in a target folder of its own and copies
# the binary to $(EXE).
#
# EVALFILE: a network file to embed instead of engine/nets/default.nnue (engine/build.rs
# vets it; the built engine then reads it once, so that a file it refuses fails the build).
#
# SPSA=1 builds the tuning build (every search constant a UCI option). A tune branch sets
# the default below to 1 in a commit of its own, so that OpenBench's plain `make` builds
# the options the tune sets (docs/openbench.md).
EXE ?= cutoff
CARGO ?= cargo
SPSA ?= 0
# Where cargo builds the default target (as cargo itself reads CARGO_TARGET_DIR).
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

# Windows: cargo writes cutoff.exe, and OpenBench passes EXE without the suffix but looks
# for <EXE>.exe after the build.
ifeq ($(OS),Windows_NT)
    SUFFIX := .exe
endif
OUT := $(patsubst %$(SUFFIX),%,$(EXE))$(SUFFIX)

# Cargo runs engine/build.rs in engine/, so a relative path is made absolute here (one
# that is absolute already, as OpenBench's `C:/…` on Windows, is kept as it is).
ifneq ($(strip $(EVALFILE)),)
    ABSOLUTE := $(or $(filter /%,$(firstword $(EVALFILE))),$(findstring :/,$(EVALFILE)),$(findstring :\,$(EVALFILE)))
    override EVALFILE := $(if $(ABSOLUTE),$(EVALFILE),$(abspath $(EVALFILE)))
    export EVALFILE
endif
ifeq ($(SPSA),1)
    FEATURES := --features spsa
endif
BUILD = $(CARGO) build --release $(FEATURES)

.PHONY: all native portable x86-64-v2 x86-64-v3 x86-64-v4 pgo release clean

all native:
	$(BUILD)
	cp $(TARGET_DIR)/release/cutoff$(SUFFIX) "$(OUT)"
	$(check-network)

portable:
	RUSTFLAGS="-C target-cpu=x86-64" $(BUILD) --target-dir target/x86-64
	cp target/x86-64/release/cutoff$(SUFFIX) "$(OUT)"
	$(check-network)

x86-64-v2 x86-64-v3 x86-64-v4:
	RUSTFLAGS="-C target-cpu=$@" $(BUILD) --target-dir target/$@
	cp target/$@/release/cutoff$(SUFFIX) "$(OUT)"
	$(check-network)

# `make pgo`: the build for this machine, optimised with a profile of its own work
# (profile-guided optimisation): an instrumented build runs `cutoff bench`, a short
# datagen and a short training run, llvm-profdata merges what they counted, and a second
# build lays out and inlines the code by it. Code the workload leaves out is compiled as
# cold: the trainer, left out, ran at half its speed. It searches the same tree as
# `make`: the recipe fails unless the optimised build's bench prints the instrumented
# one's node count. llvm-profdata must be of rustc's own LLVM version:
# rustup's llvm-tools component, added here where it is missing. RUSTFLAGS reach the build
# scripts too, so the profiles they leave while building are removed before the bench
# runs. The profile-use build starts from an empty folder, since cargo does not see a new
# profile as a change.
PGO_DIR := target/pgo
PGO_WORK := $(PGO_DIR)/workload
INSTRUMENTED := $(PGO_DIR)/generate/release/cutoff$(SUFFIX)
OPTIMISED := $(PGO_DIR)/use/release/cutoff$(SUFFIX)
RUST_HOST = $(shell rustc -vV | sed -n 's/^host: //p')
PROFDATA = $(shell rustc --print sysroot)/lib/rustlib/$(RUST_HOST)/bin/llvm-profdata$(SUFFIX)

pgo:
	test -x "$(PROFDATA)" || rustup component add llvm-tools
	RUSTFLAGS="-C target-cpu=native -C profile-generate=$(abspath $(PGO_DIR))/profiles" \
	    $(BUILD) --target-dir $(PGO_DIR)/generate
	rm -rf $(PGO_DIR)/profiles $(PGO_DIR)/use $(PGO_WORK)
	mkdir -p $(PGO_WORK)
	$(INSTRUMENTED) bench > $(PGO_DIR)/bench-generate
	$(INSTRUMENTED) datagen --output $(PGO_WORK)/games --format games --games 16 \
	    --threads 2 --seed 1 > /dev/null
	$(INSTRUMENTED) data convert $(PGO_WORK)/games --output $(PGO_WORK)/records \
	    > /dev/null
	$(INSTRUMENTED) train $(PGO_WORK)/records --output $(PGO_WORK)/train --hidden 128 \
	    --buckets 8 --epochs 1 --epoch-batches 200 --batch-size 4096 --threads 2 > /dev/null
	"$(PROFDATA)" merge -o $(PGO_DIR)/cutoff.profdata $(PGO_DIR)/profiles
	RUSTFLAGS="-C target-cpu=native -C profile-use=$(abspath $(PGO_DIR))/cutoff.profdata" \
	    $(BUILD) --target-dir $(PGO_DIR)/use
	$(OPTIMISED) bench > $(PGO_DIR)/bench-use
	generated=$$(tail -n 1 $(PGO_DIR)/bench-generate | cut -d' ' -f1); \
	used=$$(tail -n 1 $(PGO_DIR)/bench-use | cut -d' ' -f1); \
	case "$$generated" in ''|*[!0-9]*) echo "make pgo: no bench count"; exit 1;; esac; \
	test "$$generated" = "$$used" \
	    || (echo "make pgo: bench $$used nodes, instrumented $$generated" && false)
	cp $(OPTIMISED) "$(OUT)"
	$(check-network)

# With EVALFILE, the engine's own reader checks the embedded network once: a UCI session
# reads it at start-up, and one that cannot stops there, with an error status.
define check-network
$(if $(EVALFILE),printf 'eval\nquit\n' | "$(abspath $(OUT))" > /dev/null || (echo "EVALFILE=$(EVALFILE): the engine cannot read this network" && rm -f "$(OUT)" && false))
endef

# `make release`: a release's four x86-64 binaries in release/, named for the version and
# the CPU level, with a SHA256SUMS list. On Linux they link the C library statically
# (crt-static), so they run on any distribution; the explicit --target keeps that flag off
# the build scripts and procedural macros, which must stay dynamic. Each binary must print
# the same bench node count (the levels change the instructions, never the search); one
# the building CPU cannot run is reported and not compared.
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
RELEASE_LEVELS := x86-64 x86-64-v2 x86-64-v3 x86-64-v4
ifeq ($(shell uname -s),Linux)
    RELEASE_TARGET := $(shell uname -m)-unknown-linux-gnu
    STATIC := -C target-feature=+crt-static
    TRIPLE := --target $(RELEASE_TARGET)
    TRIPLE_DIR := $(RELEASE_TARGET)/
endif

release:
	mkdir -p release
	for level in $(RELEASE_LEVELS); do \
	    RUSTFLAGS="-C target-cpu=$$level $(STATIC)" $(CARGO) build --release $(TRIPLE) \
	        --target-dir target/release-$$level || exit 1; \
	    cp target/release-$$level/$(TRIPLE_DIR)release/cutoff$(SUFFIX) \
	        release/cutoff-$(VERSION)-$$level$(SUFFIX) || exit 1; \
	done
	scripts/check_release.sh release $(VERSION)

clean:
	$(CARGO) clean
