# OpenBench and other test frameworks build an engine with `make EXE=<path>` and
# read `<path> bench`. Everything else is cargo's job.
EXE ?= sapper

# Profile-guided build (as Stockfish's `make profile-build`): an instrumented build
# runs `sapper bench`, and the profile steers the final build's inlining and code
# layout. Needs LLVM's profdata tool of the toolchain: `rustup component add
# llvm-tools`. The flags replace .cargo/config.toml's, so they repeat its CPU level.
CPU ?= x86-64-v2
PGO_DIR := $(CURDIR)/target/pgo
LLVM_PROFDATA ?= $(shell rustc --print sysroot)/lib/rustlib/$(shell rustc -vV | sed -n 's/^host: //p')/bin/llvm-profdata

.PHONY: all pgo clean

all:
	cargo build --release
	cp target/release/sapper $(EXE)

pgo:
	rm -rf $(PGO_DIR)/data
	RUSTFLAGS="-C target-cpu=$(CPU) -C profile-generate=$(PGO_DIR)/data" \
		cargo build --release -p sapper-tools --target-dir $(PGO_DIR)/generate
	$(PGO_DIR)/generate/release/sapper bench > /dev/null
	$(LLVM_PROFDATA) merge -o $(PGO_DIR)/merged.profdata $(PGO_DIR)/data
	RUSTFLAGS="-C target-cpu=$(CPU) -C profile-use=$(PGO_DIR)/merged.profdata" \
		cargo build --release -p sapper-tools --target-dir $(PGO_DIR)/use
	cp $(PGO_DIR)/use/release/sapper $(EXE)

clean:
	cargo clean
