#!/usr/bin/env bash
# Strength test of two Sapper builds: scripts/sprt.sh BASE NEW [match.py args...]
#
# Builds the engine at git revision BASE and at NEW (a revision, or WORKTREE for
# the current working tree including uncommitted and untracked, non-ignored
# files) with `cargo build --release`, prints both `bench` signatures, then runs
# scripts/match.py with engine 1 = NEW and engine 2 = BASE plus the given
# arguments, and finally prints the result line for CHANGELOG.md.  Example:
#
#   scripts/sprt.sh HEAD~1 WORKTREE --variant chess --nodes 5000 --sprt 0,10 \
#       --games 4000 --concurrency 2 --openings engine-tests/openings/chess.epd
#
# Builds live under $SAPPER_SPRT_DIR (default /tmp/sapper-sprt):
#   <commit sha>/src     `git worktree add --detach` checkout of that commit
#   WORKTREE/src         copy of the working tree (file times kept, so cargo
#                        rebuilds only after a change)
#   <key>/target         CARGO_TARGET_DIR of that build, reused by later runs
# The main checkout is never modified (git only records the worktrees in .git).
# Environment: PYTHON (default python3), CARGO (default cargo).
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0" >&2
    exit 2
}

[[ $# -ge 2 ]] || usage
case $1 in -h | --help) usage ;; esac
BASE_REV=$1
NEW_REV=$2
shift 2

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(git -C "$SCRIPT_DIR" rev-parse --show-toplevel)
ROOT=${SAPPER_SPRT_DIR:-/tmp/sapper-sprt}
PYTHON=${PYTHON:-python3}
CARGO=${CARGO:-cargo}
mkdir -p "$ROOT"

RUN_DIR=$(mktemp -d "$ROOT/run.XXXXXX")
cleanup() { rm -rf "$RUN_DIR"; }
trap cleanup EXIT

log() { printf 'sprt.sh: %s\n' "$*" >&2; }

# describe REV: human-readable label, e.g. "HEAD~1 (e43cdf5)" or "WORKTREE (6c8096a + uncommitted changes)".
describe() {
    local rev=$1
    if [[ $rev == WORKTREE ]]; then
        local head dirty=""
        head=$(git -C "$REPO" rev-parse --short HEAD)
        if [[ -n $(git -C "$REPO" status --porcelain --untracked-files=normal) ]]; then
            dirty=" + uncommitted changes"
        fi
        printf 'WORKTREE (%s%s)' "$head" "$dirty"
    else
        printf '%s (%s)' "$rev" "$(git -C "$REPO" rev-parse --short "$rev^{commit}")"
    fi
}

# prepare_source SHA|WORKTREE DIR: put the sources into DIR/src.
prepare_source() {
    local rev=$1 dir=$2
    if [[ $rev == WORKTREE ]]; then
        # Fresh copy of every tracked or untracked, non-ignored file that exists;
        # tar keeps modification times, so unchanged files stay fresh for cargo.
        rm -rf "$dir/src"
        mkdir -p "$dir/src"
        (
            cd "$REPO"
            git ls-files -z --cached --others --exclude-standard |
                while IFS= read -r -d '' file; do
                    if [[ -f $file || -L $file ]]; then printf '%s\0' "$file"; fi
                done |
                tar --null --files-from=- -cf - |
                tar -xf - -C "$dir/src"
        )
    elif [[ ! -e $dir/src/.git ]]; then
        rm -rf "$dir/src"
        git -C "$REPO" worktree prune
        git -C "$REPO" worktree add --detach "$dir/src" "$rev" >&2
    fi
}

# cargo_build SRC TARGET_DIR: build the sapper binary.  Cargo refuses a manifest that
# names a bench, example or test file the checkout lacks (e.g. a commit whose
# Cargo.toml lists benches/perft.rs without the file); such files get an empty stub
# in the throwaway copy and the build is retried.  Stubs are never compiled, as only
# the sapper binary is built.
cargo_build() {
    local src=$1 target=$2 path attempt
    local log=$RUN_DIR/cargo.log
    for attempt in 1 2 3 4 5 6 7 8 9 10; do
        if (cd "$src" && CARGO_TARGET_DIR="$target" "$CARGO" build --release --bin sapper) 2>&1 | tee "$log" >&2; then
            return 0
        fi
        path=$(sed -n 's/.*find `[^`]*` \(bench\|example\|test\) at `\([^`]*\)`.*/\2/p' "$log" | head -n 1)
        if [[ -z $path || -e $src/$path ]]; then
            break
        fi
        log "warning: $src/Cargo.toml names missing $path; retrying with an empty stub (attempt $attempt)"
        mkdir -p "$(dirname "$src/$path")"
        echo 'fn main() {}' >"$src/$path"
    done
    log "cargo build failed in $src"
    exit 1
}

# build REV NAME: build REV and copy its binary to $RUN_DIR/NAME.
build() {
    local rev=$1 name=$2 key dir
    if [[ $rev == WORKTREE ]]; then
        key=WORKTREE
    else
        key=$(git -C "$REPO" rev-parse --verify --quiet "$rev^{commit}") || {
            log "unknown revision '$rev'"
            exit 2
        }
    fi
    dir=$ROOT/$key
    mkdir -p "$dir"
    log "building $name = $(describe "$rev") in $dir"
    (
        # One build per directory at a time (concurrent sprt.sh runs).
        flock 9
        prepare_source "$key" "$dir"
        cargo_build "$dir/src" "$dir/target"
        # A private copy, so that a later rebuild cannot change a running engine.
        cp "$dir/target/release/sapper" "$RUN_DIR/$name"
    ) 9>"$dir.lock"
}

# bench BINARY: the bench signature (total node count) of BINARY.
bench() {
    local out
    out=$("$1" bench 2>&1) || {
        log "$1 bench failed:"
        printf '%s\n' "$out" >&2
        exit 1
    }
    awk '$2 == "nodes" { sig = $1 } END { if (sig == "") exit 1; print sig }' <<<"$out"
}

build "$BASE_REV" base
build "$NEW_REV" new

BASE_LABEL=$(describe "$BASE_REV")
NEW_LABEL=$(describe "$NEW_REV")
BASE_BENCH=$(bench "$RUN_DIR/base")
NEW_BENCH=$(bench "$RUN_DIR/new")
echo "NEW  = $NEW_LABEL: bench $NEW_BENCH"
echo "BASE = $BASE_LABEL: bench $BASE_BENCH"

# Engine 1 is NEW, engine 2 is BASE; names given here can be overridden by
# --name1/--name2 in the arguments (the last occurrence wins).
# match.py's statistics come from `sapper stats`: $SAPPER_BIN if set, else the
# first of the two builds that has the command, else this checkout's build.
if [[ -z ${SAPPER_BIN:-} ]]; then
    for candidate in "$RUN_DIR/new" "$RUN_DIR/base"; do
        if "$candidate" stats --score 0.5 >/dev/null 2>&1; then
            export SAPPER_BIN=$candidate
            break
        fi
    done
fi

set +e
"$PYTHON" "$SCRIPT_DIR/match.py" \
    --engine1 "$(printf '%q' "$RUN_DIR/new")" --engine2 "$(printf '%q' "$RUN_DIR/base")" \
    --name1 "sapper-new@$NEW_REV" --name2 "sapper-base@$BASE_REV" \
    "$@" | tee -i "$RUN_DIR/summary.txt"
status=${PIPESTATUS[0]}
set -e

result=$(sed -n 's/^Result: //p' "$RUN_DIR/summary.txt")
if [[ -n $result ]]; then
    echo
    echo "CHANGELOG ($NEW_LABEL, bench $NEW_BENCH vs $BASE_LABEL, bench $BASE_BENCH):"
    echo "$result"
fi
exit "$status"
