#!/usr/bin/python3
"""Murmur benchmark report: Markdown tables and SVG charts from murmur_bench JSON results.

    /usr/bin/python3 bench/report.py bench/results/*/*.json --out bench/report

Reads any number of result files (Google Benchmark JSON written by `murmur bench`) and writes
OUT/README.md (the tables) and, per workload, OUT/time_per_step_<workload>.svg and
OUT/throughput_<workload>.svg (log-log against N, one line per machine and backend: a colour per
machine, a line style per backend, the legend beside the plot). The charts need matplotlib
(Debian: python3-matplotlib); without it the tables are written all the same and a one-line note
on stderr says the charts were skipped.

A result's benchmarks are named <workload>/<backend>[/threads:T]/n:<N> (bench/bench_common.hpp).
Where a benchmark was repeated, its median is used (the aggregate rows of
--benchmark_repetitions); otherwise the mean of its runs.

The memory-floor table estimates the bytes each GPU stage must move per step (compulsory traffic
of the std430 buffers of src/gpu/flock_layout.hpp, see STAGE_BYTES and the assumptions printed in
the report) and compares the measured time with those bytes moved at the bandwidth the same run
measured (bandwidth/gpu-copy: a compute shader copying a large buffer).
"""

import argparse
import json
import os
import re
import sys
from collections import OrderedDict

WORKLOADS = OrderedDict([
    ("density", "Fixed density (the world grows with N; default scene density, 9 to 21 candidates a boid)"),
    ("neighbours18", "Fixed neighbours (about 18 within R, 116 to 148 candidates a boid; wrap-around world)"),
    ("candidates200", "Dense fixed density (about 200 candidates a boid in the 27 cells, 31 within R; wrap-around)"),
    ("world", "Fixed world (the default 200 x 100 x 200 world; density grows with N: 1.2 candidates a boid at 1k, 84 at 64k)"),
])

# Compulsory bytes per step of each GPU stage: (bytes per boid, bytes per grid cell). Every buffer
# element a stage touches is counted once (reads and writes alike; a read-modify-write twice);
# reads that hit in cache after the first touch (the 27 neighbouring cells' positions and headings
# in `forces`, the cell's own ids in `scatter`, repeated atomics on one cell counter in `count`)
# are not counted, so this is a lower bound on the traffic: the floor.
#   vec4 = 16 B (positions, velocities, sortedPositions, sortedHeadings), uint = 4 B (cellOf,
#   rankInCell, unsortedIds, sortedIds, cellCounts, cellStarts).
STAGE_BYTES = OrderedDict([
    # positions r16, cellOf w4
    ("hash", (16 + 4, 0)),
    # cellOf r4, rankInCell w4; cellCounts cleared w4 and atomically incremented r4 w4 per cell
    ("count", (4 + 4, 4 + 8)),
    # exclusive scan of cells + 1 counts: block scan r4 w4, add-back r4 w4 (two levels)
    ("scan", (0, 16)),
    # ScatterIds: cellOf r4, rankInCell r4, unsortedIds w4; cellStarts r4 per cell
    # Reorder: cellOf r4, unsortedIds r4 (own cell, once), positions r16, velocities r16,
    #          sortedIds w4, sortedPositions w16, sortedHeadings w16; cellStarts r4 per cell
    ("scatter", (12 + 76, 8)),
    # Step: sortedIds r4, own sortedPositions r16, velocities[id] r16, own sortedHeadings r16,
    #       positions w16, velocities w16; cellStarts r4 per cell; neighbours from cache
    ("forces", (84, 4)),
    # Reduce: positions r16, velocities r16 (partials: a few bytes per block)
    ("reduce", (32, 0)),
])
# Without any cache reuse every candidate's sortedPositions and sortedHeadings are read: 32 B each.
CANDIDATE_BYTES = 32

# A case whose repetitions vary more than this (coefficient of variation of the time) is flagged.
MAX_CV = 0.05


# ---------------------------------------------------------------------------------------------
# Reading results

