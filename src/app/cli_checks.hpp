#pragma once
// Checks of command-line values shared by the commands: every numeric flag has a validator, so an
// empty, malformed, overflowing or out-of-range value is a parse error (exit code 2) in every
// command alike, and the "not given" marker (app/scene_options.hpp kUnset) can never be typed.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace murmur::app {

// These checks have no description: help shows each option's placeholder (app/help.hpp), and says a
// range where it helps.

// An integer in [lo, hi], written in full: "", "12x", "1e3" and values beyond int64 are refused
// (CLI11's own conversion saturates 99999999999999999999 to INT64_MAX).
CLI::Validator integerIn(std::int64_t lo, std::int64_t hi);

// A finite number in [lo, hi], written in full as std::from_chars reads it: "", "nan", "inf", "0x10",
// " 5", "+5" and "5s" are refused.
CLI::Validator numberIn(double lo, double hi);

// A text flag (a path, a name, a pattern) given as "": refused, never taken for "not given".
CLI::Validator nonEmpty();

// Limits of the flags that several commands share.
inline constexpr std::int64_t kMaxCliSteps = std::int64_t(1) << 53;
inline constexpr std::int64_t kMaxEglDevice = 255;

// --device: -1 (the first device that works) or an index listEglDevices() numbers; InputError
// (exit 2, as for any bad input) naming --device otherwise. Nothing to check without enumeration.
void checkDeviceIndex(int device);

}  // namespace murmur::app
