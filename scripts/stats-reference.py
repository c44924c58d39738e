#!/usr/bin/env python3
"""Reference values for the arena's statistics tests (src/arena/stats.rs).

An independent computation in stock python3 (no numpy/scipy) of the generalized SPRT
log-likelihood ratio in logistic Elo for pentanomial game-pair counts, following the
method of fishtest's LLRcalc: zero counts are regularised to 1e-3, the
maximum-likelihood distribution with expected score s is p_i / (1 + x (a_i - s)) where
x solves sum p_i (a_i - s) / (1 + x (a_i - s)) = 0, and the LLR is N times the mean
log ratio of the two MLE distributions. The Rust code finds x by bisection; this script
uses Newton's method from x = 0 with step halving, so the two share no code path.

Also prints the Elo error bars (per game and per pair) and LOS values quoted in the
tests.
"""
import math

Z95 = 1.959963984540054


def score(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def elo(s):
    return -400 * math.log10(1 / s - 1)


def tilt(pdf, s):
    def f(x):
        return sum(p * (a - s) / (1 + x * (a - s)) for a, p in pdf)

    def df(x):
        return -sum(p * (a - s) ** 2 / (1 + x * (a - s)) ** 2 for a, p in pdf)

    x = 0.0
    for _ in range(200):
        step = f(x) / df(x)
        new = x - step
        # stay inside the domain where every 1 + x (a - s) > 0
        while any(1 + new * (a - s) <= 0 for a, _ in pdf):
            step /= 2
            new = x - step
        if abs(new - x) < 1e-15:
            return new
        x = new
    return x


def llr_logistic(elo0, elo1, counts):
    counts = [c if c > 0 else 1e-3 for c in counts]
    n = sum(counts)
    pdf = [(i / (len(counts) - 1), c / n) for i, c in enumerate(counts)]
    s0, s1 = score(elo0), score(elo1)
    x0, x1 = tilt(pdf, s0), tilt(pdf, s1)
    return n * sum(p * (math.log(1 + x0 * (a - s0)) - math.log(1 + x1 * (a - s1))) for a, p in pdf)


CASES = [
    ([10, 20, 40, 20, 10], 0.0, 5.0),
    ([5, 20, 40, 25, 10], 0.0, 5.0),
    ([30, 150, 330, 180, 40], 0.0, 5.0),
    ([100, 300, 700, 350, 50], -3.0, 1.0),
    ([0, 3, 10, 6, 1], 0.0, 10.0),
]

for counts, e0, e1 in CASES:
    print(f"LLR_logistic({e0}, {e1}, {counts}) = {llr_logistic(e0, e1, counts):.12f}")

print(f"error bar W=10 L=10 D=0: {elo(0.5 + Z95 * 0.5 / math.sqrt(20)):.12f}")


def pair_error_bar(counts):
    """Half the width in Elo of the normal 95% interval of the score from the pair
    scores' own spread (fishtest's error bar)."""
    n = sum(counts)
    mu = sum(c * i / 4 for i, c in enumerate(counts)) / n
    var = sum(c * (i / 4 - mu) ** 2 for i, c in enumerate(counts)) / n
    half = Z95 * math.sqrt(var / n)
    return (elo(mu + half) - elo(mu - half)) / 2


for counts in ([1, 0, 2, 0, 1], [15, 7, 26, 1, 1]):
    print(f"pair error bar {counts}: {pair_error_bar(counts):.12f}")
print(f"LOS W=60 L=40: {0.5 * (1 + math.erf(20 / math.sqrt(200))):.15f}")
print(f"score(100) = {score(100):.15f}")
