// bench/report.py renders: from the checked-in results under tests/data/bench/ (a trimmed llvmpipe
// run and a synthetic second device) it writes a Markdown table that lists every backend and N, the
// headline score of each device, warnings and the machines table, and per workload a time and a
// throughput chart with one line per device and backend (matplotlib), as SVG and as PNG.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

// The decoder only: its implementation is compiled once, in test_demo_cli.cpp.
#include <stb/stb_image.h>

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

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;
  std::size_t pixelsOf(unsigned r, unsigned g, unsigned b) const {
    std::size_t count = 0;
    for (std::size_t i = 0; i + 2 < rgb.size(); i += 3)
      count += rgb[i] == r && rgb[i + 1] == g && rgb[i + 2] == b;
    return count;
  }
};

// The PNG decoded (stb_image checks the signature, the chunks and the compressed data); an empty
// image when it is not a valid PNG.
Image decodePng(const fs::path& path) {
  Image image;
  int channels = 0;
  stbi_uc* pixels = stbi_load(path.c_str(), &image.width, &image.height, &channels, 3);
  if (pixels == nullptr) return {};
  image.rgb.assign(
      pixels, pixels + static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 3);
  stbi_image_free(pixels);
  return image;
}

// The stroke colour of each series' line in a chart ("#1f77b4"), in order.
std::vector<std::string> seriesColours(const std::string& svg) {
  std::vector<std::string> colours;
  for (std::size_t at = svg.find("id=\"series:"); at != std::string::npos;
       at = svg.find("id=\"series:", at + 1)) {
    const std::size_t stroke = svg.find("stroke: #", at);
    colours.push_back(svg.substr(stroke + 8, 7));
  }
  return colours;
}

// The tick labels of a chart's y axis (matplotlib's second axis group, up to the axis label).
std::size_t yTickLabels(const std::string& svg, const std::string& axisLabel) {
  const std::size_t axis = svg.find("id=\"matplotlib.axis_2\"");
  const std::size_t label = svg.find(">" + axisLabel + "</text>", axis);
  if (axis == std::string::npos || label == std::string::npos) return 0;
  return countOf(svg.substr(axis, label - axis), "</text>");
}

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

    // Told apart by colour: every series has its own, and the PNG beside the SVG shows each.
    const std::vector<std::string> colours = seriesColours(svg);
    EXPECT_EQ(std::set<std::string>(colours.begin(), colours.end()).size(), series.size()) << chart;
    const fs::path png = out / (fs::path(chart).stem().string() + ".png");
    const Image image = decodePng(png);
    ASSERT_GT(image.width, 800) << png;
    ASSERT_GT(image.height, 400) << png;
    for (const std::string& colour : colours) {
      const unsigned rgb = static_cast<unsigned>(std::stoul(colour.substr(1), nullptr, 16));
      EXPECT_GT(image.pixelsOf(rgb >> 16, (rgb >> 8) & 0xff, rgb & 0xff), 50u) << png << ": " << colour;
    }
  }
  // The throughput axis spans 100k to 400M boid updates a second: labels at 1-2-5 steps, not one a
  // decade or a single one.
  EXPECT_GE(yTickLabels(readFile(out / "throughput_density.svg"), "boid updates per second"), 8u);
  for (const std::string& s : series) EXPECT_NE(table.find("| " + s), std::string::npos) << s;
  for (const std::string n : {"| 1k |", "| 4k |", "| 16k |", "| 1M |"})
    EXPECT_NE(table.find(n), std::string::npos) << n;
  // The GPU-against-CPU table and the memory floor use the copy bandwidth of the same file, found
  // by the name its context gives; the llvmpipe fixture predates that name, so it has none.
  EXPECT_NE(table.find("| llvmpipe | density | 4k |"), std::string::npos);
  EXPECT_NE(table.find("- example-gpu: 2.68 TB/s (bandwidth/gpu-copy)"), std::string::npos) << table;
  EXPECT_NE(table.find("- llvmpipe: not measured (no bandwidth case in this result)"), std::string::npos)
      << table;
  // A size the device could not take is listed as skipped, not drawn.
  EXPECT_NE(table.find("## Skipped"), std::string::npos);
}

