#include "sweep/sweep_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "build_info.hpp"
#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/install_dirs.hpp"
#include "core/output_path.hpp"
#include "session/scene_source.hpp"
#include "sim/builders.hpp"
#include "sim/random.hpp"
#include "sim/run_cost.hpp"
#include "sim/scene_toml.hpp"
#include "world/backend.hpp"

namespace murmur::sweep {
namespace {

// A sweep file is small: a few axes of at most thousands of values.
constexpr std::uint64_t kMaxSweepBytes = 1u << 20;
constexpr std::int64_t kMaxReplicates = 100'000;
constexpr std::int64_t kMaxAxisValues = 100'000;
// Bytes of a run file: its header, and each logged step's measures.
constexpr std::uint64_t kRunFileBytes = 1024, kSampleBytes = 480;
// Bytes a boid takes in a state CSV (a dump) and in a trajectory frame (float32 position, velocity).
constexpr std::uint64_t kDumpBytesPerBoid = 110, kFrameBytesPerBoid = 24;

const std::vector<std::string_view> kTopKeys = {"scene",   "steps", "replicates", "seed", "backend",
                                                "combine", "set",   "axes",       "log",  "reduced"};

class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const toml::node& node, const std::string& key, const std::string& message) const {
    throw InputError(path_, node.source().begin.line, key, message);
  }

  void onlyKeys(const toml::table& table, const std::string& prefix,
                const std::vector<std::string_view>& keys) const {
    for (const auto& [key, node] : table)
      if (std::find(keys.begin(), keys.end(), key.str()) == keys.end()) {
        std::string accepted;
        for (std::string_view k : keys) accepted += (accepted.empty() ? "" : ", ") + std::string(k);
        fail(node, prefix + std::string(key.str()), fmt::format("unknown key (accepted: {})", accepted));
      }
  }

  std::int64_t integer(const toml::node& node, const std::string& key, std::int64_t lo,
                       std::int64_t hi) const {
    const auto* value = node.as_integer();
    if (value == nullptr) fail(node, key, "must be an integer");
    if (value->get() < lo || value->get() > hi) fail(node, key, fmt::format("must be in [{}, {}]", lo, hi));
    return value->get();
  }

  double number(const toml::node& node, const std::string& key) const {
    double x = 0.0;
    if (const auto* i = node.as_integer())
      x = double(i->get());
    else if (const auto* f = node.as_floating_point())
      x = f->get();
    else
      fail(node, key, "must be a number");
    if (!std::isfinite(x) || std::abs(x) > 3.4e38) fail(node, key, "must be finite in float32");
    return x;
  }

  std::string string(const toml::node& node, const std::string& key) const {
    const auto* value = node.as_string();
    if (value == nullptr || value->get().empty()) fail(node, key, "must be a non-empty string");
    return value->get();
  }

  // A string or an array of strings (scene, backend).
  std::vector<std::string> strings(const toml::node& node, const std::string& key) const {
    if (node.is_string()) return {string(node, key)};
    const auto* array = node.as_array();
    if (array == nullptr || array->empty())
      fail(node, key, "must be a string or a non-empty array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < array->size(); ++i) {
      out.push_back(string(*array->get(i), fmt::format("{}[{}]", key, i)));
      if (std::count(out.begin(), out.end(), out.back()) > 1)
        fail(*array->get(i), fmt::format("{}[{}]", key, i), fmt::format("'{}' is listed twice", out.back()));
    }
    return out;
  }

 private:
  std::string path_;
};

std::string tomlText(const toml::node& node) {
  std::ostringstream out;
  node.visit([&](const auto& value) { out << value; });
  return out.str();
}