class Result:
    """One benchmark of one file: its parsed name and the chosen run (median or mean)."""

    def __init__(self, machine, workload, backend, threads, n, row, error=None):
        self.machine = machine
        self.workload = workload
        self.backend = backend  # cpu-naive, cpu, gpu, gpu:<stage>, gpu-copy
        self.threads = threads
        self.n = n
        self.row = row
        self.error = error

    @property
    def series(self):
        if self.backend in ("cpu", "cpu-naive"):
            suffix = "1 thread" if self.threads == 1 else "%d threads" % self.threads
            return "%s: %s, %s" % (self.machine.label, self.backend, suffix)
        return "%s: %s" % (self.machine.label, self.backend)

    def ms(self):
        return to_ms(self.row.get("real_time"), self.row.get("time_unit", "ns"))

    def counter(self, name, default=None):
        value = self.row.get(name)
        return default if value is None else float(value)


class Machine:
    def __init__(self, path, context):
        self.path = path
        self.context = context
        self.slug = context.get("device_slug") or slug(context.get("gl_renderer", "")) or "unknown"
        self.label = self.slug
        self.results = []
        self.other = []  # (name, ms) of benchmarks outside the naming scheme (render, A*, output)
        self.noisy = []  # (name, cv) of the cases whose cv aggregate exceeds MAX_CV
        # The step's stages in order, as murmur_bench names them (its context field flock_stages).
        self.stages = [s for s in context.get("flock_stages", "").split(",") if s]

    def copy_bandwidth(self):
        """Bytes per second of bandwidth/gpu-copy (the largest size measured), or None."""
        best = None
        for r in self.results:
            if r.backend == "gpu-copy" and r.error is None:
                rate = r.counter("bytes_per_second")
                if rate and (best is None or r.n > best[0]):
                    best = (r.n, rate)
        return best[1] if best else None


def to_ms(value, unit):
    if value is None:
        return None
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}.get(unit, 1e-6)
    return float(value) * scale


def slug(text):
    text = re.split(r" \(|/", text)[0]
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


NAME = re.compile(r"^(?P<workload>[A-Za-z0-9_-]+)/(?P<backend>[A-Za-z0-9_:.-]+)"
                  r"(?:/threads:(?P<threads>\d+))?/(?:n|mib):(?P<n>\d+)$")


def strip_suffixes(name):
    parts = [p for p in name.split("/") if p not in ("real_time", "manual_time")
             and not p.startswith("iterations:") and not p.startswith("repeats:")]
    return "/".join(parts)


def choose_rows(benchmarks):
    """run_name -> the row to use: the median aggregate, else the mean of the iteration rows."""
    by_run = OrderedDict()
    for b in benchmarks:
        by_run.setdefault(b.get("run_name", b["name"]), []).append(b)
    chosen = OrderedDict()
    for run, rows in by_run.items():
        errors = [r for r in rows if r.get("error_occurred")]
        medians = [r for r in rows if r.get("run_type") == "aggregate" and r.get("aggregate_name") == "median"]
        iterations = [r for r in rows if r.get("run_type", "iteration") == "iteration" and not r.get("error_occurred")]
        if medians:
            chosen[run] = (medians[0], None)
        elif iterations:
            mean = dict(iterations[0])
            for key, value in iterations[0].items():
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    values = [r.get(key) for r in iterations if isinstance(r.get(key), (int, float))]
                    mean[key] = sum(values) / len(values)
            chosen[run] = (mean, None)
        elif errors:
            chosen[run] = (errors[0], errors[0].get("error_message", "error"))
    return chosen


def load(paths):
    machines = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        machine = Machine(path, data.get("context", {}))
        for row in data.get("benchmarks", []):
            if row.get("aggregate_name") == "cv" and (row.get("real_time") or 0) > MAX_CV:
                machine.noisy.append((strip_suffixes(row.get("run_name", row["name"])), row["real_time"]))
        for run, (row, error) in choose_rows(data.get("benchmarks", [])).items():
            name = strip_suffixes(run)
            m = NAME.match(name)
            if not m or (m.group("workload") not in WORKLOADS and m.group("workload") != "bandwidth"):
                if error is None:
                    machine.other.append((name, to_ms(row.get("real_time"), row.get("time_unit", "ns")), row))
                continue
            threads = int(m.group("threads")) if m.group("threads") else 1
            machine.results.append(Result(machine, m.group("workload"), m.group("backend"), threads,
                                          int(m.group("n")), row, error))
        machines.append(machine)
    # Machines that share a slug (several runs of one device) are told apart by file name.
    counts = {}
    for m in machines:
        counts[m.slug] = counts.get(m.slug, 0) + 1
    for m in machines:
        if counts[m.slug] > 1:
            m.label = "%s/%s" % (m.slug, os.path.splitext(os.path.basename(m.path))[0])
    return machines