// The byte model comes from the result (its context's flock_traffic and flock_steady_stages, as
// murmur_bench writes gpu::FlockPipeline::trafficModel); the example GPU's is a small synthetic one:
// per boid a 16-byte read in order, a 4-byte write at a scattered index and a 16-byte element read
// and written, per cell 4 bytes, per candidate 16, and a reduction that is not part of a step. By
// hand: 16 + 4 + 32 = 52 bytes a boid as elements, 16 + 32 + 32 = 80 as 32-byte sectors; at the
// 1M case's 3,112,500 cells, 52 + 4 x 3.1125 = 64 and 92 bytes a boid; 92.45 MB at the H100 SXM5's
// published 3,350 GB/s take 0.0276 ms (a model), ten times that at 10M.
TEST(BenchReport, TheByteModelComesFromTheResultWithElementsAndSectors) {
  const fs::path out = scratchDir("bench_report_bytes");
  ASSERT_EQ(runReport(kFixtures + " --out '" + out.string() + "'"), 0);
  const std::string table = readFile(out / "README.md");
  EXPECT_NE(table.find("| scatter | grid/Reorder | yes | 20 | 48 | 0 | 0 | 0 |"), std::string::npos) << table;
  EXPECT_NE(table.find("| reduce | flock/Reduce | no | 16 | 32 | 0 | 0 | 0 |"), std::string::npos);
  EXPECT_NE(table.find("| a steady step |  |  | 52 | 80 | 4 | 4 | 16 |"), std::string::npos);
  EXPECT_NE(table.find("| NVIDIA H100 SXM5 | 3350 | 0.0276 | 0.276 |"), std::string::npos);
  EXPECT_NE(table.find("**a model, not a measurement**"), std::string::npos);
  EXPECT_NE(table.find("| example-gpu | density | 1M | 64 | 92 | 64.5 |"), std::string::npos);
  // The llvmpipe fixture predates the byte model: the floor table has rows of the example GPU only.
  const std::size_t floor = table.find("## Memory-bandwidth floor");
  const std::string floorSection = table.substr(floor, table.find("Assumptions:", floor) - floor);
  EXPECT_EQ(countOf(floorSection, "\n| llvmpipe |"), 0u) << floorSection;
  EXPECT_EQ(countOf(floorSection, "\n| example-gpu |"), 4u) << floorSection;
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
  EXPECT_EQ(table.find(".png)"), std::string::npos);
  EXPECT_FALSE(fs::exists(out / "report" / "time_per_step_density.svg"));
  EXPECT_FALSE(fs::exists(out / "report" / "time_per_step_density.png"));
  EXPECT_FALSE(fs::exists(out / "report" / "headline.png"));
}

// The stage columns come from the results' own stage list (murmur_bench's flock_stages context),
// not from a copy of the names in the report script.
TEST(BenchReport, StageColumnsFollowTheStagesNamedInTheResults) {
  const fs::path out = scratchDir("bench_report_stages");
  std::string json = readFile(fs::path(MURMUR_SOURCE_DIR) / "tests/data/bench/llvmpipe.json");
  const std::string listed = "\"flock_stages\": \"hash,count,scan,scatter,forces,reduce\"";
  const std::size_t at = json.find(listed);
  ASSERT_NE(at, std::string::npos);
  std::ofstream(out / "results.json")
      << json.substr(0, at) << "\"flock_stages\": \"forces,hash\"" << json.substr(at + listed.size());
  const fs::path report = out / "report";
  std::string args = (out / "results.json").string();
  args += " --out ";
  args += report.string();
  ASSERT_EQ(runReport(args), 0);
  const std::string table = readFile(report / "README.md");
  EXPECT_NE(table.find("| N | forces ms | hash ms | sum of stages |"), std::string::npos);
  EXPECT_EQ(table.find("scan ms"), std::string::npos);
}

// Every case the report singles out is named by the result's context, not by the report script:
// here the example device's A* families are renamed ("Mine", 2 ms, against "Book", 10 ms: 5.0x),
// its copy benchmark is named something it did not run (so it has no floor bandwidth), and its
// density workload is described by the context's own words.
TEST(BenchReport, CaseNamesComeFromTheResultsContext) {
  const fs::path out = scratchDir("bench_report_names");
  std::string json = readFile(fs::path(MURMUR_SOURCE_DIR) / "tests/data/bench/example-gpu.json");
  auto replace = [&](const std::string& from, const std::string& to) {
    const std::size_t at = json.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    json.replace(at, from.size(), to);
  };
  replace("\"astar_cases\": \"BM_AStar\"", "\"astar_cases\": \"Mine\"");
  replace("\"astar_textbook_cases\": \"BM_AStarTextbook\"", "\"astar_textbook_cases\": \"Book\"");
  replace("\"bandwidth_cases\": \"bandwidth/gpu-copy\"", "\"bandwidth_cases\": \"copy/gpu-none\"");
  replace("\"workload_density\": \"", "\"workload_density\": \"Described by the result: ");
  replace("\"benchmarks\": [",
          "\"benchmarks\": [\n"
          "    {\"name\": \"Mine/maze\", \"run_name\": \"Mine/maze\", \"run_type\": \"iteration\", "
          "\"iterations\": 1, \"real_time\": 2.0, \"cpu_time\": 2.0, \"time_unit\": \"ms\"},\n"
          "    {\"name\": \"Book/maze\", \"run_name\": \"Book/maze\", \"run_type\": \"iteration\", "
          "\"iterations\": 1, \"real_time\": 10.0, \"cpu_time\": 10.0, \"time_unit\": \"ms\"},");
  std::ofstream(out / "renamed.json") << json;
  ASSERT_EQ(runReport((out / "renamed.json").string() + " --out '" + (out / "report").string() + "'"), 0);
  const std::string table = readFile(out / "report" / "README.md");
  EXPECT_NE(table.find("- example-gpu: Murmur's A* is 5.0x faster than the textbook one"), std::string::npos)
      << table;
  EXPECT_NE(table.find("- example-gpu: not measured (no bandwidth case in this result)"), std::string::npos)
      << table;
  EXPECT_NE(table.find("## density\n\nDescribed by the result: defaultDensityScene(N)"), std::string::npos)
      << table;
}

