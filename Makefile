# OpenBench builds engines with `make EXE=<path>`; `make` alone builds target/release/cutoff
# for the building machine's CPU (.cargo/config.toml) and copies it to $(EXE).
# Portable release binaries: `make portable` (any x86-64), `make x86-64-v2` (popcnt,
# SSE4.2: 2009 on), `make x86-64-v3` (BMI2, AVX2: 2015 on). Each builds in a target folder
# of its own and copies the binary to $(EXE).
EXE ?= cutoff
CARGO ?= cargo

.PHONY: all native portable x86-64-v2 x86-64-v3 clean

all native:
	$(CARGO) build --release
	cp target/release/cutoff $(EXE)

portable:
	RUSTFLAGS="-C target-cpu=x86-64" $(CARGO) build --release --target-dir target/x86-64
	cp target/x86-64/release/cutoff $(EXE)

x86-64-v2 x86-64-v3:
	RUSTFLAGS="-C target-cpu=$@" $(CARGO) build --release --target-dir target/$@
	cp target/$@/release/cutoff $(EXE)

clean:
	$(CARGO) clean
