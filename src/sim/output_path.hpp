#pragma once
// Output paths (a --dump CSV, a frames or screenshots directory, a video, bench results) are checked
// before any work, so that a bad one fails in a moment with exit code 2 instead of after a long run.
// Murmur writes only regular files: an existing target that is a directory, a device or a symbolic
// link is refused (replacing it would destroy it; writing through it is rarely what was meant).
#include <cstdio>
#include <functional>
#include <string>

namespace murmur::sim {

// Throws InputError (naming `option`, e.g. "--dump") unless a regular file can be written at path:
// the path is absent or a regular file, and its directory exists and is writable. Creates nothing.
void checkOutputFile(const std::string& path, const std::string& option);

// Throws InputError unless files can be written in the directory dir: it is a directory (not a
// symbolic link to one's impostor: any existing path must be a real directory) and writable, or it
// is absent and the nearest existing ancestor is a writable directory (it is created later).
// Creates nothing.
void checkOutputDirectory(const std::string& dir, const std::string& option);

// Writes path atomically: `write` fills a temporary file with a unique name in the same directory
// (returning false on a write error), then it is renamed over path. The target is checked with
// checkOutputFile again just before; on any error the temporary file is removed and InputError
// (naming option) thrown, leaving path as it was.
void writeFileAtomically(const std::string& path, const std::string& option,
                         const std::function<bool(std::FILE*)>& write);

}  // namespace murmur::sim
