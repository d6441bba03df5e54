"""Trajectories: sim.record and `murmur run --record` write H5MD files that h5py reads back equal to the
flock at the recorded steps."""
import h5py
import numpy as np
import pytest

import murmur

BOIDS = 300


def text_of(dataset):
    value = dataset[()]
    return value.decode() if isinstance(value, (bytes, np.bytes_)) else str(value)


def test_record_reads_back_as_the_flock(tmp_path):
    path = tmp_path / "t.h5"
    sim = murmur.Simulation("free", boids=BOIDS, backend="cpu", seed=2)
    first = sim.positions.copy(), sim.velocities.copy()
    sim.record(path, every=5)
    sim.step(10)
    assert not path.exists()  # renamed into place when complete
    sim.stop_recording()
    dt = sim.params["sim.dt"]
    with h5py.File(path, "r") as f:
        assert [int(v) for v in f["h5md"].attrs["version"]] == [1, 1]
        flock = f["particles/flock"]
        for element in ("position", "velocity"):
            value = flock[element]["value"]
            assert value.shape == (3, BOIDS, 3) and value.dtype == np.float32
            assert list(flock[element]["step"][()]) == [0, 5, 10]
            assert np.allclose(flock[element]["time"][()], np.array([0, 5, 10]) * dt, rtol=1e-15, atol=0)
        assert flock["position/value"][0].tobytes() == first[0].tobytes()
        assert flock["velocity/value"][0].tobytes() == first[1].tobytes()
        assert flock["position/value"][2].tobytes() == sim.positions.tobytes()
        assert flock["velocity/value"][2].tobytes() == sim.velocities.tobytes()
        assert flock["species/value"].shape == (3, BOIDS)
        assert np.array_equal(flock["species/value"][2], sim.groups)
        assert np.array_equal(flock["leader/value"][2].astype(bool), sim.leaders)
        assert text_of(f["parameters/scene"]).strip()


def test_the_commands_recording_equals_the_modules(run_cli, tmp_path):
    run_cli("run", "--scene", "free", "--boids", BOIDS, "--seed", 2, "--steps", 10, "--backend", "cpu",
            "--record", tmp_path / "cli.h5", "--record-every", 5)
    sim = murmur.Simulation("free", boids=BOIDS, backend="cpu", seed=2)
    sim.record(str(tmp_path / "py.h5"), every=5)
    sim.step(10)
    sim.stop_recording()
    with h5py.File(tmp_path / "cli.h5", "r") as cli, h5py.File(tmp_path / "py.h5", "r") as py:
        for element in ("position", "velocity", "species", "leader"):
            a, b = cli[f"particles/flock/{element}"], py[f"particles/flock/{element}"]
            assert a["value"].shape == b["value"].shape, element
            assert a["value"][()].tobytes() == b["value"][()].tobytes(), element
            assert list(a["step"][()]) == list(b["step"][()]) == [0, 5, 10], element


def test_bad_recordings(tmp_path):
    sim = murmur.Simulation("free", boids=50, backend="cpu", seed=1)
    with pytest.raises(murmur.InputError):
        sim.record(tmp_path / "missing" / "t.h5")
    with pytest.raises(ValueError, match="every must be >= 1"):
        sim.record(tmp_path / "t.h5", every=0)
    sim.stop_recording()  # none runs: nothing
    assert not (tmp_path / "t.h5").exists() and sim.steps == 0
