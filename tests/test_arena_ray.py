"""The arena on Ray: a local cluster started for the match plays the same deals to the same figures
as a pool of processes."""

import json
import socket
from pathlib import Path
from typing import Any

import pytest
import ray

from spades.arena import run_match
from spades.cli import main
from spades.errors import SpadesError

TIMES = ("seconds", "mean_ms", "p95_ms")
"""The figures that measure the machine, not the play: they differ from run to run."""


def figures(path: Path) -> dict[str, Any]:
    """A match's JSON without its decision times."""
    data: dict[str, Any] = json.loads(path.read_text())
    for side in ("a", "b"):
        for key in TIMES:
            del data[side][key]
    return data


def test_a_local_ray_cluster_gives_the_same_match_as_two_processes(tmp_path: Path) -> None:
    common = ["arena", "normal", "easy+random", "--deals", "6", "--hands", "2", "--seed", "5", "--quiet"]
    assert main([*common, "--ray", "--json", str(tmp_path / "ray.json")]) == 0
    assert not ray.is_initialized()  # the cluster it started is stopped
    assert main([*common, "--jobs", "2", "--json", str(tmp_path / "jobs.json")]) == 0
    on_ray = figures(tmp_path / "ray.json")
    assert on_ray == figures(tmp_path / "jobs.json")
    assert on_ray["deals"] == 6 and on_ray["hands"] == 24


def test_ray_and_jobs_together_are_refused() -> None:
    with pytest.raises(SpadesError, match="choose one"):
        run_match(["normal"], ["easy"], deals=1, jobs=2, ray="")


def test_an_address_where_no_cluster_listens_is_refused_at_once() -> None:
    with socket.socket() as s:  # a port just freed: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        with pytest.raises(SpadesError, match=f"No Ray cluster answers at {address}"):
            run_match(["normal"], ["easy"], deals=1, ray=address)
    assert not ray.is_initialized()
