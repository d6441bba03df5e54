#include "core/output_path.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"

namespace murmur::core {
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

TemporaryOutput::TemporaryOutput(std::string path, std::string option)
    : path_(std::move(path)), option_(std::move(option)) {
  checkOutputFile(path_, option_);
  std::string name = path_ + ".tmp-XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail("cannot create a temporary file beside it", errno);
  temporary_ = name;
  if (::fchmod(fd, newFileMode()) != 0 || (file_ = ::fdopen(fd, "wb")) == nullptr) {
    const int error = errno;
    ::close(fd);
    fail("cannot open the temporary file", error);
  }
}

TemporaryOutput::~TemporaryOutput() {
  if (file_ != nullptr) std::fclose(file_);
  if (!committed_ && !temporary_.empty()) ::unlink(temporary_.c_str());
}

void TemporaryOutput::fail(const std::string& what, int error) const {
  throw OutputError(path_, option_, fmt::format("{}: {} (the target was left as it was)", what, std::strerror(error)));
}

void TemporaryOutput::write(const void* data, std::size_t size) {
  if (std::fwrite(data, 1, size, file_) != size) fail("cannot write the file", errno);
}

void TemporaryOutput::closeForOthers() {
  std::FILE* const file = std::exchange(file_, nullptr);
  if (std::fclose(file) != 0) fail("cannot close the temporary file", errno);
}

void TemporaryOutput::commit() {
  throwIfStopRequested();
  if (file_ != nullptr) {
    std::FILE* const file = std::exchange(file_, nullptr);
    const bool flushed = std::fflush(file) == 0 && ::fsync(::fileno(file)) == 0;
    const int error = errno;
    if (std::fclose(file) != 0 || !flushed) fail("cannot write the file", flushed ? errno : error);
  } else {  // written by another process: flush what it wrote
    const int fd = ::open(temporary_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
      const int error = errno;
      if (fd >= 0) ::close(fd);
      fail("cannot flush the file", error);
    }
    ::close(fd);
  }
  checkOutputFile(path_, option_);  // still a regular file or nothing: never rename over a link or device
  if (::rename(temporary_.c_str(), path_.c_str()) != 0) fail("cannot rename the temporary file", errno);
  committed_ = true;
}

void writeFileAtomically(const std::string& path, const std::string& option,
                         const std::function<bool(std::FILE*)>& write) {
  TemporaryOutput output(path, option);
  if (!write(output.file())) {
    const int error = errno;
    throwIfStopRequested();
    output.fail("cannot write the file", error);
  }
  output.commit();
}

namespace {
volatile std::sig_atomic_t requestedStop = 0;
}  // namespace

void requestStop(int signal) noexcept { requestedStop = signal; }

int stopSignal() noexcept { return requestedStop; }

void throwIfStopRequested() {
  if (const int signal = stopSignal(); signal != 0) throw StopRequested(signal);
}

}  // namespace murmur::core
