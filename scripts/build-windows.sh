#!/usr/bin/env bash
# Cross-builds the Gomocup brain, dist/pbrain-tengen64.exe, with Debian's rustc-web
# toolchain (installed by scripts/windows-toolchain.sh, which this runs first). std is
# compiled for the target with -Zbuild-std because no prebuilt Windows std is available.
# The exe must be one self-contained file: the check at the end fails the build if it
# imports any DLL that is not part of Windows itself.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
scripts/windows-toolchain.sh

TC=$ROOT/.toolchains/rust-web
TARGET=x86_64-pc-windows-gnu
# Separate from target/ so the rustup build and this one never reuse each other's artefacts.
export CARGO_TARGET_DIR=$ROOT/target/windows
export LD_LIBRARY_PATH=$TC/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# Without RUSTC, cargo would pick rustup's compiler, which has no Windows std.
export RUSTC=$TC/usr/bin/rustc
# -Zbuild-std is a nightly flag; this is how a stable compiler accepts it.
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
# Exactly the instruction sets Gomocup guarantees (2024): SSE4.2, POPCNT, AVX, AVX2.
# The rest keeps this machine's paths out of the exe: source paths in panic messages
# are remapped, and the symbol table (which names the build's temporary files) is
# stripped, which also makes the exe a quarter smaller. With --target these flags reach
# only the target crates (std included), not build scripts.
std_src=.toolchains/rust-web/usr/lib/rustlib/src/rust
flags=(
    -C target-feature=+sse4.2,+popcnt,+avx,+avx2
    -C strip=symbols
    "--remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}/registry/src=crates"
    "--remap-path-prefix=$ROOT=tengen"
    "--remap-path-prefix=$ROOT/$std_src=rust"
    "--remap-path-prefix=$std_src=rust"
)
CARGO_ENCODED_RUSTFLAGS=$(IFS=$'\x1f'; echo "${flags[*]}")
export CARGO_ENCODED_RUSTFLAGS

"$TC/usr/bin/cargo" build --release --locked --features windows \
    -Zbuild-std=std,panic_abort --target "$TARGET"

EXE=$CARGO_TARGET_DIR/$TARGET/release/pbrain-tengen.exe
# DLLs every Windows installation has. Anything else would be a "missing dependency".
SYSTEM_DLL_RE='^(kernel32|ntdll|msvcrt|ucrtbase|advapi32|bcrypt|bcryptprimitives|ws2_32|userenv|user32|shell32|ole32|oleaut32|secur32|api-ms-win-[a-z0-9-]+)\.dll$'
imports=$(x86_64-w64-mingw32-objdump -p "$EXE" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr 'A-Z' 'a-z' | sort -u)
foreign=$(grep -Ev "$SYSTEM_DLL_RE" <<<"$imports" || true)
if [ -n "$foreign" ]; then
    echo "build-windows: $EXE imports non-system DLLs:" $foreign >&2
    exit 1
fi

mkdir -p dist
cp "$EXE" dist/pbrain-tengen64.exe
echo "build-windows: dist/pbrain-tengen64.exe ($(stat -c %s dist/pbrain-tengen64.exe) bytes), imports:" $imports
