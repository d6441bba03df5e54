// Help like a well-kept command line: bare `murmur` and every command's --help show readable
// placeholders (N, FILE, X,Y) and none of the parser's internals (CLI11 printed "--seed
// INT:INT in [0 - 9223372036854775807]", "--scene TEXT:TEXT REQUIRED", "--no-stats{false}"), fit 80
// columns, end with examples of that command, and, where the command takes --scene, list every
// shipped scene.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace murmur::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The commands bare `murmur` lists ("  name   description" under "Subcommands:"), so that a new
// command is checked without touching this test.
std::vector<std::string> listedCommands() {
  const CliResult r = runMurmur("");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  std::vector<std::string> commands;
  bool inList = false;
  for (const std::string& line : linesOf(r.out)) {
    if (line == "Subcommands:") {
      inList = true;
    } else if (inList && line.empty()) {
      break;
    } else if (inList && line.size() > 2 && line.compare(0, 2, "  ") == 0 && line[2] != ' ') {
      commands.push_back(line.substr(2, line.find(' ', 2) - 2));
    }
  }
  return commands;
}

// What CLI11 writes about its own types and checks, which a user has no use for.
void expectNoParserInternals(const std::string& help, const std::string& what) {
  static const std::regex internals(
      R"(\b(INT|UINT|INT64|FLOAT|TEXT|BOOLEAN)\b|[A-Z]:[A-Z{]|\{(true|false)\}|\[-?[0-9.]+ - -?[0-9.]+\])"
      R"(|9223372036854775807|9007199254740992|REQUIRED|Excludes:|Needs:)");
  std::smatch match;
  EXPECT_FALSE(std::regex_search(help, match, internals)) << what << ": '" << match.str() << "' in\n" << help;
}

// The help ends with "Examples:" (or "Example:") and lines that run `murmur <command>`, each line
// within 80 columns.
void expectExamplesAtTheEnd(const std::string& help, const std::string& command, const std::string& what) {
  const std::vector<std::string> lines = linesOf(help);
  std::size_t heading = lines.size();
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (lines[i] == "Examples:" || lines[i] == "Example:") heading = i;
  ASSERT_LT(heading, lines.size()) << what << ": no examples in\n" << help;
  bool runsTheCommand = false;
  for (std::size_t i = heading + 1; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    EXPECT_EQ(lines[i].rfind("  murmur", 0), 0u) << what << ": not an example: '" << lines[i] << "'";
    runsTheCommand |= lines[i].rfind("  murmur " + command, 0) == 0;
  }
  EXPECT_TRUE(runsTheCommand) << what << ": no example of murmur " << command << " in\n" << help;
  for (const std::string& line : lines) EXPECT_LE(line.size(), 80u) << what << ": '" << line << "'";
}

TEST(HelpCli, BareMurmurShowsTheCommandsAndExamples) {
  const CliResult r = runMurmur("");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectNoParserInternals(r.out, "murmur");
  expectExamplesAtTheEnd(r.out, "", "murmur");
  EXPECT_EQ(runMurmur("--help").out, r.out);
}

TEST(HelpCli, EveryCommandsHelpHasPlaceholdersExamplesAndTheShippedScenes) {
  const std::vector<std::string> commands = listedCommands();
  for (const char* expected : {"bench", "compare", "demo", "devices", "path", "run", "scenes", "sweep"})
    EXPECT_NE(std::find(commands.begin(), commands.end(), expected), commands.end()) << expected;
  std::vector<std::string> scenes;
  for (const auto& entry : fs::directory_iterator(fs::path(MURMUR_SOURCE_DIR) / "scenes"))
    if (entry.path().extension() == ".toml") scenes.push_back(entry.path().stem().string());
  ASSERT_FALSE(scenes.empty());
  int sceneCommands = 0;
  for (const std::string& command : commands) {
    const std::string what = "murmur " + command + " --help";
    // From a directory away from the source tree: the scenes listed are the shipped ones.
    const CliResult r = runMurmurIn(fs::temp_directory_path(), command + " --help");
    ASSERT_EQ(r.exitCode, 0) << what << ": " << r.err;
    EXPECT_TRUE(r.err.empty()) << what << ": " << r.err;
    expectNoParserInternals(r.out, what);
    expectExamplesAtTheEnd(r.out, command, what);
    if (r.out.find("--scene NAME|FILE") == std::string::npos) continue;
    ++sceneCommands;
    for (const std::string& scene : scenes)
      EXPECT_TRUE(std::regex_search(r.out, std::regex("\n  " + scene + " +[A-Z]")))
          << what << ": the shipped scene " << scene << " is not listed in\n"
          << r.out;
  }
  EXPECT_EQ(sceneCommands, 3) << "run, compare and demo take --scene";
}

// The placeholders the options name (one per kind of value), and a flag without CLI11's default.
TEST(HelpCli, OptionsShowWhatTheyTake) {
  const std::string demo = runMurmur("demo --help").out;
  for (const char* option : {"--scene NAME|FILE ", "--boids N ", "--seed S ", "--size WxH ", "--frames DIR ",
                             "--video FILE ", "--video-fps FPS ", "--device INDEX ", "--no-stats "})
    EXPECT_NE(demo.find(std::string("\n  ") + option), std::string::npos) << option << " in\n" << demo;
  EXPECT_NE(demo.find("1 to 16"), std::string::npos) << "--msaa's range in words:\n" << demo;
  const std::string run = runMurmur("run --help").out;
  EXPECT_NE(run.find("\n  --scene NAME|FILE (required)\n"), std::string::npos) << run;
  const std::string path = runMurmur("path --help").out;
  for (const char* option :
       {"--map FILE ", "--from X,Y ", "--to X,Y ", "--connect 4|8 ", "--heuristic NAME "})
    EXPECT_NE(path.find(std::string("\n  ") + option), std::string::npos) << option << " in\n" << path;
}

}  // namespace
}  // namespace murmur::test
