#!/usr/bin/python3
"""Murmur benchmark report: Markdown tables and SVG and PNG charts from murmur_bench JSON results.

    /usr/bin/python3 bench/report.py bench/results/*/*.json --out bench/report

Reads any number of result files (Google Benchmark JSON written by `murmur bench`) and writes
OUT/README.md (the headline score of every machine, warnings, the tables), OUT/headline.svg (the
scores side by side) and, per workload, OUT/time_per_step_<workload>.svg and
OUT/throughput_<workload>.svg (log-log against N, one line per machine and backend: a colour per
series, a line style per backend, a marker per machine, the legend beside the plot), each chart
also as a PNG beside it (to paste where SVG is not shown). The charts need matplotlib (Debian:
python3-matplotlib); without it the tables are written all the same and a one-line note on stderr
says the charts were skipped.

The headline score of a machine (bench/README.md) is the geometric mean of the boid updates per
second of the cases murmur_bench names in the result's context (headline_gpu, headline_cpu).

A result's benchmarks are named <workload>/<backend>[/threads:T]/n:<N> (bench/bench_common.hpp).
murmur_bench names everything else this report singles out in the result's context, so that no
name is kept here: the workloads in order with a description of each (workloads, workload_<name>),
the memory-bandwidth case (bandwidth_cases) and the two A* families (astar_cases,
astar_textbook_cases). A result written before murmur_bench named one of them shows "-" there.
Where a benchmark was repeated, its median is used (the aggregate rows of
--benchmark_repetitions); otherwise the mean of its runs.

The byte model of a step comes from the result too: murmur_bench writes the pipeline's
(gpu::FlockPipeline::trafficModel, context field flock_traffic: per program, each storage buffer
it binds, as the driver reports the program's blocks, with its element size and how often a boid,
a cell or a candidate touches it, and whether at a scattered index) and the stages of a steady step
(flock_steady_stages). From it the report prints, per stage, two figures: every element moved
once (the floor) and every scattered access costing a 32-byte sector (what a GPU moves); compares
the measured time with the floor moved at the bandwidth the same run measured (the context's
bandwidth_cases: a compute shader copying a large buffer); and lists, as a model, never a
measurement, the least time the sector figure would take on named cards at their published
memory bandwidth.
"""

import argparse
import json
import math
import os
import re
import sys
from collections import OrderedDict


# A GPU moves memory in 32-byte sectors: an access at a scattered index costs a whole one.
SECTOR_BYTES = 32

# Published memory bandwidth of named cards (GB/s, the makers' data sheets), for the byte model's
# lower bounds: a model of what the bytes alone would take, never a measurement.
NAMED_CARDS = [
    ("NVIDIA H200 (SXM)", 4800),
    ("NVIDIA H100 SXM5", 3350),
    ("NVIDIA H100 PCIe", 2000),
    ("NVIDIA A100 80GB SXM", 2039),
    ("NVIDIA GeForce RTX 4090", 1008),
    ("AMD Radeon RX 7900 XTX", 960),
    ("AMD Radeon RX 6800 XT (navi21)", 512),
]