# ---------------------------------------------------------------------------------------------
# Formatting

def fmt_n(n):
    n = int(n)
    if n >= 1000000 and n % 100000 == 0:
        return "%gM" % (n / 1e6)
    if n >= 1000 and n % 100 == 0:
        return "%gk" % (n / 1e3)
    return str(n)


def fmt_ms(ms):
    if ms is None:
        return "-"
    if ms >= 100:
        return "%.0f" % ms
    if ms >= 10:
        return "%.1f" % ms
    if ms >= 1:
        return "%.2f" % ms
    return "%.3g" % ms


def fmt_rate(value, unit=""):
    if value is None:
        return "-"
    for div, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= div:
            return "%.3g %s%s" % (value / div, prefix, unit)
    return "%.3g %s" % (value, unit)


def fmt_ratio(x):
    if x is None:
        return "-"
    return ("%.0fx" % x) if x >= 100 else ("%.2gx" % x if x < 10 else "%.1fx" % x)


NUMERIC = re.compile(r"^[-+]?[0-9.,]+(e[-+]?[0-9]+)?( ?[a-zA-Z/%µ]*)?x?$|^-?$|^skipped$")


def md_table(header, rows):
    """Columns whose cells are all numbers (with a unit) are right-aligned, the others left."""
    align = []
    for i in range(len(header)):
        cells = [str(row[i]).strip() for row in rows if i < len(row)]
        numeric = cells and all(NUMERIC.match(c) for c in cells) and any(c not in ("", "-") for c in cells)
        align.append("---:" if numeric else "---")
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(str(c) for c in row) + " |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Charts (matplotlib; skipped with a note when it is missing)

BACKEND_STYLE = {"gpu": ("-", "o"), "cpu": ("--", "s"), "cpu-naive": (":", "^")}


def series_style(label, machines):
    """Colour per machine (ten distinct ones), line and marker per backend: one machine's lines read as
    a family, and one backend looks the same on every machine."""
    machine_labels = [m.label for m in machines]
    machine, backend = label.split(": ", 1)
    colour = "C%d" % (machine_labels.index(machine) % 10 if machine in machine_labels else 0)
    kind = backend.split(",")[0]
    line, marker = BACKEND_STYLE.get(kind, ("-.", "x"))
    if kind == "cpu" and backend.endswith(" 1 thread"):
        line = "-."
    return colour, line, marker


def write_chart(path, title, ylabel, series, machines):
    """series: OrderedDict label -> [(n, value)], drawn log-log; the legend sits outside the axes and
    the figure is cropped around everything drawn (bbox_inches="tight"), so it is never clipped."""
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, searchable files
    matplotlib.rcParams["svg.hashsalt"] = "murmur"  # the same input gives the same file
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(9, 5.5))
    for label, points in series.items():
        points = sorted((n, v) for n, v in points if v)
        if not points:
            continue
        colour, line, marker = series_style(label, machines)
        axes.plot([n for n, _ in points], [v for _, v in points], color=colour, linestyle=line, marker=marker,
                  markersize=4, label=label, gid="series:" + label)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("boids (N)")
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.grid(True, which="major", alpha=0.4)
    axes.grid(True, which="minor", alpha=0.15)
    axes.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small", frameon=False)
    figure.savefig(path, bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)


def have_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


# ---------------------------------------------------------------------------------------------
# Report

def step_results(machines, workload):
    """Full-step results of one workload: series label -> {n: Result}."""
    series = OrderedDict()
    order = {"gpu": 0, "cpu": 1, "cpu-naive": 2}
    rows = [r for m in machines for r in m.results if r.workload == workload and r.backend in order]
    rows.sort(key=lambda r: ([m.label for m in machines].index(r.machine.label), order[r.backend], -r.threads))
    for r in rows:
        series.setdefault(r.series, OrderedDict())[r.n] = r
    return series


