#!/usr/bin/env python3
"""A fake Piskvork brain for the arena's tests.

Usage: fake_brain.py MODE [--at N] [--sleep S] [--first X,Y] [--seed N] [--delay S]

It plays legal moves: a five when it has one, a block of the opponent's five, otherwise
a random empty point near the stones. MODE makes it misbehave on its N-th move of each
game (default 1):

  good      never misbehaves
  chatty    sends MESSAGE, DEBUG, UNKNOWN, ERROR and blank lines before every move
  slow      sleeps S seconds (default 30) before answering
  late      sleeps S seconds, then answers normally
  silent    never answers again (and ignores YXSTOP)
  crash     exits with status 3
  garbage   answers "hello there"
  trailing  answers a legal move followed by a space
  occupied  answers a point that holds a stone (off the board if there is none)
  offboard  answers 99,99
  nostart   answers START and RECTSTART with ERROR

--first X,Y makes the first move of each game X,Y whatever it is; --delay S makes
every move take S seconds (to measure the arena's own overhead).
"""
import random
import sys
import time


def main():
    args = sys.argv[1:]
    mode = args[0] if args else "good"
    at, sleep, first, seed, delay = 1, 30.0, None, None, 0.0
    i = 1
    while i < len(args):
        if args[i] == "--at":
            at = int(args[i + 1])
        elif args[i] == "--sleep":
            sleep = float(args[i + 1])
        elif args[i] == "--first":
            first = tuple(int(v) for v in args[i + 1].split(","))
        elif args[i] == "--seed":
            seed = int(args[i + 1])
        elif args[i] == "--delay":
            delay = float(args[i + 1])
        i += 2
    rng = random.Random(seed)

    width = height = 0
    board = {}  # (x, y) -> 1 own, 2 opponent
    moves_made = 0
    silent = False

    def out(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def five_at(x, y, who):
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = 1
            for sign in (1, -1):
                cx, cy = x + sign * dx, y + sign * dy
                while board.get((cx, cy)) == who:
                    n += 1
                    cx, cy = cx + sign * dx, cy + sign * dy
            if n >= 5:
                return True
        return False

    def choose():
        empty = [(x, y) for y in range(height) for x in range(width) if (x, y) not in board]
        for who in (1, 2):
            for p in empty:
                if five_at(p[0], p[1], who):
                    return p
        near = [p for p in empty
                if any((p[0] + dx, p[1] + dy) in board for dx in (-1, 0, 1) for dy in (-1, 0, 1))]
        return rng.choice(near or empty)

    def move():
        nonlocal moves_made, silent
        moves_made += 1
        time.sleep(delay)
        if moves_made == 1 and first is not None and first not in board:
            board[first] = 1
            out("%d,%d" % first)
            return
        if moves_made == at:
            if mode in ("slow", "late"):
                time.sleep(sleep)
            elif mode == "silent":
                silent = True
                return
            elif mode == "crash":
                sys.exit(3)
            elif mode == "garbage":
                out("hello there")
                return
            elif mode == "trailing":
                x, y = choose()
                board[(x, y)] = 1
                out("%d,%d " % (x, y))
                return
            elif mode == "occupied":
                out("%d,%d" % next(iter(board)) if board else "99,99")
                return
            elif mode == "offboard":
                out("99,99")
                return
        if mode == "chatty":
            out("MESSAGE thinking about move %d" % moves_made)
            out("DEBUG internal detail")
            out("UNKNOWN something")
            out("ERROR not really")
            out("")
        x, y = choose()
        board[(x, y)] = 1
        out("%d,%d" % (x, y))

    def new_game(w, h):
        nonlocal width, height, board, moves_made
        if mode == "nostart":
            out("ERROR size not supported")
            return
        width, height, board, moves_made = w, h, {}, 0
        out("OK")

    lines = iter(sys.stdin.readline, "")
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        word = word.upper()
        if silent and word != "END":
            continue
        if word == "ABOUT":
            out('name="fake-%s", version="1", author="tests"' % mode)
        elif word == "START":
            new_game(int(rest), int(rest))
        elif word == "RECTSTART":
            w, h = rest.split(",")
            new_game(int(w), int(h))
        elif word == "RESTART":
            board, moves_made = {}, 0
            out("OK")
        elif word == "INFO" or word == "YXSTOP":
            pass
        elif word == "BEGIN":
            move()
        elif word == "TURN":
            x, y = rest.split(",")
            board[(int(x), int(y))] = 2
            move()
        elif word == "BOARD":
            board = {}
            for stone in lines:
                stone = stone.strip()
                if stone.upper() == "DONE":
                    break
                x, y, f = stone.split(",")
                board[(int(x), int(y))] = int(f)
            move()
        elif word == "END":
            return
        else:
            out("UNKNOWN " + line)


if __name__ == "__main__":
    main()