class Traffic:
    """A result's byte model (its context's flock_traffic and flock_steady_stages): per stage, the
    bytes per boid, per cell and per candidate, both as elements (the floor) and as sectors."""

    def __init__(self, context):
        self.lines = []
        for line in [l for l in context.get("flock_traffic", "").split(";") if l]:
            stage, program, buffer, element, unit, accesses, scattered = line.split(" ")
            self.lines.append({"stage": stage, "program": program, "buffer": buffer, "element": int(element),
                               "unit": unit, "accesses": int(accesses), "scattered": scattered == "1"})
        self.steady = [st for st in context.get("flock_steady_stages", "").split(",") if st]

    def __bool__(self):
        return bool(self.lines) and bool(self.steady)

    def stages(self):
        return list(OrderedDict((l["stage"], None) for l in self.lines))

    def bytes(self, stage, unit, sectors):
        """Bytes per `unit` of `stage`: each element once, or each scattered access a sector."""
        total = 0
        for l in self.lines:
            if l["stage"] == stage and l["unit"] == unit:
                element = max(l["element"], SECTOR_BYTES) if sectors and l["scattered"] else l["element"]
                total += element * l["accesses"]
        return total

    def step(self, n, cells, candidates, sectors):
        """Bytes of one steady step of n boids on `cells` cells (candidates: per boid, for no-reuse)."""
        total = sum(self.bytes(st, "boid", sectors) * n + self.bytes(st, "cell", sectors) * cells
                    for st in self.steady)
        if candidates is not None:
            total += sum(self.bytes(st, "candidate", sectors) for st in self.steady) * candidates * n
        return total


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
        self.rates = {}  # name (without Google Benchmark's suffixes) -> items_per_second, every case
        # The step's stages in order, as murmur_bench names them (its context field flock_stages).
        self.stages = [s for s in context.get("flock_stages", "").split(",") if s]
        # The workloads this result ran (workload_<name>: a description of each).
        self.workloads = [k[len("workload_"):] for k in context if k.startswith("workload_")]
        # The copy benchmark that measures the memory bandwidth (<workload>/<backend>/mib:M).
        self.bandwidth_cases = context.get("bandwidth_cases", "")

    def headline(self, backend):
        """The headline score of `backend` ("gpu", "cpu"): the geometric mean of items_per_second over
        the cases the context's headline_<backend> names; None when the result predates the headline
        or lacks one of its cases (a filter left it out, or it failed)."""
        names = [n for n in self.context.get("headline_" + backend, "").split(",") if n]
        rates = [self.rates.get(n) for n in names]
        if not names or any(not r for r in rates):
            return None
        return math.exp(sum(math.log(r) for r in rates) / len(rates))

    def astar_speedup(self):
        """Textbook A* time over Murmur's, summed over the maps both ran on; None without both."""
        def family(key):
            prefix = self.context.get(key, "")
            return {n[len(prefix) + 1:]: ms for n, ms, _ in self.other
                    if prefix and n.startswith(prefix + "/") and ms}
        ours, textbook = family("astar_cases"), family("astar_textbook_cases")
        maps = sorted(set(ours) & set(textbook))
        if not maps:
            return None, maps
        return sum(textbook[m] for m in maps) / sum(ours[m] for m in maps), maps

    def warnings(self):
        """What makes this result's figures less than the machine's, one sentence each."""
        c = self.context
        out = []
        load = c.get("load_avg") or []
        cores = c.get("num_cpus") or c.get("cpu_cores")
        if load and cores and float(load[0]) > float(cores):
            out.append("the load average was %.1f on %s cores when the run began: other work shared the machine, "
                       "so its figures are below what it can do; run it again on an idle machine" %
                       (float(load[0]), cores))
        if c.get("murmur_build_type", "release").lower() != "release":
            out.append("Murmur was a %s build (murmur_build_type): its times are not a release build's" %
                       c.get("murmur_build_type"))
        if c.get("library_build_type") == "debug":
            out.append("Google Benchmark is a debug build (library_build_type; Debian's libbenchmark is one): its "
                       "bookkeeping around each timed step is slower, which matters for steps of microseconds; "
                       "the code measured is Murmur's (murmur_build_type %s)" % c.get("murmur_build_type", "-"))
        if c.get("gl_software") == "true":
            out.append("the GL device is a software renderer (%s): its gpu rows are the CPU's figures, not a "
                       "graphics card's" % c.get("gl_renderer", "-"))
        if self.noisy:
            out.append("%d case%s varied by more than %d%% between repetitions (see Noisy cases)" %
                       (len(self.noisy), "" if len(self.noisy) == 1 else "s", MAX_CV * 100))
        return out

    def copy_bandwidth(self):
        """Bytes per second of the bandwidth case (the largest size measured), or None."""
        best = None
        for r in self.results:
            if "%s/%s" % (r.workload, r.backend) == self.bandwidth_cases and r.error is None:
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


