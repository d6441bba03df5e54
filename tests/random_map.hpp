#pragma once
// A random grid map for the navigation tests (A*, line of sight): each cell blocked with a given
// probability, drawn row by row from the caller's generator (so a seed gives the same map).
#include <cstdint>
#include <random>

#include "ai/nav.hpp"

namespace murmur::test {

inline ai::GridMap randomMap(std::mt19937& random, std::int32_t width, std::int32_t height,
                             double blockedShare) {
  ai::GridMap map(width, height);
  std::bernoulli_distribution blocked(blockedShare);
  for (std::int32_t y = 0; y < height; ++y)
    for (std::int32_t x = 0; x < width; ++x)
      if (blocked(random)) map.setPassable(ai::Cell{x, y}, false);
  return map;
}

}  // namespace murmur::test
