#pragma once
// The parsed scene document and the strict TOML reader that every scene section is read with: the
// sim loader's ([world], [boids], ...) and those of the modules above sim, each of which reads its own
// sections from Scene::document (the sim loader accepts them unread when the program passes them:
// SceneSection, scene_loader.hpp). The only header that includes toml++ (it is heavy): include it
// from .cpp files only.
//
// A TableReader reads one table. Its getters check types and report errors as InputError with the
// file, the line and the dotted key ("obstacles[2].radius"); they remember which keys were asked for,
// so that finish() can reject every other key as unknown, listing the accepted ones.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <glm/vec3.hpp>

#include <toml++/toml.h>

namespace murmur::sim {

// Limits on the scene text, checked before toml++ sees it (its parser recurses once per nesting
// level, so a small file of 50,000 dotted keys would overflow the stack): docs/model.md, "Limits".
inline constexpr std::size_t kMaxSceneBytes = 16u << 20;
inline constexpr int kMaxSceneNesting = 64;  // dotted-key segments, table headers, arrays, inline tables

// Throws InputError at the first line whose nesting exceeds kMaxSceneNesting, or for a text over
// kMaxSceneBytes.
void checkSceneTextLimits(std::string_view text, const std::string& path);

struct SceneDocument {
  toml::table root;
  std::string path;  // the file named in messages
};

class TableReader {
 public:
  // path: the file named in errors; table: read in place, must outlive the reader; prefix: the dotted
  // key of the table itself ("" for the document's root, "world", "obstacles[2]").
  TableReader(std::string path, const toml::table& table, std::string prefix);

  // Getters. The form without a fallback requires the key (absent: "missing", at the table's line);
  // the form with one returns it when the key is absent. Both count the key as read.

  // An integer or a float, finite in float32 (|x| <= FLT_MAX: the model computes in float).
  double number(std::string_view key);
  double number(std::string_view key, double fallback);
  // An integer (a float is the wrong type).
  std::int64_t integer(std::string_view key);
  std::int64_t integer(std::string_view key, std::int64_t fallback);
  bool boolean(std::string_view key);
  bool boolean(std::string_view key, bool fallback);
  std::string string(std::string_view key);
  std::string string(std::string_view key, std::string fallback);
  // [x, y, z]: an array of exactly three numbers finite in float32.
  glm::vec3 vec3(std::string_view key);
  glm::vec3 vec3(std::string_view key, glm::vec3 fallback);
  // [[x, y, z], ...]: an array of vec3s; absent: empty.
  std::vector<glm::vec3> vec3List(std::string_view key);
  // [[[x, y, z], ...], ...]: an array of such lists (paths); absent: empty.
  std::vector<std::vector<glm::vec3>> vec3Lists(std::string_view key);

  // A string that must be one of `words`, mapped to its value; other words fail listing the accepted
  // ones. T is deduced from the fallback; the required form names it. `words` is a braced list of
  // (word, value) pairs, or any range of them (a table of names built elsewhere):
  //   reader.choice("boundary", {{"contain", Boundary::Contain}, {"wrap", Boundary::Wrap}}, fallback)
  //   reader.choice<Kind>("kind", {{"leader", Kind::Leader}, {"predator", Kind::Predator}})
  template <class T, class Words = std::initializer_list<std::pair<std::string_view, T>>>
  T choice(std::string_view key, const Words& words) {
    return pick(key, string(key), words);
  }
  template <class T, class Words = std::initializer_list<std::pair<std::string_view, T>>>
  T choice(std::string_view key, const Words& words, T fallback) {
    const std::optional<std::string> word = optionalString(key);
    return word ? pick(key, *word, words) : fallback;
  }

  // A sub-table ([section] or key = { ... }); absent: nullopt. The caller reads it and calls its
  // finish(); a section that belongs to another module is checked for type here and left unread.
  std::optional<TableReader> table(std::string_view key);
  // An array of tables ([[key]] or key = [{ ... }, ...]); absent: empty. Prefixes are "key[i]".
  std::vector<TableReader> arrayOfTables(std::string_view key);

  // Whether a getter asked for `key` already.
  bool asked(std::string_view key) const;

  // Throws InputError for the unread key that comes first in the file ("unknown key", or "unknown
  // section" for a table), listing the keys the getters asked for. Call after every getter.
  void finish() const;

  // Throws InputError for `key` of this table, at the line of its value (of the table when absent).
  [[noreturn]] void fail(std::string_view key, const std::string& message) const;

 private:
  // The value of `key`, or null when absent; records the key as asked for either way.
  const toml::node* lookup(std::string_view key);
  const toml::node& require(std::string_view key);
  std::optional<std::string> optionalString(std::string_view key);
  std::string keyPath(std::string_view key) const;
  std::size_t lineOf(std::string_view key) const;
  glm::vec3 toVec3(const toml::node& node, const std::string& fullKey) const;
  [[noreturn]] void failAt(const toml::node& node, const std::string& fullKey,
                           const std::string& message) const;
  [[noreturn]] void failWrongType(const toml::node& node, const std::string& fullKey,
                                  std::string_view expected) const;
  [[noreturn]] void failUnknownWord(std::string_view key, const std::string& word,
                                    const std::vector<std::string_view>& accepted) const;

  template <class Words>
  auto pick(std::string_view key, const std::string& word, const Words& words) const {
    std::vector<std::string_view> accepted;
    for (const auto& [name, value] : words) {
      if (name == word) return value;
      accepted.push_back(name);
    }
    failUnknownWord(key, word, accepted);
  }

  std::string path_;
  const toml::table* table_;
  std::string prefix_;
  std::vector<std::string> asked_;  // every key a getter asked for, in order: the accepted keys
};

}  // namespace murmur::sim
