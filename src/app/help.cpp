#include "app/help.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "app/scene_options.hpp"

namespace murmur::app {
namespace {

// The column where option and command descriptions start (longer names push theirs to the next line).
constexpr std::size_t kDescriptionColumn = 26;

// text with its words moved to new lines so that no line is longer than width (a longer word keeps
// a line of its own); the line breaks it has are kept.
std::string wrapped(const std::string& text, std::size_t width) {
  std::string out;
  std::istringstream paragraphs(text);
  for (std::string paragraph; std::getline(paragraphs, paragraph);) {
    if (!out.empty()) out += '\n';
    std::istringstream words(paragraph);
    std::size_t lineLength = 0;
    for (std::string word; words >> word;) {
      if (lineLength > 0 && lineLength + 1 + word.size() > width) {
        out += '\n';
        lineLength = 0;
      } else if (lineLength > 0) {
        out += ' ';
        ++lineLength;
      }
      out += word;
      lineLength += word.size();
    }
  }
  return out;
}

// The scene file's first comment line up to its first ". ", ": " or " (" (the scenes open with a
// sentence saying what they show; what follows would not fit a line).
std::string summaryOf(const std::filesystem::path& scene) {
  std::ifstream in(scene);
  std::string line;
  std::getline(in, line);
  if (line.rfind("# ", 0) != 0) return "";
  line.erase(0, 2);
  const std::size_t end = std::min({line.find(". "), line.find(": "), line.find(" (")});
  return end == std::string::npos ? line : line.substr(0, end);
}

}  // namespace

HelpFormatter::HelpFormatter() {
  column_width(kDescriptionColumn);
}

std::string HelpFormatter::make_option_name(const CLI::Option* option, bool positional) const {
  if (positional) return CLI::Formatter::make_option_name(option, positional);
  std::string names;
  for (const std::string& name : option->get_snames()) names += (names.empty() ? "-" : ", -") + name;
  for (const std::string& name : option->get_lnames()) names += (names.empty() ? "--" : ", --") + name;
  return names;
}

std::string HelpFormatter::make_option_opts(const CLI::Option* option) const {
  if (option->get_type_size() == 0) return "";  // a flag: no value
  const std::string type = option->get_type_name();
  return " " + type.substr(0, type.find(':')) + (option->get_required() ? " (required)" : "");
}

std::string HelpFormatter::make_option_desc(const CLI::Option* option) const {
  std::string description = option->get_description();
  for (const CLI::Option* other : option->get_excludes())
    description += " (not with " + other->get_name() + ")";
  return wrapped(description, kHelpWidth - column_width_);
}

std::string HelpFormatter::make_subcommand(const CLI::App* command) const {
  std::stringstream out;
  CLI::detail::format_help(out, command->get_display_name(true),
                           wrapped(command->get_description(), kHelpWidth - column_width_), column_width_);
  return out.str();
}

std::string sceneListing(const std::string& indent) {
  const std::vector<std::filesystem::path> scenes = shippedScenes();
  std::size_t nameWidth = 0;
  for (const std::filesystem::path& scene : scenes)
    nameWidth = std::max(nameWidth, scene.stem().string().size());
  std::string listing;
  for (const std::filesystem::path& scene : scenes)
    listing += fmt::format("{}{:<{}} {}\n", indent, scene.stem().string(), nameWidth, summaryOf(scene));
  return listing;
}

std::function<std::string()> scenesAndExamples(std::string examples) {
  return [examples = std::move(examples)] {
    const std::string listing = sceneListing("  ");
    return (listing.empty() ? std::string("No shipped scenes found (share/murmur/scenes beside murmur).\n")
                            : "Shipped scenes (--scene NAME):\n" + listing) +
           "\n" + examples;
  };
}

}  // namespace murmur::app
