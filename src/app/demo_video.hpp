#pragma once
// A video written by an `ffmpeg` child process (Debian's ffmpeg: H.264 in MP4, MOV or Matroska, by the
// file name's extension) fed raw RGBA frames over a pipe: the demo's headless --video and the window's
// record button. No frame touches the disk on the way. ffmpeg writes a temporary beside the target
// (core::TemporaryOutput), renamed over it only when ffmpeg exits 0 and ffprobe reads every frame back
// (ffmpeg can exit 0 after its writes failed, on a full disk): a failed or stopped recording never
// replaces an existing video.
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app/child_process.hpp"
#include "core/output_path.hpp"
#include "render/png_writer.hpp"

namespace murmur::app {

class VideoEncoder {
 public:
  // Starts ffmpeg writing a temporary for `path` from width x height frames at `fps`, with `tags` as
  // the container's metadata (any key, in MP4 and MOV too). InputError naming `option` when
  // checkVideoOutput refuses path.
  VideoEncoder(const std::string& path, int width, int height, double fps, const std::string& option,
               std::span<const render::TextTag> tags);
  VideoEncoder(const VideoEncoder&) = delete;
  VideoEncoder& operator=(const VideoEncoder&) = delete;
  ~VideoEncoder();  // unless finished: stops ffmpeg and removes the temporary

  // One frame: width * height * 4 bytes, rows top to bottom (OffscreenTarget::readRgba).
  // OutputError (with ffmpeg's last error line) when ffmpeg has gone.
  void write(const std::vector<std::uint8_t>& rgba);
  // Closes the pipe, waits for ffmpeg, reads the video back and renames it into place; OutputError
  // (with ffmpeg's or ffprobe's last error line) when ffmpeg failed or the file does not hold every
  // frame, StopRequested when a stop was requested.
  void finish();

  const std::string& path() const { return output_.path(); }
  std::uint64_t frames() const { return frames_; }
  std::size_t frameBytes() const { return frameBytes_; }

 private:
  // Waits for ffmpeg; its last error line when it failed, nullopt when it exited 0.
  std::optional<std::string> close();
  // Counts the temporary's video packets with ffprobe; what is wrong, nullopt when it holds frames().
  std::optional<std::string> readBack() const;

  core::TemporaryOutput output_;
  std::string log_;  // ffmpeg's stderr, a temporary file
  std::size_t frameBytes_;
  std::optional<ChildProcess> ffmpeg_;  // in a process group of its own: a terminal's Ctrl+C is Murmur's
  std::FILE* pipe_ = nullptr;           // the frames, into ffmpeg's stdin
  std::uint64_t frames_ = 0;
};

// True when executables `ffmpeg` and `ffprobe` (both in Debian's ffmpeg) are on PATH.
bool ffmpegAvailable();
// InputError naming `option` when ffmpeg or ffprobe is not on PATH, `path` is no writable regular file
// (core::checkOutputFile), or its extension names no container ffmpeg is asked for (.mp4, .m4v,
// .mov, .mkv, or none: MP4): the check the encoder makes, for callers that check before any work.
void checkVideoOutput(const std::string& path, const std::string& option);

}  // namespace murmur::app
