"""Shared pieces of the sweep tests: the murmur command (MURMUR_EXE, set by CTest) and sweep files.

They run `murmur sweep` end to end: the plans a file expands to, the run files on one runner, two, three
shards and three MPI ranks, resuming, failures, bad files and the report."""
import hashlib
import os
import pathlib
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from murmur_fixtures import murmur_exe  # noqa: E402,F401  (a fixture)

# The README's smallest sweep (docs/sweeps.md): two values of K, two seeds.
SMALLEST = """scene = "free"
steps = 40
replicates = 2
backend = ["cpu"]
[set]
"boids.count" = 400
[axes]
"perception.neighbours" = { values = [0, 7] }
[log]
every = 10
"""


@pytest.fixture
def murmur(murmur_exe):
    """murmur(*args, check=True, env=None, cwd=None): `murmur ARGS` as a CompletedProcess (text)."""
    def run(*args, check=True, env=None, cwd=None, launcher=()):
        command = [*launcher, murmur_exe, *map(str, args)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=300,
                                env={**os.environ, **(env or {})}, cwd=cwd)
        if check and result.returncode != 0:
            pytest.fail(f"{' '.join(command)} exited {result.returncode}:\n{result.stderr}")
        return result
    return run


def write_sweep(directory, text, name="sweep.toml"):
    path = pathlib.Path(directory) / name
    path.write_text(text)
    return path


def run_files(out):
    """{name: sha256} of the run files (runs/<id>.json, not the status files) under out."""
    runs = pathlib.Path(out) / "runs"
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(runs.glob("*.json")) if not p.name.endswith(".status.json")}
