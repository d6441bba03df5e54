// core::parseNumber: the one number reader of the state CSV, the MovingAI files and `murmur path`.
#include <cmath>
#include <cstdint>
#include <optional>

#include <gtest/gtest.h>

#include "core/parse_number.hpp"

namespace murmur::core {
namespace {

TEST(ParseNumber, ReadsTheWholeTextAsOneNumber) {
  EXPECT_EQ(parseNumber<std::int32_t>("42"), 42);
  EXPECT_EQ(parseNumber<std::int32_t>("-7"), -7);
  EXPECT_EQ(parseNumber<std::uint64_t>("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(parseNumber<float>("1.5e3"), 1500.0f);
  EXPECT_EQ(parseNumber<float>("-0.25"), -0.25f);
  // Round trip of %.9g: the nearest float, exactly.
  EXPECT_EQ(parseNumber<float>("0.100000001"), 0.1f);
  EXPECT_EQ(parseNumber<double>("1.41421356"), 1.41421356);
}

TEST(ParseNumber, RejectsAnythingAroundTheNumber) {
  for (const char* text : {"", " 1", "1 ", "+1", "1,2", "0x10", "1a", "--1", "\t3"})
    EXPECT_EQ(parseNumber<std::int32_t>(text), std::nullopt) << "'" << text << "'";
  for (const char* text : {"", " 1.5", "1.5 ", "+1.5", "1.5f", "1..5", "e3"})
    EXPECT_EQ(parseNumber<float>(text), std::nullopt) << "'" << text << "'";
}

TEST(ParseNumber, RejectsValuesOutsideTheType) {
  EXPECT_EQ(parseNumber<std::int32_t>("2147483648"), std::nullopt);
  EXPECT_EQ(parseNumber<std::int32_t>("2147483647"), 2147483647);
  EXPECT_EQ(parseNumber<std::uint64_t>("-1"), std::nullopt);
  EXPECT_EQ(parseNumber<std::int32_t>("1.5"), std::nullopt);
  EXPECT_EQ(parseNumber<float>("1e39"), std::nullopt);
}

TEST(ParseNumber, NonFiniteFloatsAreNumbersForTheCallerToJudge) {
  const std::optional<float> infinity = parseNumber<float>("inf");
  ASSERT_TRUE(infinity.has_value());
  EXPECT_TRUE(std::isinf(*infinity));
  const std::optional<double> nan = parseNumber<double>("nan");
  ASSERT_TRUE(nan.has_value());
  EXPECT_TRUE(std::isnan(*nan));
}

}  // namespace
}  // namespace murmur::core
