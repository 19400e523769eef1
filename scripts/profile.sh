#!/usr/bin/env bash
# Where the search spends its time, per variant: a flat `perf` profile of
# `sapper analyze --movetime MS` on one middlegame per variant (the bench's; atomic's
# is an opening of engine-tests/openings/atomic-300.epd and three-check's of
# 3check-random.epd, the bench's being mates), and
# of `sapper bench`. Prints the functions above 1% of the samples (self time),
# as docs/profile.md records them.
#
#   scripts/profile.sh [MS]        # default 4000 ms per position
#
# Needs `perf` (linux-perf); builds a release binary with line tables into
# target/profile (debug info does not change the code generated).
set -euo pipefail
cd "$(dirname "$0")/.."
ms=${1:-4000}
CARGO_PROFILE_RELEASE_DEBUG=line-tables-only cargo build --release -q --target-dir target/profile
bin=target/profile/release/sapper
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

report() { # name, then the command
    local name=$1
    shift
    perf record -q -F 2000 -o "$out/$name.data" -- "$@" >"$out/$name.log" 2>&1
    echo "## $name: $(tail -1 "$out/$name.log")"
    perf report -q -i "$out/$name.data" --no-children --sort symbol -F overhead,sym --percent-limit 1 2>/dev/null |
        sed -E 's/\[\.\] //; s/( +-)* *$//; /^$/d' | sort -rn
    echo
}

report bench "$bin" bench
report chess "$bin" analyze -v chess --movetime "$ms" --hash 32 \
    --fen "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
report atomic "$bin" analyze -v atomic --movetime "$ms" --hash 32 \
    --fen "r1bqkbnr/pppnpppp/3p4/8/2P5/5P2/PP1PP1PP/RNBQKBNR b KQkq - 0 3"
report kingofthehill "$bin" analyze -v kingofthehill --movetime "$ms" --hash 32 \
    --fen "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 4 5"
report 3check "$bin" analyze -v 3check --movetime "$ms" --hash 32 \
    --fen "rnbqkb1r/p1ppp1pp/5n2/1p3p2/P6P/5P2/1PPPP1P1/RNBQKBNR w KQkq - 3+3 1 4"
report minesweeper "$bin" analyze -v minesweeper --movetime "$ms" --hash 32 \
    --fen "r1bqk1nr/pppp1ppp/2n5/2b1p3/8/8/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 ?11001??/?*1001??/?21001??/?100001? 4"