def workloads(machines):
    """Every workload of these results with its description, in murmur_bench's order (the newest
    result that records one first), then any others by name."""
    order, described = [], {}
    for m in sorted(machines, key=lambda m: m.context.get("date", ""), reverse=True):
        for w in [w for w in m.context.get("workloads", "").split(",") if w] + sorted(m.workloads):
            if w not in order:
                order.append(w)
            described.setdefault(w, m.context.get("workload_" + w))
    return OrderedDict((w, described[w]) for w in order)


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
            if error is None and row.get("items_per_second"):
                machine.rates[name] = float(row["items_per_second"])
            m = NAME.match(name)
            if not m or (m.group("workload") not in machine.workloads and
                         "%s/%s" % (m.group("workload"), m.group("backend")) != machine.bandwidth_cases):
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


def fmt_speedup(x):
    """A's time over B's... as words: "3.2x faster", "2.0x slower" (1/x), "as fast"."""
    if x is None:
        return "-"
    if 0.995 <= x < 1.005:
        return "as fast"
    factor = x if x > 1 else 1 / x
    return ("%.0fx" if factor >= 100 else "%.1fx") % factor + (" faster" if x > 1 else " slower")


def fmt_score(value):
    """A headline score: millions of boid updates per second, three significant figures and never an
    exponent (1.69M, 85.3M, 1,380M)."""
    if value is None:
        return "-"
    millions = float("%.3g" % (value / 1e6))
    return "{:,.0f}M".format(millions) if millions >= 1000 else "%gM" % millions


def short_number(value):
    """An axis label: 2M, 500k, 1.5G, 20."""
    for div, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= div:
            return "%g%s" % (float("%.3g" % (value / div)), prefix)
    return "%g" % float("%.3g" % value)


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

BACKEND_LINE = {"gpu": "-", "cpu": "--", "cpu-naive": ":"}
MACHINE_MARKERS = "os^DvPX*<>"


def palette(count):
    """`count` colours told apart at a glance: matplotlib's tab10, tab20 beyond ten, evenly spaced hues
    of turbo beyond twenty."""
    from matplotlib import colormaps
    if count <= 10:
        return [colormaps["tab10"](i) for i in range(count)]
    if count <= 20:
        return [colormaps["tab20"](i) for i in range(count)]
    return [colormaps["turbo"](0.05 + 0.9 * i / (count - 1)) for i in range(count)]


def series_styles(labels, machines):
    """(colour, line, marker) per series label "<machine>: <backend>[, T threads]". Up to twenty
    series every one has its own colour; beyond that (ten machines of four backends) neighbouring
    hues would blur, so each machine has one and its series read as a family. The line style says
    the backend (the one-thread CPU grid dash-dotted) and the marker the machine."""
    machine_labels = [m.label for m in machines]
    machine_of = [label.split(": ", 1)[0] for label in labels]
    index_of = [machine_labels.index(m) if m in machine_labels else 0 for m in machine_of]
    by_series = len(labels) <= 20
    colours = palette(len(labels) if by_series else len(machine_labels))
    styles = []
    for i, label in enumerate(labels):
        backend = label.split(": ", 1)[1]
        kind = backend.split(",")[0]
        line = "-." if kind == "cpu" and backend.endswith(" 1 thread") else BACKEND_LINE.get(kind, "-.")
        marker = MACHINE_MARKERS[index_of[i] % len(MACHINE_MARKERS)]
        styles.append((colours[i if by_series else index_of[i]], line, marker))
    return styles


