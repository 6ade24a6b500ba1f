# OpenBench builds engines with `make EXE=<path>`; `make` alone builds target/release/cutoff.
EXE ?= cutoff
CARGO ?= cargo

.PHONY: all native clean

all:
	$(CARGO) build --release
	cp target/release/cutoff $(EXE)

# Same, tuned for the building machine's CPU.
native:
	RUSTFLAGS="-C target-cpu=native" $(CARGO) build --release
	cp target/release/cutoff $(EXE)

clean:
	$(CARGO) clean
