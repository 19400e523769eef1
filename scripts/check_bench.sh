#!/usr/bin/env bash
# Checks that `sapper bench` gives the node count the history promises: the newest
# commit message with a `Bench: N` line names the signature of the code as it is
# (later commits, "No functional change", must not have altered it). CI runs this.
# Usage: scripts/check_bench.sh [path/to/sapper]   (default: target/release/sapper)
set -euo pipefail
cd "$(dirname "$0")/.."
engine="${1:-target/release/sapper}"
[ -x "$engine" ] || cargo build --release --quiet
expected=$(git log --format=%B -n 500 | sed -n 's/^Bench: \([0-9][0-9]*\)$/\1/p' | head -n 1)
if [ -z "$expected" ]; then
    echo "check_bench: no 'Bench: N' line in the last 500 commit messages" >&2
    exit 1
fi
actual=$("$engine" bench | tail -n 1 | awk '{print $1}')
if [ "$actual" != "$expected" ]; then
    echo "check_bench: sapper bench gives $actual nodes, the newest Bench: line says $expected" >&2
    exit 1
fi
echo "check_bench: Bench $actual matches"