def log_ticks(axes, which, values):
    """Labelled ticks on a log axis however few decades the values span. Candidates in order of rank
    (powers of ten, then 2 and 5, 3, the other digits, halves; fewer ranks the more decades there
    are) are kept when no kept tick is closer than a tenth of the span (at most a quarter decade):
    1-2-5 steps over a few decades, 100k 200k 300k 500k 700k 1M over one, no two labels crowded.
    The limits widen to the ticks around the values; labels read 2M, 500k."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter
    lo, hi = min(values), max(values)
    decades = math.log10(hi / lo)
    ranks = [(1.0,), (2.0, 5.0), (3.0,), (4.0, 6.0, 7.0, 8.0, 9.0), tuple(k + 0.5 for k in range(1, 10))]
    ranks = ranks[:1 if decades > 6 else 2 if decades > 2 else 4 if decades > 0.7 else 5]
    exponents = range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1)
    every = sorted(m * 10.0 ** e for rank in ranks for m in rank for e in exponents)
    below = max([t for t in every if t <= lo * (1 + 1e-9)] or [lo])
    above = min([t for t in every if t >= hi * (1 - 1e-9)] or [hi])
    gap = min(math.log10(above / below) / 10, 0.25)
    kept = []
    for rank in ranks:
        for tick in sorted(m * 10.0 ** e for m in rank for e in exponents):
            if below <= tick <= above and all(abs(math.log10(tick / k)) >= gap * (1 - 1e-9) for k in kept):
                kept.append(tick)
    (axes.set_xlim if which == "x" else axes.set_ylim)(below / 1.15, above * 1.15)
    axis = axes.xaxis if which == "x" else axes.yaxis
    axis.set_major_locator(FixedLocator(sorted(kept)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: short_number(v)))
    axis.set_minor_formatter(NullFormatter())


def write_atomically(path, write):
    """Calls write(temporary) for a temporary beside `path`, renamed onto it once complete (as
    `murmur`'s outputs are, core::TemporaryOutput): an interrupted report leaves no half-written file."""
    temporary = "%s.tmp-%d" % (path, os.getpid())
    try:
        write(temporary)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


def save_chart(figure, path):
    """The SVG at `path` and a PNG beside it (150 dpi), neither with a date or version in it, so
    that the same input gives the same files."""
    write_atomically(path, lambda t: figure.savefig(t, format="svg", bbox_inches="tight", metadata={"Date": None}))
    write_atomically(os.path.splitext(path)[0] + ".png",
                     lambda t: figure.savefig(t, format="png", bbox_inches="tight", dpi=150,
                                              metadata={"Software": None}))


def write_chart(path, title, ylabel, series, machines):
    """series: OrderedDict label -> [(n, value)], drawn log-log; the legend sits outside the axes and
    the figure is cropped around everything drawn (bbox_inches="tight"), so it is never clipped."""
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, searchable files
    matplotlib.rcParams["svg.hashsalt"] = "murmur"  # the same input gives the same file
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(9, 5.5))
    drawn = OrderedDict((label, sorted((n, v) for n, v in points if v)) for label, points in series.items())
    drawn = OrderedDict((label, points) for label, points in drawn.items() if points)
    styles = series_styles(list(drawn), machines)
    for (label, points), (colour, line, marker) in zip(drawn.items(), styles):
        axes.plot([n for n, _ in points], [v for _, v in points], color=colour, linestyle=line, marker=marker,
                  markersize=5, linewidth=1.6, label=label, gid="series:" + label)
    axes.set_xscale("log")
    axes.set_yscale("log")
    if drawn:
        log_ticks(axes, "x", [n for points in drawn.values() for n, _ in points])
        log_ticks(axes, "y", [v for points in drawn.values() for _, v in points])
    axes.set_xlabel("boids (N)")
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.grid(True, which="major", alpha=0.4)
    axes.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small", frameon=False)
    save_chart(figure, path)
    plt.close(figure)


def write_headline_chart(path, machines):
    """One bar per machine with a GPU headline score, best on top; a software renderer's bar is grey
    and hatched (a CPU's figure). Returns False when no machine has a score."""
    scored = sorted(((m, m.headline("gpu")) for m in machines if m.headline("gpu")), key=lambda p: p[1])
    if not scored:
        return False
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"
    matplotlib.rcParams["svg.hashsalt"] = "murmur"
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 1.2 + 0.45 * len(scored)))
    colours = palette(len(scored))
    for row, (m, score) in enumerate(scored):
        software = m.context.get("gl_software") == "true"
        axes.barh(row, score / 1e6, height=0.6, color="0.7" if software else colours[row], hatch="//" if software else None,
                  gid="headline:" + m.label)
        axes.text(score / 1e6, row, "  %s%s" % (fmt_score(score), " (software renderer)" if software else ""),
                  va="center", fontsize="small")
    axes.set_yticks(range(len(scored)), [m.label for m, _ in scored])
    axes.set_xlabel("headline score: million boid updates per second (gpu)")
    axes.set_title("Murmur headline score")
    axes.set_xlim(0, max(s for _, s in scored) / 1e6 * 1.35)
    axes.grid(True, axis="x", alpha=0.4)
    axes.set_axisbelow(True)
    save_chart(figure, path)
    plt.close(figure)
    return True


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


