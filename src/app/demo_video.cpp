#include "app/demo_video.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "app/shell.hpp"
#include "sim/output_path.hpp"

namespace murmur::app {
namespace {

}  // namespace

bool ffmpegAvailable() {
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "";
  while (!dirs.empty()) {
    const std::size_t colon = dirs.find(':');
    const std::string dir(dirs.substr(0, colon));
    if (!dir.empty() && ::access((std::filesystem::path(dir) / "ffmpeg").c_str(), X_OK) == 0) return true;
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
  }
  return false;
}

void checkVideoOutput(const std::string& path, const std::string& option) {
  if (!ffmpegAvailable())
    throw InputError("", 0, option,
                     "ffmpeg is not on PATH: install it (Debian package ffmpeg) to write " + path +
                         ", or leave out " + option + " to write PNG frames");
  sim::checkOutputFile(path, option);
}

VideoEncoder::VideoEncoder(const std::string& path, int width, int height, double fps, const std::string& option)
    : path_(path), frameBytes_(std::size_t(width) * std::size_t(height) * 4) {
  checkVideoOutput(path, option);
  // A dead ffmpeg must show as a write error here, not end the process.
  std::signal(SIGPIPE, SIG_IGN);
  // H.264 wants even sides: the last row or column is repeated when a side is odd.
  const std::string command = fmt::format(
      "ffmpeg -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgba -s {}x{} -r {} -i - "
      "-vf 'pad=ceil(iw/2)*2:ceil(ih/2)*2' -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p "
      "-movflags +faststart {}",
      width, height, fps, shellQuoted(path));
  pipe_ = ::popen(command.c_str(), "w");
  if (pipe_ == nullptr) throw std::runtime_error("cannot start ffmpeg: " + command);
}

VideoEncoder::~VideoEncoder() {
  if (pipe_ != nullptr) ::pclose(pipe_);
}

void VideoEncoder::write(const std::vector<std::uint8_t>& rgba) {
  if (rgba.size() != frameBytes_)
    throw std::logic_error(fmt::format("video frame of {} bytes, expected {}", rgba.size(), frameBytes_));
  if (std::fwrite(rgba.data(), 1, rgba.size(), pipe_) != rgba.size())
    throw std::runtime_error("ffmpeg stopped taking frames for " + path_ + " (its error is above)");
  ++frames_;
}

void VideoEncoder::finish() {
  if (pipe_ == nullptr) return;
  const int status = ::pclose(pipe_);
  pipe_ = nullptr;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(fmt::format("ffmpeg failed writing {} (exit status {})", path_,
                                         WIFEXITED(status) ? WEXITSTATUS(status) : -1));
}

}  // namespace murmur::app
