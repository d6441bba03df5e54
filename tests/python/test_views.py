"""The flock's arrays: the bytes `murmur run --dump` writes for the same run, read-only views without a
copy that keep their step and outlive the simulation; the measures `murmur run --json` prints; step()
releases the GIL."""
import gc
import json
import math
import threading
import time

import numpy as np
import pytest

import murmur
from conftest import read_dump


@pytest.mark.parametrize("backend", ["cpu", "cpu-naive"])
def test_views_equal_the_dump_of_the_same_run(backend, run_cli, tmp_path):
    run_cli("run", "--scene", "free", "--boids", 500, "--seed", 3, "--steps", 20, "--backend", backend,
            "--dump", tmp_path / "d.csv")
    p, v, g = read_dump(tmp_path / "d.csv")
    sim = murmur.Simulation("free", boids=500, backend=backend, seed=3)
    sim.step(20)
    assert sim.backend == backend and len(sim) == 500 and sim.steps == 20
    assert sim.positions.dtype == np.float32 and sim.positions.shape == (500, 3)
    assert sim.velocities.dtype == np.float32 and sim.velocities.shape == (500, 3)
    assert sim.groups.dtype == np.uint32 and sim.groups.shape == (500,)
    assert sim.leaders.dtype == np.bool_ and sim.leaders.shape == (500,)
    assert np.array_equal(sim.positions, p) and sim.positions.tobytes() == p.tobytes()
    assert np.array_equal(sim.velocities, v) and sim.velocities.tobytes() == v.tobytes()
    assert np.array_equal(sim.groups, g)


def test_views_are_read_only_shared_held_and_outlive_the_simulation():
    sim = murmur.Simulation("free", boids=400, backend="cpu", seed=1)
    sim.step(2)
    p = sim.positions
    for array in (p, sim.velocities, sim.groups, sim.leaders):
        assert not array.flags.writeable
        with pytest.raises(ValueError):
            array[0] = 0
    assert np.shares_memory(p, sim.positions)  # two reads of one step: the same memory, no copy
    before = p.copy()
    sim.step(1)
    assert np.array_equal(p, before)  # the held array keeps its step
    assert not np.array_equal(sim.positions, before)
    del sim
    gc.collect()
    assert p.tobytes() == before.tobytes()  # and stays valid after the simulation


def same(measured, printed):
    """A measure against its JSON value (null: not finite)."""
    if printed is None:
        return not math.isfinite(measured)
    if isinstance(printed, int) and not isinstance(printed, bool):
        return measured == printed
    return measured == pytest.approx(printed, rel=1e-9, abs=1e-300)


def test_measure_equals_murmur_runs_json(run_cli):
    out = run_cli("run", "--scene", "free", "--boids", 500, "--seed", 3, "--steps", 20, "--backend", "cpu",
                  "--json").stdout
    summary = json.loads(out)
    sim = murmur.Simulation("free", boids=500, backend="cpu", seed=3)
    sim.step(20)
    m = sim.measure()
    for key, value in summary["metrics"].items():
        assert same(m[key], value), (key, m[key], value)
    for key, value in summary["shape"].items():
        if key == "extents":
            assert len(m[key]) == 3 and all(same(a, b) for a, b in zip(m[key], value)), (m[key], value)
        else:
            assert same(m[key], value), (key, m[key], value)
    assert sum(g["boids"] for g in m["groups"]) == 500


def test_agents_equal_murmur_runs_json(run_cli):
    summary = json.loads(run_cli("run", "--scene", "predator", "--boids", 600, "--seed", 2, "--steps", 10,
                                 "--backend", "cpu", "--json").stdout)
    sim = murmur.Simulation("predator", boids=600, backend="cpu", seed=2)
    sim.step(10)
    agents = sim.agents()
    assert len(agents) == len(summary["agents"]) > 0
    for mine, printed in zip(agents, summary["agents"]):
        for key in ("name", "kind", "state"):
            assert mine[key] == printed[key], key
        assert all(same(a, b) for a, b in zip(mine["position"], printed["position"]))
    assert [g["boids"] for g in sim.measure()["groups"]] == [g["count"] for g in summary["groups"]]


def test_step_releases_the_gil():
    sim = murmur.Simulation("murmuration", boids=20000, backend="cpu", seed=1, threads=1)
    start = time.perf_counter()
    sim.step(2)
    steps = max(5, min(500, int(0.6 / max(time.perf_counter() - start, 1e-6) * 2)))  # about 0.6 s of steps
    window = {}

    def stepper():
        window["enter"] = time.perf_counter()
        sim.step(steps)
        window["exit"] = time.perf_counter()

    ticks = []
    thread = threading.Thread(target=stepper)
    thread.start()
    while thread.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    thread.join()
    assert sim.steps == 2 + steps
    # Ticks well inside the call (away from the bytecodes around it): the main thread ran meanwhile.
    enter, leave = window["enter"], window["exit"]
    span = leave - enter
    inside = [t for t in ticks if enter + 0.2 * span < t < leave - 0.1 * span]
    assert len(inside) >= min(20, span / 0.01), f"{len(inside)} main-thread ticks during a {span:.3f} s step()"
