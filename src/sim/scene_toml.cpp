#include "sim/scene_toml.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"

namespace murmur::sim {
namespace {

std::string_view describe(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

// An integer or a float as a double (finite or not); nullopt for any other type.
std::optional<double> numberValue(const toml::node& node) {
  if (const auto* integer = node.as_integer()) return static_cast<double>(integer->get());
  if (const auto* floating = node.as_floating_point()) return floating->get();
  return std::nullopt;
}

// Finite once rounded to float: 1e39 is a finite double but an infinite float.
bool isFiniteFloat(double value) {
  return std::isfinite(value) && std::abs(value) <= double(std::numeric_limits<float>::max());
}
constexpr std::string_view kNotFiniteFloat = "must be a finite number within float32 range (|x| <= 3.4e38)";

bool isBareKeyChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

bool isArrayOfTables(const toml::node& node) {
  const toml::array* array = node.as_array();
  return array && std::all_of(array->begin(), array->end(),
                              [](const toml::node& element) { return element.is_table(); });
}

}  // namespace

void checkSceneTextLimits(std::string_view text, const std::string& path) {
  if (text.size() > kMaxSceneBytes)
    throw InputError(path, 0, "",
                     fmt::format("the scene file is {} bytes; the limit is {} (docs/model.md)", text.size(),
                                 kMaxSceneBytes));
  // A cheap scan, outside strings and comments: `segments` counts the dots of the current dotted
  // key (a float value has one), `brackets` the open [ and { (headers, arrays, inline tables).
  std::size_t line = 1;
  int segments = 0, brackets = 0;
  const auto tooDeep = [&] {
    throw InputError(
        path, line, "",
        fmt::format("nesting deeper than {} levels (dotted keys, headers, arrays, inline tables)",
                    kMaxSceneNesting));
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {  // a string: skipped whole (one segment of a quoted key)
      const bool triple = text.substr(i, 3) == std::string_view(c == '"' ? "\"\"\"" : "'''");
      const std::string_view close = triple ? text.substr(i, 3) : text.substr(i, 1);
      std::size_t j = i + close.size();
      bool closed = false;
      while (j < text.size()) {
        if (text.compare(j, close.size(), close) == 0) {
          closed = true;
          break;
        }
        if (text[j] == '\n') {
          if (!triple) break;  // unterminated: toml++ reports it
          ++line;
        }
        // An escape: the next character cannot close the string.
        if (c == '"' && text[j] == '\\' && j + 1 < text.size() && text[j + 1] != '\n') ++j;
        ++j;
      }
      i = closed ? j + close.size() - 1 : j - 1;
      continue;
    }
    if (c == '#') {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if (c == '.') {
      if (++segments > kMaxSceneNesting) tooDeep();
    } else if (c == '[' || c == '{') {
      if (++brackets > kMaxSceneNesting) tooDeep();
      segments = 0;
    } else if (c == ']' || c == '}') {
      brackets = std::max(brackets - 1, 0);
      segments = 0;
    } else if (!isBareKeyChar(c) && c != ' ' && c != '\t') {
      segments = 0;
    }
    if (c == '\n') ++line;
  }
}

TableReader::TableReader(std::string path, const toml::table& table, std::string prefix)
    : path_(std::move(path)), table_(&table), prefix_(std::move(prefix)) {}

std::string TableReader::keyPath(std::string_view key) const {
  return prefix_.empty() ? std::string(key) : fmt::format("{}.{}", prefix_, key);
}

std::size_t TableReader::lineOf(std::string_view key) const {
  const toml::node* node = table_->get(key);
  return (node ? node->source() : table_->source()).begin.line;
}

void TableReader::fail(std::string_view key, const std::string& message) const {
  throw InputError(path_, lineOf(key), keyPath(key), message);
}

void TableReader::failAt(const toml::node& node, const std::string& fullKey,
                         const std::string& message) const {
  throw InputError(path_, node.source().begin.line, fullKey, message);
}

void TableReader::failWrongType(const toml::node& node, const std::string& fullKey,
                                std::string_view expected) const {
  failAt(node, fullKey, fmt::format("wrong type: expected {}, found {}", expected, describe(node)));
}

void TableReader::failUnknownWord(std::string_view key, const std::string& word,
                                  const std::vector<std::string_view>& accepted) const {
  fail(key, fmt::format("unknown word \"{}\" (accepted: \"{}\")", word, fmt::join(accepted, "\", \"")));
}

const toml::node* TableReader::lookup(std::string_view key) {
  if (std::find(asked_.begin(), asked_.end(), key) == asked_.end()) asked_.emplace_back(key);
  return table_->get(key);
}

bool TableReader::asked(std::string_view key) const {
  return std::find(asked_.begin(), asked_.end(), key) != asked_.end();
}

const toml::node& TableReader::require(std::string_view key) {
  const toml::node* node = lookup(key);
  if (!node) fail(key, "missing");
  return *node;
}

double TableReader::number(std::string_view key) {
  const toml::node& node = require(key);
  const std::optional<double> value = numberValue(node);
  if (!value) failWrongType(node, keyPath(key), "a number");
  if (!isFiniteFloat(*value)) failAt(node, keyPath(key), std::string(kNotFiniteFloat));
  return *value;
}

double TableReader::number(std::string_view key, double fallback) {
  return lookup(key) ? number(key) : fallback;
}

std::int64_t TableReader::integer(std::string_view key) {
  const toml::node& node = require(key);
  const auto* value = node.as_integer();
  if (!value) failWrongType(node, keyPath(key), "an integer");
  return value->get();
}

std::int64_t TableReader::integer(std::string_view key, std::int64_t fallback) {
  return lookup(key) ? integer(key) : fallback;
}

bool TableReader::boolean(std::string_view key) {
  const toml::node& node = require(key);
  const auto* value = node.as_boolean();
  if (!value) failWrongType(node, keyPath(key), "a boolean");
  return value->get();
}

bool TableReader::boolean(std::string_view key, bool fallback) {
  return lookup(key) ? boolean(key) : fallback;
}

std::string TableReader::string(std::string_view key) {
  const toml::node& node = require(key);
  const auto* value = node.as_string();
  if (!value) failWrongType(node, keyPath(key), "a string");
  return value->get();
}

std::string TableReader::string(std::string_view key, std::string fallback) {
  return lookup(key) ? string(key) : std::move(fallback);
}

std::optional<std::string> TableReader::optionalString(std::string_view key) {
  if (!lookup(key)) return std::nullopt;
  return string(key);
}

glm::vec3 TableReader::toVec3(const toml::node& node, const std::string& fullKey) const {
  constexpr std::string_view kVec3 = "an array of 3 numbers [x, y, z]";
  const toml::array* array = node.as_array();
  if (!array) failWrongType(node, fullKey, kVec3);
  if (array->size() != 3)
    failAt(node, fullKey, fmt::format("wrong type: expected {}, found {} element(s)", kVec3, array->size()));
  glm::vec3 result;
  for (int axis = 0; axis < 3; ++axis) {
    const toml::node& element = *array->get(static_cast<std::size_t>(axis));
    const std::optional<double> value = numberValue(element);
    if (!value) failWrongType(element, fullKey, kVec3);
    if (!isFiniteFloat(*value)) failAt(element, fullKey, std::string(kNotFiniteFloat));
    result[axis] = static_cast<float>(*value);
  }
  return result;
}

glm::vec3 TableReader::vec3(std::string_view key) {
  return toVec3(require(key), keyPath(key));
}

glm::vec3 TableReader::vec3(std::string_view key, glm::vec3 fallback) {
  return lookup(key) ? vec3(key) : fallback;
}

std::vector<glm::vec3> TableReader::vec3List(std::string_view key) {
  const toml::node* node = lookup(key);
  if (!node) return {};
  const toml::array* array = node->as_array();
  if (!array) failWrongType(*node, keyPath(key), "an array of [x, y, z] arrays");
  std::vector<glm::vec3> result;
  result.reserve(array->size());
  for (std::size_t i = 0; i < array->size(); ++i)
    result.push_back(toVec3(*array->get(i), fmt::format("{}[{}]", keyPath(key), i)));
  return result;
}

std::vector<std::vector<glm::vec3>> TableReader::vec3Lists(std::string_view key) {
  const toml::node* node = lookup(key);
  if (!node) return {};
  constexpr std::string_view kLists = "an array of arrays of [x, y, z] arrays";
  const toml::array* array = node->as_array();
  if (!array) failWrongType(*node, keyPath(key), kLists);
  std::vector<std::vector<glm::vec3>> result;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const toml::node& element = *array->get(i);
    const toml::array* list = element.as_array();
    if (!list) failWrongType(element, fmt::format("{}[{}]", keyPath(key), i), kLists);
    std::vector<glm::vec3>& points = result.emplace_back();
    for (std::size_t j = 0; j < list->size(); ++j)
      points.push_back(toVec3(*list->get(j), fmt::format("{}[{}][{}]", keyPath(key), i, j)));
  }
  return result;
}

std::optional<TableReader> TableReader::table(std::string_view key) {
  const toml::node* node = lookup(key);
  if (!node) return std::nullopt;
  const toml::table* table = node->as_table();
  if (!table) failWrongType(*node, keyPath(key), "a table");
  return TableReader(path_, *table, keyPath(key));
}

std::vector<TableReader> TableReader::arrayOfTables(std::string_view key) {
  const toml::node* node = lookup(key);
  if (!node) return {};
  if (!isArrayOfTables(*node)) failWrongType(*node, keyPath(key), "an array of tables");
  std::vector<TableReader> readers;
  const toml::array& array = *node->as_array();
  for (std::size_t i = 0; i < array.size(); ++i)
    readers.emplace_back(path_, *array.get(i)->as_table(), fmt::format("{}[{}]", keyPath(key), i));
  return readers;
}

void TableReader::finish() const {
  const toml::node* first = nullptr;
  std::string_view firstKey;
  for (const auto& [key, node] : *table_) {
    if (std::find(asked_.begin(), asked_.end(), key.str()) != asked_.end()) continue;
    if (!first || node.source().begin < first->source().begin) {
      first = &node;
      firstKey = key.str();
    }
  }
  if (!first) return;
  const bool section = first->is_table() || isArrayOfTables(*first);
  failAt(*first, keyPath(firstKey),
         fmt::format("unknown {} (accepted: {})", section ? "section" : "key", fmt::join(asked_, ", ")));
}

}  // namespace murmur::sim