// A number as a TOML value: integers as integers, others in the shortest form that reads back.
std::string numberText(double x, bool integer) {
  if (integer) return fmt::format("{}", static_cast<std::int64_t>(x));
  std::string text = fmt::format("{}", x);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

// Uniform in [0, 1) with 53 random bits.
double uniform53(sim::Pcg32& rng) {
  const std::uint64_t hi = rng.next() >> 5, lo = rng.next() >> 6;
  return double(hi * 67108864u + lo) / 9007199254740992.0;
}

Axis readAxis(const Reader& r, const std::string& key, const toml::node& node) {
  const std::string where = "axes." + key;
  const auto* table = node.as_table();
  if (table == nullptr || table->size() != 1)
    r.fail(node, where, "must be a table with one of values = [...], range = {...}, random = {...}");
  r.onlyKeys(*table, where + ".", {"values", "range", "random"});
  Axis axis{key, {}, node.source().begin.line};
  const auto [kind, spec] = *table->begin();  // a proxy of references
  const std::string at = where + "." + std::string(kind.str());
  if (kind == "values") {
    const auto* array = spec.as_array();
    if (array == nullptr || array->empty()) r.fail(spec, at, "must be a non-empty array");
    if (std::int64_t(array->size()) > kMaxAxisValues)
      r.fail(spec, at, fmt::format("at most {} values", kMaxAxisValues));
    for (std::size_t i = 0; i < array->size(); ++i) {
      axis.values.push_back(tomlText(*array->get(i)));
      if (std::count(axis.values.begin(), axis.values.end(), axis.values.back()) > 1)
        r.fail(*array->get(i), fmt::format("{}[{}]", at, i),
               fmt::format("{} is listed twice", axis.values.back()));
    }
    return axis;
  }
  const auto* t = spec.as_table();
  if (t == nullptr) r.fail(spec, at, "must be a table");
  const auto need = [&](std::string_view k) -> const toml::node& {
    const toml::node* n = t->get(k);
    if (n == nullptr) r.fail(*t, at, fmt::format("needs {}", k));
    return *n;
  };
  const auto count = [&] { return r.integer(need("count"), at + ".count", 1, kMaxAxisValues); };
  if (kind == "range") {
    r.onlyKeys(*t, at + ".", {"from", "to", "count", "scale"});
    const double from = r.number(need("from"), at + ".from"), to = r.number(need("to"), at + ".to");
    const std::int64_t n = count();
    bool log = false;
    if (const toml::node* scale = t->get("scale")) {
      const std::string s = r.string(*scale, at + ".scale");
      if (s != "linear" && s != "log") r.fail(*scale, at + ".scale", "must be \"linear\" or \"log\"");
      log = s == "log";
    }
    if (log && (from <= 0.0 || to <= 0.0)) r.fail(spec, at, "a log range needs from > 0 and to > 0");
    if (n > 1 && from == to) r.fail(spec, at, "from and to are equal: count must be 1");
    // Integers when from and to are and every step is a whole number.
    const bool integer = need("from").is_integer() && need("to").is_integer() && !log &&
                         (n == 1 || std::fmod(to - from, double(n - 1)) == 0.0);
    for (std::int64_t i = 0; i < n; ++i) {
      const double f = n == 1 ? 0.0 : double(i) / double(n - 1);
      const double x = i == n - 1 && n > 1 ? to
                       : log               ? from * std::pow(to / from, f)
                                           : from + (to - from) * f;
      axis.values.push_back(numberText(x, integer));
    }
    return axis;
  }
  r.onlyKeys(*t, at + ".", {"dist", "low", "high", "count", "seed"});
  const std::string dist = t->get("dist") ? r.string(*t->get("dist"), at + ".dist") : "uniform";
  if (dist != "uniform" && dist != "log-uniform")
    r.fail(*t->get("dist"), at + ".dist", "must be \"uniform\" or \"log-uniform\"");
  const double low = r.number(need("low"), at + ".low"), high = r.number(need("high"), at + ".high");
  if (!(low < high)) r.fail(spec, at, "needs low < high");
  if (dist == "log-uniform" && low <= 0.0) r.fail(spec, at, "log-uniform needs low > 0");
  const std::int64_t n = count();
  const std::uint64_t seed =
      t->get("seed") ? std::uint64_t(r.integer(*t->get("seed"), at + ".seed", 0, INT64_MAX)) : 1;
  const bool integer = need("low").is_integer() && need("high").is_integer() && dist == "uniform";
  if (integer && high - low + 1 < double(n))
    r.fail(spec, at, "asks for more distinct integers than [low, high] holds");
  sim::Pcg32 rng(seed);
  std::set<std::string> seen;
  for (std::int64_t tries = 0; std::int64_t(axis.values.size()) < n; ++tries) {
    if (tries > 64 * n) r.fail(spec, at, "cannot draw that many distinct values");
    const double u = uniform53(rng);
    const double x = integer                 ? std::floor(low + u * (high - low + 1.0))
                     : dist == "log-uniform" ? low * std::pow(high / low, u)
                                             : low + (high - low) * u;
    std::string text = numberText(x, integer);
    if (seen.insert(text).second) axis.values.push_back(std::move(text));
  }
  return axis;
}

// The [reduced] table's keys over the top level's; [set], [axes] and [log] merged key by key.
void applyReduced(const Reader& r, toml::table& root) {
  toml::node* node = root.get("reduced");
  if (node == nullptr) return;
  toml::table* reduced = node->as_table();
  if (reduced == nullptr) r.fail(*node, "reduced", "must be a table");
  toml::table copy = *reduced;
  r.onlyKeys(copy, "reduced.",
             {"scene", "steps", "replicates", "seed", "backend", "combine", "set", "axes", "log"});
  for (auto& [key, value] : copy) {
    toml::table* into = root.get(key) ? root.get(key)->as_table() : nullptr;
    if (value.is_table() && into != nullptr)
      for (auto& [k, v] : *value.as_table()) into->insert_or_assign(k, v);
    else
      root.insert_or_assign(key, value);
  }
}

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

}  // namespace

