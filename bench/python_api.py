#!/usr/bin/python3
"""The library's costs against the command's (docs/api.md), one run, printed as a Markdown table.

  PYTHONPATH=build/python /usr/bin/python3 bench/python_api.py --murmur build/murmur [--quick]

- a step from Python (sim.step) against `murmur run`'s per step, same scene, count and seed, CPU backend;
- reading sim.positions at 1M boids: the first read after a step (the flock gathered into id order, or
  downloaded from the GPU) and a read again (the view alone), on the cpu and gpu-exact backends;
- recording a frame in HDF5 (`murmur run --steps 0 --record`) against writing the state CSV (`--dump`),
  each less the same run without the output.
The reads and writes use a world sparse enough to hold a million boids at little cost a step (SPARSE).
Rounds are interleaved; medians and the spread (min-max) are reported.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import murmur

# 500 units a side: a million boids at 8e-3 a cubic unit, 100,000 at 8e-4.
SPARSE = "[world]\nmin = [-250, -250, -250]\nmax = [250, 250, 250]\n"


def cli_run(exe, *args):
    out = subprocess.run([exe, "run", "--json", *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def wall(exe, *args):
    start = time.perf_counter()
    subprocess.run([exe, "run", *args], check=True, capture_output=True)
    return time.perf_counter() - start


def median_spread(values, scale=1.0, unit=""):
    v = [x * scale for x in values]
    return f"{statistics.median(v):.4g} {unit} ({min(v):.4g}-{max(v):.4g})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--murmur", required=True, help="the murmur command")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="smaller flocks and fewer steps")
    a = parser.parse_args()
    step_boids, read_boids, steps = (20_000, 100_000, 3) if a.quick else (100_000, 1_000_000, 5)
    common = ["--scene", "free", "--seed", "1", "--backend", "cpu", "--force"]
    rows = []

    # A step from Python against murmur run's: both time the steps alone (run's wall_seconds).
    python_step, cli_step = [], []
    sim = murmur.Simulation("free", boids=step_boids, backend="cpu", seed=1)
    for _ in range(a.rounds):
        sim.reset()
        start = time.perf_counter()
        sim.step(steps)
        python_step.append((time.perf_counter() - start) / steps)
        run = cli_run(a.murmur, *common, "--boids", str(step_boids), "--steps", str(steps))
        cli_step.append(run["wall_seconds"] / steps)
    ratio = statistics.median(python_step) / statistics.median(cli_step)
    rows.append((f"step, {step_boids:,} boids, cpu", f"python {median_spread(python_step, 1e3, 'ms')}",
                 f"murmur run {median_spread(cli_step, 1e3, 'ms')}", f"python / run {ratio:.3f}"))
    device = sim.device
    del sim

    # Reading the positions: once after a step (gather or download), then again (a view).
    for backend in ("cpu", "gpu-exact"):
        sim = murmur.Simulation.from_toml(SPARSE, boids=read_boids, backend=backend, seed=1)
        first, again = [], []
        for _ in range(a.rounds):
            sim.step(1)
            start = time.perf_counter()
            p = sim.positions
            first.append(time.perf_counter() - start)
            start = time.perf_counter()
            p = sim.positions
            again.append(time.perf_counter() - start)
            del p
        state_bytes = read_boids * (12 + 12 + 4 + 1)
        rows.append((f"read positions, {read_boids:,} boids, {backend} ({sim.device})",
                     f"after a step {median_spread(first, 1e3, 'ms')}",
                     f"again {median_spread(again, 1e6, 'us')}",
                     f"{state_bytes / statistics.median(first) / 1e9:.3g} GB/s of state"))
        del sim

    # A recorded frame against a dumped CSV, both through murmur run (its start-up subtracted).
    with tempfile.TemporaryDirectory() as tmp:
        scene = os.path.join(tmp, "sparse.toml")
        with open(scene, "w") as f:
            f.write(SPARSE)
        for boids in (step_boids, read_boids):
            frames = 1
            base = ["--scene", scene, "--seed", "1", "--backend", "cpu", "--boids", str(boids), "--steps", "0"]
            bare, record, dump = [], [], []
            for _ in range(a.rounds):
                bare.append(wall(a.murmur, *base))
                record.append(wall(a.murmur, *base, "--record", os.path.join(tmp, "t.h5")))
                dump.append(wall(a.murmur, *base, "--dump", os.path.join(tmp, "d.csv")))
            h5 = [(r - b) / frames for r, b in zip(record, bare)]
            csv = [d - b for d, b in zip(dump, bare)]
            rows.append((f"write a frame, {boids:,} boids", f"HDF5 {median_spread(h5, 1e3, 'ms')}",
                         f"CSV {median_spread(csv, 1e3, 'ms')}",
                         f"HDF5 / CSV {statistics.median(h5) / statistics.median(csv):.3f}; "
                         f"{os.path.getsize(os.path.join(tmp, 't.h5')) / frames / 1e6:.3g} MB a frame against "
                         f"{os.path.getsize(os.path.join(tmp, 'd.csv')) / 1e6:.3g}"))

    print(f"murmur {murmur.version()}, {device}, {a.rounds} rounds, medians (min-max)\n")
    print("| case | | | |\n|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    sys.exit(main())
