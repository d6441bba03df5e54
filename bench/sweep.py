#!/usr/bin/python3
"""The sweep machinery's throughput and overhead (docs/sweeps.md), one run, printed as a Markdown table.

  /usr/bin/python3 bench/sweep.py --murmur build/murmur [--rounds 3] [--overhead-rounds 10]

- runs an hour of the reduced gpu-vs-cpu sweep (sweeps/gpu-vs-cpu.toml --reduced: 8 runs, cpu and gpu)
  with --jobs 1, --jobs 2 and `mpirun -np 2` (one runner a rank), each from an empty folder;
- the sweep's overhead per run against bare `murmur run` of the same plan (free, 6,000 boids, 1,000
  steps, about a second on the cpu backend here): `murmur sweep` of 3 replicates against 3
  `murmur run`s with the same seeds, whole process wall times both.
Rounds are interleaved; medians and the spread (min-max) are reported.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time

MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}

OVERHEAD = """scene = "free"
steps = 1000
replicates = 3
seed = 1
[set]
"boids.count" = 6000
"""


def timed(command, env=None):
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env={**os.environ, **(env or {})})
    return time.perf_counter() - start


def median_spread(values, fmt="{:.4g}"):
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}-{fmt.format(max(values))})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--murmur", required=True, help="the murmur command")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the throughput sweeps")
    parser.add_argument("--overhead-rounds", type=int, default=10, help="rounds of the overhead pair")
    a = parser.parse_args()
    exe = os.path.abspath(a.murmur)
    devices = subprocess.run([exe, "devices"], capture_output=True, text=True).stdout.splitlines()
    renderer = next((line.split(None, 1)[1] for line in devices if line.strip().startswith("GL_RENDERER")), "none")
    work = tempfile.mkdtemp(prefix="murmur-sweep-bench-")
    try:
        modes = {
            "--jobs 1": ([exe, "sweep", "gpu-vs-cpu", "--reduced", "--jobs", "1"], None),
            "--jobs 2": ([exe, "sweep", "gpu-vs-cpu", "--reduced", "--jobs", "2"], None),
            "mpirun -np 2": (["mpirun", "--oversubscribe", "-np", "2", exe, "sweep", "gpu-vs-cpu", "--reduced"], MPI_ENV),
        }
        throughput = {name: [] for name in modes}
        sweep_file = os.path.join(work, "overhead.toml")
        with open(sweep_file, "w") as f:
            f.write(OVERHEAD)
        swept, bare = [], []
        for r in range(a.rounds):
            for name, (command, env) in modes.items():
                out = os.path.join(work, f"{name.replace(' ', '')}-{r}")
                throughput[name].append(8 / timed(command + ["--out", out], env) * 3600)
        for r in range(a.overhead_rounds):
            swept.append(timed([exe, "sweep", sweep_file, "--out", os.path.join(work, f"o-{r}")]) / 3)
            bare.append(sum(timed([exe, "run", "--scene", "free", "--backend", "cpu", "--steps", "1000",
                                   "--set", "boids.count=6000", "--seed", str(seed)]) for seed in (1, 2, 3)) / 3)
        print(f"GL_RENDERER: {renderer}; {os.cpu_count()} CPUs\n")
        print("| sweep | runs an hour, median (min-max) |\n|---|---|")
        for name, values in throughput.items():
            print(f"| reduced gpu-vs-cpu, {name} | {median_spread(values, '{:.0f}')} |")
        overheads = [s / b - 1 for s, b in zip(swept, bare)]
        print(f"\n| per run | seconds, median (min-max) |\n|---|---|")
        print(f"| bare murmur run | {median_spread(bare)} |")
        print(f"| in murmur sweep | {median_spread(swept)} |")
        print(f"| overhead | {median_spread([100 * o for o in overheads], '{:+.2f}')} % |")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
