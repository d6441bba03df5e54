#pragma once
// Where murmur (and murmur_bench) find what they read at run time besides its input files: share/murmur/ (scenes,
// bench/report.py, and in a build tree data/, a link to the configured data directory). Found from
// the executable's own path, so that no source or build path is compiled in: a release bundle has
// bin/murmur with share/murmur/ beside bin/, a build tree has murmur with share/murmur/ beside it
// (src/CMakeLists.txt lays it out at build time). An unpacked bundle works wherever it lies.
#include <filesystem>

namespace murmur::sim {

// The directory of the running executable (/proc/self/exe).
std::filesystem::path executableDir();
// executableDir()/../share/murmur (a bundle) when it exists, else executableDir()/share/murmur (a
// build tree; it may not exist either).
std::filesystem::path shareDir();

}  // namespace murmur::sim
