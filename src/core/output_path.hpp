#pragma once
// Output paths (a --dump CSV, a frames or screenshots directory, a video, bench results) are checked
// before any work, so that a bad one fails in a moment with exit code 2 instead of after a long run.
// Murmur writes only regular files: an existing target that is a directory, a device or a symbolic
// link is refused (replacing it would destroy it; writing through it is rarely what was meant).
#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>

#include "core/error.hpp"

namespace murmur::core {

// Throws InputError (naming `option`, e.g. "--dump") unless a regular file can be written at path:
// the path is absent or a regular file, and its directory exists and is writable. Creates nothing.
void checkOutputFile(const std::string& path, const std::string& option);

// Throws InputError unless files can be written in the directory dir: it is a directory (not a
// symbolic link to one's impostor: any existing path must be a real directory) and writable, or it
// is absent and the nearest existing ancestor is a writable directory (it is created later).
// Creates nothing.
void checkOutputDirectory(const std::string& dir, const std::string& option);

// The output discipline of every file Murmur writes: the target is checked before any work
// (checkOutputFile, exit code 2 when it fails), then written to a uniquely named temporary beside it
// (<path>.tmp-XXXXXX, so the rename stays on one filesystem), every write and the close checked,
// flushed to the disk (fsync), and renamed over the target only when complete. An existing target is
// never replaced by a partial file: on any error, and when a stop was requested (SIGINT, SIGTERM),
// the temporary is removed. Write errors are OutputError (exit code 3).
class TemporaryOutput {
 public:
  // Checks path (checkOutputFile, InputError) and creates the empty temporary (OutputError).
  TemporaryOutput(std::string path, std::string option);
  TemporaryOutput(const TemporaryOutput&) = delete;
  TemporaryOutput& operator=(const TemporaryOutput&) = delete;
  ~TemporaryOutput();  // removes the temporary unless committed

  const std::string& path() const { return path_; }
  const std::string& temporaryPath() const { return temporary_; }
  // The temporary, open for writing; nullptr once closed (closeForOthers).
  std::FILE* file() const { return file_; }
  // Writes all of data; OutputError naming the target on failure (ENOSPC, EFBIG, EIO...).
  void write(const void* data, std::size_t size);
  // Closes Murmur's own handle so that another process (ffmpeg) can write the temporary by name.
  void closeForOthers();
  // Flushes, fsyncs, closes (each checked), checks the target again and renames the temporary over
  // it. StopRequested when a stop was requested before; OutputError when any step fails.
  void commit();
  // Throws OutputError naming the target, with errno's text: for a failed write through file().
  [[noreturn]] void fail(const std::string& what, int error) const;

 private:
  std::string path_, option_, temporary_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

// The same discipline for a directory of files (the headless demo's frames). checkOutputFolder,
// before any work: dir is absent, or a directory (or a link to one) that is empty or holds only
// files `ours` accepts (a previous run's), or any files when `overwrite`; its parent (created
// later when absent) writable; InputError (exit code 2) otherwise. The files go into a uniquely
// named temporary directory beside it (<dir>.tmp-XXXXXX); commit() puts the whole directory in
// place of the old one (exchanged in one rename, the old one then removed). On any error or stop
// the temporary and its files are removed and the old directory is left as it was.
void checkOutputFolder(const std::string& dir, const std::string& option,
                       const std::function<bool(const std::string&)>& ours, bool overwrite);
class TemporaryFolder {
 public:
  // Checks dir (checkOutputFolder), creates its missing parents and the temporary (OutputError).
  TemporaryFolder(std::string dir, std::string option, std::function<bool(const std::string&)> ours,
                  bool overwrite);
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  ~TemporaryFolder();  // removes the temporary and its files unless committed

  // The target as given, and the temporary directory to write the files into.
  const std::string& path() const { return path_; }
  const std::string& temporaryPath() const { return temporary_; }
  // Checks the target again and puts the temporary in its place. StopRequested when a stop was
  // requested before; OutputError when any step fails (the target then left as it was).
  void commit();

 private:
  std::string path_, target_, option_, temporary_;  // target_: path_ with a link to a directory resolved
  std::function<bool(const std::string&)> ours_;
  bool overwrite_;
  bool committed_ = false;
};

// A check of an output that failed after the work began (the command checked it before): the
// target changed during the run, OutputError (exit code 3) with the check's reason.
[[noreturn]] void failedDuringRun(const InputError& e, const std::string& path, const std::string& option);
// Runs write(), which writes `path` for `option` after the work, with failedDuringRun for its checks.
template <typename Write>
void writeAfterWork(const std::string& path, const std::string& option, Write write) {
  try {
    write();
  } catch (const InputError& e) {
    failedDuringRun(e, path, option);
  }
}

// Writes path through a TemporaryOutput: `write` fills the file (returning false on a write error,
// with errno set), then it is committed.
void writeFileAtomically(const std::string& path, const std::string& option,
                         const std::function<bool(std::FILE*)>& write);

// A clean stop on SIGINT and SIGTERM: the command's handler records the signal (async-signal-safe),
// long loops check it between steps and unwind with StopRequested, which removes the temporaries.
void requestStop(int signal) noexcept;
// The signal that asked for a stop, 0 while none did.
int stopSignal() noexcept;
// Throws StopRequested when a stop was requested.
void throwIfStopRequested();

}  // namespace murmur::core