SweepFile loadSweep(const std::string& path, bool reduced, const std::vector<std::string>& dataDirs) {
  const std::string text = core::readWholeFile(path, kMaxSweepBytes, "sweep file");
  sim::checkSceneTextLimits(text, path);
  toml::table root;
  try {
    root = toml::parse(text, std::string_view(path));
  } catch (const toml::parse_error& error) {
    throw InputError(path, error.source().begin.line, "", std::string(error.description()));
  }
  const Reader r(path);
  r.onlyKeys(root, "", kTopKeys);
  if (reduced) {
    if (!root.contains("reduced")) throw InputError(path, 0, "reduced", "--reduced needs a [reduced] table");
    applyReduced(r, root);
  }

  SweepFile sweep;
  sweep.path = path;
  const toml::node* scene = root.get("scene");
  if (scene == nullptr) throw InputError(path, 0, "scene", "missing: a shipped scene's name or a file");
  sweep.scenes = r.strings(*scene, "scene");
  {
    // The kept copy names a scene file by its absolute path, so that it reads from anywhere.
    std::vector<std::filesystem::path> dirs(dataDirs.begin(), dataDirs.end());
    toml::array kept;
    for (const std::string& name : sweep.scenes) {
      std::filesystem::path found;
      try {
        found = session::findScene(name, dirs);
      } catch (const InputError& e) {
        r.fail(*scene, "scene", e.what());
      }
      const bool shipped = found.parent_path() == core::shareDir() / "scenes";
      kept.push_back(shipped ? name : std::filesystem::absolute(found).lexically_normal().string());
    }
    root.insert_or_assign("scene", std::move(kept));
    root.erase("reduced");
    std::ostringstream keptText;
    keptText << root;
    sweep.text = keptText.str() + "\n";
  }
  if (const toml::node* n = root.get("steps")) sweep.steps = r.integer(*n, "steps", 0, 1'000'000'000'000);
  if (const toml::node* n = root.get("replicates"))
    sweep.replicates = std::uint32_t(r.integer(*n, "replicates", 1, kMaxReplicates));
  if (const toml::node* n = root.get("seed"))
    sweep.seed = std::uint64_t(r.integer(*n, "seed", 0, INT64_MAX / 2));
  sweep.backends =
      root.get("backend") ? r.strings(*root.get("backend"), "backend") : std::vector<std::string>{"cpu"};
  for (const std::string& backend : sweep.backends)
    if (std::find(std::begin(world::kBackendNames), std::end(world::kBackendNames), backend) ==
        std::end(world::kBackendNames)) {
      std::string known;
      for (std::string_view name : world::kBackendNames)
        known += (known.empty() ? "" : ", ") + std::string(name);
      const toml::node& node =
          root.get("backend") ? *root.get("backend") : static_cast<const toml::node&>(root);
      r.fail(node, "backend", fmt::format("'{}' is no backend a sweep runs ({})", backend, known));
    }
  if (const toml::node* n = root.get("combine")) {
    const std::string combine = r.string(*n, "combine");
    if (combine != "product" && combine != "zip") r.fail(*n, "combine", "must be \"product\" or \"zip\"");
    sweep.zip = combine == "zip";
  }
  if (const toml::node* n = root.get("set")) {
    const auto* set = n->as_table();
    if (set == nullptr) r.fail(*n, "set", "must be a table of \"key\" = value");
    for (const auto& [key, value] : *set) {
      if (value.is_table())
        r.fail(value, "set." + std::string(key.str()),
               "write the dotted key in quotes: \"section.key\" = value");
      sweep.set.push_back({std::string(key.str()), tomlText(value), path, value.source().begin.line});
    }
  }
  if (const toml::node* n = root.get("axes")) {
    const auto* axes = n->as_table();
    if (axes == nullptr) r.fail(*n, "axes", "must be a table of \"key\" = { values = [...] }, ...");
    for (const auto& [key, value] : *axes) {
      const std::string k(key.str());
      if (k == "sim.seed")
        r.fail(value, "axes.sim.seed", "the seeds are the replicates': use replicates and seed");
      if (k == "scene") r.fail(value, "axes.scene", "list the scenes in scene = [...]");
      sweep.axes.push_back(readAxis(r, k, value));
    }
    // toml++ keeps a table's keys sorted: the file's order from their lines.
    std::stable_sort(sweep.axes.begin(), sweep.axes.end(),
                     [](const Axis& a, const Axis& b) { return a.line < b.line; });
  }
  for (const sim::SceneOverride& s : sweep.set)
    for (const Axis& a : sweep.axes)
      if (s.key == a.key) throw InputError(path, a.line, "axes." + a.key, "is also in [set]");
  if (sweep.zip)
    for (const Axis& a : sweep.axes)
      if (a.values.size() != sweep.axes.front().values.size())
        throw InputError(
            path, a.line, "axes." + a.key,
            fmt::format("combine = \"zip\" needs axes of one length: {} values here, {} in {}",
                        a.values.size(), sweep.axes.front().values.size(), sweep.axes.front().key));
  if (const toml::node* n = root.get("log")) {
    const auto* log = n->as_table();
    if (log == nullptr) r.fail(*n, "log", "must be a table");
    r.onlyKeys(*log, "log.", {"every", "dump", "record"});
    if (const toml::node* e = log->get("every"))
      sweep.log.every = std::uint64_t(r.integer(*e, "log.every", 0, INT64_MAX));
    if (const toml::node* d = log->get("dump")) {
      if (!d->is_boolean()) r.fail(*d, "log.dump", "must be true or false");
      sweep.log.dump = d->as_boolean()->get();
    }
    if (const toml::node* e = log->get("record"))
      sweep.log.record = std::uint64_t(r.integer(*e, "log.record", 0, INT64_MAX));
  }
  return sweep;
}

