"""set_state: the flock `murmur run --init` makes of the same state; every bad input refused with its error
and the simulation unchanged; bad parameters and simulations."""
import numpy as np
import pytest

import murmur
from conftest import read_dump, write_init

BOIDS = 300


@pytest.fixture(scope="module")
def state():
    sim = murmur.Simulation("free", boids=BOIDS, backend="cpu", seed=5)
    sim.step(15)
    return sim.positions.copy(), sim.velocities.copy(), sim.groups.copy()


@pytest.fixture
def sim():
    sim = murmur.Simulation("free", boids=BOIDS, backend="cpu", seed=7)
    sim.step(2)
    return sim


def snapshot(sim):
    return (sim.positions.tobytes(), sim.velocities.tobytes(), sim.groups.tobytes(), sim.steps, len(sim),
            dict(sim.params.items()))


def test_set_state_then_step_equals_run_init(state, run_cli, tmp_path):
    p, v, g = state
    write_init(tmp_path / "s.csv", p, v, g)
    run_cli("run", "--init", tmp_path / "s.csv", "--scene", "free", "--steps", 10, "--backend", "cpu",
            "--dump", tmp_path / "out.csv")
    want_p, want_v, want_g = read_dump(tmp_path / "out.csv")
    sim = murmur.Simulation("free", backend="cpu")  # the scene's seed and count, as the command's
    sim.set_state(p, v, g)
    assert len(sim) == BOIDS and sim.steps == 0
    assert sim.positions.tobytes() == p.tobytes() and sim.velocities.tobytes() == v.tobytes()
    sim.step(10)
    assert sim.positions.tobytes() == want_p.tobytes()
    assert sim.velocities.tobytes() == want_v.tobytes()
    assert np.array_equal(sim.groups, want_g)
    sim.reset()  # set_state's flock is the initial one
    assert sim.steps == 0 and sim.positions.tobytes() == p.tobytes()


def test_float64_and_lists_are_accepted(state, sim):
    p, v, g = state
    sim.set_state(p.astype(np.float64), v.astype(np.float64), g.astype(np.int64))
    assert sim.positions.tobytes() == p.tobytes() and sim.velocities.tobytes() == v.tobytes()
    sim.set_state(p[:3].tolist(), np.asfortranarray(v[:3]), [0, 0, 0])
    assert len(sim) == 3 and sim.positions.tobytes() == p[:3].tobytes()


def edit(name, change):
    def apply(p, v, g):
        arrays = {"p": p.copy(), "v": v.copy(), "g": g.copy()}
        arrays[name] = change(arrays[name])
        return arrays["p"], arrays["v"], arrays["g"]
    return apply


def put(row, column, value, dtype=None):
    def change(a):
        a = a.astype(dtype) if dtype else a
        if column is None:
            a[row] = value
        else:
            a[row, column] = value
        return a
    return change


BAD_STATES = {  # case: (change, error, words of its message)
    "shape (N, 2)": (edit("p", lambda a: a[:, :2]), ValueError,
                     "positions must be a float32 array of shape (N, 3), got shape (300, 2)"),
    "mismatched N": (edit("v", lambda a: a[:-1]), ValueError, "velocities must have the shape of positions"),
    "groups N": (edit("g", lambda a: a[:-1]), ValueError, "groups must be an integer array of shape (300,)"),
    "int positions": (edit("p", lambda a: a.astype(np.int64)), ValueError,
                      "positions must be a float32 array of shape (N, 3), got int64"),
    "complex": (edit("p", lambda a: a.astype(np.complex64)), ValueError, "got complex64"),
    "strings": (edit("v", lambda a: a.astype(str)), ValueError, "velocities must be a float32 array"),
    "float groups": (edit("g", lambda a: a.astype(np.float32)), ValueError, "groups must be an integer array"),
    "NaN position": (edit("p", put(7, 1, np.nan)), ValueError, "positions[7] is not finite"),
    "inf velocity": (edit("v", put(9, 2, np.inf)), ValueError, "velocities[9] is not finite"),
    "float32 overflow": (edit("p", put(4, 0, 1e300, np.float64)), ValueError,
                         "positions[4] is not finite as float32"),
    "group -1": (edit("g", put(3, None, -1, np.int64)), ValueError, "groups[3] is -1"),
    "group 1024": (edit("g", put(5, None, 1024)), ValueError, "groups[5] is 1024"),
    "outside the box": (edit("p", put(11, 1, 60.0)), murmur.InputError, "outside the world box"),  # y <= 50
}


@pytest.mark.parametrize("case", BAD_STATES, ids=list(BAD_STATES))
def test_bad_states_change_nothing(case, state, sim):
    change, error, words = BAD_STATES[case]
    before = snapshot(sim)
    with pytest.raises(error) as caught:
        sim.set_state(*change(*state))
    assert words in str(caught.value)
    assert snapshot(sim) == before
    sim.step(1)  # and it still runs


def test_bad_parameters_change_nothing(sim):
    before = snapshot(sim)
    with pytest.raises(KeyError):
        sim.params["perception.nope"]
    with pytest.raises(KeyError):
        sim.params["perception.nope"] = 1.0
    with pytest.raises(murmur.InputError) as caught:
        sim.params["perception.neighbours"] = 17
    message = str(caught.value)
    assert "perception.neighbours" in message and "16" in message, message
    assert caught.value.key == "perception.neighbours"
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, murmur.Error)
    with pytest.raises(murmur.InputError) as caught:
        sim.params["perception.radius"] = -3.0
    assert "perception.radius" in str(caught.value) and "above 0" in str(caught.value), str(caught.value)
    for value in ("wide", None, True, 1j):
        with pytest.raises(TypeError):
            sim.params["perception.radius"] = value
    assert snapshot(sim) == before
    sim.params["perception.neighbours"] = 5
    assert sim.params["perception.neighbours"] == 5.0


def test_params_are_a_mapping_of_the_table(sim):
    table = murmur.params()
    keys = [row["key"] for row in table]
    assert sim.params.keys() == keys == list(sim.params) and len(sim.params) == len(keys)
    assert "perception.neighbours" in sim.params and "perception.nope" not in sim.params and 3 not in sim.params
    assert sim.params["perception.radius"] == 5.0 and sim.params.get("perception.nope", 1) == 1
    assert set(table[0]) == {"key", "default", "minimum", "minimum_included", "maximum", "unit", "meaning"}
    assert "perception.radius" in repr(sim.params)


def test_bad_simulations():
    with pytest.raises(murmur.InputError, match="no-such-scene"):
        murmur.Simulation("no-such-scene", backend="cpu")
    with pytest.raises(murmur.InputError, match="warp"):
        murmur.Simulation("free", backend="warp")
    for keyword in ("boids", "seed", "threads"):
        with pytest.raises(ValueError, match=f"{keyword} must be >= 0"):
            murmur.Simulation("free", backend="cpu", **{keyword: -1})
    with pytest.raises(TypeError):
        murmur.Simulation("free", backend="cpu", data_dirs="data")
    sim = murmur.Simulation.from_toml("[boids]\ncount = 50\n", backend="cpu", name="inline.toml")
    assert len(sim) == 50
    with pytest.raises(ValueError, match="n must be >= 0"):
        sim.step(-1)
    assert sim.steps == 0
