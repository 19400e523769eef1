# OpenBench and other test frameworks build an engine with `make EXE=<path>` and
# read `<path> bench`. Everything else is cargo's job.
EXE ?= sapper

.PHONY: all clean

all:
	cargo build --release
	cp target/release/sapper $(EXE)

clean:
	cargo clean
