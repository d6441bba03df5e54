// The cost of the output discipline (core/output_path.hpp: a unique temporary beside the target,
// every write checked, fflush + fsync, the target checked again, rename), side by side with the
// same bytes written the way Murmur wrote them before it: straight into the target with fopen,
// fwrite and fclose, no fsync, no rename.
//
//   output/dump/n:1000000/plain|atomic   the state CSV of `murmur run --dump` for 1M spawned boids
//                                        (sim::writeStateCsvText into the target; sim::writeStateCsv),
//                                        the same target replaced every iteration, as --dump does
//   output/frame/1280x720/plain|atomic   one PNG frame of `murmur demo --frames` at its default size,
//                                        encoded every iteration (render::encodePng into a new file;
//                                        render::writePng), a new file every iteration, as --frames
//                                        does
//
// Wall clock (fsync waits for the disk, using no CPU). Counters: bytes_per_second (file bytes
// written), items_per_second (boids or frames), file_bytes. The files go to a fresh directory under
// std::filesystem::temp_directory_path(), removed after each case: the figures are that disk's.
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "bench_common.hpp"
#include "render/png_writer.hpp"
#include "sim/builders.hpp"
#include "sim/state_csv.hpp"

namespace murmur::bench {
namespace {

constexpr std::uint32_t kDumpBoids = 1'000'000;
constexpr int kFrameWidth = 1280;  // murmur demo's default --size
constexpr int kFrameHeight = 720;
constexpr int kFrameBoids = 30'000;

// A fresh directory for one case's files, removed with them when the case ends.
class ScratchDirectory {
 public:
  ScratchDirectory() {
    std::string name = (std::filesystem::temp_directory_path() / "murmur-bench-output-XXXXXX").string();
    if (::mkdtemp(name.data()) == nullptr) throw std::system_error(errno, std::generic_category(), name);
    path_ = name;
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// The way before the discipline: fopen, the bytes, fclose. Returns false on any error (errno set).
template <typename Write>
bool writePlain(const std::string& path, Write write) {
  std::FILE* const file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return false;
  const bool written = write(file);
  return std::fclose(file) == 0 && written;
}

// Runs one case: write(directory, iteration) writes one file and returns its size, throwing or
// returning 0 (errno set) on failure. Dirty pages of earlier cases are flushed (sync) before
// timing, so that no case pays for another's writeback.
template <typename Write>
void timeWrites(benchmark::State& state, std::int64_t itemsPerFile, Write write) {
  try {
    const ScratchDirectory directory;
    ::sync();
    std::uint64_t bytes = 0;
    std::int64_t iteration = 0;
    for (auto _ : state) {
      bytes = write(directory, iteration++);
      if (bytes == 0) {
        state.SkipWithError(fmt::format("cannot write: {}", std::strerror(errno)).c_str());
        return;
      }
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
    state.SetItemsProcessed(itemsPerFile * state.iterations());
    state.counters["file_bytes"] = static_cast<double>(bytes);
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
  }
}

void dump(benchmark::State& state, bool atomic) {
  static const sim::FlockState flock = sim::spawnFlock(sim::defaultDensityScene(kDumpBoids));
  timeWrites(state, kDumpBoids, [atomic](const ScratchDirectory& directory, std::int64_t) -> std::uint64_t {
    const std::string path = directory.file("dump.csv");
    if (atomic)
      sim::writeStateCsv(path, flock, "--dump");
    else if (!writePlain(path, [](std::FILE* file) { return sim::writeStateCsvText(file, flock); }))
      return 0;
    return std::filesystem::file_size(path);
  });
}

// A stand-in for a rendered frame (no GL needed): the demo's sky, a vertical gradient from light blue
// to grey, with 30,000 shaded 3x2 specks in three group colours at fixed pseudo-random places in the
// middle of the picture. Its PNG (335 KB) is about as large as a real demo frame at this size
// (docs/images/demo-frame.png, 364 KB), so encoding and writing it take about as long.
const std::vector<std::uint8_t>& frameRgba() {
  static const std::vector<std::uint8_t> rgba = [] {
    std::vector<std::uint8_t> pixels(std::size_t(kFrameWidth) * kFrameHeight * 4);
    for (int y = 0; y < kFrameHeight; ++y) {
      const float t = float(y) / float(kFrameHeight - 1);
      const std::uint8_t sky[4] = {std::uint8_t(std::lround(215 - 70 * t)),
                                   std::uint8_t(std::lround(228 - 68 * t)),
                                   std::uint8_t(std::lround(242 - 66 * t)), 255};
      for (int x = 0; x < kFrameWidth; ++x)
        for (int c = 0; c < 4; ++c)
          pixels[(std::size_t(y) * kFrameWidth + std::size_t(x)) * 4 + std::size_t(c)] = sky[c];
    }
    const std::uint8_t groups[3][3] = {{220, 140, 70}, {70, 130, 220}, {220, 70, 90}};
    std::uint32_t random = 12345;
    const auto next = [&random](std::uint32_t range) {
      random = random * 1664525u + 1013904223u;  // a fixed sequence: the same frame in every run
      return (random >> 8) % range;
    };
    for (int boid = 0; boid < kFrameBoids; ++boid) {
      const std::uint32_t x0 = kFrameWidth / 4 + next(kFrameWidth / 2),
                          y0 = kFrameHeight / 6 + next(kFrameHeight / 3);
      const std::uint32_t shade = next(64);  // each speck a little darker, its columns alternating: detail
      const std::uint8_t* colour = groups[boid % 3];
      for (std::uint32_t y = y0; y < y0 + 2; ++y)
        for (std::uint32_t x = x0; x < x0 + 3; ++x)
          for (int c = 0; c < 3; ++c)
            pixels[(std::size_t(y) * kFrameWidth + x) * 4 + std::size_t(c)] =
                std::uint8_t(colour[c] - shade + x % 2 * 16);
    }
    return pixels;
  }();
  return rgba;
}

void frame(benchmark::State& state, bool atomic) {
  const std::vector<std::uint8_t>& rgba = frameRgba();
  timeWrites(state, 1,
             [&rgba, atomic](const ScratchDirectory& directory, std::int64_t index) -> std::uint64_t {
               const std::string path = directory.file(fmt::format("frame-{:06d}.png", index));
               if (atomic) {
                 render::writePng(path, kFrameWidth, kFrameHeight, rgba, "--frames");
               } else {
                 const std::vector<std::uint8_t> png = render::encodePng(kFrameWidth, kFrameHeight, rgba);
                 if (!writePlain(path, [&png](std::FILE* file) {
                       return std::fwrite(png.data(), 1, png.size(), file) == png.size();
                     }))
                   return 0;
               }
               return std::filesystem::file_size(path);
             });
}

}  // namespace

void registerOutputBenchmarks() {
  // Each output as a pair, plain then atomic, side by side in the run and in the report.
  const auto addPair = [](const std::string& name, void (*run)(benchmark::State&, bool)) {
    for (const bool atomic : {false, true})
      benchmark::RegisterBenchmark((name + (atomic ? "/atomic" : "/plain")).c_str(),
                                   [run, atomic](benchmark::State& s) { run(s, atomic); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  };
  addPair(fmt::format("output/dump/n:{}", kDumpBoids), dump);
  addPair(fmt::format("output/frame/{}x{}", kFrameWidth, kFrameHeight), frame);
}

}  // namespace murmur::bench
