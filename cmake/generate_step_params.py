#!/usr/bin/env python3
"""Generates the per-step constant block of the flock shaders from src/gpu/step_params.table.

    generate_step_params.py TABLE OUT_DIR

writes, each only when its text changed (so an unchanged table rebuilds nothing):
  OUT_DIR/gpu/step_params.hpp                gpu::layout::StepParams (std140 layout, byte offsets
                                             checked by static_assert), kStepParamMembers (name and
                                             offset of every member) and makeStepParams' declaration;
  OUT_DIR/gpu/step_params.cpp                makeStepParams: every member from its row's expression;
  OUT_DIR/shaders/common/StepParams.glsl     the uniform block StepParamsBlock, instance P.
A bad row fails with TABLE:LINE: and the reason, exit status 1.
"""
import pathlib
import re
import sys

# std140 size and base alignment of each type a row may use, with its C++ type.
TYPES = {
    "float": (4, 4, "float"),
    "int": (4, 4, "std::int32_t"),
    "uint": (4, 4, "std::uint32_t"),
    "vec2": (8, 8, "glm::vec2"),
    "vec4": (16, 16, "glm::vec4"),
    "ivec4": (16, 16, "glm::ivec4"),
    "uvec4": (16, 16, "glm::uvec4"),
}
ROW = re.compile(r"^(\w+)\s+([A-Za-z_]\w*)\s*=\s*([^#]+?)\s*(?:#\s*(.*))?$")
# makeStepParams' arguments: the names the table's expressions read (its header says what they are).
ARGUMENTS = ("const sim::ModelParams& params, const sim::StepContext& ctx, const sim::GridSpec& grid,\n"
             "                          const sim::PackedInputs& packed, std::uint32_t boidCount,\n"
             "                          std::uint32_t groupCount")


class TableError(Exception):
    pass


def read_rows(path):
    rows = []
    names = set()
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        match = ROW.match(text)
        if not match:
            raise TableError(f"{path}:{number}: expected 'TYPE NAME = EXPRESSION  # comment', got '{text}'")
        kind, name, expression, comment = match.groups()
        if kind == "vec3":
            raise TableError(f"{path}:{number}: {name}: vec3 is refused (std140 pads it to 16 bytes and "
                             "glm::vec3 is 12): use a vec4")
        if kind not in TYPES:
            raise TableError(f"{path}:{number}: {name}: unknown type '{kind}' (known: {', '.join(TYPES)})")
        if name in names:
            raise TableError(f"{path}:{number}: {name}: a member named twice")
        names.add(name)
        rows.append((kind, name, expression, comment or ""))
    if not rows:
        raise TableError(f"{path}: no rows")
    return rows


def layout(rows):
    """std140 offsets; C++ members are 4-byte aligned, so gaps become explicit padding."""
    offset = 0
    placed = []
    for kind, name, expression, comment in rows:
        size, alignment, _ = TYPES[kind]
        aligned = (offset + alignment - 1) // alignment * alignment
        placed.append((aligned - offset, aligned, kind, name, expression, comment))
        offset = aligned + size
    size = (offset + 15) // 16 * 16  # a uniform block's size is a multiple of its vec4 alignment
    return placed, size


def header(placed, size, table):
    members, asserts, table_rows = [], [], []
    pads = 0
    for gap, offset, kind, name, _, comment in placed:
        if gap:
            members.append(f"  std::uint32_t pad{pads}[{gap // 4}];")
            pads += 1
        note = f"  {comment}" if comment else ""
        members.append(f"  {TYPES[kind][2] + ' ' + name + ';':<40}// {offset:4}{note}")
        asserts.append(f"static_assert(offsetof(StepParams, {name}) == {offset});")
        table_rows.append(f'    {{"{name}", {offset}}},')
    end = placed[-1][1] + TYPES[placed[-1][2]][0]
    if size > end:
        members.append(f"  std::uint32_t pad{pads}[{(size - end) // 4}];  // the block's size a multiple of 16")
    return f"""// Generated from {table.name} by cmake/generate_step_params.py; do not edit.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <glm/vec2.hpp>
#include <glm/vec4.hpp>

#include "sim/grid.hpp"
#include "sim/params.hpp"
#include "sim/rules.hpp"

namespace murmur::gpu::layout {{

// std140 uniform block StepParamsBlock (shaders/common/StepParams.glsl): {size} bytes.
struct StepParams {{
{chr(10).join(members)}
}};
static_assert(sizeof(StepParams) == {size});
{chr(10).join(asserts)}

// Every member's name and std140 offset (the driver's offsets are checked against these).
struct StepParamMember {{
  std::string_view name;
  std::size_t offset;
}};
inline constexpr std::array<StepParamMember, {len(placed)}> kStepParamMembers{{{{
{chr(10).join(table_rows)}
}}}};

// The block of one step; packed: the inputs as uploaded (obstacles, goals, predators, steering).
StepParams makeStepParams({ARGUMENTS});

}}  // namespace murmur::gpu::layout
"""


def source(placed, table):
    assignments = "\n".join(f"  p.{name} = {expression};" for _, _, _, name, expression, _ in placed)
    return f"""// Generated from {table.name} by cmake/generate_step_params.py; do not edit.
#include "gpu/step_params.hpp"

namespace murmur::gpu::layout {{

StepParams makeStepParams({ARGUMENTS}) {{
  StepParams p{{}};
{assignments}
  return p;
}}

}}  // namespace murmur::gpu::layout
"""


def glsl(placed, table):
    lines = []
    for _, offset, kind, name, _, comment in placed:
        note = f"  {comment}" if comment else ""
        lines.append(f"  {kind + ' ' + name + ';':<28}// {offset:4}{note}")
    return f"""// Generated from {table.name} by cmake/generate_step_params.py; do not edit.
// The per-step constants, laid out as gpu::layout::StepParams.
layout(std140, binding = STEP_PARAMS_BINDING) uniform StepParamsBlock {{
{chr(10).join(lines)}
}} P;
"""


def write_if_changed(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and path.read_text() == text:
        return
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text)
    temporary.replace(path)


def main(argv):
    if len(argv) != 3:
        print("usage: generate_step_params.py TABLE OUT_DIR", file=sys.stderr)
        return 2
    table, out = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    try:
        placed, size = layout(read_rows(table))
    except (TableError, OSError) as error:
        print(error, file=sys.stderr)
        return 1
    write_if_changed(out / "gpu" / "step_params.hpp", header(placed, size, table))
    write_if_changed(out / "gpu" / "step_params.cpp", source(placed, table))
    write_if_changed(out / "shaders" / "common" / "StepParams.glsl", glsl(placed, table))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
