#!/usr/bin/env bash
# Instructions and mispredicted branches of one search, counted by callgrind (which
# a busy machine does not disturb, unlike timings): the numbers the CHANGELOG's
# same-tree speed steps quote.
#
#   scripts/callgrind.sh BIN VARIANT NODES [OUT]
#
# Searches the start position of VARIANT (a UCI_Variant value) for `go nodes NODES`,
# Hash 16, under `valgrind --tool=callgrind --branch-sim=yes`, waits for `bestmove`
# (a `quit` sent earlier would cut the search short and change the counts), then
# prints the last depth and the program totals: instructions (Ir), conditional
# branches (Bc), their mispredictions (Bcm), indirect branches (Bi) and theirs (Bim).
# OUT (default callgrind.out.VARIANT) keeps the profile for `callgrind_annotate`.
# Builds with line tables name the source lines:
#   CARGO_PROFILE_RELEASE_DEBUG=line-tables-only cargo build --release
set -euo pipefail
[ $# -ge 3 ] || { sed -n 5,6p "$0"; exit 2; }
bin=$1 variant=$2 nodes=$3 out=${4:-callgrind.out.$2}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
{
    printf 'uci\nsetoption name UCI_Variant value %s\nsetoption name Hash value 16\nisready\nposition startpos\ngo nodes %s\n' "$variant" "$nodes"
    until grep -q '^bestmove' "$log"; do sleep 1; done
    echo quit
} | valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$out" "$bin" >"$log" 2>/dev/null
grep '^info depth' "$log" | tail -1 | grep -o 'depth [0-9]* seldepth [0-9]*\|nodes [0-9]*' | tr '\n' ' '
echo
callgrind_annotate "$out" 2>/dev/null | grep -B2 'PROGRAM TOTALS' | grep -v '^--'
