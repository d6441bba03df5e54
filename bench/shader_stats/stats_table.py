#!/usr/bin/env python3
"""Formats murmur_radv_stats output (one TSV file per target) as a Markdown table per target, and
with --check fails (exit 1) on any spill or scratch, or when flock/Step exceeds its budget.

  stats_table.py [--check] TARGET=FILE...

Waves per SIMD: RADV 22.3's "Subgroups per SIMD" divides the SIMD's wave32 register file by the
executable's VGPRs whatever its wave size, so a wave64 executable shows twice the waves a SIMD
really holds (navi21: 64 VGPRs give 8 wave64 waves, reported as 16), and it caps the figure at 32
where RDNA2 and RDNA3 hold at most 16 waves per SIMD. The table divides the reported figure by
wave size / 32 and caps it at 16.
"""
import sys

# flock/Step's budget per target: at most these VGPRs, instructions and inverse throughput. Issue
# 18's: 30% below main at 9198031 (64 / 1,947 / 51,586 on navi21 wave64, 72 / 2,000 / 39,815 on
# gfx1100 wave32) and at most 48 VGPRs on navi21 wave64 (10 waves a SIMD). flock/Step.comp is the
# program of a step without the optional terms (walls, obstacles, agents, roost: gpu::StepFeature)
# in the fast arithmetic, what free-flight scenes and the benchmarks run; flock/Step.all.comp (every
# term), flock/Step.exact.comp and flock/Step.exact.all.comp (the exact arithmetic) are listed
# beside it. ACO's inverse throughput weights a block by its
# loop depth (8x, 32x, 64x, then 2x a level), so part of its fall comes from the candidate loop
# nested two deep instead of six.
STEP_BUDGET = {
    "navi21-wave64": {"VGPRs": 48, "Instructions": 1362, "Inverse Throughput": 36110},
    "gfx1100-wave32": {"VGPRs": 48, "Instructions": 1400, "Inverse Throughput": 27870},
}
STEP = "flock/Step.comp"
# The wave slots of one SIMD on RDNA2 (navi21) and RDNA3 (gfx1100).
MAX_WAVES_PER_SIMD = 16

COLUMNS = [
    ("VGPRs", lambda s: s["VGPRs"]),
    ("SGPRs", lambda s: s["SGPRs"]),
    ("spills", lambda s: s["Spilled SGPRs"] + s["Spilled VGPRs"]),
    ("scratch B", lambda s: s["Scratch size"]),
    ("LDS B", lambda s: s["LDS size"]),
    ("instructions", lambda s: s["Instructions"]),
    ("latency", lambda s: s["Latency"]),
    ("inverse throughput", lambda s: s["Inverse Throughput"]),
    ("waves/SIMD", lambda s: min(s["Subgroups per SIMD"] * 32 // s["subgroup"], MAX_WAVES_PER_SIMD)),
]


def parse(path):
    """(device, [(shader, stage, stats)]) of one murmur_radv_stats output."""
    device, rows = "?", []
    with open(path) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "# device":
                device = fields[1]
                continue
            shader = fields[0].removesuffix(".spv")
            stats = {"subgroup": int(fields[2])}
            for field in fields[3:]:
                name, _, value = field.partition("=")
                stats[name] = int(float(value))
            rows.append((shader, fields[1], stats))
    return device, rows


def main(argv):
    check = "--check" in argv
    targets = [a.split("=", 1) for a in argv if a != "--check"]
    failures = []
    for target, path in targets:
        device, rows = parse(path)
        print(f"### {target} ({device})\n")
        print("| shader | stage | wave | " + " | ".join(name for name, _ in COLUMNS) + " |")
        print("|---|---|---|" + "---:|" * len(COLUMNS))
        for shader, stage, stats in rows:
            values = [str(get(stats)) for _, get in COLUMNS]
            print(f"| {shader} | {stage.removesuffix(' Shader').lower()} | {stats['subgroup']} | " + " | ".join(values) + " |")
            if stats["Spilled SGPRs"] or stats["Spilled VGPRs"] or stats["Scratch size"]:
                failures.append(f"{target}: {shader} spills or uses scratch")
            budget = STEP_BUDGET.get(target, {}) if shader == STEP else {}
            for name, limit in budget.items():
                if stats[name] > limit:
                    failures.append(f"{target}: {STEP} {name} {stats[name]} over its budget of {limit}")
        print()
    if not targets:
        failures.append("no targets")
    for failure in failures:
        print(f"shader-stats: {failure}", file=sys.stderr)
    return 1 if check and failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
