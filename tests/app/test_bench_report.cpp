// bench/report.py renders: from the checked-in results under tests/data/bench/ (a trimmed llvmpipe
// run and a synthetic second device) it writes a Markdown table that lists every backend and N, and
// an SVG with one polyline per device and backend. Needs python3 (standard library only).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cli.hpp"

namespace murmur::test {
namespace {

namespace fs = std::filesystem;

int runReport(const std::string& args) {
  const std::string command =
      std::string("cd '") + MURMUR_SOURCE_DIR + "' && python3 bench/report.py " + args + " >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::size_t countOf(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
    ++count;
  return count;
}

const std::string kFixtures = "tests/data/bench/llvmpipe.json tests/data/bench/example-gpu.json";

TEST(BenchReport, TableListsBackendsAndSizesAndChartHasOneLinePerSeries) {
  const fs::path out = scratchDir("bench_report");
  ASSERT_EQ(runReport(kFixtures + " --out '" + out.string() + "'"), 0);
  const std::string table = readFile(out / "README.md");
  const std::string svg = readFile(out / "time_per_step.svg");
  ASSERT_FALSE(table.empty());
  ASSERT_FALSE(svg.empty());

  // The fixed-density series of the fixtures: four backends on llvmpipe, two on the example GPU.
  const std::vector<std::string> series = {
      "llvmpipe: gpu",           "llvmpipe: cpu, 2 threads",
      "llvmpipe: cpu, 1 thread", "llvmpipe: cpu-naive, 2 threads",
      "example-gpu: gpu",        "example-gpu: cpu, 16 threads",
  };
  for (const std::string& s : series) {
    EXPECT_NE(table.find("| " + s), std::string::npos) << s;
    EXPECT_EQ(countOf(svg, "data-series=\"" + s + "\""), 1u) << s;
  }
  EXPECT_EQ(countOf(svg, "<polyline"), series.size());
  for (const std::string n : {"| 1k |", "| 4k |", "| 16k |", "| 1M |"})
    EXPECT_NE(table.find(n), std::string::npos) << n;
  // The GPU-against-CPU table and the memory floor use the copy bandwidth of the same file.
  EXPECT_NE(table.find("| llvmpipe | density | 4k |"), std::string::npos);
  EXPECT_NE(table.find("(bandwidth/gpu-copy)"), std::string::npos);
  // A size the device could not take is listed as skipped, not drawn.
  EXPECT_NE(table.find("## Skipped"), std::string::npos);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST(BenchReport, MissingResultFileIsAnError) {
  const fs::path out = scratchDir("bench_report_missing");
  EXPECT_EQ(runReport("tests/data/bench/no-such-file.json --out '" + out.string() + "'"), 2);
  EXPECT_FALSE(fs::exists(out / "README.md"));
}

}  // namespace
}  // namespace murmur::test
