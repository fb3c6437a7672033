"""Where a sampled server spends its time: py-spy's raw stacks summed by function.

    .venv/bin/python benchmarks/bench_server.py --games 16 --profile /tmp/server.txt
    .venv/bin/python benchmarks/profile_shares.py /tmp/server.txt --top 40

Each function's inclusive share is the part of all samples whose stack holds it (once per stack,
however deep the recursion); its own share, the part where it is the innermost frame. Shares are
meaningful on a busy machine, where absolute times are not.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

_LINE = re.compile(r" \(([^()]*?):\d+\)$")


def frame_name(frame: str) -> str:
    """``function (path/to/module.py:12)`` as ``module.py:function`` (lines merged)."""
    match = _LINE.search(frame)
    if match is None:
        return frame
    return f"{Path(match.group(1)).name}:{frame[:match.start()]}"


def shares(lines: list[str]) -> tuple[int, Counter[str], Counter[str]]:
    """All samples, and each function's inclusive and own samples."""
    total = 0
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    for line in lines:
        stack, _, count_text = line.rstrip().rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [frame_name(f) for f in stack.split(";")[1:]]  # the first is the process or thread
        total += count
        for name in set(frames):
            inclusive[name] += count
        if frames:
            own[frames[-1]] += count
    return total, inclusive, own


def main() -> int:
    """Print the top functions by inclusive and by own share."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stacks", type=Path, help="py-spy record --format raw output")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--match", default="", help="only functions whose name holds this text")
    args = ap.parse_args()
    total, inclusive, own = shares(args.stacks.read_text().splitlines())
    if not total:
        print("no samples")
        return 1
    print(f"{total} samples")
    for title, counter in (("inclusive", inclusive), ("own", own)):
        print(f"-- {title}")
        rows = [(n, c) for n, c in counter.most_common() if args.match in n][: args.top]
        for name, count in rows:
            print(f"{100 * count / total:5.1f}%  {name[:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
