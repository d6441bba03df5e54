"""Shared pieces of the Python module's tests: the murmur command (MURMUR_EXE), its runs, its state CSVs.

CTest runs them with PYTHONPATH at the built package and MURMUR_EXE at the `murmur` program."""
import os
import subprocess
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from murmur_fixtures import murmur_exe  # noqa: E402,F401  (a fixture)

STATE_HEADER = "id,group,x,y,z,vx,vy,vz"


@pytest.fixture
def run_cli(murmur_exe):
    """run_cli(*args, check=True): `murmur ARGS` as a CompletedProcess (text); exit 0 unless check=False."""
    def run(*args, check=True):
        command = [murmur_exe, *map(str, args)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        if check and result.returncode != 0:
            pytest.fail(f"{' '.join(command)} exited {result.returncode}:\n{result.stderr}")
        return result
    return run


def read_dump(path):
    """A state CSV (`murmur run --dump`) as positions (N, 3), velocities (N, 3) float32 and groups (N,) uint32.

    The CSV prints 9 significant digits, which read back to the same float32 exactly."""
    with open(path) as f:
        assert f.readline().strip() == STATE_HEADER
    data = np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float64, ndmin=2).reshape(-1, 8)
    assert np.array_equal(data[:, 0], np.arange(len(data))), "rows in id order"
    return data[:, 2:5].astype(np.float32), data[:, 5:8].astype(np.float32), data[:, 1].astype(np.uint32)


def write_init(path, positions, velocities, groups):
    """A state CSV for `murmur run --init` ("%.9g": float32 round-trips)."""
    with open(path, "w") as f:
        f.write(STATE_HEADER + "\n")
        for i, (p, v, g) in enumerate(zip(positions.tolist(), velocities.tolist(), groups.tolist())):
            f.write("%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n" % (i, g, *p, *v))
