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

WINE=/usr/lib/wine/wine64
export WINEPREFIX=${WINEPREFIX:-$ROOT/.wine}
export WINEDEBUG=-all
# No Mono or Gecko: a console brain needs neither, and asking for them would stall
# a headless first start.
export WINEDLLOVERRIDES="mscoree,mshtml="

# First use: create the prefix and give it the bcryptprimitives.dll that Wine 8 lacks
# (see scripts/wine/bcryptprimitives.c). The lock keeps parallel first starts apart.
SHIM=$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll
if [ ! -f "$SHIM" ]; then
    mkdir -p "$WINEPREFIX"
    exec 9>"$WINEPREFIX/.tengen-setup.lock"
    flock 9
    if [ ! -f "$SHIM" ]; then
        "$WINE" wineboot --init >/dev/null 2>&1
        x86_64-w64-mingw32-gcc -shared -O2 -s -o "$SHIM.tmp" "$ROOT/scripts/wine/bcryptprimitives.c" -lbcrypt
        mv "$SHIM.tmp" "$SHIM"
    fi
    exec 9>&-
fi
exec "$WINE" "$EXE" "$@"