// The headline score: the geometric mean of items_per_second over the cases the result's context
// names. The example device names density/gpu at 16k (107M) and 1M (400M): sqrt(107M x 400M) =
// 206.9M; and the 16-thread CPU grid at 4k (13.3M) and 16k (14.5M): 13.9M. The llvmpipe fixture was
// written before the headline existed: no score, and the report says why.
TEST(BenchReport, HeadlineScoreIsTheGeometricMeanOfTheCasesTheResultNames) {
  const fs::path out = scratchDir("bench_report_headline");
  ASSERT_EQ(runReport(kFixtures + " --out '" + out.string() + "'"), 0);
  const std::string table = readFile(out / "README.md");
  const std::size_t headline = table.find("| example-gpu | Example GPU (synthetic) | 207M | 13.9M |");
  const std::size_t unscored = table.find("| llvmpipe | llvmpipe (LLVM 15.0.6, 256 bits) | - | - |");
  ASSERT_NE(headline, std::string::npos) << table;
  ASSERT_NE(unscored, std::string::npos) << table;
  EXPECT_LT(headline, unscored) << "the best score first";
  EXPECT_NE(table.find("- llvmpipe, gpu score: the result predates the headline score"), std::string::npos);
  const Image chart = decodePng(out / "headline.png");
  EXPECT_GT(chart.width, 0);
  EXPECT_NE(table.find("](headline.svg)"), std::string::npos);

  // The machines table: memory and clocks as the driver gave them, the OS and the kernel; "-" where
  // an older result did not record them.
  EXPECT_NE(table.find("| example-gpu | Example GPU (synthetic) | no | Example 1.0 | 24,576 MiB "
                       "(GL_NVX_gpu_memory_info) | core 2520 MHz, memory 10501 MHz (nvidia-smi, maximum) | "
                       "Example CPU (16 threads) | Example OS 1 | Linux 6.1.0-example |"),
            std::string::npos)
      << table;
  // Speed-ups in words: llvmpipe's "gpu" at 4k took 2.52 ms against the 2-thread grid's 0.758 ms.
  EXPECT_NE(
      table.find("| llvmpipe | density | 4k | 2.52 | 0.758 | 0.79 | 19.4 | 3.3x slower | 3.2x slower | 7.7x "
                 "faster | 25.6x faster |"),
      std::string::npos)
      << table;
}

// A result recorded under load (load average over the core count) or with a debug build of Google
// Benchmark says so in the report; a result with neither gets no warning.
TEST(BenchReport, WarnsOfALoadedMachineAndADebugBenchmarkLibrary) {
  const fs::path out = scratchDir("bench_report_warnings");
  ASSERT_EQ(runReport(kFixtures + " --out '" + (out / "idle").string() + "'"), 0);
  std::string table = readFile(out / "idle" / "README.md");
  const std::size_t begin = table.find("## Warnings");
  ASSERT_NE(begin, std::string::npos) << table;
  const std::string warnings = table.substr(begin, table.find("\n## ", begin + 1) - begin);
  EXPECT_NE(warnings.find("- llvmpipe: Google Benchmark is a debug build"), std::string::npos) << warnings;
  EXPECT_EQ(warnings.find("load average"), std::string::npos) << "0.44 on 2 cores is no load";
  EXPECT_EQ(warnings.find("- example-gpu:"), std::string::npos) << "a release library, an idle machine";

  std::string json = readFile(fs::path(MURMUR_SOURCE_DIR) / "tests/data/bench/llvmpipe.json");
  const std::string load = "\"load_avg\": [";
  const std::size_t at = json.find(load);
  ASSERT_NE(at, std::string::npos);
  std::ofstream(out / "loaded.json") << json.substr(0, at + load.size()) << "6.0, "
                                     << json.substr(json.find(',', at) + 1);
  ASSERT_EQ(runReport((out / "loaded.json").string() + " --out '" + (out / "loaded").string() + "'"), 0);
  table = readFile(out / "loaded" / "README.md");
  EXPECT_NE(table.find("- llvmpipe: the load average was 6.0 on 2 cores when the run began"),
            std::string::npos)
      << table;
}

TEST(BenchReport, MissingResultFileIsAnError) {
  const fs::path out = scratchDir("bench_report_missing");
  EXPECT_EQ(runReport("tests/data/bench/no-such-file.json --out '" + out.string() + "'"), 2);
  EXPECT_FALSE(fs::exists(out / "README.md"));
}

}  // namespace
}  // namespace murmur::test
