#include "app/demo_video.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "app/child_process.hpp"
#include "app/shell.hpp"
#include "core/error.hpp"
#include "core/output_path.hpp"
#include "core/parse_number.hpp"

namespace murmur::app {

namespace {

bool onPath(const char* program) {
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "";
  while (!dirs.empty()) {
    const std::size_t colon = dirs.find(':');
    const std::string dir(dirs.substr(0, colon));
    if (!dir.empty() && ::access((std::filesystem::path(dir) / program).c_str(), X_OK) == 0) return true;
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
  }
  return false;
}

}  // namespace

bool ffmpegAvailable() {
  return onPath("ffmpeg") && onPath("ffprobe");
}

namespace {

// ffmpeg's muxer for the container the extension names (a temporary name has no telling extension, so
// the format is always given), nullopt for an extension Murmur does not write.
std::optional<std::string> containerFormat(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (extension.empty() || extension == ".mp4" || extension == ".m4v") return "mp4";
  if (extension == ".mov") return "mov";
  if (extension == ".mkv") return "matroska";
  return std::nullopt;
}

std::string temporaryLog() {
  std::string name = (std::filesystem::temp_directory_path() / "murmur-ffmpeg-XXXXXX").string();
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    throw std::runtime_error(fmt::format("cannot create a log file for ffmpeg: {}", std::strerror(errno)));
  ::close(fd);
  return name;
}

}  // namespace

void checkVideoOutput(const std::string& path, const std::string& option) {
  if (!ffmpegAvailable())
    throw InputError("", 0, option,
                     "ffmpeg (with ffprobe) is not on PATH: install it (Debian package ffmpeg) to write " +
                         path + ", or leave out " + option + " to write PNG frames");
  core::checkOutputFile(path, option);
  if (!containerFormat(path))
    throw InputError(
        path, 0, option,
        "not a video name Murmur writes: end it in .mp4, .m4v, .mov or .mkv (or no extension: MP4)");
}

VideoEncoder::VideoEncoder(const std::string& path, int width, int height, double fps,
                           const std::string& option, std::span<const render::TextTag> tags)
    : output_((checkVideoOutput(path, option), path), option),
      log_(temporaryLog()),
      frameBytes_(std::size_t(width) * std::size_t(height) * 4) {
  output_.closeForOthers();
  // H.264 wants even sides: the last row or column is repeated when a side is odd. -y: the temporary
  // exists (created empty, with a unique name); "file:" keeps a name starting with '-' a file name.
  // stdin is the frames; stderr goes to the log. A dead ffmpeg shows as a write error (EPIPE: main
  // ignores SIGPIPE).
  std::vector<std::string> args = {"ffmpeg",       "-nostdin",
                                   "-hide_banner", "-loglevel",
                                   "error",        "-y",
                                   "-f",           "rawvideo",
                                   "-pix_fmt",     "rgba",
                                   "-s",           fmt::format("{}x{}", width, height),
                                   "-r",           fmt::format("{}", fps),
                                   "-i",           "-",
                                   "-vf",          "pad=ceil(iw/2)*2:ceil(ih/2)*2",
                                   "-c:v",         "libx264",
                                   "-preset",      "veryfast",
                                   "-crf",         "20",
                                   "-pix_fmt",     "yuv420p",
                                   "-movflags",    "+faststart+use_metadata_tags"};
  for (const render::TextTag& tag : tags) args.insert(args.end(), {"-metadata", tag.key + "=" + tag.value});
  args.insert(args.end(), {"-f", *containerFormat(path), fmt::format("file:{}", output_.temporaryPath())});
  std::signal(SIGPIPE, SIG_IGN);
  int frames[2];
  const int logFd = ::open(log_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (logFd < 0 || ::pipe2(frames, O_CLOEXEC) != 0) {
    const int error = errno;
    if (logFd >= 0) ::close(logFd);
    std::remove(log_.c_str());
    throw std::runtime_error(fmt::format("cannot start ffmpeg: {}", std::strerror(error)));
  }
  try {
    ffmpeg_.emplace(args, ChildProcess::Streams{frames[0], -1, logFd}, true);
  } catch (...) {
    ::close(frames[0]);
    ::close(frames[1]);
    ::close(logFd);
    std::remove(log_.c_str());
    throw;
  }
  ::close(frames[0]);
  ::close(logFd);
  pipe_ = ::fdopen(frames[1], "w");
}

VideoEncoder::~VideoEncoder() {
  if (pipe_ != nullptr) std::fclose(pipe_);
  if (ffmpeg_) ffmpeg_->terminate();  // unless finished: a stop or an error
  std::remove(log_.c_str());
}

std::optional<std::string> VideoEncoder::close() {
  std::fclose(std::exchange(pipe_, nullptr));
  const int status = ffmpeg_->wait();
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return std::nullopt;
  const std::string line = lastLine(log_);
  return fmt::format("ffmpeg failed ({}{}){}", WIFEXITED(status) ? "exit status " : "signal ",
                     WIFEXITED(status) ? WEXITSTATUS(status) : (WIFSIGNALED(status) ? WTERMSIG(status) : -1),
                     line.empty() ? "" : ": " + line);
}

void VideoEncoder::write(const std::vector<std::uint8_t>& rgba) {
  if (rgba.size() != frameBytes_)
    throw std::logic_error(fmt::format("video frame of {} bytes, expected {}", rgba.size(), frameBytes_));
  if (pipe_ == nullptr) throw std::logic_error("video frame after finish()");
  if (std::fwrite(rgba.data(), 1, rgba.size(), pipe_) != rgba.size()) {
    const std::optional<std::string> failure = close();
    throw OutputError(path(), "",
                      failure.value_or("ffmpeg stopped taking frames") + " (the target was left as it was)");
  }
  ++frames_;
}

std::optional<std::string> VideoEncoder::readBack() const {
  // Demuxing only (no decoding): quick even for a long video.
  std::string count;
  const int code =
      runLines({"ffprobe", "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries",
                "stream=nb_read_packets", "-of", "csv=p=0", fmt::format("file:{}", output_.temporaryPath())},
               log_, [&](const std::string& line) {
                 if (count.empty()) count = line;
               });
  const std::string line = lastLine(log_);
  if (code < 0 && line.empty()) return "cannot start ffprobe to read the video back";
  if (code != 0 || count.empty())
    return fmt::format("ffmpeg exited 0 but its video does not read back (ffprobe: {}; a full disk?)",
                       line.empty() ? "no video stream" : line);
  const std::optional<std::uint64_t> packets = core::parseNumber<std::uint64_t>(std::string_view(count));
  if (packets != frames_)
    return fmt::format("ffmpeg exited 0 but its video holds {} of {} frames (a full disk?)",
                       packets ? std::to_string(*packets) : count, frames_);
  return std::nullopt;
}

void VideoEncoder::finish() {
  if (pipe_ == nullptr) return;
  core::throwIfStopRequested();
  if (const std::optional<std::string> failure = close())
    throw OutputError(path(), "", *failure + " (the target was left as it was)");
  if (const std::optional<std::string> failure = readBack())
    throw OutputError(path(), "", *failure + " (the target was left as it was)");
  output_.commit();
}

}  // namespace murmur::app
