#!/usr/bin/env bash
# Writes the release artefacts:
#   dist/tengen.zip                 the Gomocup submission: pbrain-tengen64.exe at the root
#                                   (the zip's own name must not start with pbrain-), < 8 MB
#   dist/tengen-linux-x86_64.tar.gz the Linux competition build
# Builds both first (the Windows one installs its toolchain if needed).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# Gomocup's default size limit; bigger submissions need written approval.
ZIP_LIMIT=$((8 * 1000 * 1000))

scripts/build-windows.sh
cargo build --release --locked --features competition --target-dir target/competition

python3 - "$ZIP_LIMIT" <<'PY'
import os, sys, tarfile, zipfile

limit = int(sys.argv[1])
with zipfile.ZipFile("dist/tengen.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    z.write("dist/pbrain-tengen64.exe", "pbrain-tengen64.exe")
with tarfile.open("dist/tengen-linux-x86_64.tar.gz", "w:gz") as t:
    t.add("target/competition/release/pbrain-tengen", "pbrain-tengen")
    t.add("README.md", "README.md")
    t.add("LICENSE", "LICENSE")

size = os.path.getsize("dist/tengen.zip")
with zipfile.ZipFile("dist/tengen.zip") as z:
    names = z.namelist()
print(f"package: dist/tengen.zip {size} bytes: {', '.join(names)}")
print(f"package: dist/tengen-linux-x86_64.tar.gz {os.path.getsize('dist/tengen-linux-x86_64.tar.gz')} bytes")
if size >= limit:
    sys.exit(f"package: dist/tengen.zip is {size} bytes, over Gomocup's {limit}")
PY
