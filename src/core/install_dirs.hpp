#pragma once
// Where murmur (and murmur_bench) find what they read at run time besides its input files: share/murmur/ (scenes,
// bench/report.py, and in a build tree data/, a link to the configured data directory). Found from
// the executable's own path, so that no source or build path is compiled in: a release bundle has
// bin/murmur with share/murmur/ beside bin/, a build tree has murmur with share/murmur/ beside it
// (src/CMakeLists.txt lays it out at build time). An unpacked bundle works wherever it lies.
#include <filesystem>
#include <vector>

namespace murmur::core {

// The directory of the running executable (/proc/self/exe).
std::filesystem::path executableDir();
// executableDir()/../share/murmur (a bundle) when it exists, else executableDir()/share/murmur (a
// build tree; it may not exist either).
std::filesystem::path shareDir();
// Where data files (the MovingAI maps) are looked for when no option names a place, in order:
// $MURMUR_DATA_DIR when set, then shareDir()/data (in a build tree a link to the configured data
// directory).
std::vector<std::filesystem::path> dataDirectories();

}  // namespace murmur::core