def gl_renderer(c):
    if "gl_renderer" in c:
        return c["gl_renderer"]
    return "none (no GL case in this run)" if c.get("gl_context", "").startswith("not opened") else "-"


def gpu_memory(c):
    """What the driver said of the device's memory when the run began (gpu::ContextInfo)."""
    if "gl_memory_source" not in c:
        return "-"
    source = c["gl_memory_source"]
    total, free = int(c.get("gl_memory_total_mib", "0")), int(c.get("gl_memory_free_mib", "0"))
    if total:
        return "%s MiB (%s)" % (format(total, ","), source)
    if free:
        return "%s MiB free (%s)" % (format(free, ","), source)
    return "unknown"


def gpu_clocks(c):
    if c.get("gl_software") == "true":
        return "n/a (software renderer)"
    if "gl_clocks" not in c:
        return "-"
    return c["gl_clocks"] or "unknown"


def cpu_cell(c):
    cores = c.get("cpu_cores", c.get("num_cpus", "?"))
    mhz = " at %s MHz" % c["mhz_per_cpu"] if c.get("mhz_per_cpu") else ""
    return "%s (%s threads%s)" % (c.get("cpu_model", "-"), cores, mhz)


def context_table(machines):
    keys = [("device", lambda c, m: m.label), ("GL renderer", lambda c, m: gl_renderer(c)),
            # A software renderer's figures are a CPU's: the table says so, never passes them off as a card's.
            ("software renderer", lambda c, m: {"true": "yes (a CPU's figures)", "false": "no"}.get(c.get("gl_software"), "-")),
            ("driver", lambda c, m: c.get("gl_driver", "-")), ("GPU memory", lambda c, m: gpu_memory(c)),
            ("GPU clocks", lambda c, m: gpu_clocks(c)), ("CPU", lambda c, m: cpu_cell(c)),
            ("OS", lambda c, m: c.get("os", "-")), ("kernel", lambda c, m: c.get("kernel", "-")),
            ("build", lambda c, m: c.get("murmur_build_type", "-")), ("commit", lambda c, m: c.get("murmur_commit", "-")),
            ("sweep", lambda c, m: c.get("murmur_sweep", "-")), ("date", lambda c, m: c.get("date", "-")),
            ("file", lambda c, m: os.path.basename(m.path))]
    rows = [[str(f(m.context, m)) for _, f in keys] for m in machines]
    return md_table([k for k, _ in keys], rows)


def ratio_table(machines):
    """GPU against the CPU grid and all pairs at the same N, one machine (one run) at a time."""
    rows = []
    for m in machines:
        for workload in workloads(machines):
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
                             fmt_speedup(cpu_all / gpu if cpu_all else None),
                             fmt_speedup(cpu_one / gpu if cpu_one else None),
                             fmt_speedup(naive / gpu if naive else None),
                             fmt_speedup(naive / cpu_all if naive and cpu_all else None)])
    header = ["device", "workload", "N", "gpu ms", "cpu grid (all threads) ms", "cpu grid 1 thread ms",
              "cpu-naive ms", "gpu against cpu grid (all threads)", "gpu against cpu grid 1 thread",
              "gpu against cpu-naive", "cpu grid (all threads) against cpu-naive"]
    return md_table(header, rows) if rows else "(no N with the GPU and a CPU backend measured)"


def all_stage_names(machines):
    names = []
    for m in machines:
        names += [s for s in m.stages if s not in names]
    return names


