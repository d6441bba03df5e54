"""murmur sweep end to end (docs/sweeps.md): plans, identical run files however they ran, resuming,
failures, bad files refused before any run, --set, Slurm, the report and the shipped sweeps."""
import csv
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import time

import pytest

from conftest import SMALLEST, run_files, write_sweep

MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def plans(murmur, path, *args):
    """The rows of `murmur sweep PATH --dry-run` as dicts."""
    result = murmur("sweep", path, "--dry-run", *args)
    return list(csv.DictReader(result.stdout.splitlines()))


def rows(path, drop=()):
    with open(path, newline="") as f:
        return [{k: v for k, v in row.items() if k not in drop} for row in csv.DictReader(f)]


# --- the plans a sweep file expands to ---------------------------------------------------------------

def test_product_order_replicates_and_backends(murmur, tmp_path):
    sweep = write_sweep(tmp_path, """scene = "free"
steps = 5
replicates = 2
seed = 10
backend = ["cpu", "cpu-naive"]
[set]
"boids.count" = 50
[axes]
"perception.neighbours" = { range = { from = 2, to = 8, count = 4 } }
"weights.alignment" = { values = [0.5, 1.5] }
""")
    got = plans(murmur, sweep)
    assert len(got) == 4 * 2 * 2 * 2
    for i, plan in enumerate(got):  # the last axis fastest, then replicates, then backends
        assert plan["run"] == str(i)
        assert plan["perception.neighbours"] == str([2, 4, 6, 8][i // 8])
        assert plan["weights.alignment"] == ["0.5", "1.5"][(i // 4) % 2]
        assert plan["replicate"] == str((i // 2) % 2)
        assert plan["seed"] == str(10 + (i // 2) % 2)
        assert plan["backend"] == ["cpu", "cpu-naive"][i % 2]
        assert plan["steps"] == "5" and plan["boids"] == "50" and plan["status"] == "ok"
    assert len({p["id"] for p in got}) == len(got)


def test_ranges_linear_log_and_fractional(murmur, tmp_path):
    def axis(spec):
        sweep = write_sweep(tmp_path, f'scene = "free"\nsteps = 1\n[set]\n"boids.count" = 20\n'
                                      f'[axes]\n"weights.cohesion" = {spec}\n')
        return [p["weights.cohesion"] for p in plans(murmur, sweep)]
    assert axis("{ range = { from = 0.5, to = 2, count = 4 } }") == ["0.5", "1.0", "1.5", "2.0"]
    assert axis('{ range = { from = 1, to = 100, count = 3, scale = "log" } }') == ["1.0", "10.0", "100.0"]
    thirds = axis("{ range = { from = 0, to = 10, count = 4 } }")  # integers whose steps are not
    assert [float(x) for x in thirds] == pytest.approx([0, 10 / 3, 20 / 3, 10], rel=1e-15)
    assert axis("{ range = { from = 3, to = 3, count = 1 } }") == ["3"]


def test_random_axes_seeded_distinct_and_in_range(murmur, tmp_path):
    def axis(spec):
        sweep = write_sweep(tmp_path, f'scene = "free"\nsteps = 1\n[set]\n"boids.count" = 20\n'
                                      f'[axes]\n"perception.neighbours" = {spec}\n')
        return [p["perception.neighbours"] for p in plans(murmur, sweep)]
    ints = axis("{ random = { low = 1, high = 9, count = 5, seed = 3 } }")
    assert len(set(ints)) == 5 and all(1 <= int(x) <= 9 and str(int(x)) == x for x in ints)
    assert axis("{ random = { low = 1, high = 9, count = 5, seed = 3 } }") == ints
    assert axis("{ random = { low = 1, high = 9, count = 5, seed = 4 } }") != ints
    assert sorted(axis("{ random = { low = 0, high = 3, count = 4 } }"), key=int) == ["0", "1", "2", "3"]

    def floats(spec):
        sweep = write_sweep(tmp_path, f'scene = "free"\nsteps = 1\n[set]\n"boids.count" = 20\n'
                                      f'[axes]\n"weights.cohesion" = {spec}\n')
        return [float(p["weights.cohesion"]) for p in plans(murmur, sweep)]
    uniform = floats("{ random = { low = 0.5, high = 2.0, count = 6, seed = 7 } }")
    assert len(set(uniform)) == 6 and all(0.5 <= x < 2.0 for x in uniform)
    logs = floats('{ random = { dist = "log-uniform", low = 0.01, high = 10, count = 40 } }')
    assert all(0.01 <= x < 10 for x in logs)
    assert sum(x < 0.1 for x in logs) >= 5  # a third of the decades below 0.1: not uniform in x


def test_zip_scenes_and_invalid_combinations(murmur, tmp_path):
    sweep = write_sweep(tmp_path, """scene = ["free", "predator"]
steps = 3
combine = "zip"
[set]
"boids.count" = 30
[axes]
"perception.radius" = { values = [5, 3, 4] }
"perception.separation_radius" = { values = [2, 4, 1] }
""")
    got = plans(murmur, sweep)
    assert [(p["scene"], p["perception.radius"], p["perception.separation_radius"]) for p in got] == [
        (s, r, d) for s in ("free", "predator") for r, d in (("5", "2"), ("3", "4"), ("4", "1"))]
    # radius 3 with separation 4: each is fine alone, together the scene refuses them.
    assert [p["status"].startswith("refused: ") for p in got] == [False, True, False] * 2
    assert "perception.separation_radius: must be at most perception.radius (3)" in got[1]["status"]


# --- the same bytes however it ran --------------------------------------------------------------------

def test_same_run_files_on_one_two_runners_shards_and_mpi(murmur, tmp_path):
    sweep = write_sweep(tmp_path, SMALLEST)
    murmur("sweep", sweep, "--out", tmp_path / "j1", "--jobs", "1")
    reference = run_files(tmp_path / "j1")
    assert len(reference) == 4
    table = rows(tmp_path / "j1" / "runs.csv", drop=("device",))
    assert len(table) == 4 * 4  # steps 10, 20, 30 and the final 40 of each run
    assert [r["step"] for r in table[:4]] == ["10", "20", "30", "40"]
    assert {r["perception.neighbours"] for r in table} == {"0", "7"}
    index = json.loads((tmp_path / "j1" / "sweep.json").read_text())
    assert index["counts"] == {"runs": 4, "done": 4, "failed": 0, "missing": 0}
    assert {r["id"] + ".json" for r in index["runs"]} == set(reference)

    murmur("sweep", sweep, "--out", tmp_path / "j2", "--jobs", "2")
    assert run_files(tmp_path / "j2") == reference
    assert rows(tmp_path / "j2" / "runs.csv", drop=("device",)) == table

    for i in range(3):
        result = murmur("sweep", sweep, "--out", tmp_path / "sh", "--shard", f"{i}/3")
        assert f"shard {i}/3" in result.stderr
    assert not (tmp_path / "sh" / "runs.csv").exists()  # the shards leave the index to --gather
    murmur("sweep", "--gather", tmp_path / "sh")
    assert run_files(tmp_path / "sh") == reference
    assert rows(tmp_path / "sh" / "runs.csv", drop=("device",)) == table

    if shutil.which("mpirun") is None:
        pytest.fail("mpirun is missing: scripts/install-deps.sh installs openmpi-bin")
    result = murmur("sweep", sweep, "--out", tmp_path / "mpi", env=MPI_ENV,
                    launcher=("mpirun", "--oversubscribe", "-np", "3"))
    assert "3 ranks" in result.stderr, "this murmur was built without MPI (libopenmpi-dev)"
    assert run_files(tmp_path / "mpi") == reference
    assert rows(tmp_path / "mpi" / "runs.csv", drop=("device",)) == table
    ranks = {json.loads(p.read_text())["rank"] for p in (tmp_path / "mpi" / "runs").glob("*.status.json")}
    assert ranks <= {0, 1, 2} and len(ranks) >= 2  # handed to whichever rank asked


def test_slurm_script_runs_as_an_array(murmur, tmp_path):
    sweep = write_sweep(tmp_path, SMALLEST)
    murmur("sweep", sweep, "--out", tmp_path / "ref")
    script = tmp_path / "sweep.sbatch"
    murmur("sweep", sweep, "--out", tmp_path / "array", "--emit-slurm", script, "--shards", "3")
    text = script.read_text()
    assert "#SBATCH --array=0-2" in text and not (tmp_path / "array").exists()
    for task in range(3):  # what Slurm does: the script once per task, with the array's variables
        env = {"SLURM_ARRAY_TASK_ID": str(task), "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_CPUS_PER_TASK": "1"}
        done = subprocess.run(["bash", script], capture_output=True, text=True, env={**os.environ, **env}, timeout=300)
        assert done.returncode == 0, done.stderr
        assert f"shard {task}/3" in done.stderr
    murmur("sweep", "--gather", tmp_path / "array")
    assert run_files(tmp_path / "array") == run_files(tmp_path / "ref")


# --- nothing lost ------------------------------------------------------------------------------------

RESUMABLE = """scene = "free"
steps = 300
replicates = 4
[set]
"boids.count" = 3000
[axes]
"perception.neighbours" = { values = [0, 7] }
[log]
every = 100
"""


def test_resume_after_sigterm_and_after_a_lost_file(murmur, murmur_exe, tmp_path):
    sweep = write_sweep(tmp_path, RESUMABLE)
    murmur("sweep", sweep, "--out", tmp_path / "whole")
    reference = run_files(tmp_path / "whole")
    assert len(reference) == 8

    out = tmp_path / "cut"
    process = subprocess.Popen([murmur_exe, "sweep", sweep, "--out", out], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while len(run_files(out) if (out / "runs").exists() else {}) < 2:
        assert process.poll() is None, "the sweep ended before it could be stopped"
        assert time.monotonic() < deadline
        time.sleep(0.01)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 128 + signal.SIGTERM, stderr
    kept = run_files(out)
    assert 2 <= len(kept) < 8, "the sweep finished before SIGTERM: make its runs longer"
    assert not [p for p in (out / "runs").iterdir() if ".tmp-" in p.name]  # no partial file
    assert not (out / "runs.csv").exists()
    assert all(reference[name] == digest for name, digest in kept.items())

    result = murmur("sweep", sweep, "--out", out)
    assert f"{len(kept)} complete, {8 - len(kept)} to run" in result.stderr
    assert f"8 done ({len(kept)} already)" in result.stderr
    assert run_files(out) == reference

    lost = sorted(reference)[3]
    others = {p.name: p.stat().st_mtime_ns for p in (out / "runs").glob("*.json")
              if not p.name.startswith(lost.removesuffix(".json"))}
    (out / "runs" / lost).unlink()
    result = murmur("sweep", sweep, "--out", out)
    assert "7 complete, 1 to run" in result.stderr
    assert run_files(out) == reference
    assert {n: (out / "runs" / n).stat().st_mtime_ns for n in others} == others  # only the lost one redone


def ranks_of(murmur_exe):
    """{MPI rank: pid} of the murmur processes that mpirun started."""
    found = {}
    for proc in pathlib.Path("/proc").iterdir():
        try:
            if not proc.name.isdigit() or os.readlink(proc / "exe") != os.path.realpath(murmur_exe):
                continue
            env = dict(e.split("=", 1) for e in (proc / "environ").read_text().split("\0") if "=" in e)
        except OSError:
            continue
        if "OMPI_COMM_WORLD_RANK" in env:
            found[int(env["OMPI_COMM_WORLD_RANK"])] = int(proc.name)
    return found


def test_a_rank_killed_mid_sweep_loses_only_its_runs(murmur, murmur_exe, tmp_path):
    sweep = write_sweep(tmp_path, RESUMABLE)
    murmur("sweep", sweep, "--out", tmp_path / "whole")
    reference = run_files(tmp_path / "whole")
    out = tmp_path / "mpi"
    process = subprocess.Popen(["mpirun", "--oversubscribe", "-np", "3", murmur_exe, "sweep", sweep, "--out", out],
                               stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               env={**os.environ, **MPI_ENV})
    deadline = time.monotonic() + 120
    while len(run_files(out) if (out / "runs").exists() else {}) < 2:
        assert process.poll() is None, "the sweep ended before a rank could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.01)
    ranks = ranks_of(murmur_exe)
    assert 2 in ranks, ranks
    os.kill(ranks[2], signal.SIGKILL)  # a node lost: mpirun ends the job
    process.communicate(timeout=120)
    assert process.returncode != 0
    kept = run_files(out)
    assert len(kept) < 8 and all(reference[name] == digest for name, digest in kept.items())
    result = murmur("sweep", sweep, "--out", out)  # the rerun completes exactly the rest
    assert f"{len(kept)} complete, {8 - len(kept)} to run" in result.stderr
    assert run_files(out) == reference


FAILING = """scene = "free"
steps = 20
[set]
"boids.count" = 200
[axes]
"perception.radius" = { values = [3, 5] }
"perception.separation_radius" = { values = [4, 2] }
"""


def test_a_failing_plan_is_recorded_while_the_others_complete(murmur, tmp_path):
    sweep = write_sweep(tmp_path, FAILING)  # plan 0 (radius 3, separation 4) is refused
    result = murmur("sweep", sweep, "--out", tmp_path / "slow", check=False)
    assert result.returncode == 1, result.stderr
    assert "3 done (0 already), 1 failed" in result.stderr
    table = rows(tmp_path / "slow" / "runs.csv")
    assert [r["status"] for r in table if r["run"] == "0"] == ["failed"]
    assert table[0]["step"] == "" and table[0]["polarization"] == ""
    index = json.loads((tmp_path / "slow" / "sweep.json").read_text())
    assert "must be at most perception.radius (3)" in index["runs"][0]["error"]
    assert [r["status"] for r in index["runs"]] == ["failed", "done", "done", "done"]

    assert murmur("sweep", sweep, "--out", tmp_path / "off", "--errors", "off").returncode == 0
    fast = murmur("sweep", sweep, "--out", tmp_path / "fast", "--errors", "fast", check=False)
    assert fast.returncode == 1 and "stopped at the first failed run" in fast.stderr
    assert json.loads((tmp_path / "fast" / "sweep.json").read_text())["counts"] == {
        "runs": 4, "done": 0, "failed": 1, "missing": 3}


def test_a_run_that_diverges_fails_with_its_step(murmur, tmp_path):
    # lab-book's 1,000 units at dt = 0.12 s pass the stability rule (docs/model.md, Stability), which
    # bounds one neighbour's push, and go non-finite where many crowd: a failed run naming the step,
    # the boid and the key, no NaN in the table.
    sweep = write_sweep(tmp_path, """scene = "lab-book"
backend = "cpu"
steps = 30
[set]
"boids.count" = 1000
[axes]
"sim.dt" = { values = [0.02, 0.12] }
[log]
every = 10
""")
    result = murmur("sweep", sweep, "--out", tmp_path / "d", check=False)
    assert result.returncode == 1, result.stderr
    index = json.loads((tmp_path / "d" / "sweep.json").read_text())
    assert [r["status"] for r in index["runs"]] == ["done", "failed"]
    assert re.search(r"on cpu, the flock went non-finite at step 9, boid \d+ first .* likeliest to blame: sim\.dt",
                     index["runs"][1]["error"]), index["runs"][1]["error"]
    table = rows(tmp_path / "d" / "runs.csv")
    assert [r["status"] for r in table if r["run"] == "1"] == ["failed"]
    assert all(r["polarization"] not in ("nan", "-nan", "inf") for r in table)


def test_an_out_directory_removed_mid_sweep_is_exit_3(murmur_exe, tmp_path):
    # Issue 51, item 6: the run's dump into a vanished directory was a bad-input error (exit 2) after
    # the work; every write after work began says the directory changed (exit 3).
    sweep = write_sweep(tmp_path, """scene = "free"
backend = "cpu"
steps = 20000
[set]
"boids.count" = 500
[log]
dump = true
""")
    out = tmp_path / "gone"
    process = subprocess.Popen([murmur_exe, "sweep", sweep, "--out", out], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (out / "sweep.toml").exists():  # written once runs/ is made, before the run
        assert process.poll() is None, "the sweep ended before its directory could be removed"
        assert time.monotonic() < deadline
        time.sleep(0.01)
    shutil.rmtree(out)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 3, stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("murmur: ") and "changed during the run" in last, stderr
    assert not out.exists()  # nothing written back where the directory was


BAD = [
    ('scene = "free"\nstepz = 3\n', "sweep.toml:2: stepz: unknown key"),
    ('scene = "nosuch"\n', "sweep.toml:1: scene: "),
    ('steps = 3\n', "sweep.toml: scene: missing"),
    ('scene = "free"\nsteps = -1\n', "sweep.toml:2: steps: must be in"),
    ('scene = "free"\nreplicates = 0\n', "sweep.toml:2: replicates: must be in [1, "),
    ('scene = "free"\nbackend = ["cpu", "quantum"]\n', "sweep.toml:2: backend: 'quantum' is no backend"),
    ('scene = "free"\n[axes]\n"perception.neighbours" = { values = [0, 99999] }\n',
     "sweep.toml:3: perception.neighbours: "),
    ('scene = "free"\n[axes]\n"boids.cont" = { values = [1] }\n', "sweep.toml:3: boids.cont: unknown key"),
    ('scene = "free"\n[axes]\n"boids.count" = { range = { from = 1, to = 9 } }\n',
     "sweep.toml:3: axes.boids.count.range: needs count"),
    ('scene = "free"\n[axes]\n"boids.count" = { values = [1, 1] }\n', "axes.boids.count.values[1]: 1 is listed twice"),
    ('scene = "free"\ncombine = "zip"\n[axes]\n"boids.count" = { values = [1, 2] }\n'
     '"weights.cohesion" = { values = [1.0] }\n', "weights.cohesion: combine = \"zip\" needs axes of one length"),
    ('scene = "free"\n[axes]\n"sim.seed" = { values = [1, 2] }\n', "axes.sim.seed: the seeds are the replicates'"),
    ('scene = "free"\n[set]\n"boids.count" = -5\n', "sweep.toml:3: boids.count: must be in [0, "),
    ('scene = "free"\n[log]\nevery = "often"\n', "sweep.toml:3: log.every: must be an integer"),
    ('scene = "free"\n[axes\n', "sweep.toml:2: "),
    ('scene = "free"\n[set]\n"perception.radius" = 1.0\n', "sweep.toml:3: set: refused by free: "),
    ('scene = "free"\n[axes]\n"perception.radius" = { values = [5, 1.0] }\n',
     "sweep.toml:3: axes.perception.radius: perception.radius = 1.0 is refused by free: "),
]


@pytest.mark.parametrize("text,message", BAD, ids=[m for _, m in BAD])
def test_bad_sweep_files_are_refused_before_any_run(murmur, tmp_path, text, message):
    write_sweep(tmp_path, text)
    result = murmur("sweep", "sweep.toml", "--out", "out", check=False, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("murmur: sweep.toml"), result.stderr
    assert message in lines[0], lines[0]
    assert not (tmp_path / "out").exists()  # nothing written


def test_a_bad_sweep_under_mpi_is_one_line_from_rank_0(murmur, tmp_path):
    write_sweep(tmp_path, 'scene = "free"\nstepz = 3\n')
    result = murmur("sweep", "sweep.toml", "--out", "out", check=False, cwd=tmp_path, env=MPI_ENV,
                    launcher=("mpirun", "--oversubscribe", "-np", "3"))
    assert result.returncode == 2
    assert result.stderr.count("sweep.toml:2: stepz: unknown key") == 1, result.stderr
    assert not (tmp_path / "out").exists()


# --- murmur run --set ---------------------------------------------------------------------------------

def test_run_set_equals_the_scene_edited(murmur, murmur_exe, tmp_path):
    shipped = pathlib.Path(murmur_exe).parent / "share" / "murmur" / "scenes" / "free.toml"
    text = shipped.read_text()
    assert "count = 10000" in text and "[perception]\n" in text and "\nneighbours =" not in text
    edited = text.replace("count = 10000", "count = 300").replace("[perception]\n", "[perception]\nneighbours = 7\n")
    (tmp_path / "edited.toml").write_text(edited)
    murmur("run", "--scene", tmp_path / "edited.toml", "--steps", "30", "--dump", tmp_path / "a.csv")
    murmur("run", "--scene", "free", "--steps", "30", "--set", "boids.count=300", "--set", "perception.neighbours=7",
           "--dump", tmp_path / "b.csv")
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    murmur("run", "--scene", "free", "--steps", "30", "--set", "boids.count=300", "--dump", tmp_path / "c.csv")
    assert (tmp_path / "c.csv").read_bytes() != (tmp_path / "b.csv").read_bytes()


@pytest.mark.parametrize("setting,message", [
    ("boids.count=-1", "--set: boids.count: must be in [0, "),
    ("boids.cont=3", "--set: boids.cont: unknown key"),
    ("boids", "--set: 'boids' must be KEY=VALUE"),
    ("world.boundary=wra", "--set: world.boundary: unknown word"),
    ("boids.count=1\nx=2", "is not one TOML value"),
    ("boids.count.x=2", "--set: boids.count.x: count is not a table"),
])
def test_run_set_refuses_bad_values(murmur, tmp_path, setting, message):
    result = murmur("run", "--scene", "free", "--steps", "1", "--set", setting, "--dump", tmp_path / "x.csv", check=False)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.csv").exists()


# --- the report and the shipped sweeps --------------------------------------------------------------

def test_report_draws_every_measure(murmur, tmp_path):
    sweep = write_sweep(tmp_path, SMALLEST.replace('backend = ["cpu"]', 'backend = ["cpu", "cpu-naive"]'))
    murmur("sweep", sweep, "--out", tmp_path / "s")
    result = murmur("sweep", "--report", tmp_path / "s")
    assert "summary.md" in result.stdout
    measures = json.loads((tmp_path / "s" / "sweep.json").read_text())["measures"]
    assert len(measures) == 17
    summary = (tmp_path / "s" / "report" / "summary.md").read_text()
    for measure in measures:
        assert f"`{measure}`" in summary
        png = tmp_path / "s" / "report" / f"{measure}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (tmp_path / "s" / "report" / f"{measure}.svg").exists()
    assert "cpu vs cpu-naive" in summary
    # cpu and cpu-naive are one model bit for bit: no measure differs.
    assert "**differ**" not in summary and "same within spread" in summary


def test_shipped_sweeps(murmur, tmp_path):
    k = plans(murmur, "murmuration-k")
    assert len(k) == 8 * 4 and sorted({int(p["perception.neighbours"]) for p in k}) == list(range(2, 17, 2))
    full = plans(murmur, "gpu-vs-cpu")
    assert len(full) == 2 * 8 * 2 and {p["boids"] for p in full} == {"20000"}  # one flock size on both backends
    # The reduced form, on llvmpipe: gpu runs need a GL context, and fail (not skip) without one.
    result = murmur("sweep", "gpu-vs-cpu", "--reduced", "--out", tmp_path / "g", "--jobs", "2")
    assert "8 runs: 8 done" in result.stderr
    index = json.loads((tmp_path / "g" / "sweep.json").read_text())
    assert {r["backend"] for r in index["runs"]} == {"cpu", "gpu"}
    assert all("llvmpipe" in r["device"] or "CPU" in r["device"] for r in index["runs"])