def context_table(machines):
    keys = [("device", lambda c, m: m.label), ("GL renderer", lambda c, m: c.get("gl_renderer", "-")),
            # A software renderer's figures are a CPU's: the table says so, never passes them off as a card's.
            ("software renderer", lambda c, m: {"true": "yes (a CPU's figures)", "false": "no"}.get(c.get("gl_software"), "-")),
            ("driver", lambda c, m: c.get("gl_driver", "-")), ("CPU", lambda c, m: c.get("cpu_model", "-")),
            ("cores", lambda c, m: c.get("cpu_cores", c.get("num_cpus", "-"))),
            ("build", lambda c, m: c.get("murmur_build_type", "-")), ("commit", lambda c, m: c.get("murmur_commit", "-")),
            ("sweep", lambda c, m: c.get("murmur_sweep", "-")), ("date", lambda c, m: c.get("date", "-")),
            ("file", lambda c, m: os.path.basename(m.path))]
    rows = [[str(f(m.context, m)) for _, f in keys] for m in machines]
    return md_table([k for k, _ in keys], rows)


def ratio_table(machines):
    """GPU against the CPU grid and all pairs at the same N, one machine (one run) at a time."""
    rows = []
    for m in machines:
        for workload in WORKLOADS:
            by = {}
            for r in m.results:
                if r.workload == workload and r.error is None and r.backend in ("gpu", "cpu", "cpu-naive"):
                    by.setdefault(r.n, {})[(r.backend, r.threads)] = r.ms()
            threads = sorted({t for v in by.values() for (b, t) in v if b == "cpu"})
            most = threads[-1] if threads else None
            for n in sorted(by):
                v = by[n]
                gpu = v.get(("gpu", 1))
                cpu_all = v.get(("cpu", most)) if most else None
                cpu_one = v.get(("cpu", 1))
                naive = next((t for (b, _), t in v.items() if b == "cpu-naive"), None)
                if gpu is None or (cpu_all is None and naive is None):
                    continue
                rows.append([m.label, workload, fmt_n(n), fmt_ms(gpu), fmt_ms(cpu_all), fmt_ms(cpu_one), fmt_ms(naive),
                             fmt_ratio(cpu_all / gpu if cpu_all else None),
                             fmt_ratio(cpu_one / gpu if cpu_one else None),
                             fmt_ratio(naive / gpu if naive else None),
                             fmt_ratio(naive / cpu_all if naive and cpu_all else None)])
    header = ["device", "workload", "N", "gpu ms", "cpu grid (all threads) ms", "cpu grid 1 thread ms",
              "cpu-naive ms", "gpu speed-up over cpu grid (all threads)", "over cpu grid 1 thread",
              "over cpu-naive", "cpu grid (all threads) over cpu-naive"]
    return md_table(header, rows) if rows else "(no N with the GPU and a CPU backend measured)"


def all_stage_names(machines):
    names = []
    for m in machines:
        names += [s for s in m.stages if s not in names]
    return names


def stage_table(machines):
    names = all_stage_names(machines)
    rows = []
    for m in machines:
        for r in sorted((r for r in m.results if r.backend == "gpu" and r.error is None),
                        key=lambda r: (list(WORKLOADS).index(r.workload), r.n)):
            stages = [r.counter(s + "_ms") for s in names]
            if all(s is None for s in stages):
                continue
            total = sum(s for s in stages if s is not None)
            forces = r.counter("forces_ms")
            rows.append([m.label, r.workload, fmt_n(r.n)] + [fmt_ms(s) for s in stages] +
                        [fmt_ms(total), fmt_ms(r.ms()), fmt_ms(r.counter("wall_ms")),
                         "%.0f%%" % (100 * forces / total) if forces and total else "-"])
    header = ["device", "workload", "N"] + ["%s ms" % s for s in names] + ["sum of stages", "step (GPU)",
                                                                          "step (wall)", "forces share"]
    return md_table(header, rows) if rows else "(no GPU results)"


def stage_benchmark_table(machines):
    names = all_stage_names(machines)
    rows = []
    for m in machines:
        for r in sorted((r for r in m.results if r.backend.startswith("gpu:") and r.error is None),
                        key=lambda r: (list(WORKLOADS).index(r.workload), r.n, names.index(r.backend[4:])
                                       if r.backend[4:] in names else 99)):
            rows.append([m.label, r.workload, fmt_n(r.n), r.backend[4:], fmt_ms(r.ms()),
                         fmt_rate(r.counter("items_per_second"), "boids/s")])
    return md_table(["device", "workload", "N", "stage", "GPU ms per step", "boids/s through the stage"], rows) \
        if rows else "(no per-stage benchmarks)"


