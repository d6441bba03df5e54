// `murmur scenes`: the shipped scenes, one line each (the name --scene takes, and what it shows: the
// first sentence of the scene file's leading comment).
#include <string>

#include <fmt/format.h>

#include "app/command.hpp"
#include "app/help.hpp"
#include "core/error.hpp"

namespace murmur::app {
namespace {

class ScenesCommand final : public Command {
 public:
  void configure(CLI::App& sub) override {
    sub.footer(
        "Examples:\n"
        "  murmur scenes\n"
        "  murmur demo --scene maze2d    # then show one");
  }

  int run() override {
    const std::string listing = sceneListing("");
    if (listing.empty())
      throw InputError("", 0, "", "no shipped scenes found (share/murmur/scenes beside murmur)");
    fmt::print("{}", listing);
    return 0;
  }
};

}  // namespace

MURMUR_REGISTER_COMMAND(ScenesCommand, "scenes", "List the shipped scenes (--scene NAME runs one)");

}  // namespace murmur::app
