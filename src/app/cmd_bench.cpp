// `murmur bench`: the benchmark suite (murmur_bench, the program beside this one) for this machine's
// GL device, from nothing to a result a user can share: the case list, a progress line per finished
// case (done/total, elapsed, estimate left), a second run of every case whose coefficient of
// variation stays over 5%, the results JSON under bench/results/<device>/ (or --out), the Markdown
// report and charts beside it (bench/report.py), and a short summary. bench/README.md describes it.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "app/child_process.hpp"
#include "app/cli_checks.hpp"
#include "app/command.hpp"
#include "app/shell.hpp"
#include "core/error.hpp"
#include "core/install_dirs.hpp"
#include "core/output_path.hpp"
#include "gpu/context.hpp"
#include "gpu/error.hpp"

namespace murmur::app {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// Whether EGL lists a hardware device here (false when libEGL cannot be loaded).
bool hardwareDevicePresent() {
  try {
    const std::vector<gpu::EglDevice> devices = gpu::listEglDevices();
    return std::any_of(devices.begin(), devices.end(), [](const gpu::EglDevice& d) { return !d.software(); });
  } catch (const gpu::ContextError&) {
    return false;
  }
}

constexpr double kMaxCv = 0.05;  // a case noisier than this (stddev / mean of its repetitions) runs again
constexpr int kRepetitions = 3;

std::string regexEscape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// "1 case", "3 cases".
std::string caseCount(std::size_t n) {
  return fmt::format("{} case{}", n, n == 1 ? "" : "s");
}

std::string clock(double seconds) {
  const auto s = static_cast<long>(seconds + 0.5);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

// The first Python 3 that has matplotlib (Debian's /usr/bin/python3 first), else the first there is.
std::optional<std::string> findPython(bool& withMatplotlib) {
  std::vector<std::string> found;
  for (const std::string candidate : {"/usr/bin/python3", "python3"})
    if (runQuietly({candidate, "-c", ""})) found.push_back(candidate);
  for (const std::string& python : found)
    if (runQuietly({python, "-c", "import matplotlib"})) {
      withMatplotlib = true;
      return python;
    }
  withMatplotlib = false;
  if (found.empty()) return std::nullopt;
  return found.front();
}

fs::path reportScript() {
  return core::shareDir() / "bench" / "report.py";
}

// Google Benchmark writes a counter that is not a number (the cv of a counter whose mean is 0) as a
// bare NaN or Inf, which JSON has no word for; they are read as null.
Json readResult(const fs::path& path) {
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  static const std::regex notANumber(R"((:\s*)-?(NaN|Infinity|Inf)\b)");
  try {
    return Json::parse(std::regex_replace(text, notANumber, "$1null"));
  } catch (const Json::parse_error&) {
    // Google Benchmark does not check its writes: a cut-off file is how a full disk shows.
    throw OutputError(path.string(), "", "murmur_bench's results are incomplete (a full disk?)");
  }
}

// A row's number, 0 when it is missing or null.
double number(const Json& row, const char* key) {
  const auto it = row.find(key);
  return it != row.end() && it->is_number() ? it->get<double>() : 0.0;
}

// A scratch directory for the runs' output, removed however the command ends.
struct ScratchDir {
  fs::path path = fs::temp_directory_path() / fmt::format("murmur-bench-{}", ::getpid());
  ScratchDir() { fs::create_directories(path); }
  ~ScratchDir() { fs::remove_all(path); }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

// The rows of a result (references into it: Json::value() would return a copy).
const Json& rowsOf(const Json& result) {
  static const Json none = Json::array();
  const auto rows = result.find("benchmarks");
  return rows != result.end() ? *rows : none;
}

// The aggregate rows of a result: run_name -> aggregate_name -> row.
std::map<std::string, std::map<std::string, const Json*>> aggregates(const Json& result) {
  std::map<std::string, std::map<std::string, const Json*>> out;
  for (const Json& row : rowsOf(result))
    if (row.value("run_type", "") == "aggregate")
      out[row.value("run_name", "")][row.value("aggregate_name", "")] = &row;
  return out;
}

std::set<std::string> noisyCases(const Json& result) {
  std::set<std::string> noisy;
  for (const auto& [name, rows] : aggregates(result)) {
    const auto cv = rows.find("cv");
    if (cv != rows.end() && number(*cv->second, "real_time") > kMaxCv) noisy.insert(name);
  }
  return noisy;
}

double cvOf(const Json& result, const std::string& name) {
  const auto all = aggregates(result);
  const auto rows = all.find(name);
  if (rows == all.end() || !rows->second.contains("cv")) return 1e9;
  return number(*rows->second.at("cv"), "real_time");
}

double msOf(const Json& row) {
  const std::string unit = row.value("time_unit", "ns");
  const double scale = unit == "ms" ? 1.0 : unit == "us" ? 1e-3 : unit == "s" ? 1e3 : 1e-6;
  return number(row, "real_time") * scale;
}

class BenchCommand final : public Command {
 public:
  void configure(CLI::App& sub) override {
    sub.add_flag("--quick", quick_, "The reduced sweep (N up to 1M on the GPU; minutes on llvmpipe)");
    sub.add_flag("--list", list_,
                 "Print the cases (of the sweep, --filter applied), one a line, and run none");
    sub.add_option("--device", device_,
                   "EGL device index (murmur devices; default: discrete, then integrated, then software)")
        ->type_name("INDEX")
        ->check(integerIn(-1, kMaxEglDevice));
    sub.add_option("--filter", filter_,
                   "Only the cases whose name this regex matches (Google Benchmark filter)")
        ->type_name("REGEX")
        ->check(nonEmpty());
    sub.add_option("--out", out_, "Directory for the results (default: bench/results/<device>/)")
        ->type_name("DIR")
        ->check(nonEmpty());
    sub.footer(
        "Examples:\n"
        "  murmur bench --quick                          # the reduced sweep\n"
        "  murmur bench --list --filter AStar            # the A* cases, none run\n"
        "  murmur bench --quick --filter '^density/gpu/' --out my-results");
  }

  int run() override {
    // Every input is checked before the suite runs (minutes to hours).
    checkDeviceIndex(device_);
    checkFilter(filter_);
    if (!list_) core::checkOutputDirectory(out_.empty() ? "bench/results" : out_, "--out");
    const fs::path bench = core::binaryDir() / "murmur_bench";
    if (!fs::exists(bench))
      throw std::runtime_error(
          fmt::format("no murmur_bench beside murmur ({}): build it with `cmake --build build "
                      "--target murmur_bench` (scripts/demo.sh and scripts/test.sh build it too)",
                      bench.string()));
    std::vector<std::string> base = {bench.string(), "--sweep", quick_ ? "quick" : "standard"};
    if (device_ >= 0) base.insert(base.end(), {"--device", std::to_string(device_)});
    std::vector<std::string> listing = base;
    if (!filter_.empty()) listing.push_back(fmt::format("--benchmark_filter={}", filter_));
    listing.push_back("--benchmark_list_tests");

    std::vector<std::string> cases;
    if (runLines(listing, "/dev/null",
                 [&](const std::string& l) {
                   if (!l.empty()) cases.push_back(l);
                 }) != 0 ||
        cases.empty()) {
      if (filter_.empty()) throw std::runtime_error("murmur_bench lists no cases");
      throw InputError("", 0, "--filter", fmt::format("no benchmark case matches '{}'", filter_));
    }
    if (list_) {
      for (const std::string& name : cases) fmt::print("{}\n", name);
      return 0;
    }

    printEstimate(cases);
    const ScratchDir scratchDir;
    const fs::path& scratch = scratchDir.path;
    std::vector<std::string> all = base;
    if (!filter_.empty()) all.push_back(fmt::format("--benchmark_filter={}", filter_));
    Json result = runCases(all, cases, scratch / "run.json", scratch / "stderr.log");

    const std::set<std::string> noisy = noisyCases(result);
    if (!noisy.empty()) {
      fmt::print(stderr, "{} over {:.0f}% CV run again\n", caseCount(noisy.size()), kMaxCv * 100);
      std::string pattern;
      for (const std::string& name : noisy) pattern += (pattern.empty() ? "" : "|") + regexEscape(name);
      std::vector<std::string> again = base;
      again.push_back(fmt::format("--benchmark_filter=^({})$", pattern));
      const Json second =
          runCases(again, {noisy.begin(), noisy.end()}, scratch / "again.json", scratch / "stderr.log");
      keepSteadier(result, second, noisy);
    }

    const std::string slug = result["context"].value("device_slug", "unknown");
    const fs::path dir = out_.empty() ? fs::path("bench") / "results" / slug : fs::path(out_);
    std::error_code created;
    fs::create_directories(dir, created);
    if (created)
      throw OutputError(dir.string(), "--out", "cannot create the directory: " + created.message());
    const fs::path json = uniquePath(dir);
    const std::string text = result.dump(2) + "\n";
    core::writeFileAtomically(json.string(), "--out", [&](std::FILE* file) {
      return std::fwrite(text.data(), 1, text.size(), file) == text.size();
    });

    const fs::path reportDir = dir / (json.stem().string() + "-report");
    const std::string reportNote = writeReport(json, reportDir);
    printSummary(result, json, reportDir, reportNote, !filter_.empty());
    return 0;
  }

 private:
  // The cost up front: the time each listed case took in the newest earlier result of this machine
  // (Google Benchmark's host_name, and the same GL renderer when both name one) that timed its cases
  // (murmur_case_seconds), in --out or under bench/results/. The suite is fixed, so nothing is
  // refused; the time left follows each case.
  void printEstimate(const std::vector<std::string>& cases) const {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    std::string renderer;
    try {
      renderer = gpu::createHeadlessContext(device_)->info().renderer;
    } catch (const std::runtime_error&) {
      // No GL here: the cpu cases run all the same, with no earlier result to go by.
    }
    std::optional<fs::path> newest;
    fs::file_time_type newestTime;
    Json timed;
    std::error_code ec;
    const fs::path root = out_.empty() ? fs::path("bench/results") : fs::path(out_);
    for (auto it = fs::recursive_directory_iterator(root, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it.depth() > 1 || it->path().extension() != ".json") continue;
      try {
        const Json earlier = readResult(it->path());
        const Json& context = earlier.at("context");
        const std::string earlierRenderer = context.value("gl_renderer", "");
        if (context.value("host_name", "") != host || !context.contains("murmur_case_seconds") ||
            (!renderer.empty() && !earlierRenderer.empty() && earlierRenderer != renderer))
          continue;
        const fs::file_time_type written = fs::last_write_time(it->path());
        if (!newest || written > newestTime) {
          newest = it->path();
          newestTime = written;
          timed = context.at("murmur_case_seconds");
        }
      } catch (const std::exception&) {
        // Not a result (or a damaged one): no estimate from it.
      }
    }
    double seconds = 0.0;
    std::size_t known = 0;
    for (const std::string& name : cases)
      if (const auto it = timed.find(name); it != timed.end() && it->is_number()) {
        seconds += it->get<double>();
        ++known;
      }
    if (known == 0) {
      fmt::print(stderr,
                 "{}; no earlier result of this machine to estimate from: the time left follows each case\n",
                 caseCount(cases.size()));
      return;
    }
    fmt::print(stderr, "{}; about {} going by {} (this machine; {} of them timed there)\n",
               caseCount(cases.size()), clock(seconds * double(cases.size()) / double(known)),
               newest->string(), known);
  }

  // One murmur_bench run of `cases` (already selected by the command's filter): progress on stderr,
  // the JSON parsed. Throws when it fails.
  Json runCases(const std::vector<std::string>& command, const std::vector<std::string>& cases,
                const fs::path& out, const fs::path& log) {
    const std::set<std::string> pending(cases.begin(), cases.end());
    std::set<std::string> done;
    Json caseSeconds = Json::object();  // what each case took, for the next run's estimate
    const Clock::time_point start = Clock::now();
    Clock::time_point previous = start;
    std::vector<std::string> full = command;
    full.insert(full.end(), {fmt::format("--benchmark_repetitions={}", kRepetitions),
                             fmt::format("--benchmark_out={}", out.string()), "--benchmark_out_format=json",
                             "--benchmark_color=false"});
    const int rc = runLines(full, log.string(), [&](const std::string& line) {
      const std::string name = line.substr(0, line.find(' '));
      std::string run = name;
      for (const std::string suffix : {"_mean", "_median", "_stddev", "_cv"})
        if (run.size() > suffix.size() && run.compare(run.size() - suffix.size(), suffix.size(), suffix) == 0)
          run.resize(run.size() - suffix.size());
      if (!pending.contains(run) || !done.insert(run).second) return;
      const Clock::time_point now = Clock::now();
      caseSeconds[run] = std::chrono::duration<double>(now - std::exchange(previous, now)).count();
      const double elapsed = std::chrono::duration<double>(now - start).count();
      const double left = elapsed / double(done.size()) * double(cases.size() - done.size());
      fmt::print(stderr, "[{}/{}] {} elapsed, about {} left  {}\n", done.size(), cases.size(), clock(elapsed),
                 clock(left), run);
    });
    if (rc != 0) {
      std::ifstream errors(log);
      const std::string text((std::istreambuf_iterator<char>(errors)), std::istreambuf_iterator<char>());
      throw std::runtime_error(fmt::format("murmur_bench failed ({}): {}", rc, text.substr(0, 2000)));
    }
    Json result = readResult(out);
    result["context"]["murmur_case_seconds"] = caseSeconds;
    return result;
  }

  // Replaces the rows of each re-run case with the second run's when its CV came out lower; the
  // report flags the cases still over the limit (from their cv rows).
  static void keepSteadier(Json& result, const Json& second, const std::set<std::string>& noisy) {
    Json rows = Json::array();
    std::set<std::string> replaced;
    for (const std::string& name : noisy)
      if (cvOf(second, name) < cvOf(result, name)) replaced.insert(name);
    for (const Json& row : result["benchmarks"])
      if (!replaced.contains(row.value("run_name", ""))) rows.push_back(row);
    for (const Json& row : second["benchmarks"])
      if (replaced.contains(row.value("run_name", ""))) rows.push_back(row);
    result["benchmarks"] = rows;
    result["context"]["murmur_rerun"] = Json(std::vector<std::string>(noisy.begin(), noisy.end()));
  }

  // dir/<date>.json, or <date>-2.json, -3, ... : an earlier result is never overwritten.
  static fs::path uniquePath(const fs::path& dir) {
    const std::time_t now = std::time(nullptr);
    char day[16];
    std::strftime(day, sizeof day, "%Y-%m-%d", std::gmtime(&now));
    fs::path path = dir / (std::string(day) + ".json");
    for (int k = 2; fs::exists(path); ++k) path = dir / fmt::format("{}-{}.json", day, k);
    return path;
  }

  // Google Benchmark's --benchmark_filter: a POSIX extended regular expression, "-" in front
  // negating it. A bad one is bad input, not "no case matches" after a while.
  static void checkFilter(const std::string& filter) {
    if (filter.empty()) return;
    const std::string pattern = filter.front() == '-' ? filter.substr(1) : filter;
    try {
      const std::regex compiled(pattern, std::regex::extended | std::regex::nosubs);
      return;
    } catch (const std::regex_error& error) {
      throw InputError("", 0, "--filter",
                       fmt::format("'{}' is not a regular expression: {}", filter, error.what()));
    }
  }

  // Runs bench/report.py on the result into a temporary directory beside reportDir, renamed into
  // place when it succeeds (removed when it fails: OutputError); returns a note when the report or its
  // charts are missing.
  static std::string writeReport(const fs::path& json, const fs::path& reportDir) {
    bool withMatplotlib = false;
    const std::optional<std::string> python = findPython(withMatplotlib);
    if (!python)
      return fmt::format("no report: no python3 here; run bench/report.py {} elsewhere", json.string());
    std::string temporary = reportDir.string() + ".tmp-XXXXXX";
    if (::mkdtemp(temporary.data()) == nullptr)
      throw OutputError(reportDir.string(), "--out",
                        fmt::format("cannot create a directory: {}", std::strerror(errno)));
    // Python's traceback is kept beside the report's temporary and summarised in one line.
    const std::string log = temporary + ".log";
    std::error_code ec;
    const bool failed = runLines({*python, reportScript().string(), json.string(), "--out", temporary}, log,
                                 [](const std::string&) {}) != 0;
    const std::string error = lastLine(log);
    fs::remove(log, ec);
    if (failed || core::stopSignal() != 0) {
      fs::remove_all(temporary, ec);
      core::throwIfStopRequested();
      // The results JSON is complete and in place; only the report is missing.
      throw OutputError(reportDir.string(), "--out",
                        fmt::format("bench/report.py failed ({}); the results are in {}",
                                    error.empty() ? "no message" : error, json.string()));
    }
    fs::rename(temporary, reportDir, ec);
    if (ec) {
      fs::remove_all(temporary, ec);
      throw OutputError(reportDir.string(), "--out", "cannot rename the report into place: " + ec.message());
    }
    return withMatplotlib
               ? ""
               : "charts skipped: no matplotlib for " + *python + " (apt install python3-matplotlib)";
  }

  // The comma-separated case names of a context field (headline_gpu, ...).
  static std::vector<std::string> namesIn(const Json& context, const std::string& key) {
    std::vector<std::string> names;
    const std::string list = context.value(key, "");
    for (std::size_t at = 0; at < list.size();) {
      const std::size_t end = std::min(list.find(',', at), list.size());
      if (end > at) names.push_back(list.substr(at, end - at));
      at = end + 1;
    }
    return names;
  }

  // The median row of a case named without Google Benchmark's suffixes (as the context names
  // cases), or null.
  static const Json* caseRow(const Json& result, const std::string& name) {
    const Json& rows = rowsOf(result);
    const auto found = std::find_if(rows.begin(), rows.end(), [&](const Json& r) {
      const std::string run = r.value("run_name", "");
      return r.value("aggregate_name", "") == "median" && (run == name || run.rfind(name + "/", 0) == 0);
    });
    return found != rows.end() ? &*found : nullptr;
  }

  // The headline score of a backend ("gpu", "cpu"): the geometric mean of the boid updates per second
  // of the cases murmur_bench names in the context's headline_<backend>, or nullopt when one of them
  // is not in the result.
  static std::optional<double> headlineScore(const Json& result, const std::string& backend) {
    double logSum = 0.0;
    int count = 0;
    for (const std::string& name : namesIn(result["context"], "headline_" + backend)) {
      const Json* row = caseRow(result, name);
      if (row == nullptr || number(*row, "items_per_second") <= 0) return std::nullopt;
      logSum += std::log(number(*row, "items_per_second"));
      ++count;
    }
    if (count == 0) return std::nullopt;
    return std::exp(logSum / count);
  }

  // filtered: a --filter was given, so a missing row was left out on purpose. The cases singled out
  // here are named by murmur_bench in the result's context (bench/bench_common.hpp), none here.
  static void printSummary(const Json& result, const fs::path& json, const fs::path& reportDir,
                           const std::string& reportNote, bool filtered) {
    const Json& context = result["context"];
    const std::string missing = filtered ? "filtered out" : "not run";
    if (context.contains("gl_renderer")) {
      fmt::print("device   {} ({}, {})\n", context.value("gl_renderer", ""), context.value("gl_vendor", "?"),
                 context.value("gl_driver", "?"));
      if (context.value("gl_software", "false") == "true")
        fmt::print("         a software renderer: these GPU figures are a CPU's{}\n",
                   hardwareDevicePresent()
                       ? ", though this machine has a hardware device (is its EGL missing? "
                         "murmur devices)"
                       : "");
    } else {
      fmt::print("device   none: no GL case {}\n", filtered ? "passed the filter" : "ran");
    }
    fmt::print("cpu      {} ({} threads)\n", context.value("cpu_model", "?"),
               context.value("omp_threads", "?"));
    const std::optional<double> gpu = headlineScore(result, "gpu");
    const std::optional<double> cpu = headlineScore(result, "cpu");
    auto score = [&](const std::optional<double>& value) {
      return value ? fmt::format("{:.3g}M boid updates/s", *value / 1e6) : missing;
    };
    fmt::print("score    gpu {}, cpu {} (the headline score, bench/README.md)\n", score(gpu), score(cpu));
    // The GPU's headline cases one by one, with the time of a step.
    for (const std::string& name : namesIn(context, "headline_gpu")) {
      const Json* row = caseRow(result, name);
      fmt::print("  {:<25} {}\n", name,
                 row != nullptr ? fmt::format("{:.3g} boid updates/s ({:.3f} ms a step)",
                                              number(*row, "items_per_second"), msOf(*row))
                                : missing);
    }
    fmt::print("gpu over cpu                {}\n",
               gpu && cpu ? fmt::format("{:.2f}x on the headline cases ({} threads)", *gpu / *cpu,
                                        context.value("omp_threads", "?"))
                          : missing);
    const std::string renderCase = context.value("render_headline", "");
    const Json* frame = renderCase.empty() ? nullptr : caseRow(result, renderCase);
    fmt::print("{:<27} {}\n", renderCase.empty() ? "simulated + drawn" : renderCase,
               frame != nullptr ? fmt::format("{:.1f} fps at 1920x1080", 1e3 / msOf(*frame)) : missing);
    // Murmur's A* against the textbook one, summed over the scenario files.
    const std::string ourFamily = context.value("astar_cases", "");
    const std::string textbookFamily = context.value("astar_textbook_cases", "");
    double ours = 0.0, textbook = 0.0;
    for (const Json& r : rowsOf(result)) {
      if (r.value("aggregate_name", "") != "median") continue;
      const std::string name = r.value("run_name", "");
      if (!ourFamily.empty() && name.rfind(ourFamily + "/", 0) == 0) ours += msOf(r);
      if (!textbookFamily.empty() && name.rfind(textbookFamily + "/", 0) == 0) textbook += msOf(r);
    }
    fmt::print("A*                          {}\n",
               ours > 0 && textbook > 0
                   ? fmt::format("Murmur's A* is {:.1f}x faster than the textbook one", textbook / ours)
                   : missing);
    const std::set<std::string> noisy = noisyCases(result);
    if (!noisy.empty())
      fmt::print("noisy    {} {} over {:.0f}% CV (flagged in the report)\n", caseCount(noisy.size()),
                 noisy.size() == 1 ? "stays" : "stay", kMaxCv * 100);
    fmt::print("results  {}\n", json.string());
    if (fs::exists(reportDir / "README.md")) fmt::print("report   {}\n", (reportDir / "README.md").string());
    if (!reportNote.empty()) fmt::print("note     {}\n", reportNote);
  }

  bool quick_ = false;
  bool list_ = false;
  int device_ = -1;
  std::string filter_;
  std::string out_;
};

}  // namespace

MURMUR_REGISTER_COMMAND(BenchCommand, "bench",
                        "Run the benchmark suite on this machine's GL device and write a shareable report");

}  // namespace murmur::app
