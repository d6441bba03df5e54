#!/usr/bin/python3
"""Murmur sweep report: charts and a Markdown summary of `murmur sweep`'s output directory.

    /usr/bin/python3 scripts/sweep_report.py DIR [--out REPORT_DIR]    (default DIR/report)

Reads DIR/runs.csv and DIR/sweep.json and takes each done run's final logged row (its exit state).
Writes REPORT_DIR/<measure>.png and .svg per measure (one subplot per swept axis: per backend the
mean and standard deviation over the runs sharing the axis value) and REPORT_DIR/summary.md (counts,
per-backend mean +- sd of every measure, whether backends differ beyond their replicate spread, the
failed runs). Everything is written into a temporary directory beside REPORT_DIR and renamed into
place once complete. Bad input: one line on stderr, exit 2, nothing written; a write failing: exit 3.
"""

import argparse
import csv
import itertools
import json
import math
import os
import re
import shutil
import statistics
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text
matplotlib.rcParams["svg.hashsalt"] = "murmur"  # the same input gives the same SVG
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import NullFormatter  # noqa: E402

# Measure column -> (description, unit); "" is unitless (docs/model.md, Measures).
MEASURES = {
    "local_polarization": ("local polarization", ""),
    "speed_mean": ("mean speed", "units/s"),
    "speed_min": ("least speed", "units/s"),
    "speed_max": ("greatest speed", "units/s"),
    "nearest_mean": ("mean distance to the nearest boid", "units"),
    "nearest_min": ("closest pair's distance", "units"),
    "nearest_along": ("nearest neighbour's bearing (mean |cos| to the heading)", ""),
    "non_finite": ("boids with a non-finite component", "boids"),
    "flocks": ("flocks (connected components)", ""),
    "largest_fraction": ("largest flock's share of the boids", ""),
    "polarization": ("largest flock's polarization", ""),
    "extent_1": ("largest flock's longest extent", "units"),
    "extent_2": ("largest flock's middle extent", "units"),
    "extent_3": ("largest flock's shortest extent", "units"),
    "thinness": ("thinness (shortest over longest extent)", ""),
    "width_ratio": ("width (middle over longest extent)", ""),
    "thin_axis_tilt": ("thinnest axis from the vertical", "degrees"),
}
# Columns of runs.csv besides the axes and the measures: run and id before the axes, these after.
LEADING = ["run", "id"]
TRAILING = ["replicate", "seed", "backend", "device", "status", "step", "seconds"]
STATUSES = ("done", "failed", "missing")
# Two backends differ on a plan when their means are further apart than this many standard errors.
SPREAD = 2.0
NEGLIGIBLE = 1e-9
# Files an existing report directory may hold for it to be replaced.
REPORT_SUFFIXES = (".png", ".svg", ".md")


class InputError(Exception):
    """Bad input: `file`, then the problem (exit code 2)."""

    def __init__(self, file, problem):
        super().__init__("%s: %s" % (file, problem))


class Run:
    """One plan x replicate x backend: the first row's fields and, when done, the final row's measures."""

    def __init__(self, index, row):
        self.index = index
        self.id = row["id"]
        self.backend = row["backend"]
        self.replicate = row["replicate"]
        self.status = row["status"]
        self.raw_axes = {}  # axis -> cell text
        self.plan = ()  # axis keys (float for numeric axes), set once the axes' kinds are known
        self.step = None
        self.final = {}  # measure -> float or None (empty cell)


# ---------------------------------------------------------------------------------------------
# Input

