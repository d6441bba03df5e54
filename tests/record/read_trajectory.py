#!/usr/bin/env python3
"""Prints a JSON summary of a Murmur trajectory (H5MD 1.1, record/trajectory.hpp): read_trajectory.py FILE."""
import hashlib
import json
import sys

import h5py
import numpy as np


def checksum(array):
    """SHA-256 of the values as little-endian float32: equal for equal positions on any machine."""
    return hashlib.sha256(np.ascontiguousarray(array, dtype="<f4").tobytes()).hexdigest()


def main(path):
    with h5py.File(path, "r") as f:
        flock = f["particles/flock"]
        position = flock["position/value"]
        frames, boids = position.shape[0], position.shape[1]
        box = flock["box"]
        summary = {
            "h5md_version": [int(v) for v in f["h5md"].attrs["version"]],
            "creator": f["h5md/creator"].attrs["name"],
            "frames": frames,
            "boids": boids,
            "steps": [int(s) for s in flock["position/step"][()]],
            "times": [float(t) for t in flock["position/time"][()]],
            "boundary": [str(b) for b in box.attrs["boundary"]],
            "edges": [float(e) for e in box["edges"][()]],
            "groups": sorted(int(g) for g in np.unique(flock["species/value"][()])),
            "leaders_per_frame": [int(n) for n in flock["leader/value"][()].sum(axis=1)],
            "first_positions": checksum(position[0]) if frames else None,
            "last_positions": checksum(position[frames - 1]) if frames else None,
            "backend": f["parameters"].attrs["backend"],
            "dt": float(f["parameters"].attrs["dt"]),
        }
    print(json.dumps(summary))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: read_trajectory.py FILE")
    main(sys.argv[1])
