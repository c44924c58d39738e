#!/usr/bin/env bash
# Builds the Windows exe and runs the protocol transcripts against it under Wine, the
# same tests that drive the Linux binary (the harness runs $TENGEN_BRAIN instead), then
# checks that the exe and the Linux build give the same bench node count.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

# Without this the tests would quietly drive the Linux binary and prove nothing here.
grep -rqs TENGEN_BRAIN protocol-tests/ || {
    echo "test-windows: protocol-tests/ does not honour TENGEN_BRAIN" >&2
    exit 1
}

scripts/build-windows.sh

export WINEPREFIX=$ROOT/.wine
# Stop this prefix's wineserver when done, so nothing outlives the run.
trap '/usr/lib/wine/wineserver -k 2>/dev/null || true' EXIT
# The first start sets up the prefix (seconds); do it before the tests so that no
# transcript pays for it.
timeout 120 scripts/wine-brain.sh </dev/null >/dev/null 2>&1

TENGEN_BRAIN=$ROOT/scripts/wine-brain.sh cargo test --test protocol

# Search must not depend on the platform or the profile: the exe's bench node count has
# to equal the Linux build's. Skipped while the binary has no bench command.
cargo build --release --locked --quiet
signature() { "$@" bench | awk '/^Bench: / { n = $2 } END { print n }'; }
linux=$(signature target/release/pbrain-tengen)
if [ -z "$linux" ]; then
    echo "test-windows: no bench command yet; bench comparison skipped"
    exit 0
fi
windows=$(signature scripts/wine-brain.sh)
echo "test-windows: bench nodes: linux $linux, windows $windows"
[ "$linux" = "$windows" ] || { echo "test-windows: the bench differs between the builds" >&2; exit 1; }