def load_sweep(path):
    """sweep.json as a dict, its axes and measures lists of names checked."""
    try:
        with open(path, encoding="utf-8") as f:
            sweep = json.load(f)
    except FileNotFoundError:
        raise InputError(path, "no such file")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(path, "cannot read: %s" % (e.strerror if isinstance(e, OSError) else e))
    except json.JSONDecodeError as e:
        raise InputError(path, "not JSON: %s" % e)
    if not isinstance(sweep, dict):
        raise InputError(path, "not a JSON object")
    for key in ("axes", "measures"):
        names = sweep.get(key)
        if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
            raise InputError(path, '"%s" is not a list of column names' % key)
    if not sweep["measures"]:
        raise InputError(path, '"measures" is empty')
    names = LEADING + TRAILING + sweep["axes"] + sweep["measures"]
    repeated = [n for n in dict.fromkeys(names) if names.count(n) > 1]
    if repeated:
        raise InputError(path, 'column %s named twice in "axes", "measures" or the fixed columns' % repeated[0])
    for name in sweep["measures"]:  # a measure names its chart files
        if not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]*", name):
            raise InputError(path, "measure %r is not a plain file name" % name)
    for key in ("runs", "backends"):
        if key in sweep and not isinstance(sweep[key], list):
            raise InputError(path, '"%s" is not a list' % key)
    return sweep


def parse_float(text, path, line, column):
    try:
        return float(text)
    except ValueError:
        raise InputError(path, "line %d: %s %r is not a number" % (line, column, text))


def load_runs(path, axes, measures):
    """runs.csv as {run index: Run}, every done run with its final (largest-step) row."""
    wanted = LEADING + axes + TRAILING + measures
    runs = {}
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:  # a BOM is no column
            reader = csv.reader(f)
            header = next(reader, None)
            if header is None:
                raise InputError(path, "empty file (no header)")
            missing = [c for c in wanted if c not in header]
            if missing:
                raise InputError(path, "header lacks column%s %s" % ("s" if len(missing) > 1 else "",
                                                                    ", ".join(missing)))
            if len(set(header)) != len(header):
                raise InputError(path, "header repeats a column")
            at = {c: header.index(c) for c in wanted}
            for cells in reader:
                line = reader.line_num
                if not cells:
                    continue
                if len(cells) != len(header):
                    raise InputError(path, "line %d: %d cells, the header has %d" % (line, len(cells), len(header)))
                row = {c: cells[i] for c, i in at.items()}
                try:
                    index = int(row["run"])
                except ValueError:
                    raise InputError(path, "line %d: run %r is not an integer" % (line, row["run"]))
                if row["status"] not in STATUSES:
                    raise InputError(path, "line %d: status %r is none of %s"
                                     % (line, row["status"], ", ".join(STATUSES)))
                run = runs.get(index)
                if run is None:
                    run = runs[index] = Run(index, row)
                    run.raw_axes = {a: row[a] for a in axes}
                elif row["status"] != run.status or row["backend"] != run.backend:
                    raise InputError(path, "line %d: run %d changes its status or backend" % (line, index))
                if run.status != "done":
                    continue
                if not row["step"]:
                    raise InputError(path, "line %d: run %d is done but its row has no step" % (line, index))
                step = parse_float(row["step"], path, line, "step")
                if run.step is None or step > run.step:
                    run.step = step
                    run.final = {m: parse_float(row[m], path, line, m) if row[m] else None for m in measures}
    except FileNotFoundError:
        raise InputError(path, "no such file")
    except UnicodeDecodeError as e:
        raise InputError(path, "not UTF-8 text: %s" % e)
    except csv.Error as e:
        raise InputError(path, "not CSV: %s" % e)
    except OSError as e:
        raise InputError(path, "cannot read: %s" % e.strerror)
    if not runs:
        raise InputError(path, "no runs")
    if not any(r.status == "done" for r in runs.values()):
        raise InputError(path, "no completed runs")
    return runs


class Axis:
    """A swept parameter: numeric when every value reads as a finite number, else categorical."""

    def __init__(self, index, name, runs):
        self.index, self.name = index, name  # index: the axis's place in a run's plan
        raws = [r.raw_axes[name] for r in runs]
        numbers = []
        for raw in raws:
            try:
                numbers.append(float(raw))
            except ValueError:
                break
        self.numeric = len(numbers) == len(raws) and all(math.isfinite(x) for x in numbers)
        self.labels = {}  # key -> text as the csv spells it (its first spelling)
        for raw in raws:
            self.labels.setdefault(self.key(raw), raw)
        self.values = sorted(self.labels) if self.numeric else list(self.labels)
        self.log = (self.numeric and len(self.values) > 1 and self.values[0] > 0
                    and self.values[-1] / self.values[0] > 20)

    def key(self, raw):
        return float(raw) if self.numeric else raw


