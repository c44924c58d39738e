#!/usr/bin/env python3
"""How deep and how wide a brain searches in the middle game, position by position.

Gives a brain positions from arena records (`pbrain-tengen arena --out DIR`): in each
of the first N games the position before the stone numbered by each `--plies` value,
for the side to move there, with a turn limit. Prints the depth, the nodes and the
move the brain reports in its last progress line, then the medians. Two brains on the
same records compare their selectivity: the depth one reaches and the nodes it takes.

Tengen reports `depth D ... nodes N`; Rapfi reports `Depth D-S ... Node N` once it is
sent `INFO show_detail 1`, which every position here sends (other brains ignore it).

Usage: scripts/search-depth.py BRAIN DIR... [--ms TURN_MS] [--games N] [--plies A,B,...]
  BRAIN    the brain to probe (started in its own directory)
  DIR      arena output directories with game-*.sgf files
  --ms     turn limit in milliseconds (default 250)
  --games  positions come from this many games, in path order (default 6)
  --plies  stones on the board in each probed position (default 14,24)
"""
import re
import sys

from records import ask, parse_brain_args, position, read_games

TENGEN = re.compile(r"depth (\d+) .*nodes (\d+)")
RAPFI = re.compile(r"Depth (\d+)-\d+ .*Node (\d+)([KMG]?)")
SCALE = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9}


def last_progress(messages):
    """(depth, nodes) from the last progress line among the brain's MESSAGE lines."""
    for line in reversed(messages):
        if m := TENGEN.search(line):
            return int(m.group(1)), int(m.group(2))
        if m := RAPFI.search(line):
            return int(m.group(1)), int(m.group(2)) * SCALE[m.group(3)]
    return None


def median(values):
    values = sorted(values)
    return values[len(values) // 2] if values else None


def main():
    brain, dirs, opts = parse_brain_args(
        sys.argv[1:], __doc__,
        {"ms": (250, int), "games": (6, int),
         "plies": ([14, 24], lambda v: [int(p) for p in v.split(",")])})
    ms, games, plies = opts["ms"], opts["games"], opts["plies"]
    depths, nodes = [], []
    for game in read_games(dirs)[:games]:
        for n in plies:
            # Positions where the game is already decided say nothing about selectivity.
            if n + 2 >= len(game.moves):
                continue
            lines = position(game, n, ms)
            lines.insert(lines.index("BOARD"), "INFO show_detail 1")
            move, messages = ask([brain], lines)
            progress = last_progress(messages)
            if progress is None:
                print(f"{game.path} {n} stones: no progress line, move {move}", flush=True)
                continue
            depths.append(progress[0])
            nodes.append(progress[1])
            print(f"{game.path} {n} stones: depth {progress[0]}, nodes {progress[1]}, "
                  f"move {move}", flush=True)
    print(f"{len(depths)} positions: median depth {median(depths)}, "
          f"median nodes {median(nodes)}")


if __name__ == "__main__":
    main()
