#!/usr/bin/env bash
# Checks that the bench signature of the working tree equals the one stated by the
# newest commit message that has a `Bench: <nodes>` line.
set -euo pipefail
cd "$(dirname "$0")/.."
expected=$(git log --format=%B | grep -m1 -oE '^Bench: [0-9]+' | awk '{print $2}' || true)
if [ -z "$expected" ]; then
    echo "check-bench: no commit states a bench signature yet"
    exit 1
fi
cargo build --release --quiet
actual=$(target/release/pbrain-tengen bench | tail -n 1 | awk '{print $2}')
if [ "$actual" != "$expected" ]; then
    echo "check-bench: bench signature is $actual nodes, the newest commit that states one says $expected"
    exit 1
fi
echo "check-bench: signature $actual matches"
