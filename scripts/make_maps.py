#!/usr/bin/env python3
"""Makes Murmur's own grid maps (data/maps/) in the MovingAI format, and their scenario files.

    python3 scripts/make_maps.py --murmur build/murmur data/maps

made the committed files. The maps are drawn from fixed seeds, so a rerun writes the same bytes.
Two kinds:
  rooms-65-81   a 4 x 5 grid of 15 x 15 rooms behind one-cell walls, joined by doors 4 or 5 cells wide (a spanning tree
                of the rooms plus a few extra doors, so some rooms have two ways in), with pillars away
                from the room centres. scenes/maze2d.toml's leader visits the room centres.
  maze-64-64-2  a perfect maze (depth-first backtracking) with corridors and walls two cells wide.
Each map gets a .scen file (MovingAI's format: version 1, then bucket, map, width, height, start x/y,
goal x/y, optimal length) of random connected start/goal pairs; the optimal lengths are the ones the
project's A* finds (`murmur path --json`, 8-connected, diagonal sqrt(2), no corner cutting), which
tests/ai and `murmur path --scen` check against.
"""
import argparse
import json
import pathlib
import random
import subprocess


def write_map(path, rows):
    with open(path, "w", encoding="ascii") as out:
        out.write(f"type octile\nheight {len(rows)}\nwidth {len(rows[0])}\nmap\n")
        for row in rows:
            out.write("".join(row) + "\n")


def rooms_map(seed, rooms_x=4, rooms_y=5, room=15):
    rng = random.Random(seed)
    width, height = rooms_x * (room + 1) + 1, rooms_y * (room + 1) + 1
    grid = [["@"] * width for _ in range(height)]
    for ry in range(rooms_y):
        for rx in range(rooms_x):
            for y in range(ry * (room + 1) + 1, (ry + 1) * (room + 1)):
                for x in range(rx * (room + 1) + 1, (rx + 1) * (room + 1)):
                    grid[y][x] = "."
    # Doors: a random spanning tree of the rooms (every room reachable), then three extra doors.
    walls = [((rx, ry), (rx + 1, ry)) for ry in range(rooms_y) for rx in range(rooms_x - 1)]
    walls += [((rx, ry), (rx, ry + 1)) for ry in range(rooms_y - 1) for rx in range(rooms_x)]
    rng.shuffle(walls)
    parent = {(rx, ry): (rx, ry) for ry in range(rooms_y) for rx in range(rooms_x)}

    def root(room_id):
        while parent[room_id] != room_id:
            room_id = parent[room_id]
        return room_id

    doors, spare = [], []
    for a, b in walls:
        if root(a) != root(b):
            parent[root(a)] = root(b)
            doors.append((a, b))
        else:
            spare.append((a, b))
    doors += spare[:3]
    for (ax, ay), (bx, by) in doors:
        width_cells = rng.choice((4, 5))  # wide enough for a flock to stream through
        offset = rng.randrange(2, room - width_cells - 1)
        for k in range(width_cells):
            if ax != bx:  # a door in the vertical wall between two rooms side by side
                grid[ay * (room + 1) + 1 + offset + k][bx * (room + 1)] = "."
            else:
                grid[by * (room + 1)][ax * (room + 1) + 1 + offset + k] = "."
    # Pillars: 2 x 2 blocks, kept off the centre (the leader's waypoints) and off the walls' doors.
    for ry in range(rooms_y):
        for rx in range(rooms_x):
            for _ in range(rng.randrange(0, 3)):
                px = rng.choice((3, 10)) + rng.randrange(0, 2)
                py = rng.choice((3, 10)) + rng.randrange(0, 2)
                for y in range(py, py + 2):
                    for x in range(px, px + 2):
                        grid[ry * (room + 1) + 1 + y][rx * (room + 1) + 1 + x] = "T"
    return grid


def maze_map(seed, cells=16, corridor=2):
    """A perfect maze of cells x cells, each corridor and wall `corridor` cells wide."""
    rng = random.Random(seed)
    size = cells * 2 * corridor
    grid = [["@"] * size for _ in range(size)]

    def carve(cx, cy):  # the free block of maze cell (cx, cy) or of a passage half-way between two
        for y in range(int(cy * 2 * corridor), int(cy * 2 * corridor) + corridor):
            for x in range(int(cx * 2 * corridor), int(cx * 2 * corridor) + corridor):
                grid[y][x] = "."

    seen = {(0, 0)}
    stack = [(0, 0)]
    carve(0, 0)
    while stack:
        cx, cy = stack[-1]
        options = [(cx + dx, cy + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                   if 0 <= cx + dx < cells and 0 <= cy + dy < cells and (cx + dx, cy + dy) not in seen]
        if not options:
            stack.pop()
            continue
        nx, ny = rng.choice(options)
        carve((cx + nx) / 2, (cy + ny) / 2)
        carve(nx, ny)
        seen.add((nx, ny))
        stack.append((nx, ny))
    return grid


def free_cells(grid):
    return [(x, y) for y, row in enumerate(grid) for x, c in enumerate(row) if c == "."]


def write_scenarios(murmur, map_path, grid, seed, count):
    rng = random.Random(seed)
    cells = free_cells(grid)
    rows = []
    while len(rows) < count:
        (sx, sy), (gx, gy) = rng.sample(cells, 2)
        out = subprocess.run([murmur, "path", "--map", str(map_path), "--from", f"{sx},{sy}",
                              "--to", f"{gx},{gy}", "--json"], check=True, capture_output=True, text=True)
        result = json.loads(out.stdout)
        if result["status"] != "found":
            continue
        rows.append((int(result["length"] // 4), sx, sy, gx, gy, result["length"]))
    rows.sort()
    with open(str(map_path) + ".scen", "w", encoding="ascii") as out:
        out.write("version 1\n")
        for bucket, sx, sy, gx, gy, length in rows:
            out.write(f"{bucket}\t{map_path.name}\t{len(grid[0])}\t{len(grid)}\t{sx}\t{sy}\t{gx}\t{gy}\t{length:.8f}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--murmur", required=True, help="the murmur executable (its A* computes the optimal lengths)")
    parser.add_argument("out", type=pathlib.Path, help="output directory (data/maps)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, grid, seed in (("rooms-65-81.map", rooms_map(20), 21), ("maze-64-64-2.map", maze_map(22), 23)):
        path = args.out / name
        write_map(path, grid)
        write_scenarios(args.murmur, path, grid, seed, 100)


if __name__ == "__main__":
    main()
