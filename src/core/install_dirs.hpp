#pragma once
// Where murmur, murmur_bench and the library (libmurmur.so, so also the Python module) find what they
// read at run time besides their input files: share/murmur/ (scenes, bench/report.py, data/). Found
// from the path of the binary that holds this code, so that no source or build path is compiled in:
// an install or bundle has bin/murmur and lib/libmurmur.so with share/murmur/ beside bin/ and lib/,
// a build tree has murmur and libmurmur.so with share/murmur/ beside them (src/CMakeLists.txt lays it
// out at build time). An unpacked bundle works wherever it lies; $MURMUR_SHARE_DIR overrides.
#include <filesystem>
#include <vector>

namespace murmur::core {

// The directory of the binary holding this code: the executable, or the shared library a program
// loaded (dladdr); /proc/self/exe's when that fails.
std::filesystem::path binaryDir();
// $MURMUR_SHARE_DIR when set, else binaryDir()/../share/murmur (an install) when it exists, else
// binaryDir()/share/murmur (a build tree; it may not exist either).
std::filesystem::path shareDir();
// Where data files (the MovingAI maps) are looked for when no option names a place, in order:
// $MURMUR_DATA_DIR when set, then shareDir()/data (in a build tree a link to the configured data
// directory).
std::vector<std::filesystem::path> dataDirectories();

}  // namespace murmur::core