def stage_table(machines):
    names = all_stage_names(machines)
    order = list(workloads(machines))
    rows = []
    for m in machines:
        for r in sorted((r for r in m.results if r.backend == "gpu" and r.error is None),
                        key=lambda r: (order.index(r.workload), r.n)):
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
    order = list(workloads(machines))
    rows = []
    for m in machines:
        for r in sorted((r for r in m.results if r.backend.startswith("gpu:") and r.error is None),
                        key=lambda r: (order.index(r.workload), r.n, names.index(r.backend[4:])
                                       if r.backend[4:] in names else 99)):
            rows.append([m.label, r.workload, fmt_n(r.n), r.backend[4:], fmt_ms(r.ms()),
                         fmt_rate(r.counter("items_per_second"), "boids/s")])
    return md_table(["device", "workload", "N", "stage", "GPU ms per step", "boids/s through the stage"], rows) \
        if rows else "(no per-stage benchmarks)"


def floor_table(machines):
    order = list(workloads(machines))
    rows = []
    for m in machines:
        traffic = Traffic(m.context)
        if not traffic:
            continue
        bandwidth = m.copy_bandwidth()
        for r in sorted((r for r in m.results if r.backend == "gpu" and r.error is None),
                        key=lambda r: (order.index(r.workload), r.n)):
            n = r.n
            cells = r.counter("cells", 0.0)
            cand = r.counter("candidates_per_boid", 0.0)
            floor_bytes = traffic.step(n, cells, None, False)
            sector_bytes = traffic.step(n, cells, None, True)
            uncached = traffic.step(n, cells, cand, False)
            ms = r.ms()
            achieved = floor_bytes / (ms * 1e-3) if ms else None
            floor_ms = floor_bytes / bandwidth * 1e3 if bandwidth else None
            forces = r.counter("forces_ms")
            rows.append([m.label, r.workload, fmt_n(n), "%.0f" % (floor_bytes / n), "%.0f" % (sector_bytes / n),
                         "%.1f" % (floor_bytes / 1e6), "%.1f" % (uncached / 1e6),
                         fmt_ms(ms), fmt_ms(floor_ms),
                         fmt_ratio(ms / floor_ms) if floor_ms else "-",
                         fmt_rate(achieved, "B/s"), "%.0f" % cand, fmt_rate(cand * n, ""),
                         fmt_rate(cand * n / (forces * 1e-3) if forces else None, "/s")])
    header = ["device", "workload", "N", "floor B/boid", "sector B/boid", "floor MB/step", "no-reuse MB/step",
              "measured ms", "floor ms", "measured / floor", "floor bytes / measured time", "candidates/boid",
              "candidates/step", "candidates/s (forces)"]
    return md_table(header, rows) if rows else "(no GPU results with a byte model: written before murmur_bench described it)"


def newest_traffic(machines):
    """The byte model of the newest result that has one (the code's), and that result."""
    for m in sorted(machines, key=lambda m: m.context.get("date", ""), reverse=True):
        if Traffic(m.context):
            return Traffic(m.context), m
    return None, None


def traffic_table(traffic):
    rows = []
    for stage in traffic.stages():
        programs = list(OrderedDict((l["program"], None) for l in traffic.lines if l["stage"] == stage))
        rows.append([stage, ", ".join(programs), "yes" if stage in traffic.steady else "no",
                     "%d" % traffic.bytes(stage, "boid", False), "%d" % traffic.bytes(stage, "boid", True),
                     "%d" % traffic.bytes(stage, "cell", False), "%d" % traffic.bytes(stage, "cell", True),
                     "%d" % traffic.bytes(stage, "candidate", False)])
    steady = traffic.steady
    rows.append(["a steady step", "", "",
                 "%d" % sum(traffic.bytes(st, "boid", False) for st in steady),
                 "%d" % sum(traffic.bytes(st, "boid", True) for st in steady),
                 "%d" % sum(traffic.bytes(st, "cell", False) for st in steady),
                 "%d" % sum(traffic.bytes(st, "cell", True) for st in steady),
                 "%d" % sum(traffic.bytes(st, "candidate", False) for st in steady)])
    return md_table(["stage", "programs", "in a steady step", "B/boid (elements)", "B/boid (sectors)",
                     "B/cell (elements)", "B/cell (sectors)", "B/candidate, no cache"], rows)


