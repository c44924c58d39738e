#!/usr/bin/env python3
"""How many of an opponent's announced forced wins a brain finds by itself.

Reads the SGF records an arena run leaves (`pbrain-tengen arena --out DIR`). In each
game it takes the first move whose comment, the engine's own output, announces a forced
win: Rapfi's `Eval +M17`, or Tengen's `score win in 17`. The brain gets the position
before that move, playing the side that made it, with a turn limit, and counts as
finding the win if one of its MESSAGE lines reports one: Tengen's `score win in N`, or
Rapfi's `Eval +MN`, so that the engine that announced the wins can be asked them afresh
as a reference. It answers a question that self-play cannot: does the brain see the
threat sequences its opponent sees? It measures attack only; a defence that sees them
sooner is not counted.

Usage: scripts/forced-wins.py BRAIN DIR... [--ms TURN_MS] [--by NAME]
  BRAIN    the brain to test
  DIR      arena output directories with game-*.sgf files
  --ms     turn limit in milliseconds (default 2000)
  --by     only wins announced by this player (its PB/PW name, e.g. Rapfi); default:
           either player
"""
import re
import sys

from records import (ANNOUNCED, ask, first_announced_win, parse_brain_args, position,
                     read_games)

# The search time a status line reports: Tengen's `time 120ms`, Rapfi's `Time 890ms`.
TIME = re.compile(r"[Tt]ime (\d+)ms")


def main():
    brain, dirs, opts = parse_brain_args(
        sys.argv[1:], __doc__, {"ms": (2000, int), "by": (None, str)})
    ms, by = opts["ms"], opts["by"]
    total, times = 0, []
    for game in read_games(dirs):
        n = first_announced_win(game, by)
        if n is None:
            continue
        total += 1
        _, messages = ask([brain], position(game, n, ms))
        found = [TIME.search(m) for m in messages if ANNOUNCED.search(m)]
        t = next((int(m.group(1)) for m in found if m), None)
        if t is not None:
            times.append(t)
        print(f"{game.path} {n} stones: {'win at %d ms' % t if t is not None else 'not found'}",
              flush=True)
    times.sort()
    median = times[len(times) // 2] if times else None
    print(f"found {len(times)}/{total}; median time of those found {median} ms")


if __name__ == "__main__":
    main()
