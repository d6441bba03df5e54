// bench/report.py renders: from the checked-in results under tests/data/bench/ (a trimmed llvmpipe
// run and a synthetic second device) it writes a Markdown table that lists every backend and N, and
// per workload a time and a throughput chart with one line per device and backend (matplotlib).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace murmur::test {
namespace {

namespace fs = std::filesystem;

// Runs bench/report.py with the Python that has matplotlib (MURMUR_PYTHON, Debian's /usr/bin/python3).
int runReport(const std::string& args, const std::string& environment = "") {
  const std::string command = std::string("cd '") + MURMUR_SOURCE_DIR + "' && " + environment +
                              MURMUR_PYTHON + " bench/report.py " + args + " >/dev/null 2>&1";
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

TEST(BenchReport, TableListsBackendsAndSizesAndChartsHaveOneLinePerSeries) {
  const fs::path out = scratchDir("bench_report");
  ASSERT_EQ(runReport(kFixtures + " --out '" + out.string() + "'"), 0);
  const std::string table = readFile(out / "README.md");
  ASSERT_FALSE(table.empty());

  // The fixed-density series of the fixtures: four backends on llvmpipe, two on the example GPU.
  const std::vector<std::string> series = {
      "llvmpipe: gpu",           "llvmpipe: cpu, 2 threads",
      "llvmpipe: cpu, 1 thread", "llvmpipe: cpu-naive, 2 threads",
      "example-gpu: gpu",        "example-gpu: cpu, 16 threads",
  };
  for (const std::string chart : {"time_per_step_density.svg", "throughput_density.svg"}) {
    const std::string svg = readFile(out / chart);
    ASSERT_FALSE(svg.empty()) << chart;
    EXPECT_NE(svg.find("</svg>"), std::string::npos) << chart;
    EXPECT_NE(table.find("](" + chart + ")"), std::string::npos) << chart;
    for (const std::string& s : series) {
      EXPECT_EQ(countOf(svg, "id=\"series:" + s + "\""), 1u) << chart << ": " << s;
      EXPECT_EQ(countOf(svg, ">" + s + "<"), 1u) << chart << ": the legend names " << s;
    }
    EXPECT_EQ(countOf(svg, "id=\"series:"), series.size()) << chart;
  }
  for (const std::string& s : series) EXPECT_NE(table.find("| " + s), std::string::npos) << s;
  for (const std::string n : {"| 1k |", "| 4k |", "| 16k |", "| 1M |"})
    EXPECT_NE(table.find(n), std::string::npos) << n;
  // The GPU-against-CPU table and the memory floor use the copy bandwidth of the same file.
  EXPECT_NE(table.find("| llvmpipe | density | 4k |"), std::string::npos);
  EXPECT_NE(table.find("(bandwidth/gpu-copy)"), std::string::npos);
  // A size the device could not take is listed as skipped, not drawn.
  EXPECT_NE(table.find("## Skipped"), std::string::npos);
}

// Without matplotlib (hidden here by a stand-in package that fails to import) the tables are
// written all the same, no chart is, and the README links none.
TEST(BenchReport, WithoutMatplotlibWritesTheTablesAndSkipsTheCharts) {
  const fs::path out = scratchDir("bench_report_no_matplotlib");
  const fs::path fake = out / "python" / "matplotlib";
  fs::create_directories(fake);
  std::ofstream(fake / "__init__.py") << "raise ImportError('hidden by the test')\n";
  ASSERT_EQ(runReport(kFixtures + " --out '" + (out / "report").string() + "'",
                      "PYTHONPATH='" + (out / "python").string() + "' "),
            0);
  const std::string table = readFile(out / "report" / "README.md");
  EXPECT_NE(table.find("| llvmpipe: gpu"), std::string::npos);
  EXPECT_EQ(table.find(".svg)"), std::string::npos);
  EXPECT_FALSE(fs::exists(out / "report" / "time_per_step_density.svg"));
}

// The stage columns come from the results' own stage list (murmur_bench's flock_stages context),
// not from a copy of the names in the report script.
TEST(BenchReport, StageColumnsFollowTheStagesNamedInTheResults) {
  const fs::path out = scratchDir("bench_report_stages");
  std::string json = readFile(fs::path(MURMUR_SOURCE_DIR) / "tests/data/bench/llvmpipe.json");
  const std::string listed = "\"flock_stages\": \"hash,count,scan,scatter,forces,reduce\"";
  const std::size_t at = json.find(listed);
  ASSERT_NE(at, std::string::npos);
  std::ofstream(out / "results.json") << json.substr(0, at) << "\"flock_stages\": \"forces,hash\""
                                       << json.substr(at + listed.size());
  const fs::path report = out / "report";
  std::string args = (out / "results.json").string();
  args += " --out ";
  args += report.string();
  ASSERT_EQ(runReport(args), 0);
  const std::string table = readFile(report / "README.md");
  EXPECT_NE(table.find("| N | forces ms | hash ms | sum of stages |"), std::string::npos);
  EXPECT_EQ(table.find("scan ms"), std::string::npos);
}

TEST(BenchReport, MissingResultFileIsAnError) {
  const fs::path out = scratchDir("bench_report_missing");
  EXPECT_EQ(runReport("tests/data/bench/no-such-file.json --out '" + out.string() + "'"), 2);
  EXPECT_FALSE(fs::exists(out / "README.md"));
}

}  // namespace
}  // namespace murmur::test
