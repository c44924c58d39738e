#!/usr/bin/env python3
"""Times the brain on every shared renju puzzle, as a manager would see it.

Each puzzle is sent to a fresh `pbrain-tengen` as a BOARD command under renju rules with
a generous turn limit. The script prints the brain's move, whether it is one of the
puzzle's listed answers, the score of its last MESSAGE line, and the wall time from
DONE to the move. That time excludes process start-up but not the fresh brain's first
position, which costs some 50 ms before any search on every puzzle alike; the MESSAGE
line's own time is the search's.

Usage: scripts/puzzle-times.py [BRAIN] [PUZZLES]
  BRAIN    the brain (default target/release/pbrain-tengen)
  PUZZLES  the puzzle file (default ../shared/testdata/renju_puzzles.jsonl)
"""
import json
import subprocess
import sys
import time

brain = sys.argv[1] if len(sys.argv) > 1 else "target/release/pbrain-tengen"
path = sys.argv[2] if len(sys.argv) > 2 else "../shared/testdata/renju_puzzles.jsonl"


def solve(record):
    p = subprocess.Popen([brain], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    send(f"START {record['size']}")
    assert p.stdout.readline().strip() == "OK"
    for info in ["rule 4", "timeout_turn 10000", "timeout_match 0", "max_memory 134217728"]:
        send("INFO " + info)
    black, white = record["black"], record["white"]
    to_move_black = record["to_move"] == "black"
    send("BOARD")
    for stones, is_black in ((black, True), (white, False)):
        for x, y in stones:
            send(f"{x},{y},{1 if is_black == to_move_black else 2}")
    start = time.monotonic()
    send("DONE")
    last_message = ""
    while True:
        line = p.stdout.readline().strip()
        if line.startswith("MESSAGE"):
            last_message = line
            continue
        elapsed = time.monotonic() - start
        break
    send("END")
    p.wait(timeout=5)
    return line, last_message, elapsed


records = [json.loads(l) for l in open(path) if l.strip()]
print(f"{'id':5} {'type':4} {'move':6} {'listed':6} {'ms':>8}  last message")
for r in records:
    move, message, elapsed = solve(r)
    listed = [f"{x},{y}" for x, y in r["answers"]]
    print(f"{r['id']:5} {r['type']:4} {move:6} {'yes' if move in listed else 'no':6} {elapsed * 1000:8.1f}  {message}")
