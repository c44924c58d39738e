#!/usr/bin/env python3
"""Marks a brain's moves in recorded positions by a stronger engine's evaluation.

Reads the SGF records an arena run leaves (`pbrain-tengen arena --out DIR`). In each
game it takes the positions before the first K moves that the player named by --side
made after the opening (the moves whose comment is `opening`), so early play is
measured in both colours: attack where that player was black, defence where it was
white. The brain plays each position with a turn limit; the judge then searches the
position the brain's move leaves, and its score, turned to the mover's view, is the
move's mark. A forced win the judge announces counts as +3000 or -3000 (won, lost).

Two brains run on the same records are compared position by position; a brain that
plays the move another already played gets the same mark from the cache, so the
comparison measures the moves and not the judge's noise. It measures what forced-wins.py
cannot: defence, and quiet moves that lose slowly.

Usage: scripts/judge-moves.py BRAIN DIR... --judge JUDGE --side NAME [options]
  BRAIN         the brain to test
  DIR           arena output directories with game-*.sgf files
  --judge       the judging brain (run in its own directory), e.g. pbrain-rapfi
  --side        the player (its PB/PW name) whose positions are taken, e.g. Tengen
  --moves K     positions per game (default 4)
  --ms MS       the brain's turn limit (default 1000)
  --judge-ms MS the judge's turn limit (default 2000)
  --jobs N      positions searched at once (default 1; keep it at most the cores)
  --cache FILE  marks kept between runs (default judge-cache.json)
  --env K=V     an environment variable for the brain (repeatable)
  --against OUT another run's output on the same records: also prints the mean
                difference of the marks, position by position, with its standard error
"""
import json
import os
import re
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor

from records import MATE_MARK, ask, mark, position, read_games

# Options whose values are text; the others are whole numbers.
TEXT_OPTIONS = ("cache", "judge", "side", "against")


def parse_args(argv):
    opts = {"moves": 4, "ms": 1000, "judge-ms": 2000, "jobs": 1,
            "cache": "judge-cache.json", "judge": None, "side": None, "against": None}
    brain, dirs, env = None, [], {}
    it = iter(argv)
    for a in it:
        if a == "--env":
            key, _, value = next(it).partition("=")
            env[key] = value
        elif a.startswith("--") and a[2:] in opts:
            value = next(it)
            opts[a[2:]] = value if a[2:] in TEXT_OPTIONS else int(value)
        elif brain is None:
            brain = a
        else:
            dirs.append(a)
    if brain is None or not dirs or opts["judge"] is None or opts["side"] is None:
        sys.exit(__doc__)
    return brain, dirs, env, opts


def positions(games, side, k):
    """(game, move index) of the first k moves `side` made after the opening."""
    out = []
    for game in games:
        mine = [i for i, (colour, _, _, comment) in enumerate(game.moves)
                if game.players[colour] == side and comment.strip() != "opening"]
        out += [(game, i) for i in mine[:k]]
    return out


def mean_and_error(values):
    """The mean and its standard error."""
    return statistics.mean(values), statistics.stdev(values) / len(values) ** 0.5


LINE = re.compile(r"(.*) move (\d+): (.*) mark (-?\d+|None)$")


def read_marks(path):
    """{(record, move index): (move, mark)} from a run's printed output."""
    out = {}
    for line in open(path):
        m = LINE.match(line.strip())
        if m and m.group(4) != "None":
            out[(m.group(1), int(m.group(2)))] = (m.group(3), int(m.group(4)))
    return out


def compare(ours, theirs_path):
    theirs = read_marks(theirs_path)
    common = [k for k in ours if k in theirs]
    if len(common) < 2:
        return f"against {theirs_path}: fewer than two positions in common"
    diffs = [ours[k][1] - theirs[k][1] for k in common]
    differ = sum(ours[k][0] != theirs[k][0] for k in common)
    mean, error = mean_and_error(diffs)
    return (f"against {theirs_path}: mean difference {mean:+.1f} ± {error:.1f}"
            f" over {len(common)} positions, {differ} moves different")


def main():
    brain, dirs, env, opts = parse_args(sys.argv[1:])
    todo = positions(read_games(dirs), opts["side"], opts["moves"])
    cache = {}
    if os.path.exists(opts["cache"]):
        cache = json.load(open(opts["cache"]))

    def play(item):
        game, n = item
        return ask([brain], position(game, n, opts["ms"]), env)[0]

    def judge(item):
        game, n, move = item
        _, messages = ask([opts["judge"]], position(game, n, opts["judge-ms"], move))
        return mark(messages)

    def key(game, n, move):
        return f"{os.path.abspath(game.path)}|{n}|{move[0]},{move[1]}|{opts['judge-ms']}"

    with ThreadPoolExecutor(opts["jobs"]) as pool:
        moves = list(pool.map(play, todo))
        keys = [None if m is None else key(g, n, m) for (g, n), m in zip(todo, moves)]
        new = {k: (g, n, m) for k, (g, n), m in zip(keys, todo, moves)
               if k is not None and k not in cache}
        for k, v in zip(new, pool.map(judge, new.values())):
            cache[k] = v
    json.dump(cache, open(opts["cache"], "w"), indent=0)

    marks, ours = [], {}
    for (game, n), move, k in zip(todo, moves, keys):
        m = None if k is None else cache.get(k)
        print(f"{game.path} move {n}: {move} mark {m}")
        if m is not None:
            marks.append(m)
            ours[(game.path, n)] = (str(move), m)
    if len(marks) < 2:
        sys.exit("fewer than two positions marked")
    mean, error = mean_and_error(marks)
    lost = sum(m == -MATE_MARK for m in marks)
    won = sum(m == MATE_MARK for m in marks)
    print(f"positions {len(marks)}; mean mark {mean:.1f} ± {error:.1f}; lost {lost}, won {won}")
    if opts["against"]:
        print(compare(ours, opts["against"]))


if __name__ == "__main__":
    main()
