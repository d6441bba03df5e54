// Device selection end to end: `murmur devices` lists the EGL devices with their kind and the
// default (discrete, hardware, integrated, software), and `--device I` runs on the software device (Mesa
// llvmpipe, the one every CI machine has), naming it with vendor, driver and memory in the --json output.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "cli.hpp"

namespace murmur::test {
namespace {

// The index of the first "[software: ...]" line of `murmur devices`, or -1.
int softwareDevice(const std::string& listing) {
  const std::regex line(R"(\n  (\d+): [^\n]*\[software: )");
  std::smatch match;
  return std::regex_search(listing, match, line) ? std::stoi(match[1]) : -1;
}

TEST(DevicesCli, ListsTheSoftwareDeviceAndTheDefault) {
  const CliResult result = runMurmur("devices");
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_GE(softwareDevice(result.out), 0) << result.out;
  EXPECT_NE(result.out.find("(default)"), std::string::npos) << result.out;
  // Why: on this machine (llvmpipe only) there is no hardware device to prefer.
  EXPECT_NE(result.out.find("preferred: device " + std::to_string(softwareDevice(result.out)) +
                            ": no hardware device, so the software one"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("[software renderer: a CPU's speed]"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("driver       Mesa"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("MiB total"), std::string::npos) << result.out;
}

TEST(DevicesCli, RunOnTheSoftwareDeviceNamesItInTheJson) {
  const int device = softwareDevice(runMurmur("devices").out);
  ASSERT_GE(device, 0);
  const CliResult result =
      runMurmur("run --scene scenes/free.toml --boids 200 --steps 3 --backend gpu --device " +
                std::to_string(device) + " --json");
  ASSERT_EQ(result.exitCode, 0) << result.err;
  // The JSON summary is the last line of stdout.
  std::string out = result.out;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  const nlohmann::json gl = nlohmann::json::parse(out.substr(out.rfind('\n') + 1)).at("gl_device");
  EXPECT_NE(gl.at("renderer").get<std::string>().find("llvmpipe"), std::string::npos);
  EXPECT_EQ(gl.at("vendor"), "Mesa/X.org");
  EXPECT_EQ(gl.at("driver").get<std::string>().rfind("Mesa ", 0), 0u);
  EXPECT_GT(gl.at("memory_total_bytes").get<std::uint64_t>(), 0u);
  EXPECT_EQ(gl.at("memory_source"), "host memory");
  EXPECT_EQ(gl.at("software"), true);
  // One warning line on stderr: the run works, but its speed is a CPU's.
  const std::string warning = "murmur: warning: --backend gpu runs on a software renderer (llvmpipe";
  ASSERT_NE(result.err.find(warning), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find(warning, result.err.find(warning) + 1), std::string::npos) << result.err;
  EXPECT_EQ(gl.at("context").get<std::string>().rfind("EGL device " + std::to_string(device) + " (", 0), 0u);
}

}  // namespace
}  // namespace murmur::test