def floor_table(machines):
    rows = []
    for m in machines:
        bandwidth = m.copy_bandwidth()
        for r in sorted((r for r in m.results if r.backend == "gpu" and r.error is None),
                        key=lambda r: (list(WORKLOADS).index(r.workload), r.n)):
            n = r.n
            cells = r.counter("cells", 0.0)
            cand = r.counter("candidates_per_boid", 0.0)
            floor_bytes = sum(b * n + c * cells for b, c in STAGE_BYTES.values())
            uncached = floor_bytes + CANDIDATE_BYTES * cand * n
            ms = r.ms()
            achieved = floor_bytes / (ms * 1e-3) if ms else None
            floor_ms = floor_bytes / bandwidth * 1e3 if bandwidth else None
            forces = r.counter("forces_ms")
            rows.append([m.label, r.workload, fmt_n(n), "%.1f" % (floor_bytes / 1e6), "%.1f" % (uncached / 1e6),
                         fmt_ms(ms), fmt_ms(floor_ms),
                         fmt_ratio(ms / floor_ms) if floor_ms else "-",
                         fmt_rate(achieved, "B/s"), "%.0f" % cand, fmt_rate(cand * n, ""),
                         fmt_rate(cand * n / (forces * 1e-3) if forces else None, "/s")])
    header = ["device", "workload", "N", "floor MB/step", "no-reuse MB/step", "measured ms", "floor ms",
              "measured / floor", "floor bytes / measured time", "candidates/boid", "candidates/step",
              "candidates/s (forces)"]
    return md_table(header, rows) if rows else "(no GPU results)"


def bandwidth_lines(machines):
    lines = []
    for m in machines:
        bw = m.copy_bandwidth()
        lines.append("- %s: %s" % (m.label, fmt_rate(bw, "B/s") + " (bandwidth/gpu-copy)" if bw else
                                   "not measured (no bandwidth/gpu-copy result): floor columns left empty"))
    return "\n".join(lines)


def step_tables(machines, workload):
    series = step_results(machines, workload)
    if not series:
        return None
    ns = sorted({n for s in series.values() for n in s})
    header = ["N"] + list(series.keys())
    rows = []
    for n in ns:
        row = [fmt_n(n)]
        for s in series.values():
            r = s.get(n)
            if r is None:
                row.append("")
            elif r.error:
                row.append("skipped")
            else:
                row.append(fmt_ms(r.ms()))
        rows.append(row)
    time_table = md_table(header, rows)
    rows = []
    for n in ns:
        row = [fmt_n(n)]
        for s in series.values():
            r = s.get(n)
            row.append("" if r is None or r.error else fmt_rate(r.counter("items_per_second")))
        rows.append(row)
    rate_table = md_table(header, rows)
    return series, time_table, rate_table


def noisy_list(machines):
    return "\n".join("- %s: `%s`: CV %.0f%%" % (m.label, name, cv * 100) for m in machines for name, cv in m.noisy)


def errors_list(machines):
    lines = []
    for m in machines:
        for r in m.results:
            if r.error:
                lines.append("- %s: `%s/%s/n:%d`: %s" % (m.label, r.workload, r.backend, r.n, r.error))
    return "\n".join(lines)


def other_table(machines):
    rows = []
    for m in machines:
        for name, ms, row in m.other:
            rows.append([m.label, "`%s`" % name, fmt_ms(ms), fmt_rate(row.get("items_per_second"), "/s")])
    return md_table(["device", "benchmark", "ms", "items/s"], rows) if rows else None


