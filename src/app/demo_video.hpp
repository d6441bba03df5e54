#pragma once
// A video written by an `ffmpeg` child process (Debian's ffmpeg: H.264 in MP4, or whatever the file
// name asks for) fed raw RGBA frames over a pipe: the demo's headless --video and the window's
// record button. No frame touches the disk on the way.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace murmur::app {

class VideoEncoder {
 public:
  // Starts ffmpeg writing `path` from width x height frames at `fps`. InputError naming `option`
  // when ffmpeg is not on PATH (frames can still be written as PNG) or the file cannot be written.
  VideoEncoder(const std::string& path, int width, int height, double fps, const std::string& option);
  VideoEncoder(const VideoEncoder&) = delete;
  VideoEncoder& operator=(const VideoEncoder&) = delete;
  ~VideoEncoder();  // finish() unless done; errors are lost there

  // One frame: width * height * 4 bytes, rows top to bottom (OffscreenTarget::readRgba).
  // std::runtime_error when ffmpeg has gone.
  void write(const std::vector<std::uint8_t>& rgba);
  // Closes the pipe and waits for ffmpeg; std::runtime_error when it failed.
  void finish();

  const std::string& path() const { return path_; }
  std::uint64_t frames() const { return frames_; }
  std::size_t frameBytes() const { return frameBytes_; }

 private:
  std::string path_;
  std::size_t frameBytes_;
  std::FILE* pipe_ = nullptr;
  std::uint64_t frames_ = 0;
};

// True when an executable `ffmpeg` is on PATH.
bool ffmpegAvailable();
// InputError naming `option` when ffmpeg is not on PATH or `path` is no writable regular file
// (sim::checkOutputFile): the check the encoder makes, for callers that check before any work.
void checkVideoOutput(const std::string& path, const std::string& option);

}  // namespace murmur::app
