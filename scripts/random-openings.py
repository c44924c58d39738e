#!/usr/bin/env python3
"""Random openings for self-play, in the offset format the arena reads.

    scripts/random-openings.py --count 5000 --seed 1 [--stones 4-6] [--radius 3] > FILE

Each opening is a few stones placed at random within `--radius` cells of the centre,
black and white alternating. Positions in which either side already has three stones
in a window of five on a line are drawn again, so that no opening starts with a
threat, and so are openings that repeat an earlier one under a board symmetry. The
same seed gives the same file. This is how the shared 500-opening file was made; the
self-play games that `pbrain-tengen tune` fits the evaluation to need many more.
"""
import argparse
import random
import sys

DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]
SYMMETRIES = [
    lambda x, y: (x, y), lambda x, y: (-x, y), lambda x, y: (x, -y), lambda x, y: (-x, -y),
    lambda x, y: (y, x), lambda x, y: (-y, x), lambda x, y: (y, -x), lambda x, y: (-y, -x),
]


def has_three_in_five(stones):
    """Whether some window of five cells on a line holds three stones of one colour
    and none of the other."""
    colour = {p: i % 2 for i, p in enumerate(stones)}
    for (x, y) in stones:
        for dx, dy in DIRECTIONS:
            for start in range(-4, 1):
                cells = [(x + (start + k) * dx, y + (start + k) * dy) for k in range(5)]
                owners = [colour.get(c) for c in cells]
                for side in (0, 1):
                    if owners.count(side) >= 3 and owners.count(1 - side) == 0:
                        return True
    return False


def canonical(stones):
    """The smallest image of the position (stones by colour) under the symmetries."""
    black = stones[0::2]
    white = stones[1::2]
    return min(
        (tuple(sorted(s(*p) for p in black)), tuple(sorted(s(*p) for p in white)))
        for s in SYMMETRIES
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stones", default="4-6", help="fewest-most stones, e.g. 4-6")
    parser.add_argument("--radius", type=int, default=3)
    args = parser.parse_args()
    low, _, high = args.stones.partition("-")
    low, high = int(low), int(high or low)
    rng = random.Random(args.seed)
    cells = [(x, y) for x in range(-args.radius, args.radius + 1)
             for y in range(-args.radius, args.radius + 1)]
    if high > len(cells) or low < 1 or low > high:
        sys.exit("--stones must be a range within the cells of the radius")
    seen = set()
    out = []
    attempts = 0
    while len(out) < args.count:
        attempts += 1
        if attempts > 100 * args.count + 10_000:
            sys.exit(f"only {len(out)} distinct openings found; widen --radius or --stones")
        stones = rng.sample(cells, rng.randint(low, high))
        if has_three_in_five(stones):
            continue
        key = canonical(stones)
        if key in seen:
            continue
        seen.add(key)
        out.append(", ".join(f"{x},{y}" for x, y in stones))
    print("\n".join(out))


if __name__ == "__main__":
    main()
