#!/usr/bin/python3
"""How a murmuration's order and shape depend on K, the topological neighbours each bird aligns with:
the murmuration scene for K = 3, 7 and 12 over a few seeds, its polarization and thinness over time.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/study_k.py --boids 5000 --out k_study.png

Each block also runs as a notebook cell (set `args` by hand there).
"""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import murmur  # noqa: E402

parser = argparse.ArgumentParser(description="polarization and thinness of the murmuration against K")
parser.add_argument("--boids", type=int, default=5000)
parser.add_argument("--steps", type=int, default=600)
parser.add_argument("--every", type=int, default=20, help="steps between measures")
parser.add_argument("--seeds", type=int, default=2, help="seeds 1..S for each K")
parser.add_argument("--out", default="k_study.png")
args = parser.parse_args()
if not 1 <= args.every <= args.steps:
    parser.error("--every must be in [1, --steps]")

KS = (3, 7, 12)


def run(k, seed):
    """One flight: times (s), polarization and thinness every `every` steps."""
    sim = murmur.Simulation("murmuration", boids=args.boids, backend="cpu", seed=seed)
    sim.params["perception.neighbours"] = k
    rows = []
    for _ in range(args.steps // args.every):
        sim.step(args.every)
        m = sim.measure()
        rows.append((sim.time, m["polarization"], m["thinness"]))
    return np.array(rows).T  # (3, samples)


# runs[k]: (seeds, 3, samples)
runs = {k: np.array([run(k, seed) for seed in range(1, args.seeds + 1)]) for k in KS}

# Mean over the seeds, shaded from the lowest to the highest.
fig, axes = plt.subplots(1, 2, figsize=(11, 4), constrained_layout=True)
for k, r in runs.items():
    t = r[0, 0]
    for axis, row in zip(axes, (1, 2)):
        line, = axis.plot(t, r[:, row].mean(axis=0), label=f"K = {k}")
        axis.fill_between(t, r[:, row].min(axis=0), r[:, row].max(axis=0), color=line.get_color(), alpha=0.2)
for axis, title in zip(axes, ("polarization of the largest flock", "thinness (shortest / longest axis)")):
    axis.set_title(title)
    axis.set_xlabel("time (s)")
axes[0].legend()
fig.suptitle(f"murmuration, {args.boids:,} birds, seeds 1..{args.seeds} (mean, min-max)")
fig.savefig(args.out, dpi=120)

print(f"{'K':>3} {'polarization':>13} {'thinness':>9}  (the last measure, mean over seeds)")
for k, r in runs.items():
    print(f"{k:>3} {r[:, 1, -1].mean():>13.3f} {r[:, 2, -1].mean():>9.3f}")
print(f"wrote {args.out}")
