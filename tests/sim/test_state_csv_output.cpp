// sim's state CSV writer through core's output discipline: the dump is the CSV text, written
// atomically, and a requested stop ends the text before the rows.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/output_path.hpp"
#include "scratch_dir.hpp"
#include "sim/state_csv.hpp"

namespace murmur::sim {
namespace {

namespace fs = std::filesystem;

TEST(StateCsv, TheDumpHoldsTheCsvTextAndAStopEndsTheText) {
  FlockState state;
  state.resize(2);
  state.position = {{1.5f, 2.25f, -3.0f}, {0.1f, 0.0f, 1e-7f}};
  state.velocity = {{0.5f, 0.0f, -1.0f}, {-2.0f, 3.0f, 4.0f}};
  state.group = {0, 2};
  state.groups = 3;
  // %.9g of the float32 values: 0.1f is 0.100000001490116, 1e-7f is 1.00000001168610e-07.
  const std::string expected =
      "id,group,x,y,z,vx,vy,vz\n0,0,1.5,2.25,-3,0.5,0,-1\n1,2,0.100000001,0,1.00000001e-07,-2,3,4\n";
  const auto text = [](std::FILE* file) {
    std::rewind(file);
    std::string read;
    for (int c; (c = std::fgetc(file)) != EOF;) read.push_back(char(c));
    return read;
  };
  std::FILE* const plain = std::tmpfile();
  ASSERT_NE(plain, nullptr);
  EXPECT_TRUE(writeStateCsvText(plain, state));
  EXPECT_EQ(text(plain), expected);
  std::fclose(plain);

  const fs::path dir = test::scratchDir("state_csv_text");
  writeStateCsv((dir / "dump.csv").string(), state, "--dump");
  std::ifstream dump(dir / "dump.csv");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(dump), {}), expected);

  std::FILE* const stopped = std::tmpfile();
  ASSERT_NE(stopped, nullptr);
  core::requestStop(SIGTERM);
  EXPECT_FALSE(writeStateCsvText(stopped, state));
  core::requestStop(0);                                   // no stop requested, for the tests after this one
  EXPECT_EQ(text(stopped), "id,group,x,y,z,vx,vy,vz\n");  // the rows are never written
  std::fclose(stopped);
}

}  // namespace
}  // namespace murmur::sim
