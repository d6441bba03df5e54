"""save_scene: the scene as it runs, as a scene file. Every shipped scene saved unchanged loads to the
same parameters and flies the same flock; parameters set before the first step are saved (only they
are rewritten, the rest keep their text) and the saved scene draws the same frame byte for byte."""
import tomllib

import pytest

import murmur


def params_of(sim):
    return dict(sim.params.items())


def flat(table, prefix=""):
    """A TOML document's values by dotted key."""
    values = {}
    for key, value in table.items():
        if isinstance(value, dict):
            values.update(flat(value, f"{prefix}{key}."))
        else:
            values[f"{prefix}{key}"] = value
    return values


@pytest.mark.parametrize("scene", murmur.scenes())
def test_an_unchanged_scene_saves_to_the_same_flock(scene, tmp_path):
    boids = 300 if scene not in ("lab", "lab-book") else None
    sim = murmur.Simulation(scene, boids=boids, backend="cpu", seed=4)
    saved = tmp_path / "saved.toml"
    sim.save_scene(saved)
    again = murmur.Simulation(saved, backend="cpu")
    assert params_of(again) == params_of(sim)
    assert len(again) == len(sim)
    sim.step(5)
    again.step(5)
    assert again.positions.tobytes() == sim.positions.tobytes()
    assert again.velocities.tobytes() == sim.velocities.tobytes()


def test_set_parameters_are_saved_and_redraw_the_same_frame(tmp_path):
    sim = murmur.Simulation("free", boids=800, backend="cpu", seed=3)
    original = sim.scene_path
    sim.params["weights.cohesion"] = 0.37
    sim.params["perception.radius"] = 6.5
    sim.params["perception.neighbours"] = 7
    saved = tmp_path / "saved.toml"
    sim.save_scene(saved)
    text = saved.read_text()
    assert text.startswith("# Saved by murmur ")
    assert "cohesion = 0.37" in text and "radius = 6.5" in text and "neighbours = 7" in text
    assert "count = 800" in text and "seed = 3" in text
    # Only the set keys differ from the same scene saved unchanged.
    with open(original) as f:
        plain = murmur.Simulation.from_toml(f.read(), boids=800, backend="cpu", seed=3)
    plain_file = tmp_path / "plain.toml"
    plain.save_scene(plain_file)
    ours, theirs = flat(tomllib.loads(text)), flat(tomllib.loads(plain_file.read_text()))
    differ = {key for key in ours.keys() | theirs.keys() if ours.get(key) != theirs.get(key)}
    assert differ == {"weights.cohesion", "perception.radius", "perception.neighbours"}

    again = murmur.Simulation(saved, backend="cpu")
    assert params_of(again) == params_of(sim)
    sim.step(10)
    again.step(10)
    plain.step(10)
    frame = sim.render(160, 96)
    assert again.render(160, 96).tobytes() == frame.tobytes()
    assert plain.render(160, 96).tobytes() != frame.tobytes()  # the parameters show in the picture


def test_a_bad_path_is_an_input_error_and_leaves_nothing(tmp_path):
    sim = murmur.Simulation("free", boids=100, backend="cpu")
    with pytest.raises(murmur.InputError, match="saveScene"):
        sim.save_scene(tmp_path / "missing" / "saved.toml")
    assert not (tmp_path / "missing").exists()
    sim.save_scene(tmp_path / "ok.toml")
    assert [p.name for p in tmp_path.iterdir()] == ["ok.toml"]