def plan_label(axes, plan):
    return ", ".join("%s=%s" % (a.name, a.labels[k]) for a, k in zip(axes, plan)) or "(the one plan)"


# ---------------------------------------------------------------------------------------------
# Statistics

def finite(values):
    return [v for v in values if v is not None and math.isfinite(v)]


def mean_sd(values):
    """(mean, sample standard deviation (0 for one value), count) of a non-empty list."""
    return statistics.fmean(values), statistics.stdev(values) if len(values) > 1 else 0.0, len(values)


def differ(a, b):
    """Whether two (mean, sd, n) differ beyond their spread (the rule summary.md states)."""
    (ma, sa, na), (mb, sb, nb) = a, b
    gap = abs(ma - mb)
    return gap > SPREAD * math.sqrt(sa * sa / na + sb * sb / nb) and gap > NEGLIGIBLE * max(1.0, abs(ma), abs(mb))


def final_values(runs, measure, backend, keep=lambda r: True):
    return [r.final.get(measure) for r in runs if r.status == "done" and r.backend == backend and keep(r)]


def fmt(v, digits=5):
    if math.isfinite(v) and v == int(v) and abs(v) < 1e15:
        return "%d" % v
    return "%.*g" % (digits, v)


def fmt_stats(stats):
    m, s, n = stats
    return "%s ± %s (%d)" % (fmt(m), fmt(s, 2), n)


# ---------------------------------------------------------------------------------------------
# Charts

def measure_title(measure):
    description, unit = MEASURES.get(measure, (measure.replace("_", " "), None))
    unit = unit or ("unitless" if unit == "" else "unit unknown")
    return "%s (%s)\n%s, at each run's final step" % (measure, unit, description)


def measure_ylabel(measure):
    unit = MEASURES.get(measure, ("", ""))[1]
    return "%s (%s)" % (measure, unit) if unit else measure


def offsets(count):
    """Side-by-side shifts of `count` backends, in units of the spacing between them."""
    return [i - (count - 1) / 2 for i in range(count)]


def draw_axis(ax, axis, runs, measure, backends, colours, others):
    """One subplot: per backend, mean +- sd of the final values against the axis's values."""
    shifts = offsets(len(backends))
    numeric = axis.numeric and len(axis.values) > 1  # one value: drawn as a category
    if numeric:
        lo, hi = axis.values[0], axis.values[-1]
        span = (math.log10(hi / lo) if axis.log else hi - lo) or (abs(lo) or 1.0)
        step = span * min(0.03, 0.12 / len(backends))
    drawn = False
    for b, backend, colour in zip(shifts, backends, colours):
        xs, means, sds = [], [], []
        for i, key in enumerate(axis.values):
            values = finite(final_values(runs, measure, backend, lambda r: r.plan[axis.index] == key))
            if not values:
                continue
            m, s, _ = mean_sd(values)
            if not numeric:
                x = i + b * min(0.15, 0.6 / len(backends))
            elif axis.log:
                x = key * 10 ** (b * step)
            else:
                x = key + b * step
            xs.append(x), means.append(m), sds.append(s)
        if xs:
            drawn = True
            ax.errorbar(xs, means, yerr=sds, fmt="o-" if numeric else "o", color=colour, label=backend,
                        capsize=3, markersize=5, linewidth=1.0, elinewidth=1.2, alpha=0.9)
    if not numeric:
        long_labels = sum(len(str(v)) for v in axis.values) > 40
        ax.set_xticks(range(len(axis.values)), [axis.labels[v] for v in axis.values],
                      rotation=30 if long_labels else 0, ha="right" if long_labels else "center")
        ax.set_xlim(-0.5, len(axis.values) - 0.5)
    else:
        if axis.log:
            ax.set_xscale("log")
        if len(axis.values) <= 12:
            ax.set_xticks(axis.values, [axis.labels[v] for v in axis.values])
            ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel(axis.name)
    ax.set_ylabel(measure_ylabel(measure))
    ax.set_title("mean ± sd over replicates%s" % (" and other axes" if others else ""), fontsize="medium")
    ax.grid(True, alpha=0.35)
    if not drawn:
        ax.text(0.5, 0.5, "no finite final values", transform=ax.transAxes, ha="center", va="center")