std::string runFileName(const Plan& plan, std::string_view extension) {
  return fmt::format("{}{}", plan.id, extension);
}

Expansion expandPlans(const SweepFile& sweep, const std::vector<std::string>& dataDirs) {
  Expansion out;
  const std::size_t combos = [&] {
    if (sweep.axes.empty()) return std::size_t(1);
    if (sweep.zip) return sweep.axes.front().values.size();
    std::size_t n = 1;
    for (const Axis& a : sweep.axes) {
      n *= a.values.size();
      if (n > kMaxPlans)
        throw InputError(sweep.path, a.line, "axes." + a.key,
                         fmt::format("the sweep holds more than {} runs", kMaxPlans));
    }
    return n;
  }();
  const std::size_t total = combos * sweep.scenes.size() * sweep.replicates * sweep.backends.size();
  if (combos > kMaxPlans || total > kMaxPlans)
    throw InputError(sweep.path, 0, "replicates",
                     fmt::format("the sweep holds {} runs, more than {}", total, kMaxPlans));

  const auto options = [&](const std::string& scene, std::vector<sim::SceneOverride> overrides) {
    session::SceneOptions o;
    o.scene = scene;
    o.dataDirs = dataDirs;
    o.overrides = std::move(overrides);
    return o;
  };
  // Each scene, each [set] value and each axis value with the base scene alone: a refusal there is
  // the sweep file's error.
  for (const std::string& scene : sweep.scenes) {
    try {
      session::describeWorld(options(scene, sweep.set), false);
    } catch (const InputError& e) {
      if (e.key() == "--scene") throw InputError(sweep.path, 0, "scene", e.what());
      if (e.file() == sweep.path || sweep.set.empty()) throw;
      throw InputError(sweep.path, sweep.set.front().line, "set",
                       fmt::format("refused by {}: {}", scene, e.what()));
    }
    for (const Axis& axis : sweep.axes)
      for (const std::string& value : axis.values) {
        std::vector<sim::SceneOverride> one = sweep.set;
        one.push_back({axis.key, value, sweep.path, axis.line});
        try {
          session::describeWorld(options(scene, std::move(one)), false);
        } catch (const InputError& e) {
          if (e.file() == sweep.path) throw;
          throw InputError(sweep.path, axis.line, "axes." + axis.key,
                           fmt::format("{} = {} is refused by {}: {}", axis.key, value, scene, e.what()));
        }
      }
  }

  const std::string build(buildCommit());
  for (const std::string& scene : sweep.scenes)
    for (std::size_t c = 0; c < combos; ++c) {
      std::vector<std::string> values;
      std::size_t rest = c;
      for (std::size_t a = sweep.axes.size(); a-- > 0;) {  // the last axis fastest
        const std::size_t n = sweep.axes[a].values.size();
        values.insert(values.begin(), sweep.axes[a].values[sweep.zip ? c : rest % n]);
        if (!sweep.zip) rest /= n;
      }
      std::map<std::string, double>
          comboTests;  // by backend: the first replicate's cost stands for the others
      for (std::uint32_t rep = 0; rep < sweep.replicates; ++rep)
        for (const std::string& backend : sweep.backends) {
          core::throwIfStopRequested();
          Plan plan;
          plan.index = out.plans.size();
          plan.scene = scene;
          plan.values = values;
          plan.replicate = rep;
          plan.seed = sweep.seed + rep;
          plan.backend = backend;
          plan.overrides = sweep.set;
          for (std::size_t a = 0; a < sweep.axes.size(); ++a)
            plan.overrides.push_back({sweep.axes[a].key, values[a], sweep.path, sweep.axes[a].line});
          plan.overrides.push_back({"sim.seed", std::to_string(plan.seed), sweep.path, 0});
          const bool gpu = backend.starts_with("gpu");
          std::string resolved;
          try {
            const session::DescribedWorld described =
                session::describeWorld(options(scene, plan.overrides), gpu);
            const sim::Scene& s = described.world.scene;
            plan.steps = session::resolveSteps(sweep.steps > 0 ? sweep.steps : session::kUnset, s, 600);
            plan.boids = s.count;
            resolved = sim::resolvedSceneText(s);
            if (!comboTests.contains(backend)) {
              const sim::FlockState flock = sim::spawnFlock(s);
              comboTests[backend] = sim::estimateRunCost(s.model, flock.position, plan.steps).totalTests();
            }
            plan.candidateTests = comboTests[backend];
          } catch (const InputError& e) {
            plan.invalid = e.what();
            for (const sim::SceneOverride& o : plan.overrides) resolved += o.key + "=" + o.value + "\n";
          }
          const std::string identity =
              fmt::format("{}\nbackend {}\nsteps {}\nlog {} {} {}\nbuild {}\n", resolved, backend, plan.steps,
                          sweep.log.every, sweep.log.dump, sweep.log.record, build);
          plan.id = fmt::format("{:016x}", fnv1a(identity));
          plan.sceneHash = fmt::format("{:016x}", fnv1a(resolved));
          if (plan.invalid.empty()) {
            out.candidateTests += plan.candidateTests;
            const std::uint64_t samples = (sweep.log.every > 0 ? plan.steps / sweep.log.every : 0) + 1;
            out.outputBytes += kRunFileBytes + samples * kSampleBytes;
            if (sweep.log.dump) out.outputBytes += plan.boids * kDumpBytesPerBoid;
            if (sweep.log.record > 0)
              out.outputBytes += (plan.steps / sweep.log.record + 1) * plan.boids * kFrameBytesPerBoid;
          }
          out.plans.push_back(std::move(plan));
        }
    }
  return out;
}

}  // namespace murmur::sweep
