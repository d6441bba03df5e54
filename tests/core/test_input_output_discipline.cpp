// Issue 21 at the library level: messages escape C1 controls and invalid UTF-8, input files are
// regular and bounded, outputs are written through a checked temporary.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/output_path.hpp"
#include "scratch_dir.hpp"

namespace murmur::core {
namespace {

namespace fs = std::filesystem;

TEST(MessageEscaping, C1ControlsAndInvalidUtf8AreEscapedAndUtf8Kept) {
  // U+009B (CSI) is C2 9B in UTF-8; FF and a lone C3 are not UTF-8; an overlong C0 80 neither.
  const InputError error(
      "f\xc2\x9b"
      "1J",
      0, "k", "v\xff \xc3 \xc0\x80 \xc3\xa9 \xe2\x82\xac");
  EXPECT_EQ(std::string(error.what()), "f\\u009b1J: k: v\\xff \\xc3 \\xc0\\x80 \xc3\xa9 \xe2\x82\xac");
}

TEST(InputFile, OnlyRegularFilesOfBoundedSizeAreOpened) {
  const fs::path dir = test::scratchDir("input_kinds");
  const std::string fifo = (dir / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto refusal = [](const std::string& path, std::uint64_t limit) {
    try {
      InputFile file(path, limit, "test file");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(refusal(fifo, 100).find("a FIFO"), std::string::npos);  // returns at once, no writer needed
  EXPECT_NE(refusal("/dev/zero", 100).find("a character device"), std::string::npos);
  EXPECT_NE(refusal(dir.string(), 100).find("a directory"), std::string::npos);
  std::ofstream(dir / "ten") << "0123456789";
  EXPECT_NE(refusal((dir / "ten").string(), 9).find("10 bytes, more than the limit of 9"), std::string::npos);
  InputFile file((dir / "ten").string(), 10, "test file");
  std::string line;
  EXPECT_TRUE(readBoundedLine(file.stream(), line, 10, file.path(), 1));
  EXPECT_EQ(line, "0123456789");
  EXPECT_FALSE(readBoundedLine(file.stream(), line, 10, file.path(), 2));
}

// Issue 51, item 4: readers were bounded only when they opened a file: a scenario file appended to
// while it was read grew the process to 5.1 GB. The bytes read are bounded by the size at open, and
// a file found longer is refused, whichever way its reader reads (lines, the stream, whole).
TEST(InputFile, AFileThatGrowsWhileItIsReadIsRefused) {
  const fs::path dir = test::scratchDir("input_growing");
  const fs::path path = dir / "growing.txt";
  const auto grow = [&] { std::ofstream(path, std::ios::app) << "appended\n"; };
  std::ofstream(path) << "one\ntwo\n";
  {
    InputFile file(path.string(), 100, "test file");
    grow();
    std::string line;
    EXPECT_TRUE(readBoundedLine(file.stream(), line, 100, file.path(), 1));
    EXPECT_TRUE(readBoundedLine(file.stream(), line, 100, file.path(), 2));
    EXPECT_EQ(line, "two");
    try {
      readBoundedLine(file.stream(), line, 100, file.path(), 3);
      FAIL() << "the appended line was read";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("the test file changed while it was read"), std::string::npos)
          << e.what();
    }
  }
  std::ofstream(path) << "one\ntwo\n";
  {
    InputFile file(path.string(), 100, "test file");
    grow();
    std::string line;
    std::getline(file.stream(), line);
    std::getline(file.stream(), line);
    EXPECT_THROW(std::getline(file.stream(), line), InputError);
  }
  // Unchanged, every byte is read and the end is the end.
  std::ofstream(path) << "one\ntwo";
  InputFile file(path.string(), 100, "test file");
  std::string line;
  std::getline(file.stream(), line);
  std::getline(file.stream(), line);
  EXPECT_EQ(line, "two");
  EXPECT_TRUE(file.stream().eof());
}

TEST(InputFile, LongLinesAreRefusedAsTheyAreRead) {
  std::istringstream in("abc\r\n" + std::string(11, 'x') + "\n");
  std::string line;
  ASSERT_TRUE(readBoundedLine(in, line, 10, "in", 1));
  EXPECT_EQ(line, "abc");
  EXPECT_THROW(readBoundedLine(in, line, 10, "in", 2), InputError);
}

// The limit counts the line's text, not its ending: a line at the limit is read with LF, CRLF or
// none; one byte more (a CR that ends no line included) is refused.
TEST(InputFile, TheLineLimitLeavesOutTheLineEnding) {
  const std::string atLimit(10, 'x');
  for (const std::string ending : {"\n", "\r\n", ""}) {
    std::istringstream in(atLimit + ending);
    std::string line;
    ASSERT_TRUE(readBoundedLine(in, line, 10, "in", 1)) << ending.size();
    EXPECT_EQ(line, atLimit);
  }
  for (const std::string& over : {atLimit + "y\n", atLimit + "\ry\n", atLimit + "\r\r\n"}) {
    std::istringstream in(over);
    std::string line;
    EXPECT_THROW(readBoundedLine(in, line, 10, "in", 1), InputError) << over;
  }
}

TEST(TemporaryOutput, NothingIsRenamedUnlessCommitted) {
  const fs::path dir = test::scratchDir("temporary_output");
  const std::string target = (dir / "out.txt").string();
  std::ofstream(target) << "old";
  {
    TemporaryOutput output(target, "--out");
    output.write("new", 3);
    EXPECT_TRUE(fs::exists(output.temporaryPath()));
  }  // an error path: destroyed uncommitted
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  std::ifstream old(target);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(old), {}), "old");
  TemporaryOutput output(target, "--out");
  output.write("new", 3);
  output.commit();
  std::ifstream now(target);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(now), {}), "new");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

}  // namespace
}  // namespace murmur::core