def draw_backends(ax, runs, measure, backends, colours):
    """The subplot of a sweep without axes: x = backend."""
    drawn = False
    for i, (backend, colour) in enumerate(zip(backends, colours)):
        values = finite(final_values(runs, measure, backend))
        if values:
            drawn = True
            m, s, _ = mean_sd(values)
            ax.errorbar([i], [m], yerr=[s], fmt="o", color=colour, capsize=4, markersize=6, elinewidth=1.2)
    ax.set_xticks(range(len(backends)), backends)
    ax.set_xlim(-0.5, len(backends) - 0.5)
    ax.set_xlabel("backend")
    ax.set_ylabel(measure_ylabel(measure))
    ax.set_title("mean ± sd over replicates", fontsize="medium")
    ax.grid(True, alpha=0.35)
    if not drawn:
        ax.text(0.5, 0.5, "no finite final values", transform=ax.transAxes, ha="center", va="center")


def write_chart(directory, measure, axes, runs, backends):
    colours = [matplotlib.colormaps["tab10"](i % 10) for i in range(len(backends))]
    count = max(1, len(axes))
    cols = min(count, 3)
    rows = math.ceil(count / cols)
    figure, grid = plt.subplots(rows, cols, figsize=(4.5 * cols, 3.5 * rows), squeeze=False)
    cells = [ax for row in grid for ax in row]
    if axes:
        for axis, ax in zip(axes, cells):
            draw_axis(ax, axis, runs, measure, backends, colours, len(axes) > 1)
    else:
        draw_backends(cells[0], runs, measure, backends, colours)
    for ax in cells[count:]:
        ax.set_visible(False)
    figure.suptitle(measure_title(measure))
    figure.tight_layout()
    if axes:
        handles, labels = cells[0].get_legend_handles_labels()
        if handles:
            # Beside the charts, below the title: a long title does not run into it.
            figure.legend(handles, labels, title="backend", loc="upper left", bbox_to_anchor=(1.0, 0.8),
                          frameon=False)
    path = os.path.join(directory, measure)
    figure.savefig(path + ".svg", format="svg", bbox_inches="tight", metadata={"Date": None})
    figure.savefig(path + ".png", format="png", bbox_inches="tight", dpi=100, metadata={"Software": None})
    plt.close(figure)


# ---------------------------------------------------------------------------------------------
# Summary

def plural(count, noun):
    return "%d %s%s" % (count, noun, "" if count == 1 else "s")


def md_cell(text):
    return " ".join(str(text).split()).replace("|", "\\|")


def md_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(md_cell(c) for c in row) + " |" for row in rows]
    return lines


def backend_cell(runs, measure, backend):
    values = final_values(runs, measure, backend)
    kept = finite(values)
    if not values:
        return "-"
    cell = fmt_stats(mean_sd(kept)) if kept else "no value"
    if len(kept) < len(values):
        cell += "; %d without a finite value" % (len(values) - len(kept))
    return cell


def compare(runs, measure, a, b, plans):
    """(plans with values from both, [(plan, stats a, stats b)] of those that differ)."""
    shared, differing = 0, []
    for plan in plans:
        va = finite(final_values(runs, measure, a, lambda r: r.plan == plan))
        vb = finite(final_values(runs, measure, b, lambda r: r.plan == plan))
        if va and vb:
            shared += 1
            sa, sb = mean_sd(va), mean_sd(vb)
            if differ(sa, sb):
                differing.append((plan, sa, sb))
    return shared, differing


