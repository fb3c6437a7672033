"""A bot that answers well except at the decisions its arguments name, where it misbehaves.

``python3 faulty.py KIND N [N...]``: at each listed decision (counted from 1 over the process's life)
it answers ``illegal`` (a move never legal at four seats), ``garbage`` (a line that is not JSON),
``late`` (nothing in time), ``crash`` (it exits with code 3), ``stale`` (its answer twice, the second
read at the next decision) or ``silent`` (no ready: it never starts).
"""

import json
import sys
import time

kind, at = sys.argv[1], {int(n) for n in sys.argv[2:]}
decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello" and kind != "silent":
        print(json.dumps({"type": "ready"}), flush=True)
    elif message["type"] == "decide":
        decisions += 1
        answer = {"type": "move", "id": message["id"], "move": message["legal"][0]}
        if decisions in at:
            if kind == "crash":
                sys.exit(3)
            if kind == "late":
                time.sleep(30)
            if kind == "garbage":
                print("{this is not json", flush=True)
                continue
            if kind == "illegal":
                answer["move"] = "draw keep"
            if kind == "stale":
                print(json.dumps(answer), flush=True)
        print(json.dumps(answer), flush=True)
    elif message["type"] == "bye":
        break
