// `murmur scenes`: the shipped scenes, one line each (the name --scene takes, and what it shows: the
// first sentence of the scene file's leading comment).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "app/command.hpp"
#include "app/scene_options.hpp"
#include "core/error.hpp"

namespace murmur::app {
namespace {

// The scene file's first comment line up to its first ". " or ": " (the scenes open with a sentence
// saying what they show).
std::string summaryOf(const std::filesystem::path& scene) {
  std::ifstream in(scene);
  std::string line;
  std::getline(in, line);
  if (line.rfind("# ", 0) != 0) return "";
  line.erase(0, 2);
  const std::size_t end = std::min(line.find(". "), line.find(": "));
  return end == std::string::npos ? line : line.substr(0, end);
}

class ScenesCommand final : public Command {
 public:
  void configure(CLI::App& sub) override {
    sub.footer("Example: murmur scenes, then murmur demo --scene maze2d");
  }

  int run() override {
    const std::vector<std::filesystem::path> scenes = shippedScenes();
    if (scenes.empty()) throw InputError("", 0, "", "no shipped scenes found (share/murmur/scenes beside murmur)");
    for (const std::filesystem::path& scene : scenes)
      fmt::print("{:<10} {}\n", scene.stem().string(), summaryOf(scene));
    return 0;
  }
};

}  // namespace

MURMUR_REGISTER_COMMAND(ScenesCommand, "scenes", "List the shipped scenes (--scene NAME runs one)");

}  // namespace murmur::app