def summary(sweep, axes, runs, backends, measures):
    ordered = [runs[i] for i in sorted(runs)]
    counts = {s: sum(r.status == s for r in ordered) for s in STATUSES}
    build = sweep.get("build") if isinstance(sweep.get("build"), dict) else {}
    plans = list(dict.fromkeys(r.plan for r in ordered))
    replicates = len(set(r.replicate for r in ordered))
    out = ["# Murmur sweep report", ""]
    out.append("- sweep: `%s`" % md_cell(sweep.get("sweep", "unknown")))
    out.append("- build: commit `%s`, version %s" % (md_cell(build.get("commit", "unknown")),
                                                   md_cell(build.get("version", "unknown"))))
    out.append("- runs: %d (%s x %s x %s at most): %d done, %d failed, %d missing"
               % (len(ordered), plural(len(plans), "plan"), plural(replicates, "replicate"),
                  plural(len(backends), "backend"), counts["done"], counts["failed"], counts["missing"]))
    if axes:
        for axis in axes:
            out.append("- axis `%s` (%s): %s" % (axis.name, "numeric" if axis.numeric else "categorical",
                                               ", ".join(md_cell(axis.labels[v]) for v in axis.values)))
    else:
        out.append("- axes: none (replicates only)")
    out.append("- backends: %s" % ", ".join(backends))
    out += ["", "Every value below is a done run's final logged row (its exit state). Charts: `<measure>.png` "
            "and `.svg` beside this file.", ""]

    out += ["## Measures", "",
            "Mean ± sample standard deviation (number of runs) of the final values per backend, over replicates"
            "%s." % (" and all axes' values" if axes else ""), ""]
    rows = [["`%s`" % m, MEASURES.get(m, ("", "?"))[1] or "1"] + [backend_cell(ordered, m, b) for b in backends]
            for m in measures]
    out += md_table(["measure", "unit"] + backends, rows) + [""]

    out += ["## Backends compared", ""]
    ran = [b for b in backends if any(r.status == "done" and r.backend == b for r in ordered)]
    results = {pair: {m: compare(ordered, m, *pair, plans) for m in measures}
               for pair in itertools.combinations(ran, 2)}
    pairs = [pair for pair, by_measure in results.items() if any(shared for shared, _ in by_measure.values())]
    if len(ran) < 2:
        out += ["Only one backend ran (%s): nothing to compare." % (", ".join(ran)), ""]
    else:
        out += ["Rule: for each plan (the same values of all axes) each backend's final values over replicates "
                "give a mean m, a sample standard deviation s (ddof = 1; 0 for one replicate) and a count n. "
                "Two backends a and b differ on the plan when |m_a - m_b| > %g sqrt(s_a^2/n_a + s_b^2/n_b) "
                "and the difference is not negligible (> %g max(1, |m_a|, |m_b|)). A measure's verdict is "
                "\"same within spread\" when no plan with values from both differs, else \"differ\"."
                % (SPREAD, NEGLIGIBLE), ""]
        apart = ["%s and %s" % pair for pair in results if pair not in pairs]
        if apart:
            out += ["Not compared (no plan with final values from both): %s." % "; ".join(apart), ""]
    if pairs:
        rows = []
        for m in measures:
            row = ["`%s`" % m]
            for pair in pairs:
                shared, differing = results[pair][m]
                row.append("%s (differ in %d of %s)" % ("**differ**" if differing else "same within spread",
                                                        len(differing), plural(shared, "plan"))
                           if shared else "no plan with values from both")
            rows.append(row)
        out += md_table(["measure"] + ["%s vs %s" % p for p in pairs], rows) + [""]
        details = ["- %s vs %s, `%s`, %s: %s %s, %s %s" % (a, b, m, md_cell(plan_label(axes, p)), a, fmt_stats(sa),
                                                           b, fmt_stats(sb))
                   for a, b in pairs for m in measures for p, sa, sb in results[(a, b)][m][1]]
        out += ["### Plans that differ", ""] + (details or ["None."]) + [""]

    out += ["## Failed and missing runs", ""]
    bad = [r for r in ordered if r.status != "done"]
    if not bad:
        out += ["None.", ""]
    else:
        errors = {}
        for entry in sweep.get("runs", []):
            if isinstance(entry, dict) and "error" in entry:
                errors[entry.get("run")] = entry["error"]
        rows = [[r.index, "`%s`" % r.id, r.status, r.backend, r.replicate,
                 plan_label(axes, r.plan) if axes else "-", errors.get(r.index, "-")] for r in bad]
        out += md_table(["run", "id", "status", "backend", "replicate", "plan", "error"], rows) + [""]
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Output

