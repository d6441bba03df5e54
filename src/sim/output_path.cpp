#include "sim/output_path.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "sim/error.hpp"

namespace murmur::sim {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& path, const std::string& option, const std::string& message) {
  throw InputError(path, 0, option, message);
}

// The directory a file path lies in ("." for a bare name).
std::string parentOf(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

void requireWritableDirectory(const std::string& dir, const std::string& path, const std::string& option) {
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0)
    fail(path, option, fmt::format("its directory {} does not exist", dir));
  if (!S_ISDIR(info.st_mode)) fail(path, option, fmt::format("{} is not a directory", dir));
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    fail(path, option, fmt::format("cannot write in {}: {}", dir, std::strerror(errno)));
}

// The permissions a plain fopen would give a new file (0666 less the umask); mkstemp gives 0600.
mode_t newFileMode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

void checkOutputFile(const std::string& path, const std::string& option) {
  if (path.empty()) fail(path, option, "empty path");
  struct stat info {};
  if (::lstat(path.c_str(), &info) == 0) {
    if (S_ISLNK(info.st_mode)) fail(path, option, "is a symbolic link; murmur writes only regular files");
    if (S_ISDIR(info.st_mode)) fail(path, option, "is a directory");
    if (!S_ISREG(info.st_mode))
      fail(path, option, "is not a regular file (a device, pipe or socket); murmur writes only regular files");
    if (::access(path.c_str(), W_OK) != 0)
      fail(path, option, fmt::format("cannot write: {}", std::strerror(errno)));
  }
  requireWritableDirectory(parentOf(path), path, option);
}

void checkOutputDirectory(const std::string& dir, const std::string& option) {
  if (dir.empty()) fail(dir, option, "empty path");
  fs::path existing = fs::path(dir);
  while (true) {
    struct stat info {};
    if (::lstat(existing.c_str(), &info) == 0) {
      if (S_ISLNK(info.st_mode) && existing == fs::path(dir)) {
        // A link to a directory is what a user means by "that directory": follow it.
        if (::stat(existing.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
          fail(dir, option, "is a symbolic link that does not lead to a directory");
      }
      requireWritableDirectory(existing.string(), dir, option);
      return;
    }
    if (!existing.has_parent_path() || existing.parent_path() == existing) {
      existing = ".";
      continue;
    }
    existing = existing.parent_path();
  }
}

void writeFileAtomically(const std::string& path, const std::string& option,
                         const std::function<bool(std::FILE*)>& write) {
  checkOutputFile(path, option);
  const std::string pattern = path + ".tmp-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(path, option, fmt::format("cannot create a temporary file: {}", std::strerror(errno)));
  const std::string temporary(name.data());
  std::FILE* file = ::fchmod(fd, newFileMode()) == 0 ? ::fdopen(fd, "wb") : nullptr;
  if (file == nullptr) ::close(fd);
  bool ok = file != nullptr && write(file);
  ok = (file == nullptr || std::fclose(file) == 0) && ok;
  if (ok) ok = ::rename(temporary.c_str(), path.c_str()) == 0;
  if (!ok) {
    const int error = errno;
    ::unlink(temporary.c_str());
    fail(path, option, fmt::format("cannot write the file: {}", std::strerror(error)));
  }
}

}  // namespace murmur::sim