def card_table(machine, traffic):
    """Lower bounds of a steady step on named cards from their published bandwidth (a model): the
    sector bytes of the largest density case of the result the byte model comes from, scaled to 1M
    and 10M boids at the same cells per boid (the workload keeps its density)."""
    cases = sorted((r for r in machine.results
                    if r.backend == "gpu" and r.error is None and r.workload == "density" and r.counter("cells")),
                   key=lambda r: r.n)
    if not cases:
        return None
    m, r = machine, cases[-1]
    per_boid = traffic.step(r.n, r.counter("cells"), None, True) / r.n
    rows = [[name, "%d" % gbs] + [fmt_ms(per_boid * n / (gbs * 1e9) * 1e3) for n in (10 ** 6, 10 ** 7)]
            for name, gbs in NAMED_CARDS]
    note = ("%.0f B a boid in sectors (density at %s boids on %s: %.0f cells, %.2f cells a boid)" %
            (per_boid, fmt_n(r.n), m.label, r.counter("cells"), r.counter("cells") / r.n))
    return note, md_table(["card", "published GB/s", "1M boids (ms, model)", "10M boids (ms, model)"], rows)


def bandwidth_lines(machines):
    lines = []
    for m in machines:
        bw = m.copy_bandwidth()
        lines.append("- %s: %s" % (m.label, fmt_rate(bw, "B/s") + " (%s)" % m.bandwidth_cases if bw else
                                   "not measured (no bandwidth case in this result): floor columns left empty"))
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


def headline_table(machines):
    """Every machine's headline score, best GPU score first (machines without one last)."""
    ranked = sorted(machines, key=lambda m: -(m.headline("gpu") or 0))
    rows = []
    for m in ranked:
        speedup, maps = m.astar_speedup()
        rows.append([m.label, gl_renderer(m.context), fmt_score(m.headline("gpu")), fmt_score(m.headline("cpu")),
                     cpu_cell(m.context),
                     "Murmur's is %.1fx faster (%d maps)" % (speedup, len(maps)) if speedup else "-",
                     "yes" if m.warnings() else "no", m.context.get("date", "-")[:10]])
    return md_table(["device", "GL renderer", "gpu score", "cpu score", "CPU", "A* against the textbook one",
                     "warnings", "date"], rows)


def headline_notes(machines):
    """Why a machine has no score, one line each."""
    lines = []
    for m in machines:
        for backend in ("gpu", "cpu"):
            if m.headline(backend) is not None:
                continue
            names = [n for n in m.context.get("headline_" + backend, "").split(",") if n]
            if not names:
                why = "the result predates the headline score (no headline_%s in its context)" % backend
            else:
                why = "not in the result (a filter left it out, or it failed): %s" % ", ".join(
                    "`%s`" % n for n in names if not m.rates.get(n))
            lines.append("- %s, %s score: %s" % (m.label, backend, why))
    return "\n".join(lines)


def warnings_list(machines):
    return "\n".join("- %s: %s." % (m.label, w) for m in machines for w in m.warnings())


