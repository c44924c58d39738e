#!/usr/bin/env python3
"""Which lost games the loser saw coming, from the engines' own output in arena records.

Reads the SGF records an arena run leaves (`pbrain-tengen arena --out DIR`). In each
game that SIDE (a player name, as in PB/PW) lost, it finds the first move whose comment
announces a forced win for the opponent (Rapfi's `Eval +M17`, Tengen's `score win in
17`) and SIDE's score on its move just before. A score of zero or better there means
SIDE did not see the threat sequence coming. It also counts the lost games in which the
opponent had earlier announced its own loss (`Eval -M…`, `score loss in …`): wins that
SIDE had and did not find. No brain is run.

Usage: scripts/surprises.py SIDE DIR...
  SIDE   the player whose losses are read, e.g. Tengen
  DIR    arena output directories with game-*.sgf files
"""
import re
import sys

from records import read_games

WIN = re.compile(r"Eval \+M\d+|score win in \d+")
LOSS = re.compile(r"Eval -M\d+|score loss in \d+")
# The last score a move's comment reports: Tengen's `score +432`, `score win in 9`,
# `score loss in 8`; Rapfi's `Eval -235`, `Eval +M21`.
SCORE = re.compile(r"(?:score|Eval) (win|loss|[+-]?M?\d+)")


def result(path):
    """The winner's colour, "B" or "W", or None for a draw or an unfinished game."""
    text = open(path, encoding="utf-8").read()
    m = re.search(r"RE\[([BW])\+", text)
    return m.group(1) if m else None


def seen_as_lost(score):
    """Whether a reported score admits the loss (or at least a disadvantage)."""
    return score == "loss" or score.startswith("-")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    side, dirs = sys.argv[1], sys.argv[2:]
    lost = announced = surprised = missed = 0
    for game in read_games(dirs):
        colour = next((c for c, name in game.players.items() if name == side), None)
        winner = result(game.path)
        if colour is None or winner is None or winner == colour:
            continue
        lost += 1
        first = next((i for i, (c, _, _, comment) in enumerate(game.moves)
                      if c == winner and WIN.search(comment)), None)
        if any(c == winner and LOSS.search(comment)
               for c, _, _, comment in game.moves[:first]):
            missed += 1
        if first is None:
            continue
        announced += 1
        before = [m.group(1) for c, _, _, comment in game.moves[:first] if c == colour
                  for m in SCORE.finditer(comment)]
        score = before[-1] if before else "none"
        if not seen_as_lost(score):
            surprised += 1
        print(f"{game.path}: the opponent announces a win at stone {first + 1}; "
              f"{side}'s score just before: {score}", flush=True)
    print(f"{side} lost {lost}; the opponent announced its win first in {announced}; "
          f"{side}'s score just before was zero or better in {surprised}; the opponent "
          f"had announced its own loss earlier in {missed}")


if __name__ == "__main__":
    main()