def check_output(report, directory):
    """Refuses an output that is not a directory, would hold the input, or is not an older report."""
    real, source = os.path.realpath(report), os.path.realpath(directory)
    if real == source or source.startswith(real.rstrip(os.sep) + os.sep):
        raise InputError(report, "the report would replace the sweep's own directory")
    if os.path.lexists(report):
        if not os.path.isdir(report) or os.path.islink(report):
            raise InputError(report, "exists and is not a directory")
        foreign = [n for n in sorted(os.listdir(report)) if not n.endswith(REPORT_SUFFIXES)
                   or not os.path.isfile(os.path.join(report, n))]
        if foreign:
            raise InputError(report, "exists and holds %s, not a report: remove it or choose another --out"
                             % foreign[0])


def write_report(report, write):
    """Calls write(temporary directory) and renames the directory onto `report`, replacing an older one."""
    parent = os.path.dirname(os.path.abspath(report))
    os.makedirs(parent, exist_ok=True)
    temporary = tempfile.mkdtemp(prefix=".%s.tmp-" % os.path.basename(os.path.abspath(report)), dir=parent)
    old = None
    try:
        write(temporary)
        os.chmod(temporary, 0o777 & ~current_umask())
        if os.path.isdir(report):
            old = temporary + ".old"
            os.rename(report, old)
        os.rename(temporary, report)
    except BaseException as e:
        if isinstance(e, OSError) and e.filename and str(e.filename).startswith(temporary + os.sep):
            e.filename = os.path.join(report, os.path.relpath(e.filename, temporary))  # name what it was for
        if old and not os.path.exists(report):
            os.rename(old, report)
            old = None
        shutil.rmtree(temporary, ignore_errors=True)
        raise
    finally:
        if old:
            shutil.rmtree(old, ignore_errors=True)


def current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", metavar="DIR", help="the output directory of `murmur sweep` (runs.csv, sweep.json)")
    parser.add_argument("--out", metavar="REPORT_DIR", help="report directory (default DIR/report)")
    args = parser.parse_args(argv)
    report = args.out or os.path.join(args.dir, "report")
    try:
        if not os.path.isdir(args.dir):
            raise InputError(args.dir, "no such directory" if not os.path.exists(args.dir) else "not a directory")
        sweep = load_sweep(os.path.join(args.dir, "sweep.json"))
        measures = sweep["measures"]
        runs = load_runs(os.path.join(args.dir, "runs.csv"), sweep["axes"], measures)
        check_output(report, args.dir)
    except InputError as e:
        print("sweep_report: %s" % e, file=sys.stderr)
        return 2

    ordered = [runs[i] for i in sorted(runs)]
    axes = [Axis(i, name, ordered) for i, name in enumerate(sweep["axes"])]
    for r in ordered:
        r.plan = tuple(a.key(r.raw_axes[a.name]) for a in axes)
    seen = list(dict.fromkeys(r.backend for r in ordered))
    named = [b for b in sweep.get("backends", []) if isinstance(b, str) and b in seen]
    backends = named + [b for b in seen if b not in named]

    def write(directory):
        for m in measures:
            write_chart(directory, m, axes, ordered, backends)
        with open(os.path.join(directory, "summary.md"), "w", encoding="utf-8") as f:
            f.write(summary(sweep, axes, runs, backends, measures) + "\n")

    try:
        write_report(report, write)
    except OSError as e:
        print("sweep_report: %s: %s (an older report is kept)" % (e.filename or report, e.strerror or e),
              file=sys.stderr)
        return 3
    print("wrote %s and %d charts" % (os.path.join(report, "summary.md"), len(measures)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
