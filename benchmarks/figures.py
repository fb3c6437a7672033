"""What the benchmarks that time people's waits print: the shared summary of a list of seconds."""

from __future__ import annotations

import statistics


def percentiles(values: list[float]) -> str:
    """p50/p95/p99 of seconds, in milliseconds."""
    if len(values) < 2:
        return "n/a"
    q = statistics.quantiles(values, n=100)
    ms = [round(q[k] * 1000) for k in (49, 94, 98)]
    return f"p50 {ms[0]} ms, p95 {ms[1]} ms, p99 {ms[2]} ms (n={len(values)})"