def write_report(machines, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    md = ["# Murmur benchmark report", ""]
    md.append("Generated by `bench/report.py` from %d result file(s). Times are per simulation step, the median of "
              "the repetitions where there were several. GPU times come from GL timestamp queries (GPU time "
              "only); CPU times are wall-clock. See bench/README.md for the method." % len(machines))
    md += ["", "## Machines", "", context_table(machines), ""]
    charts = []
    draw = have_matplotlib()
    if not draw:
        print("report.py: charts skipped: no matplotlib for %s (apt install python3-matplotlib); the tables are "
              "complete" % sys.executable, file=sys.stderr)
    for workload, description in WORKLOADS.items():
        tables = step_tables(machines, workload)
        if tables is None:
            continue
        series, time_table, rate_table = tables
        md += ["## %s" % workload, "", description + ".", ""]
        if draw:
            times = OrderedDict((label, [(n, r.ms()) for n, r in s.items() if r.error is None])
                                for label, s in series.items())
            rates = OrderedDict((label, [(n, r.counter("items_per_second")) for n, r in s.items() if r.error is None])
                                for label, s in series.items())
            for name, title, ylabel, points in (
                    ("time_per_step_%s.svg" % workload, "Time per step: %s" % workload, "ms per step", times),
                    ("throughput_%s.svg" % workload, "Throughput: %s" % workload, "boid updates per second", rates)):
                write_chart(os.path.join(out_dir, name), title, ylabel, points, machines)
                charts.append(name)
            md += ["![time per step, %s](time_per_step_%s.svg)" % (workload, workload), "",
                   "![throughput, %s](throughput_%s.svg)" % (workload, workload), ""]
        md += ["Time per step (ms):", "", time_table, "", "Boid updates per second:", "", rate_table, ""]
    md += ["## GPU against the CPU at the same N", "",
           "Each row compares backends of one run on one machine (same file). `cpu` is the uniform-grid CPU "
           "reference, `cpu-naive` all pairs. The speed-up of A over B is B's time / A's time: "
           "above 1, A is faster; below 1, A is slower.", "",
           ratio_table(machines), ""]
    md += ["## GPU stages", "", "Mean GPU time of each stage inside the full-step benchmark (timer queries), "
           "its sum, the step's own GPU time (timestamps around the whole step) and its wall-clock time.", "",
           stage_table(machines), "", "Per-stage benchmarks (`<workload>/gpu:<stage>`: manual time = that stage):",
           "", stage_benchmark_table(machines), ""]
    md += ["## Memory-bandwidth floor", "",
           "Bytes a step must move at least (every std430 element a stage touches counted once; neighbour reads "
           "assumed to hit in cache) against the measured time, and the time those bytes take at the copy "
           "bandwidth the same run measured:", "", bandwidth_lines(machines), "", floor_table(machines), "",
           "Assumptions:", "",
           "- Per boid per step: " + ", ".join("%s %d B" % (s, b) for s, (b, _) in STAGE_BYTES.items()) +
           " (%d B in all); per grid cell: " % sum(b for b, _ in STAGE_BYTES.values()) +
           ", ".join("%s %d B" % (s, c) for s, (_, c) in STAGE_BYTES.items() if c) +
           " (%d B in all)." % sum(c for _, c in STAGE_BYTES.values()),
           "- Buffers (src/gpu/flock_layout.hpp): positions, velocities, sortedPositions, sortedHeadings are vec4 "
           "(16 B); cellOf, rankInCell, unsortedIds, sortedIds, cellCounts, cellStarts are uint (4 B).",
           "- `no-reuse` adds %d B per candidate (its sortedPositions and sortedHeadings read from memory each time): "
           "the traffic with no cache at all." % CANDIDATE_BYTES,
           "- The floor bandwidth is `bandwidth/gpu-copy` (a compute shader copying vec4s, read + write counted), "
           "not the datasheet peak; on llvmpipe it is host memory as two CPU cores reach it.",
           "- `measured / floor` near 1 means the step is bandwidth bound; far above 1 means compute, latency, "
           "atomics or launch overhead dominate (small N, or the forces loop over the candidates).", ""]
    noisy = noisy_list(machines)
    if noisy:
        md += ["## Noisy cases", "", "Cases whose repetitions varied by more than %d%% (coefficient of variation of "
               "the time; `murmur bench` ran each once more and kept the steadier run): read them with care." %
               (MAX_CV * 100), "", noisy, ""]
    errors = errors_list(machines)
    if errors:
        md += ["## Skipped", "", "Benchmarks that reported an error (sizes beyond the device, no GL context):", "",
               errors, ""]
    other = other_table(machines)
    if other:
        md += ["## Other benchmarks", "", "Results outside the step suites (rendering, A*, output files), as measured:", "", other, ""]
    with open(os.path.join(out_dir, "README.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md))
    return charts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", help="murmur_bench JSON files (bench/results/<device>/<date>.json)")
    parser.add_argument("--out", default="bench/report", help="output directory (default bench/report)")
    args = parser.parse_args(argv)
    try:
        machines = load(args.results)
    except (OSError, ValueError) as e:
        print("report.py: %s" % e, file=sys.stderr)
        return 2
    charts = write_report(machines, args.out)
    print("wrote %s" % ", ".join(os.path.join(args.out, f) for f in ["README.md"] + charts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