def write_report(machines, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    md = ["# Murmur benchmark report", ""]
    md.append("Generated by `bench/report.py` from %d result file(s). Times are per simulation step, the median of "
              "the repetitions where there were several. GPU times come from GL timestamp queries (GPU time "
              "only); CPU times are wall-clock. See bench/README.md for the method." % len(machines))
    charts = []
    draw = have_matplotlib()
    if not draw:
        print("report.py: charts skipped: no matplotlib for %s (apt install python3-matplotlib); the tables are "
              "complete" % sys.executable, file=sys.stderr)
    md += ["", "## Headline score", "",
           "Millions of boid updates per second, the geometric mean over the headline cases that each result "
           "names (bench/README.md, \"Headline score\"): `gpu` the gpu backend, `cpu` the CPU grid on all "
           "threads, both at 1M boids on the `density` and `candidates200` workloads. Higher is better. A "
           "software renderer's gpu score is its CPU's.", "", headline_table(machines), ""]
    notes = headline_notes(machines)
    if notes:
        md += [notes, ""]
    if draw and write_headline_chart(os.path.join(out_dir, "headline.svg"), machines):
        charts += ["headline.svg", "headline.png"]
        md += ["![headline score of every machine](headline.svg)", "", "PNG: [headline.png](headline.png)", ""]
    warnings = warnings_list(machines)
    if warnings:
        md += ["## Warnings", "", "Read these results with care:", "", warnings, ""]
    md += ["## Machines", "", context_table(machines), "",
           "`-`: not recorded in that result (written by an older murmur_bench); `unknown`: the driver did not say.",
           ""]
    for workload, description in workloads(machines).items():
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
                charts += [name, name.replace(".svg", ".png")]
            md += ["![time per step, %s](time_per_step_%s.svg)" % (workload, workload), "",
                   "![throughput, %s](throughput_%s.svg)" % (workload, workload), "",
                   "PNG: [time per step](time_per_step_%s.png), [throughput](throughput_%s.png)" % (workload, workload),
                   ""]
        md += ["Time per step (ms):", "", time_table, "", "Boid updates per second:", "", rate_table, ""]
    md += ["## GPU against the CPU at the same N", "",
           "Each row compares backends of one run on one machine (same file). `cpu` is the uniform-grid CPU "
           "reference, `cpu-naive` all pairs. \"A against B: 3.2x faster\" means B's time is 3.2 times A's; "
           "\"2.0x slower\", that A's is twice B's.", "",
           ratio_table(machines), ""]
    md += ["## GPU stages", "", "Mean GPU time of each stage inside the full-step benchmark (timer queries), "
           "its sum, the step's own GPU time (timestamps around the whole step) and its wall-clock time.", "",
           stage_table(machines), "", "Per-stage benchmarks (`<workload>/gpu:<stage>`: manual time = that stage):",
           "", stage_benchmark_table(machines), ""]
    traffic, source = newest_traffic(machines)
    md += ["## Bytes a step moves", ""]
    if traffic:
        md += ["The pipeline's byte model as %s's murmur_bench wrote it (gpu::FlockPipeline::trafficModel: every "
               "storage buffer each program binds, as the driver reports its blocks). `elements`: each element a "
               "pass touches counted once, reads and writes alike, elements a work group shares (a cell's start, "
               "count and ids; the neighbours' positions and headings) once; `sectors`: each access at a scattered "
               "index (a gather or scatter by id) costs a %d-byte sector, what a GPU moves. The hash and count "
               "run only after an upload or a grid change (the force pass does their work), the reduction only "
               "for a reader." % (source.label, SECTOR_BYTES), "", traffic_table(traffic), ""]
        cards = card_table(source, traffic)
        if cards:
            md += ["Lower bounds of a steady step from the sector bytes alone at each card's published memory "
                   "bandwidth: **a model, not a measurement** (no cache misses, no latency, no arithmetic; %s)." %
                   cards[0], "", cards[1], ""]
    else:
        md += ["(no result with a byte model: written before murmur_bench described it)", ""]
    md += ["## Memory-bandwidth floor", "",
           "The elements a steady step must move at least (the byte model above; neighbour reads assumed to hit "
           "in cache) against the measured time, and the time those bytes take at the copy bandwidth the same "
           "run measured:", "", bandwidth_lines(machines), "", floor_table(machines), "",
           "Assumptions:", "",
           "- `no-reuse` adds the bytes per candidate (its sortedPositions and sortedHeadings read from memory "
           "each time): the traffic with no cache at all.",
           "- The floor bandwidth is the copy benchmark's (a compute shader copying vec4s, read + write counted), "
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
        for m in machines:
            speedup, maps = m.astar_speedup()
            if speedup:
                md += ["- %s: Murmur's A* is %.1fx faster than the textbook one (the textbook one's time over "
                       "Murmur's, summed over %s)." % (m.label, speedup, ", ".join(maps))]
        md += [""]
    def write_markdown(temporary):
        with open(temporary, "w", encoding="utf-8") as f:
            f.write("\n".join(md))
    write_atomically(os.path.join(out_dir, "README.md"), write_markdown)
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
