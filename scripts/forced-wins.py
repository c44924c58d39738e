#!/usr/bin/env python3
"""How many of an opponent's announced forced wins a brain finds by itself.

Reads the SGF records an arena run leaves (`pbrain-tengen arena --out DIR`). In each
game it takes the first move whose comment, the engine's own output, announces a forced
win: Rapfi's `Eval +M17`, or Tengen's `score win in 17`. The brain gets the position
before that move, playing the side that made it, with a turn limit, and counts as
finding the win if one of its MESSAGE lines reports `score win in N`. It answers a
question that self-play cannot: does the brain see the threat sequences its opponent
sees? It measures attack only; a defence that sees them sooner is not counted.

Usage: scripts/forced-wins.py BRAIN DIR... [--ms TURN_MS] [--by NAME]
  BRAIN    the brain to test
  DIR      arena output directories with game-*.sgf files
  --ms     turn limit in milliseconds (default 2000)
  --by     only wins announced by this player (its PB/PW name, e.g. Rapfi); default:
           either player
"""
import glob
import os
import re
import subprocess
import sys

RULES = {"freestyle": 0, "standard": 1, "renju": 4, "caro": 8}
ANNOUNCED = re.compile(r"Eval \+M\d+|score win in \d+")


def parse_args(argv):
    brain, dirs, ms, by = None, [], 2000, None
    it = iter(argv)
    for a in it:
        if a == "--ms":
            ms = int(next(it))
        elif a == "--by":
            by = next(it)
        elif brain is None:
            brain = a
        else:
            dirs.append(a)
    if brain is None or not dirs:
        sys.exit(__doc__)
    return brain, dirs, ms, by


def first_announced_win(text, by):
    """(moves before the announcing move, its colour) or None."""
    players = {"B": re.search(r"PB\[([^]]*)\]", text).group(1),
               "W": re.search(r"PW\[([^]]*)\]", text).group(1)}
    moves = re.finditer(r"\n;([BW])\[([a-z])([a-z])\](?:C\[(.*?)\])?", text, re.S)
    before = []
    for m in moves:
        colour, x, y, comment = m.group(1), m.group(2), m.group(3), m.group(4) or ""
        if ANNOUNCED.search(comment) and by in (None, players[colour]):
            return before, colour
        before.append((colour, ord(x) - 97, ord(y) - 97))
    return None


def commands(text, before, colour, ms):
    size = re.search(r"SZ\[(\d+)(?::(\d+))?\]", text)
    width, height = size.group(1), size.group(2)
    rule = RULES[re.search(r"RU\[([^]]*)\]", text).group(1)]
    start = f"START {width}" if height is None else f"RECTSTART {width},{height}"
    # The memory limit of the 1 s matches. Sent before the position, so that the table
    # is allocated before the clock starts, as in a game after its first move.
    lines = [start, f"INFO timeout_turn {ms}", "INFO timeout_match 0",
             "INFO time_left 2147483647", f"INFO rule {rule}", "INFO max_memory 367001600",
             "INFO THREAD_NUM 1", "BOARD"]
    lines += [f"{x},{y},{1 if c == colour else 2}" for c, x, y in before]
    return lines + ["DONE"]


def finds_win(brain, lines):
    """The brain's reported time of its first proven win, or None."""
    p = subprocess.Popen([brain], cwd=os.path.dirname(os.path.abspath(brain)),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    p.stdin.write("\n".join(lines) + "\n")
    p.stdin.flush()
    found = None
    for line in p.stdout:
        m = re.search(r"score win in \d+ .*time (\d+)ms", line)
        if m and found is None:
            found = int(m.group(1))
        if line.strip() != "OK" and not line.startswith("MESSAGE"):
            break
    p.stdin.write("END\n")
    p.stdin.close()
    p.wait()
    return found


def main():
    brain, dirs, ms, by = parse_args(sys.argv[1:])
    total, times = 0, []
    for path in sorted(f for d in dirs for f in glob.glob(os.path.join(d, "game-*.sgf"))):
        text = open(path, encoding="utf-8").read()
        win = first_announced_win(text, by)
        if win is None:
            continue
        total += 1
        t = finds_win(brain, commands(text, *win, ms))
        if t is not None:
            times.append(t)
        print(f"{path} {len(win[0])} stones: {'win at %d ms' % t if t is not None else 'not found'}",
              flush=True)
    times.sort()
    median = times[len(times) // 2] if times else None
    print(f"found {len(times)}/{total}; median time of those found {median} ms")


if __name__ == "__main__":
    main()
