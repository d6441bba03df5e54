// `murmur path` end to end: scenario files (exit 0 when every optimal length matches, 1 when one does
// not), single queries, the route's picture (--png), and bad input (exit 2, one line on stderr).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "movingai_data.hpp"
#include "png_text.hpp"

// The decoder only: its implementation is compiled once, in test_demo_cli.cpp.
#include <stb/stb_image.h>

namespace murmur::test {
namespace {

namespace fs = std::filesystem;

const std::string kData = test::movingAiDir().string() + "/";

void expectBadInput(const CliResult& r, const std::string& mention) {
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
}

std::string lastLine(const std::string& text) {
  const std::size_t end = text.find_last_not_of('\n');
  if (end == std::string::npos) return "";
  const std::size_t begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1,
                     end + 1 - (begin == std::string::npos ? 0 : begin + 1));
}

void writeFile(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// --png (no MovingAI data needed): the map at 16 pixels a cell (a 6 x 4 map), every cell of the printed route
// red at its centre, its start green and its goal blue, the other open cells light and the blocked dark; the
// text chunks name the query. The route must wind round the wall.
TEST(PathPng, DrawsTheMapAndTheRoute) {
  const fs::path dir = scratchDir("path_png");
  writeFile(dir / "t.map", "type octile\nheight 4\nwidth 6\nmap\n......\n.@@@@.\n.@....\n.@.@@@\n");
  const fs::path png = dir / "route.png";
  const CliResult r = runMurmur("path --map '" + (dir / "t.map").string() + "' --from 0,3 --to 2,3 --png '" +
                                png.string() + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::size_t at = r.out.find("\npath ");
  ASSERT_NE(at, std::string::npos) << r.out;
  std::vector<std::pair<int, int>> route;
  std::istringstream cells(r.out.substr(at + 6, r.out.find('\n', at + 1) - at - 6));
  for (std::string cell; cells >> cell;) {
    int x = 0, y = 0;
    ASSERT_EQ(std::sscanf(cell.c_str(), "(%d,%d)", &x, &y), 2) << cell;
    route.emplace_back(x, y);
  }
  ASSERT_EQ(route.size(), 15u) << r.out;  // up, along the top, down the right, back along row 2
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load(png.c_str(), &w, &h, &channels, 3);
  ASSERT_NE(pixels, nullptr) << stbi_failure_reason();
  ASSERT_EQ(w, 6 * 16);
  ASSERT_EQ(h, 4 * 16);
  const char* rows[] = {"......", ".@@@@.", ".@....", ".@.@@@"};
  using Colour = std::array<int, 3>;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 6; ++x) {
      Colour expected = rows[y][x] == '@' ? Colour{40, 44, 52} : Colour{236, 236, 230};
      if (std::find(route.begin(), route.end(), std::pair{x, y}) != route.end()) expected = {214, 40, 40};
      if (std::pair{x, y} == route.front()) expected = {30, 160, 60};
      if (std::pair{x, y} == route.back()) expected = {40, 90, 220};
      const stbi_uc* p = pixels + 3 * ((y * 16 + 8) * w + x * 16 + 8);
      EXPECT_EQ((Colour{p[0], p[1], p[2]}), expected) << "cell " << x << "," << y;
    }
  stbi_image_free(pixels);
  const std::map<std::string, std::string> text = pngText(png);
  EXPECT_EQ(text.at("from"), "0,3");
  EXPECT_EQ(text.at("to"), "2,3");
  EXPECT_EQ(text.at("status"), "found");
  EXPECT_EQ(text.at("length"), "14.00000000");
  EXPECT_EQ(text.at("map"), (dir / "t.map").lexically_normal().string());
  EXPECT_EQ(text.at("commit"), buildCommit());
  // Only a query has a route to draw.
  writeFile(dir / "t.scen", "version 1\n");
  expectBadInput(runMurmur("path --scen '" + (dir / "t.scen").string() + "' --png '" + png.string() + "'"),
                 "--png");
}

TEST(PathCli, ScenarioFileMatchesItsOptimalLengths) {
  // The rows name the map; without --map it is found beside the scenario file.
  const CliResult r = runMurmur("path --scen '" + kData + "maze-32-32-2-random-1.scen' --json");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  // --json: the summary on stderr, stdout only the JSON object.
  EXPECT_NE(r.err.find("scenarios 333"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("mismatches 0"), std::string::npos) << r.err;
  EXPECT_EQ(countLines(r.out), 1u) << r.out;
  const std::string json = lastLine(r.out);
  EXPECT_EQ(json.front(), '{') << json;
  EXPECT_EQ(json.back(), '}') << json;
  EXPECT_NE(json.find("\"scenarios\":333"), std::string::npos) << json;
  EXPECT_NE(json.find("\"mismatches\":0"), std::string::npos) << json;
  EXPECT_NE(json.find("\"us_per_query\":"), std::string::npos) << json;
}

TEST(PathCli, MapNamedByItsBenchmarkPathIsFoundByFileName) {
  // arena.map.scen names "maps/dao/arena.map"; an explicit --map works as well.
  EXPECT_EQ(runMurmur("path --scen '" + kData + "arena.map.scen'").exitCode, 0);
  EXPECT_EQ(runMurmur("path --scen '" + kData + "arena.map.scen' --map '" + kData + "arena.map'").exitCode,
            0);
}

TEST(PathCli, MismatchExitsOne) {
  const fs::path dir = scratchDir("path_mismatch");
  // (1,11) -> (1,12) is one orthogonal step: length 1, not 1.5.
  writeFile(dir / "wrong.scen", "version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1.5\n");
  const CliResult r =
      runMurmur("path --scen '" + (dir / "wrong.scen").string() + "' --map '" + kData + "arena.map' --json");
  EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("mismatches 1"), std::string::npos) << r.err;
  EXPECT_NE(lastLine(r.out).find("\"mismatch_lines\":[2]"), std::string::npos) << r.out;
}

TEST(PathCli, SingleQuery) {
  const CliResult r = runMurmur("path --map '" + kData + "arena.map' --from 1,11 --to 4,12 --json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("status found"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("length 3.41421356"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("path (1,11) (2,12) (3,12) (4,12)"), std::string::npos) << r.err;
  EXPECT_EQ(countLines(r.out), 1u) << r.out;
  const std::string json = lastLine(r.out);
  EXPECT_NE(json.find("\"status\":\"found\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"path\":[[1,11],[2,12],[3,12],[4,12]]"), std::string::npos) << json;

  const CliResult four = runMurmur("path --map '" + kData + "arena.map' --from 1,11 --to 4,12 --connect 4");
  ASSERT_EQ(four.exitCode, 0) << four.err;
  EXPECT_NE(four.out.find("length 4.00000000"), std::string::npos) << four.out;
}

// The number after "key": in a JSON object line.
double jsonNumber(const std::string& json, const std::string& key) {
  const std::size_t at = json.find("\"" + key + "\":");
  if (at == std::string::npos) return -1.0;
  return std::stod(json.substr(at + key.size() + 3));
}

TEST(PathCli, TheHeuristicIsChosenByName) {
  // Every choice admissible for 8-connected moves still finds the optimal lengths; Euclidean is the
  // looser bound, so A* expands more nodes with it than with octile.
  const std::string scen = "path --scen '" + kData + "maze-32-32-2-random-1.scen' --json";
  const CliResult octile = runMurmur(scen);
  const CliResult euclidean = runMurmur(scen + " --heuristic euclidean");
  ASSERT_EQ(octile.exitCode, 0) << octile.err;
  ASSERT_EQ(euclidean.exitCode, 0) << euclidean.err;
  EXPECT_NE(octile.out.find("\"heuristic\":\"octile\""), std::string::npos) << octile.out;
  EXPECT_NE(euclidean.out.find("\"heuristic\":\"euclidean\""), std::string::npos) << euclidean.out;
  EXPECT_NE(euclidean.err.find("mismatches 0"), std::string::npos) << euclidean.err;
  EXPECT_GT(jsonNumber(euclidean.out, "mean_expansions"), jsonNumber(octile.out, "mean_expansions"));

  // 4-connected: Manhattan by default and on request, octile when asked; same length either way.
  const std::string query = "path --map '" + kData + "arena.map' --from 1,11 --to 4,12 --connect 4 --json";
  const CliResult manhattan = runMurmur(query + " --heuristic manhattan");
  const CliResult fourOctile = runMurmur(query + " --heuristic octile");
  ASSERT_EQ(manhattan.exitCode, 0) << manhattan.err;
  ASSERT_EQ(fourOctile.exitCode, 0) << fourOctile.err;
  EXPECT_NE(runMurmur(query).out.find("\"heuristic\":\"manhattan\""), std::string::npos);
  EXPECT_NE(manhattan.err.find("| manhattan |"), std::string::npos) << manhattan.err;
  EXPECT_EQ(jsonNumber(manhattan.out, "length"), 4.0);
  EXPECT_EQ(jsonNumber(fourOctile.out, "length"), 4.0);
}

TEST(PathCli, BadMapExitsTwoWithOneLine) {
  const fs::path dir = scratchDir("path_bad_map");
  writeFile(dir / "bad.map", "type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n");
  const CliResult r = runMurmur("path --map '" + (dir / "bad.map").string() + "' --from 0,0 --to 2,0");
  expectBadInput(r, "bad.map:6:");
  EXPECT_TRUE(r.out.empty()) << r.out;

  writeFile(dir / "short.map", "type octile\nheight 2\nwidth 3\nmap\n...\n..\n");
  expectBadInput(runMurmur("path --map '" + (dir / "short.map").string() + "' --from 0,0 --to 2,0"),
                 "short.map:6:");
}

TEST(PathCli, OtherBadInputExitsTwo) {
  const std::string map = "--map '" + kData + "arena.map'";
  expectBadInput(runMurmur("path --map '" + kData + "no-such.map' --from 1,11 --to 4,12"), "no-such.map");
  expectBadInput(runMurmur("path " + map + " --from 1,11 --to 49,12"), "outside the 49x49 map");
  expectBadInput(runMurmur("path " + map + " --from 0,0 --to 4,12"), "blocked");
  expectBadInput(runMurmur("path " + map + " --from 1:11 --to 4,12"), "--from");
  expectBadInput(runMurmur("path " + map + " --from 1,11"), "--to");
  expectBadInput(runMurmur("path " + map), "--scen");
  expectBadInput(runMurmur("path --scen '" + kData + "no-such.scen'"), "no-such.scen");
  expectBadInput(runMurmur("path --scen '" + kData + "arena.map.scen' --connect 4"), "--connect");
  // Manhattan overestimates once diagonals are allowed; an unknown name lists the accepted ones.
  expectBadInput(runMurmur("path " + map + " --from 1,11 --to 4,12 --heuristic manhattan"),
                 "--heuristic: manhattan overestimates with 8-connected moves");
  expectBadInput(runMurmur("path --scen '" + kData + "arena.map.scen' --heuristic manhattan"), "--heuristic");
  expectBadInput(runMurmur("path " + map + " --from 1,11 --to 4,12 --heuristic chebyshev"),
                 "accepted: manhattan, octile, euclidean");
  expectBadInput(runMurmur("path --scen '" + kData + "arena.map.scen' --map '" + kData + "den312d.map'"),
                 "arena.map.scen:2:");
  const fs::path dir = scratchDir("path_bad_scen");
  writeFile(dir / "lost.scen", "version 1\n0\tnowhere.map\t49\t49\t1\t11\t1\t12\t1\n");
  expectBadInput(runMurmur("path --scen '" + (dir / "lost.scen").string() + "'"), "lost.scen:2: map:");
}

}  // namespace
}  // namespace murmur::test
