#!/usr/bin/env bash
# Installs what the Windows cross-build needs, on a Debian 12 machine where we are root:
#   - gcc-mingw-w64-x86-64 (linker and Windows import libraries) and wine64 (to run the exe),
#     from apt;
#   - Debian's rustc-web toolchain (compiler, cargo, standard-library source), unpacked into
#     .toolchains/rust-web inside the repository. It is not installed with apt because it
#     conflicts with Debian's own rustc/cargo; rustup's toolchains cannot add the Windows
#     target on these machines, so std is built from rust-web-src with -Zbuild-std.
# Safe to run again: once everything is in place it only checks and exits.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEST=$ROOT/.toolchains/rust-web
STAMP=$DEST/.installed
WINE=/usr/lib/wine/wine64
# Packages that belong to the private toolchain (unpacked, never installed). Everything
# else they depend on is an ordinary library, installed with apt.
PRIVATE_RE='^(rustc-web|cargo-web|rust-web-src|libstd-rust-web-.*|libllvm[0-9]+)$'

log() { printf 'windows-toolchain: %s\n' "$*" >&2; }

toolchain_runs() {
    LD_LIBRARY_PATH=$DEST/usr/lib/x86_64-linux-gnu "$DEST/usr/bin/rustc" -V >/dev/null 2>&1 &&
        LD_LIBRARY_PATH=$DEST/usr/lib/x86_64-linux-gnu "$DEST/usr/bin/cargo" -V >/dev/null 2>&1
}

installed() { [ "$(dpkg-query -W -f '${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

if [ -f "$STAMP" ] && command -v x86_64-w64-mingw32-gcc >/dev/null && [ -x "$WINE" ] && toolchain_runs; then
    log "already installed: $(cat "$STAMP")"
    exit 0
fi

[ "$(id -u)" = 0 ] || { log "must run as root (it uses apt-get)"; exit 1; }
export DEBIAN_FRONTEND=noninteractive
log "apt-get update"
apt-get update -qq

if ! command -v x86_64-w64-mingw32-gcc >/dev/null || [ ! -x "$WINE" ]; then
    log "installing gcc-mingw-w64-x86-64 and wine64"
    apt-get install -y -qq --no-install-recommends gcc-mingw-w64-x86-64 wine64 >/dev/null
fi

# Candidate version of a package, and its Depends as "name version" lines ("-" when the
# dependency does not pin an exact version). Only the first of alternatives is taken.
candidate() { apt-cache policy "$1" | awk '/Candidate:/ { print $2 }'; }
depends() {
    apt-cache show --no-all-versions "$1=$2" |
        sed -n 's/^Depends: //p' | tr ',' '\n' | sed 's/|.*//; s/^ *//; s/ *$//' |
        awk '{ name = $1; sub(/:any$/, "", name); v = "-" }
             /\(= / { v = $3; sub(/\)$/, "", v) }
             name != "" { print name, v }'
}

VERSION=$(candidate rustc-web)
[ -n "$VERSION" ] && [ "$VERSION" != "(none)" ] || { log "apt knows no rustc-web package"; exit 1; }
log "rustc-web $VERSION"

# Walk the dependency graph from the four packages the build needs, splitting it into the
# private packages (with exact versions) and the system libraries they need.
declare -A private=() system=()
queue=("rustc-web $VERSION" "cargo-web $VERSION" "rust-web-src $VERSION" "libstd-rust-web-dev $VERSION")
while [ ${#queue[@]} -gt 0 ]; do
    read -r name version <<<"${queue[0]}"
    queue=("${queue[@]:1}")
    [ -n "${private[$name]:-}" ] && continue
    [ "$version" = - ] && version=$(candidate "$name")
    private[$name]=$version
    while read -r dep dep_version; do
        if [[ $dep =~ $PRIVATE_RE ]]; then
            queue+=("$dep $dep_version")
        else
            system[$dep]=1
        fi
    done < <(depends "$name" "$version")
done

missing=()
for dep in "${!system[@]}"; do installed "$dep" || missing+=("$dep"); done
if [ ${#missing[@]} -gt 0 ]; then
    log "installing libraries the toolchain needs: ${missing[*]}"
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

DEBS=$(mktemp -d)
trap 'rm -rf "$DEBS"' EXIT
# apt's download sandbox user must be able to write the folder.
chmod 755 "$DEBS"
chown _apt "$DEBS" 2>/dev/null || true
specs=()
for name in "${!private[@]}"; do specs+=("$name=${private[$name]}"); done
log "downloading ${specs[*]}"
(cd "$DEBS" && apt-get download -qq "${specs[@]}")

rm -rf "$DEST"
mkdir -p "$DEST"
for deb in "$DEBS"/*.deb; do dpkg-deb -x "$deb" "$DEST"; done
toolchain_runs || { log "the unpacked toolchain does not run"; exit 1; }
LD_LIBRARY_PATH=$DEST/usr/lib/x86_64-linux-gnu "$DEST/usr/bin/rustc" -V >"$STAMP"
log "installed $(cat "$STAMP") in ${DEST#"$ROOT"/}"
