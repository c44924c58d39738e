#!/usr/bin/env bash
# A/B test: the current tree's engine against a baseline build, decided by an SPRT.
#
# Builds the working tree (uncommitted changes included) and a baseline revision (built
# in a temporary git worktree), then plays them against each other with
# `pbrain-tengen arena`: every opening twice with the colours swapped, under a random
# symmetry of the board, a short time control or a fixed node count per move, and an
# SPRT with bounds as in chess engine testing (default elo0=0, elo1=10, alpha=beta=0.05).
# Prints the arena's output and the verdict.
#
# Exit status: 0 when H1 is accepted (the change gains elo1), 1 when H0 is accepted,
# 2 when the game limit ran out first, 3 for usage or build errors.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: scripts/ab-test.sh [options] [-- extra arena options]

  --base REV          baseline revision (default: the merge-base with main, or HEAD~1
                      when HEAD is on main)
  --sprt E0,E1[,A,B]  SPRT bounds in Elo and error rates (default 0,10,0.05,0.05)
  --tc TC             time control MATCH[/TURN][+INC] in seconds (default 10/1+0.1,
                      or 0/10 with --nodes)
  --nodes N           search N nodes a move (INFO max_node): the games then depend on
                      neither the clock nor the load of the machine (the root VCF and
                      VCT keep their own node budgets, so some moves take longer)
  --rule R            0, 1, 4 or 8 (default 0)
  --size N            board size (default 15)
  --openings FILE     opening file (default: the shared random 15x15 openings, or the
                      26 renju openings under rule 4)
  --games N           stop after N games if the SPRT has not decided (default 20000)
  --concurrency N     games in parallel (default: the number of CPUs)
  --seed N            seed for the opening order (default: from the clock)
  --out DIR           keep the game records in DIR
EOF
}

root=$(git rev-parse --show-toplevel)
base=""
sprt="0,10,0.05,0.05"
tc=""
nodes=""
rule=0
size=15
openings=""
games=20000
concurrency=$(nproc 2>/dev/null || echo 1)
seed=""
out=""
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --base) base=$2; shift 2 ;;
        --sprt) sprt=$2; shift 2 ;;
        --tc) tc=$2; shift 2 ;;
        --nodes) nodes=$2; shift 2 ;;
        --rule) rule=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --openings) openings=$2; shift 2 ;;
        --games) games=$2; shift 2 ;;
        --concurrency) concurrency=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --help|-h) usage; exit 0 ;;
        --) shift; extra=("$@"); break ;;
        *) echo "ab-test: unknown option $1" >&2; usage >&2; exit 3 ;;
    esac
done

if [ -z "$tc" ]; then
    if [ -n "$nodes" ]; then tc="0/10"; else tc="10/1+0.1"; fi
fi
each=("tc=$tc")
[ -n "$nodes" ] && each+=("nodes=$nodes")

cd "$root"
if [ -z "$base" ]; then
    base=$(git merge-base HEAD main 2>/dev/null || true)
    if [ -z "$base" ] || [ "$base" = "$(git rev-parse HEAD)" ]; then
        base=HEAD~1
    fi
fi
base_rev=$(git rev-parse --verify "$base^{commit}") || { echo "ab-test: no revision $base" >&2; exit 3; }
if [ -z "$openings" ]; then
    if [ "$rule" = 4 ] || [ "$rule" = renju ]; then
        openings="$root/../shared/openings/renju26_offset.txt"
    else
        openings="$root/../shared/openings/generated_random_15x15_offset.txt"
    fi
fi
[ -f "$openings" ] || { echo "ab-test: no opening file $openings" >&2; exit 3; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tengen-ab.XXXXXX")
cleanup() {
    git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

echo "== Building the current tree"
cargo build --release --quiet || exit 3
cp target/release/pbrain-tengen "$work/pbrain-tengen-new"

echo "== Building the baseline $(git log -1 --format='%h %s' "$base_rev")"
git worktree add --quiet --detach "$work/base" "$base_rev"
# A target directory of its own (kept between runs) so the two builds never clobber
# each other and a repeated baseline builds incrementally.
(cd "$work/base" && cargo build --release --quiet --target-dir "$root/target/ab-base") || exit 3
cp target/ab-base/release/pbrain-tengen "$work/pbrain-tengen-base"

args=(
    --engine "cmd=$work/pbrain-tengen-new" name=new
    --engine "cmd=$work/pbrain-tengen-base" name=base
    --each "${each[@]}"
    --rule "$rule" --size "$size"
    --openings "$openings" --random --symmetry
    --games "$games" --concurrency "$concurrency"
    --sprt "$sprt"
)
[ -n "$seed" ] && args+=(--seed "$seed")
[ -n "$out" ] && args+=(--out "$out")

echo "== new (working tree) vs base ($base_rev)"
if ! "$work/pbrain-tengen-new" arena "${args[@]}" "${extra[@]}" | tee "$work/arena.out"; then
    exit 3
fi

if grep -q ': H1 accepted' "$work/arena.out"; then
    echo "== Result: H1 accepted: the change gains at least elo1 (bounds $sprt)"
    exit 0
elif grep -q ': H0 accepted' "$work/arena.out"; then
    echo "== Result: H0 accepted: the change does not gain elo1 (bounds $sprt)"
    exit 1
fi
echo "== Result: no decision within $games games"
exit 2
