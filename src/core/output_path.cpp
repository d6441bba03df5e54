#include "core/output_path.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"

namespace murmur::core {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& path, const std::string& option, const std::string& message) {
  throw InputError(path, 0, option, message);
}

}  // namespace

void failedDuringRun(const InputError& e, const std::string& path, const std::string& option) {
  std::string reason = e.what();
  const std::string prefix = fmt::format("{}: {}: ", printable(path, 240), option);
  if (reason.rfind(prefix, 0) == 0) reason.erase(0, prefix.size());
  throw OutputError(path, option, fmt::format("changed during the run: {}", reason));
}

namespace {

// The directory a file path lies in ("." for a bare name).
std::string parentOf(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

// The suffix of a temporary beside its target (mkstemp's, mkdtemp's).
constexpr std::string_view kTemporarySuffix = ".tmp-XXXXXX";

void requireWritableDirectory(const std::string& dir, const std::string& path, const std::string& option) {
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0)
    fail(path, option, fmt::format("its directory {} does not exist", dir));
  if (!S_ISDIR(info.st_mode)) fail(path, option, fmt::format("{} is not a directory", dir));
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    fail(path, option, fmt::format("cannot write in {}: {}", dir, std::strerror(errno)));
  // An append-only or immutable directory (chattr +a, +i) takes a new file but no rename or removal:
  // the temporary would be left behind. Where the file system has no such flags, nothing to check.
  if (const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); fd >= 0) {
    int flags = 0;
    const bool known = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
    ::close(fd);
    if (known && (flags & (FS_APPEND_FL | FS_IMMUTABLE_FL)) != 0)
      fail(path, option,
           fmt::format(
               "{} is {} (chattr): murmur writes a temporary beside the target and renames it, which it "
               "forbids",
               dir, (flags & FS_IMMUTABLE_FL) != 0 ? "immutable" : "append-only"));
  }
}

// The name fits with the temporary's suffix in the directory's file system (NAME_MAX, PATH_MAX): a
// name of 245 bytes and more passed, and failed after the work.
void requireNameRoom(const std::string& path, const std::string& option) {
  const std::string name = fs::path(path).filename().string();
  const long nameMax = ::pathconf(parentOf(path).c_str(), _PC_NAME_MAX);
  const std::size_t most = (nameMax > 0 ? std::size_t(nameMax) : 255) - kTemporarySuffix.size();
  if (name.size() > most)
    fail(
        path, option,
        fmt::format("the name is {} bytes, more than the {} the file system leaves beside a temporary's '{}'",
                    name.size(), most, kTemporarySuffix));
  if (path.size() + kTemporarySuffix.size() >= PATH_MAX)
    fail(path, option,
         fmt::format("the path is {} bytes, too long for the file system ({})", path.size(), PATH_MAX));
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
      fail(path, option,
           "is not a regular file (a device, pipe or socket); murmur writes only regular files");
    if (::access(path.c_str(), W_OK) != 0)
      fail(path, option, fmt::format("cannot write: {}", std::strerror(errno)));
  }
  requireWritableDirectory(parentOf(path), path, option);
  requireNameRoom(path, option);
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
  if (fd < 0) {
    const int error = errno;
    checkOutputFile(path_, option_);  // the directory changed since the check: say how
    fail("cannot create a temporary file beside it", error);
  }
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
  throw OutputError(path_, option_,
                    fmt::format("{}: {} (the target was left as it was)", what, std::strerror(error)));
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
  // Still a regular file or nothing: never rename over a link or device. A rename that fails after
  // the check passed met a directory that changed in between: checked again, it says how.
  const auto recheck = [&] {
    try {
      checkOutputFile(path_, option_);
    } catch (const InputError& e) {
      failedDuringRun(e, path_, option_);
    }
  };
  recheck();
  if (::rename(temporary_.c_str(), path_.c_str()) != 0) {
    const int error = errno;
    recheck();
    fail("cannot rename the temporary file", error);
  }
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

void checkOutputFolder(const std::string& dir, const std::string& option,
                       const std::function<bool(const std::string&)>& ours, bool overwrite) {
  checkOutputDirectory(dir, option);
  requireNameRoom(fs::path(dir).lexically_normal().string(), option);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;  // absent: created at commit
  std::size_t others = 0;
  std::string example;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file(ec) && !entry.is_symlink(ec) && ours(name)) continue;
    if (others++ == 0) example = name;
  }
  if (ec) fail(dir, option, fmt::format("cannot list the directory: {}", ec.message()));
  if (others > 0 && !overwrite)
    fail(dir, option,
         fmt::format(
             "holds {} file{} that no run of this kind wrote (e.g. '{}'): name an empty or new directory, "
             "or pass --overwrite to replace it whole",
             others, others == 1 ? "" : "s", example));
}

TemporaryFolder::TemporaryFolder(std::string dir, std::string option,
                                 std::function<bool(const std::string&)> ours, bool overwrite)
    : path_(std::move(dir)), option_(std::move(option)), ours_(std::move(ours)), overwrite_(overwrite) {
  checkOutputFolder(path_, option_, ours_, overwrite_);
  std::error_code ec;
  fs::path target = fs::path(path_).lexically_normal();
  if (target.filename().empty()) target = target.parent_path();  // "frames/"
  if (fs::is_symlink(target, ec)) target = fs::canonical(target, ec);
  target_ = target.string();
  const fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  fs::create_directories(parent, ec);
  if (ec)
    throw OutputError(path_, option_, fmt::format("cannot create {}: {}", parent.string(), ec.message()));
  std::string name = target_ + ".tmp-XXXXXX";
  if (::mkdtemp(name.data()) == nullptr)
    throw OutputError(path_, option_,
                      fmt::format("cannot create a temporary directory beside it: {}", std::strerror(errno)));
  temporary_ = name;
  ::chmod(
      temporary_.c_str(), 0777 & ~[] {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        return mask;
      }());
}

TemporaryFolder::~TemporaryFolder() {
  if (committed_ || temporary_.empty()) return;
  std::error_code ec;
  fs::remove_all(temporary_, ec);
}

void TemporaryFolder::commit() {
  throwIfStopRequested();
  const auto failed = [&](const std::string& what, int error) {
    throw OutputError(path_, option_,
                      fmt::format("{}: {} (the target was left as it was)", what, std::strerror(error)));
  };
  if (!fs::is_directory(temporary_)) failed("the temporary directory vanished", ENOENT);
  try {
    checkOutputFolder(target_, option_, ours_, overwrite_);  // still ours to replace
  } catch (const InputError& e) {
    failedDuringRun(e, path_, option_);
  }
  struct stat info {};
  if (::lstat(target_.c_str(), &info) != 0) {
    if (::rename(temporary_.c_str(), target_.c_str()) != 0)
      failed("cannot rename the temporary directory", errno);
    committed_ = true;
    return;
  }
  // The old directory and the new exchanged at once: readers see one run's frames or the other's.
  if (::renameat2(AT_FDCWD, temporary_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) != 0)
    failed("cannot put the directory in place", errno);
  committed_ = true;
  std::error_code ec;
  fs::remove_all(temporary_, ec);  // now the old one
}

namespace {
volatile std::sig_atomic_t requestedStop = 0;
}  // namespace

void requestStop(int signal) noexcept {
  requestedStop = signal;
}

int stopSignal() noexcept {
  return requestedStop;
}

void throwIfStopRequested() {
  if (const int signal = stopSignal(); signal != 0) throw StopRequested(signal);
}

}  // namespace murmur::core
