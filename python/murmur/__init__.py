"""Murmur's flock simulation for Python: scenes stepped on the CPU or the GPU, read in place as numpy arrays.

    import murmur
    sim = murmur.Simulation("murmuration", boids=20000, backend="cpu", seed=3)
    sim.step(100)                                # releases the GIL
    sim.params["perception.neighbours"] = 5      # validated: murmur.InputError (a ValueError) out of range
    print(sim.positions.shape, sim.measure()["polarization"])   # (20000, 3) float32, read-only, no copy

docs/api.md describes every call, its units and limits.
"""
from collections.abc import Mapping as _Mapping

from ._murmur import *  # noqa: F401,F403
from ._murmur import (
    DeviceError,
    Error,
    InputError,
    OutOfMemoryError,
    OutputError,
    Params,
    Simulation,
    StateError,
    StopRequested,
    params,
    scenes,
    set_log,
    version,
)

_Mapping.register(Params)  # isinstance(sim.params, Mapping); dict(sim.params) works

__version__ = version()

__all__ = [
    "DeviceError",
    "Error",
    "InputError",
    "OutOfMemoryError",
    "OutputError",
    "Params",
    "Simulation",
    "StateError",
    "StopRequested",
    "params",
    "scenes",
    "set_log",
    "version",
    "__version__",
]
