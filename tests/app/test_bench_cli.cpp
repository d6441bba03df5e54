// `murmur bench` end to end on this machine's GL device (llvmpipe in CI): the quick sweep cut down
// to three cases by --filter, into a scratch --out directory. The results JSON names the device
// (vendor, renderer, driver, memory) and the build, holds every selected case and nothing else, and
// the report and its charts lie beside it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "cli.hpp"

namespace murmur::test {
namespace {

namespace fs = std::filesystem;

TEST(BenchCli, QuickFilteredRunWritesTheDeviceEveryCaseAndTheReport) {
  const fs::path out = scratchDir("bench_cli");
  const CliResult result = runMurmur(
      "bench --quick --filter '^density/(gpu|cpu/threads:1|cpu-naive/threads:[0-9]+)/n:1000/' --out '" +
      out.string() + "'");
  ASSERT_EQ(result.exitCode, 0) << result.err;

  std::vector<fs::path> results;
  for (const auto& entry : fs::directory_iterator(out))
    if (entry.path().extension() == ".json") results.push_back(entry.path());
  ASSERT_EQ(results.size(), 1u);
  std::ifstream in(results.front());
  const nlohmann::json json = nlohmann::json::parse(in);

  const nlohmann::json& context = json.at("context");
  for (const char* key :
       {"gl_vendor", "gl_renderer", "gl_driver", "gl_version", "gl_memory_source", "cpu_model",
        "murmur_version", "murmur_commit", "murmur_build_type", "date", "device_slug"})
    EXPECT_FALSE(context.value(key, "").empty()) << key;
  EXPECT_GT(std::stoll(context.value("gl_memory_total_mib", "0")), 0);
  EXPECT_EQ(context.value("murmur_sweep", ""), "quick");
  // llvmpipe: the device is marked software in the JSON, the summary and the report.
  EXPECT_EQ(context.value("gl_software", ""), "true");
  EXPECT_NE(result.out.find("a software renderer: these GPU figures are a CPU's\n"), std::string::npos)
      << result.out;

  // cpu-naive's `cells` counter is 0, so its cv is NaN, which Google Benchmark writes as a bare NaN:
  // the result must still be read (and written back as valid JSON).
  const std::set<std::string> expected = {
      "density/cpu/threads:1/n:1000/real_time", "density/gpu/n:1000/manual_time",
      "density/cpu-naive/threads:" + context.value("omp_threads", "?") + "/n:1000/real_time"};
  std::set<std::string> medians, all;
  for (const nlohmann::json& row : json.at("benchmarks")) {
    all.insert(row.value("run_name", ""));
    EXPECT_FALSE(row.value("error_occurred", false)) << row.dump();
    if (row.value("aggregate_name", "") == "median") {
      medians.insert(row.value("run_name", ""));
      EXPECT_GT(row.value("real_time", 0.0), 0.0) << row.dump();
    }
  }
  EXPECT_EQ(all, expected);
  EXPECT_EQ(medians, expected);

  const fs::path report = out / (results.front().stem().string() + "-report");
  const std::string readme = readFile(report / "README.md");
  EXPECT_NE(readme.find("| " + context.value("device_slug", "") + ": gpu"), std::string::npos) << readme;
  EXPECT_NE(readme.find("yes (a CPU's figures)"), std::string::npos) << readme;
  EXPECT_TRUE(fs::exists(report / "time_per_step_density.svg"));
  EXPECT_TRUE(fs::exists(report / "throughput_density.svg"));
  EXPECT_TRUE(fs::exists(report / "throughput_density.png"));
  for (const auto& entry : fs::directory_iterator(report))
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << "a temporary left: " << entry.path();

  EXPECT_NE(result.out.find("results  " + results.front().string()), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("report   " + (report / "README.md").string()), std::string::npos) << result.out;
  EXPECT_NE(result.err.find("[3/3]"), std::string::npos) << result.err;
}

// --list prints the cases murmur_bench registers for the sweep (the owner of their names), the filter
// applied, and runs none: no result is written.
TEST(BenchCli, ListPrintsTheSweepsCasesAndRunsNone) {
  const fs::path out = scratchDir("bench_cli_list");
  const CliResult all = runMurmur("bench --quick --list --out '" + out.string() + "'");
  ASSERT_EQ(all.exitCode, 0) << all.err;
  const fs::path bench = fs::path(MURMUR_EXE).parent_path() / "murmur_bench";
  const CommandOutput listed =
      runCommand("'" + bench.string() + "' --sweep quick --benchmark_list_tests 2>/dev/null");
  ASSERT_EQ(listed.exitCode, 0);
  EXPECT_EQ(all.out, listed.out);
  EXPECT_NE(all.out.find("\nBM_AStar/rooms_65_81\n"), std::string::npos) << all.out;

  // The quick sweep's full GPU steps of `density`: 1k to 1M (bench/bench_gpu.cpp), not its stages.
  const CliResult some =
      runMurmur("bench --quick --list --filter '^density/gpu/' --out '" + out.string() + "'");
  ASSERT_EQ(some.exitCode, 0) << some.err;
  EXPECT_EQ(some.out,
            "density/gpu/n:1000/manual_time\n"
            "density/gpu/n:4000/manual_time\n"
            "density/gpu/n:16000/manual_time\n"
            "density/gpu/n:64000/manual_time\n"
            "density/gpu/n:256000/manual_time\n"
            "density/gpu/n:1000000/manual_time\n");
  EXPECT_TRUE(fs::is_empty(out));
}

// A CPU-only filter: the summary says the GL device, the GPU rows, the headline score and A* were
// left out by the filter, rather than "not run" or a device with unknown fields. The cost up front
// (issue 21, item 7): an earlier result of this machine in --out gives the estimate, and the new
// result times its cases for the next one.
TEST(BenchCli, ACpuOnlyFilterSaysWhatItLeftOut) {
  const fs::path out = scratchDir("bench_cli_cpu_only");
  const std::string name = "density/cpu/threads:1/n:1000/real_time";
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::ofstream(out / "earlier.json") << nlohmann::json{
      {"context", {{"host_name", host}, {"murmur_case_seconds", {{name, 42.0}}}}},
      {"benchmarks",
       nlohmann::json::array()}}.dump();
  const CliResult result =
      runMurmur("bench --quick --filter '^density/cpu/threads:1/n:1000/' --out '" + out.string() + "'");
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_NE(result.err.find("1 case; about 0:42 going by " + (out / "earlier.json").string()),
            std::string::npos)
      << result.err;
  std::size_t timed = 0;
  for (const auto& entry : fs::directory_iterator(out))
    if (entry.path().extension() == ".json" && entry.path().filename() != "earlier.json")
      timed += nlohmann::json::parse(readFile(entry.path()))["context"]["murmur_case_seconds"].value(
                   name, 0.0) > 0.0;
  EXPECT_EQ(timed, 1u);
  EXPECT_NE(result.out.find("device   none: no GL case passed the filter\n"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("score    gpu filtered out, cpu filtered out"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("A*                          filtered out\n"), std::string::npos) << result.out;
  // The cases the summary singles out, by the names the result's context gives.
  EXPECT_NE(result.out.find("  density/gpu/n:1000000     filtered out\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("gpu over cpu                filtered out\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("BM_Render/step+draw/gpu/n:1000000 filtered out\n"), std::string::npos)
      << result.out;
  EXPECT_EQ(result.out.find("not run"), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find("?"), std::string::npos) << result.out;
}

TEST(BenchCli, AFilterThatSelectsNothingIsAnError) {
  const fs::path out = scratchDir("bench_cli_nothing");
  const CliResult result = runMurmur("bench --quick --filter '^no-such-case$' --out '" + out.string() + "'");
  EXPECT_NE(result.exitCode, 0);
  EXPECT_NE(result.err.find("no benchmark case matches"), std::string::npos) << result.err;
  EXPECT_TRUE(fs::is_empty(out));
}

}  // namespace
}  // namespace murmur::test
