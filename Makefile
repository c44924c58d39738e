# Entry points; the scripts in scripts/ do the work that is more than one command.
# The Windows targets install their cross toolchain with apt on first use (root).

.PHONY: release competition windows package test bench play

# Plain `make`: the default (play) profile, optimised.
release:
	cargo build --release --locked

# The Linux tournament build, in its own target folder so it never replaces the default one.
competition:
	cargo build --release --locked --features competition --target-dir target/competition

# dist/pbrain-tengen64.exe, cross-built (see scripts/build-windows.sh).
windows:
	scripts/build-windows.sh

# dist/tengen.zip (Gomocup) and dist/tengen-linux-x86_64.tar.gz.
package:
	scripts/package.sh

# The whole test suite. The dev profile keeps debug assertions (and with them the
# board's from-scratch consistency checks) on. The second clippy run covers what only a
# feature turns on (src/platform.rs).
test:
	cargo fmt --check
	cargo clippy --locked --all-targets -- -D warnings
	cargo clippy --locked --all-targets --all-features -- -D warnings
	cargo test --locked

bench: release
	target/release/pbrain-tengen bench

play:
	cargo run --release --locked -- play
