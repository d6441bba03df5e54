#pragma once
// How `murmur` and its commands print their help: a placeholder for each option's value (N, FILE,
// X,Y...) rather than the parser's type and validator internals, descriptions wrapped to the
// terminal's customary 80 columns, and footers with examples and, for the commands that take
// --scene, the shipped scenes.
#include <cstddef>
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace murmur::app {

// Width of the help text; a footer's lines are written to fit it too.
inline constexpr std::size_t kHelpWidth = 80;

// CLI11's formatter (2.1.2) prints, for `->check(integerIn(0, 2^63 - 1))` on an int64, "INT:INT in
// [0 - 9223372036854775807]": the type's name, then each validator's description after a colon, and
// a flag's default after its name ("--no-stats{false}"). This one prints the option's own placeholder
// (the text before the first colon: every option names it with ->type_name), "(required)" for a
// required option, and a "(not with --x)" after the description instead of "Excludes: --x".
class HelpFormatter final : public CLI::Formatter {
 public:
  HelpFormatter();
  std::string make_option_name(const CLI::Option* option, bool positional) const override;
  std::string make_option_opts(const CLI::Option* option) const override;
  std::string make_option_desc(const CLI::Option* option) const override;
  std::string make_subcommand(const CLI::App* command) const override;
};

// The shipped scenes (session/scene_source.hpp shippedScenes), one line each: the name --scene takes, then
// what the scene shows (the first sentence of the scene file's leading comment), every line after indent.
std::string sceneListing(const std::string& indent);

// A footer for a command that takes --scene: the shipped scenes, then the examples (read when help is
// printed, not at every start).
std::function<std::string()> scenesAndExamples(std::string examples);

}  // namespace murmur::app
