"""The module on OpenGL (llvmpipe through EGL on CI; no context is a failure, never a skip): gpu-exact
bit for bit with cpu, two GPU simulations stepped in turn, frames, the log hook."""
import sys

import numpy as np
import pytest

import murmur

ARRAYS = ("positions", "velocities", "groups", "leaders")


@pytest.mark.parametrize("scene, boids", [("free", 2000), ("predator", 1000)])
def test_gpu_exact_equals_cpu(scene, boids):
    gpu = murmur.Simulation(scene, boids=boids, backend="gpu-exact", seed=2)
    cpu = murmur.Simulation(scene, boids=boids, backend="cpu", seed=2)
    assert gpu.backend == "gpu-exact" and len(gpu) == len(cpu) == boids
    gpu.step(20)
    cpu.step(20)
    for name in ARRAYS:
        assert getattr(gpu, name).tobytes() == getattr(cpu, name).tobytes(), name
    assert [a["position"] for a in gpu.agents()] == [a["position"] for a in cpu.agents()]


def test_two_gpu_simulations_stepped_alternately():
    gpus = [murmur.Simulation("free", boids=700, backend="gpu-exact", seed=s) for s in (1, 2)]
    cpus = [murmur.Simulation("free", boids=700, backend="cpu", seed=s) for s in (1, 2)]
    for _ in range(3):
        for gpu, cpu in zip(gpus, cpus):
            gpu.step(3)
            cpu.step(3)
        for gpu, cpu in zip(gpus, cpus):
            assert gpu.positions.tobytes() == cpu.positions.tobytes()
            assert gpu.velocities.tobytes() == cpu.velocities.tobytes()
    assert gpus[0].positions.tobytes() != gpus[1].positions.tobytes()


def test_render_and_save_frame(tmp_path):
    sim = murmur.Simulation("free", boids=1500, backend="cpu", seed=1)
    sim.step(2)
    image = sim.render(160, 120)
    assert image.shape == (120, 160, 4) and image.dtype == np.uint8
    assert len(np.unique(image.reshape(-1, 4), axis=0)) > 1
    path = tmp_path / "f.png"
    sim.save_frame(path, 160, 120)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(murmur.InputError):
        sim.render(8, 8)


def test_the_log_hook_hears_auto_and_swallows_its_errors():
    heard = []
    murmur.set_log(heard.append)
    try:
        murmur.Simulation("free", boids=100, backend="auto")
    finally:
        murmur.set_log(None)
    assert heard and all(isinstance(m, str) for m in heard)

    def broken(message):
        raise RuntimeError("broken hook")

    unraisable, hook = [], sys.unraisablehook
    sys.unraisablehook = unraisable.append  # set and put back here: pytest watches the hook per phase
    murmur.set_log(broken)
    try:
        sim = murmur.Simulation("free", boids=100, backend="auto")  # the hook's error stays in the hook
    finally:
        murmur.set_log(None)
        sys.unraisablehook = hook
    sim.step(1)
    assert unraisable and isinstance(unraisable[0].exc_value, RuntimeError)
    with pytest.raises(TypeError):
        murmur.set_log(3)
