#pragma once
// Where a release bundle keeps what the binaries read at run time: bin/murmur and bin/murmur_bench,
// share/murmur/ (scenes, bench/report.py) beside bin/. Found from the executable's own path, so an
// unpacked bundle works wherever it lies; a build tree has the same programs side by side.
#include <filesystem>

namespace murmur::app {

// The directory of the running executable (/proc/self/exe).
std::filesystem::path executableDir();
// executableDir()/../share/murmur (it exists only in an installed bundle).
std::filesystem::path installedShareDir();

}  // namespace murmur::app
