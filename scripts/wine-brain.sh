#!/usr/bin/env bash
# Runs the Windows brain under Wine as a drop-in for the Linux binary: stdin and stdout
# pass straight through, Wine's own chatter is silenced. Point the protocol tests at it
# with TENGEN_BRAIN=$PWD/scripts/wine-brain.sh.
#   TENGEN_EXE   the exe to run (default dist/pbrain-tengen64.exe)
#   WINEPREFIX   Wine's private folder (default .wine in the repository)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
EXE=${TENGEN_EXE:-$ROOT/dist/pbrain-tengen64.exe}
[ -f "$EXE" ] || { echo "wine-brain: $EXE not found (run scripts/build-windows.sh)" >&2; exit 1; }

export WINEPREFIX=${WINEPREFIX:-$ROOT/.wine}
export WINEDEBUG=-all
# No Mono or Gecko: a console brain needs neither, and asking for them would stall
# a headless first start.
export WINEDLLOVERRIDES="mscoree,mshtml="
exec /usr/lib/wine/wine64 "$EXE" "$@"
