"""Arena game records and brains, for the scripts that replay recorded positions.

`pbrain-tengen arena --out DIR` leaves one `game-N.sgf` per game: players in PB and PW,
the board in SZ (`15` or `20:15`), the rule in RU, and every move with a comment that
holds the engine's own output for it. The scripts here give a brain the position before
some move of such a record and read its answer through the protocol, as a manager would.
"""
import glob
import os
import re
import subprocess
import sys
from dataclasses import dataclass

RULES = {"freestyle": 0, "standard": 1, "renju": 4, "caro": 8}
# The memory limit of the 1 s matches; the table is allocated on this INFO, before the
# position arrives, as in a game after its first move.
MAX_MEMORY = 367001600
MOVE = re.compile(r"\n;([BW])\[([a-zA-Z])([a-zA-Z])\](?:C\[((?:[^\\\]]|\\.)*)\])?")
# A move's comment that announces a forced win for its player: Rapfi's `Eval +M17`,
# Tengen's `score win in 17`.
ANNOUNCED = re.compile(r"Eval \+M\d+|score win in \d+")
# What `mark` gives a forced win or loss.
MATE_MARK = 3000


def parse_brain_args(argv, usage, options):
    """Parses `BRAIN DIR... [--NAME VALUE]...`, the command line of the scripts that give a
    brain positions from arena records. `options` maps each option's name to its default
    and the function that reads its value. Returns the brain, the directories and the
    options by name; exits with `usage` where the brain or the directories are missing."""
    values = {name: default for name, (default, _) in options.items()}
    brain, dirs = None, []
    it = iter(argv)
    for a in it:
        if a.startswith("--") and a[2:] in options:
            values[a[2:]] = options[a[2:]][1](next(it))
        elif brain is None:
            brain = a
        else:
            dirs.append(a)
    if brain is None or not dirs:
        sys.exit(usage)
    # The brain starts in its own directory (see `ask`), so a relative path would miss it.
    return os.path.abspath(brain), dirs, values


@dataclass
class Game:
    path: str
    players: dict
    width: int
    height: int
    rule: int
    # (colour "B" or "W", x, y, comment), in the order played
    moves: list
    # the winner's colour, "B" or "W"; None for a draw or an unfinished game
    result: "str | None"


def coordinate(c):
    """An SGF coordinate letter as the arena writes it: a-z, then A-Z from 26."""
    return ord(c) - ord("a") if c.islower() else ord(c) - ord("A") + 26


def read_games(dirs):
    """Every game record in the arena output directories, in path order."""
    games = []
    for path in sorted(f for d in dirs for f in glob.glob(os.path.join(d, "game-*.sgf"))):
        text = open(path, encoding="utf-8").read()
        size = re.search(r"SZ\[(\d+)(?::(\d+))?\]", text)
        width = int(size.group(1))
        height = int(size.group(2) or width)
        moves = [(m.group(1), coordinate(m.group(2)), coordinate(m.group(3)),
                  re.sub(r"\\(.)", r"\1", m.group(4) or ""))
                 for m in MOVE.finditer(text)]
        games.append(Game(
            path=path,
            players={"B": re.search(r"PB\[([^]]*)\]", text).group(1),
                     "W": re.search(r"PW\[([^]]*)\]", text).group(1)},
            width=width,
            height=height,
            rule=RULES[re.search(r"RU\[([^]]*)\]", text).group(1)],
            moves=moves,
            result=(m.group(1) if (m := re.search(r"RE\[([BW])\+", text)) else None),
        ))
    return games


def first_announced_win(game, by):
    """The index of the first move whose comment announces a forced win, made by the
    player named `by` (either player for None), or None."""
    for i, (colour, _, _, comment) in enumerate(game.moves):
        if ANNOUNCED.search(comment) and by in (None, game.players[colour]):
            return i
    return None


def mark(messages):
    """The last score an engine reports among `messages` (its output lines), for its side
    to move, from the other side's view, forced results as ±`MATE_MARK`: Rapfi's
    `Eval -278` / `Eval +M17`, or Tengen's `score +35` / `score win in 3`; None if no
    line reports one."""
    for line in reversed(messages):
        m = re.search(r"Eval ([+-]?)(M?)(\d+)", line)
        if m:
            sign = -1 if m.group(1) == "-" else 1
            return -sign * (MATE_MARK if m.group(2) else int(m.group(3)))
        m = re.search(r"score (win in \d+|loss in \d+|[+-]?\d+)", line)
        if m:
            s = m.group(1)
            if s.startswith("win"):
                return -MATE_MARK
            if s.startswith("loss"):
                return MATE_MARK
            return -int(s)
    return None


def position(game, n, ms, then=None):
    """Protocol lines that give a brain the position before move `n` (counting from 0),
    to play for the side that made it, with a turn limit of `ms` milliseconds; with
    `then`, a point (x, y), that side plays there first and the other side is to move."""
    mover = game.moves[n][0] if n < len(game.moves) else "BW"[n % 2]
    stones = [(c, x, y) for c, x, y, _ in game.moves[:n]]
    if then is not None:
        stones.append((mover, *then))
        mover = "W" if mover == "B" else "B"
    start = (f"START {game.width}" if game.width == game.height
             else f"RECTSTART {game.width},{game.height}")
    lines = [start, f"INFO timeout_turn {ms}", "INFO timeout_match 0",
             "INFO time_left 2147483647", f"INFO rule {game.rule}",
             f"INFO max_memory {MAX_MEMORY}", "INFO THREAD_NUM 1", "BOARD"]
    lines += [f"{x},{y},{1 if c == mover else 2}" for c, x, y in stones]
    return lines + ["DONE"]


# A move as a brain answers it: `x,y`.
MOVE_LINE = re.compile(r"(\d+),(\d+)")


def send(p, lines):
    """Writes protocol lines to a brain's input."""
    p.stdin.write("\n".join(lines) + "\n")
    p.stdin.flush()


def read_until(p, messages, wanted):
    """Reads a brain's output up to the first line `wanted` accepts, or an ERROR or
    UNKNOWN line, which ends the wait too; MESSAGE lines go to `messages`, others are
    skipped. Returns that line, or None where the output ends first."""
    for line in p.stdout:
        line = line.strip()
        if line.startswith("MESSAGE"):
            messages.append(line)
        elif wanted(line) or line.startswith(("ERROR", "UNKNOWN")):
            return line
    return None


def ask(command, lines, env=None):
    """Runs a brain (a command line, started in its own directory) on protocol lines that
    end in a request for a move. Returns its move as (x, y), or None, and its MESSAGE
    lines.

    A brain's turn counts from the arrival of `BOARD`, while a fresh process may still be
    sizing its hash table for `INFO max_memory` (Tengen writes its zeros then, about 150
    ms at the matches' 350 MiB). A manager's game pays that once, before its first move;
    here every position is a first move. So the lines before `BOARD` go first, with an
    `ABOUT` whose answer says the brain has handled them, and only then the position."""
    cwd = os.path.dirname(os.path.abspath(command[0]))
    p = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True,
                         env=None if env is None else {**os.environ, **env})
    messages, rest = [], lines
    if "BOARD" in lines:
        split = lines.index("BOARD")
        send(p, lines[:split] + ["ABOUT"])
        read_until(p, messages, lambda line: "name=" in line)
        rest = lines[split:]
    send(p, rest)
    m = MOVE_LINE.fullmatch(read_until(p, messages, MOVE_LINE.fullmatch) or "")
    move = (int(m.group(1)), int(m.group(2))) if m else None
    try:
        send(p, ["END"])
        p.stdin.close()
        p.wait(timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        p.kill()
    return move, messages
