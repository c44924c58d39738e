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

from records import MATE_MARK, first_announced_win, mark, read_games

LOSS = re.compile(r"Eval -M\d+|score loss in \d+")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    side, dirs = sys.argv[1], sys.argv[2:]
    lost = announced = surprised = missed = 0
    for game in read_games(dirs):
        colour = next((c for c, name in game.players.items() if name == side), None)
        winner = game.result
        if colour is None or winner is None or winner == colour:
            continue
        lost += 1
        first = first_announced_win(game, game.players[winner])
        if any(c == winner and LOSS.search(comment)
               for c, _, _, comment in game.moves[:first]):
            missed += 1
        if first is None:
            continue
        announced += 1
        # SIDE's last reported score before the announcement, from SIDE's own view.
        before = (mark(comment.splitlines())
                  for c, _, _, comment in reversed(game.moves[:first]) if c == colour)
        score = next((-m for m in before if m is not None), None)
        if score is None or score >= 0:
            surprised += 1
        print(f"{game.path}: the opponent announces a win at stone {first + 1}; "
              f"{side}'s score just before: {score} (a forced result is ±{MATE_MARK})",
              flush=True)
    print(f"{side} lost {lost}; the opponent announced its win first in {announced}; "
          f"{side}'s score just before was zero or better in {surprised}; the opponent "
          f"had announced its own loss earlier in {missed}")


if __name__ == "__main__":
    main()
