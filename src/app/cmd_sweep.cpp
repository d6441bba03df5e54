// murmur sweep: runs over parameters and seeds, on local runners, MPI ranks or Slurm shards, resumable,
// gathered into one table (docs/sweeps.md).
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "app/cli_checks.hpp"
#include "app/command.hpp"
#include "app/help.hpp"
#include "core/error.hpp"
#include "core/install_dirs.hpp"
#include "core/output_path.hpp"
#include "core/parse_number.hpp"
#include "sim/run_cost.hpp"
#include "sweep/sweep_file.hpp"
#include "sweep/sweep_pool.hpp"
#include "sweep/sweep_run.hpp"

namespace murmur::app {
namespace {

namespace fs = std::filesystem;

// The sweep as it ran, kept in DIR for --gather and --report.
constexpr const char* kSavedSweep = "sweep.toml";

std::string duration(double seconds) {
  const auto s = static_cast<unsigned long long>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

// Free bytes where dir is (or would be created); 0 when unknown.
std::uint64_t freeBytes(fs::path dir) {
  std::error_code error;
  while (!dir.empty() && !fs::exists(dir, error)) dir = dir.parent_path();
  struct statvfs info {};
  if (::statvfs(dir.empty() ? "." : dir.c_str(), &info) != 0) return 0;
  return std::uint64_t(info.f_bavail) * info.f_frsize;
}

// "I/N" of --shard, or SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT.
std::pair<std::size_t, std::size_t> parseShard(const std::string& text, const std::string& source) {
  const std::size_t slash = text.find('/');
  const std::string_view whole(text);
  // -1 for what is not an integer: refused below with the rest.
  const std::int64_t i = core::parseNumber<std::int64_t>(whole.substr(0, slash)).value_or(-1);
  const std::int64_t n =
      slash == std::string::npos ? -1 : core::parseNumber<std::int64_t>(whole.substr(slash + 1)).value_or(-1);
  if (n < 1 || n > 1'000'000 || i < 0 || i >= n)
    throw InputError("", 0, source, fmt::format("'{}' must be I/N with 0 <= I < N <= 1000000", text));
  return {std::size_t(i), std::size_t(n)};
}

class SweepCommand final : public Command {
 public:
  void configure(CLI::App& sub) override {
    sub.add_option("sweep", sweepFile_, "The sweep file (docs/sweeps.md)")
        ->type_name("SWEEP.toml")
        ->check(nonEmpty());
    sub.add_option("--out", out_, "The sweep's folder: runs/ with a file per run, runs.csv, sweep.json")
        ->type_name("DIR")
        ->check(nonEmpty());
    sub.add_option("--jobs", jobs_,
                   "Runs at once in this process, each with its share of the cores (default 1)")
        ->type_name("N")
        ->check(integerIn(1, 1024));
    sub.add_option("--devices", devices_,
                   "EGL devices of the gpu runs, dealt to the runners in turn (murmur devices)")
        ->type_name("I,J,...")
        ->delimiter(',')
        ->check(integerIn(0, kMaxEglDevice));
    sub.add_option("--threads", threads_,
                   "CPU threads this process shares among its runners (default 0: all)")
        ->type_name("N")
        ->check(integerIn(0, 1024));
    sub.add_option(
           "--shard", shard_,
           "Run only plans I, I+N, I+2N, ... (default from SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT); "
           "then --gather")
        ->type_name("I/N");
    sub.add_option("--emit-slurm", emitSlurm_, "Write an sbatch script that runs the sweep as a Slurm array")
        ->type_name("FILE")
        ->check(nonEmpty());
    sub.add_option("--shards", shards_, "Array tasks of --emit-slurm (default 8)")
        ->type_name("N")
        ->check(integerIn(1, 100000));
    sub.add_option("--gather", gather_,
                   "Write runs.csv and sweep.json of the sweep in DIR from its run files")
        ->type_name("DIR")
        ->check(nonEmpty());
    sub.add_option("--report", report_,
                   "Draw DIR's measures against its axes (DIR/report/: PNG, SVG, summary.md)")
        ->type_name("DIR")
        ->check(nonEmpty());
    sub.add_option("--errors", errors_,
                   "A failed run: off (go on, exit 0), slow (go on, exit 1 at the end), fast (stop)")
        ->type_name("off|slow|fast")
        ->check(CLI::IsMember({"off", "slow", "fast"}));
    sub.add_flag("--reduced", reduced_, "Apply the sweep file's [reduced] table (a small form of the sweep)");
    sub.add_flag("--dry-run", dryRun_, "Print the plans and the estimate, run nothing, write nothing");
    sub.add_option("--data-dir", dataDirs_, "Where scenes' data files are looked for (as run --data-dir)")
        ->type_name("DIR")
        ->expected(1)
        ->check(nonEmpty());
    sub.add_flag("--force", force_,
                 "Go ahead when a run or the whole sweep is over the cost or output limits");
    sub.footer(
        "Across the ranks of an MPI job: mpirun -np N murmur sweep FILE --out DIR\n\n"
        "Examples:\n"
        "  murmur sweep murmuration-k --out k --jobs 2\n"
        "  murmur sweep gpu-vs-cpu --reduced --out g --dry-run\n"
        "  murmur sweep gpu-vs-cpu --out g --emit-slurm g.sbatch --shards 16\n"
        "  murmur sweep --gather g\n"
        "  murmur sweep --report g");
  }

  int run() override {
    if (!report_.empty()) return runReport();
    sweep::MpiJob mpi;  // before any output: a rank of an MPI job
    try {
      return runSweep(mpi);
    } catch (const InputError&) {
      if (mpi.rank() == 0) throw;
      return 2;  // rank 0 says it
    }
  }

 private:
  std::vector<std::string> dataDirsFor(const std::string& sweepPath) const {
    std::vector<std::string> dirs = dataDirs_;
    dirs.push_back(fs::path(sweepPath).parent_path().empty() ? "."
                                                             : fs::path(sweepPath).parent_path().string());
    return dirs;
  }

  // A file as given, else a shipped sweep by name ("murmuration-k": share/murmur/sweeps/murmuration-k.toml).
  static std::string findSweep(const std::string& given) {
    std::error_code error;
    if (fs::exists(given, error) || given.find('/') != std::string::npos) return given;
    const fs::path shipped =
        core::shareDir() / "sweeps" / (fs::path(given).has_extension() ? given : given + ".toml");
    return fs::is_regular_file(shipped, error) ? shipped.string() : given;
  }

  int runReport() {
    const std::string script = (core::shareDir() / "sweep_report.py").string();
    // $MURMUR_PYTHON, else Debian's (with matplotlib), whatever python3 comes first on PATH.
    const char* chosen = std::getenv("MURMUR_PYTHON");
    const std::string python = chosen != nullptr && *chosen != '\0'      ? chosen
                               : ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3"
                                                                         : "python3";
    std::fflush(nullptr);
    ::execlp(python.c_str(), python.c_str(), script.c_str(), report_.c_str(), static_cast<char*>(nullptr));
    throw std::runtime_error(fmt::format("cannot start {} {} ({})", python, script, std::strerror(errno)));
  }

  int runSweep(sweep::MpiJob& mpi) {
    const bool quiet = mpi.rank() != 0;
    std::string file = sweepFile_;
    fs::path dir = out_;
    const bool gathering = !gather_.empty();
    if (gathering) {
      if (!sweepFile_.empty() || !out_.empty())
        throw InputError("", 0, "--gather", "takes the sweep's folder alone (it reads DIR/sweep.toml)");
      dir = gather_;
      file = (dir / kSavedSweep).string();
    } else {
      if (file.empty())
        throw InputError("", 0, "sweep", "a sweep file is required (or --gather DIR, --report DIR)");
      if (out_.empty() && emitSlurm_.empty() && !dryRun_) throw InputError("", 0, "--out", "is required");
    }
    if (!gathering) file = findSweep(file);
    const std::vector<std::string> dataDirs = dataDirsFor(file);
    const sweep::SweepFile sweep = sweep::loadSweep(file, reduced_ && !gathering, dataDirs);
    if (!out_.empty()) core::checkOutputDirectory(out_, "--out");
    const sweep::Expansion expansion = sweep::expandPlans(sweep, dataDirs);

    if (gathering) {
      const sweep::IndexCounts counts = sweep::writeIndex(sweep, expansion, dir);
      fmt::print(stderr, "sweep: {} runs: {} done, {} failed, {} missing; wrote {} and {}\n",
                 expansion.plans.size(), counts.done, counts.failed, counts.missing,
                 (dir / "runs.csv").string(), (dir / "sweep.json").string());
      return counts.failed + counts.missing > 0 && errors_ != "off" ? 1 : 0;
    }

    auto [shard, shards] = shardOf();
    std::vector<std::size_t> todo;
    std::size_t complete = 0, inShard = 0;
    for (const sweep::Plan& plan : expansion.plans) {
      if (plan.index % shards != shard) continue;
      ++inShard;
      if (!dir.empty() && sweep::runComplete(sweep, plan, dir))
        ++complete;
      else
        todo.push_back(plan.index);
    }
    checkLimits(sweep, expansion, dir);
    if (!quiet) describe(sweep, expansion, shard, shards, inShard, complete, todo.size(), mpi.size());
    if (!emitSlurm_.empty()) return writeSlurm(file, dir);
    if (dryRun_) {
      if (!quiet) printPlans(sweep, expansion);
      return 0;
    }

    std::error_code error;
    fs::create_directories(dir / "runs", error);
    if (error)
      throw OutputError(dir.string(), "--out", fmt::format("cannot create runs/ ({})", error.message()));
    if (mpi.rank() == 0) saveSweep(sweep, dir);

    sweep::PoolOptions options;
    options.dir = dir;
    options.dataDirs = dataDirs;
    options.jobs = jobs_;
    options.devices = devices_;
    options.threads = threads_;
    options.force = force_;
    options.errors = errors_ == "off"    ? sweep::ErrorLevel::Off
                     : errors_ == "fast" ? sweep::ErrorLevel::Fast
                                         : sweep::ErrorLevel::Slow;
    const auto start = std::chrono::steady_clock::now();
    const bool terminal = isatty(STDERR_FILENO) != 0;
    auto lastLine = start - std::chrono::hours(1);
    const auto progress = [&](const sweep::Progress& p) {
      const auto now = std::chrono::steady_clock::now();
      const bool last = p.done + p.failed == p.total;
      // A terminal's line redrawn; elsewhere (a log, CI, a batch job) a line every 10 s and the last.
      if (!last && now - lastLine < (terminal ? std::chrono::milliseconds(200) : std::chrono::seconds(10)))
        return;
      lastLine = now;
      const std::string left = p.leftSeconds < 0.0 ? "?" : duration(p.leftSeconds);
      fmt::print(stderr, "{}sweep: {}/{} runs done, {} failed, {} running, {} elapsed, {} left{}",
                 terminal ? "\r" : "", p.done, p.total, p.failed, p.running, duration(p.elapsedSeconds), left,
                 terminal && !last ? "   " : "\n");
      std::fflush(stderr);
    };
    const sweep::PoolResult result = mpi.run(
        sweep, expansion, todo, options, quiet ? std::function<void(const sweep::Progress&)>() : progress);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (quiet) return 0;
    if (shards == 1) {
      const sweep::IndexCounts counts = sweep::writeIndex(sweep, expansion, dir);
      fmt::print(
          stderr,
          "sweep: {} runs: {} done ({} already), {} failed, {} missing, in {:.1f} s; wrote {} and {}\n",
          expansion.plans.size(), counts.done, complete, counts.failed, counts.missing, seconds,
          (dir / "runs.csv").string(), (dir / "sweep.json").string());
    } else {
      fmt::print(stderr,
                 "sweep: shard {}/{}: {} runs done, {} failed, in {:.1f} s; murmur sweep --gather {} when "
                 "every shard ended\n",
                 shard, shards, result.done, result.failed, seconds, dir.string());
    }
    if (result.stoppedOnError) fmt::print(stderr, "sweep: stopped at the first failed run (--errors fast)\n");
    return result.failed > 0 && errors_ != "off" ? 1 : 0;
  }

  std::pair<std::size_t, std::size_t> shardOf() const {
    if (!shard_.empty()) return parseShard(shard_, "--shard");
    const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
    const char* count = std::getenv("SLURM_ARRAY_TASK_COUNT");
    if (id != nullptr && count != nullptr)
      return parseShard(fmt::format("{}/{}", id, count), "SLURM_ARRAY_TASK_ID");
    return {0, 1};
  }

  void checkLimits(const sweep::SweepFile& sweep, const sweep::Expansion& expansion,
                   const fs::path& dir) const {
    if (force_) return;
    for (const sweep::Plan& plan : expansion.plans)
      if (plan.invalid.empty() && plan.candidateTests > sim::kMaxRunCandidateTests)
        throw InputError(
            sweep.path, 0, "steps",
            fmt::format("run {} ({}, {}) is estimated at {:.3g} candidate tests, over the limit of a run "
                        "({:.0e}); --force to go ahead",
                        plan.index, plan.scene, plan.backend, plan.candidateTests,
                        sim::kMaxRunCandidateTests));
    if (expansion.candidateTests > sweep::kMaxSweepCandidateTests)
      throw InputError(
          sweep.path, 0, "replicates",
          fmt::format("the sweep is estimated at {:.3g} candidate tests (about {:.0f} hours on one core), "
                      "over its limit of {:.0e}; --force to go ahead",
                      expansion.candidateTests,
                      expansion.candidateTests / sim::kReferenceTestsPerSecond / 3600.0,
                      sweep::kMaxSweepCandidateTests));
    if (!dir.empty())
      if (const std::uint64_t free = freeBytes(dir); free > 0 && expansion.outputBytes > free)
        throw InputError(
            "", 0, "--out",
            fmt::format("the sweep writes about {:.1f} MiB, more than the {:.1f} MiB free there; --force "
                        "to go ahead",
                        double(expansion.outputBytes) / 1048576.0, double(free) / 1048576.0));
  }

  void describe(const sweep::SweepFile& sweep, const sweep::Expansion& expansion, std::size_t shard,
                std::size_t shards, std::size_t inShard, std::size_t complete, std::size_t todo,
                int ranks) const {
    std::size_t combos =
        expansion.plans.size() / sweep.scenes.size() / sweep.replicates / sweep.backends.size();
    std::size_t invalid = 0;
    for (const sweep::Plan& plan : expansion.plans) invalid += plan.invalid.empty() ? 0 : 1;
    const double hours = expansion.candidateTests / sim::kReferenceTestsPerSecond / 3600.0;
    std::string where = shards > 1 ? fmt::format(" | shard {}/{}: {} runs", shard, shards, inShard) : "";
    const auto count = [](std::size_t n, std::string_view what) {
      return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
    };
    fmt::print(stderr, "sweep {}: {} ({} x {} x {} x {}){}{} | {} complete, {} to run on {}{}\n", sweep.path,
               count(expansion.plans.size(), "run"), count(sweep.scenes.size(), "scene"),
               count(combos, "combination"), count(sweep.replicates, "replicate"),
               count(sweep.backends.size(), "backend"),
               invalid > 0 ? fmt::format(", {} refused by their scene", invalid) : "", where, complete, todo,
               count(std::size_t(jobs_), "runner"), ranks > 1 ? fmt::format(" a rank, {} ranks", ranks) : "");
    const double seconds = hours * 3600.0;
    fmt::print(stderr,
               "estimate: {:.3g} candidate tests (about {} on one core of the reference machine) | output "
               "about {:.1f} MiB\n",
               expansion.candidateTests,
               seconds < 60.0 ? fmt::format("{:.2g} s", seconds) : duration(seconds),
               double(expansion.outputBytes) / 1048576.0);
  }

  void printPlans(const sweep::SweepFile& sweep, const sweep::Expansion& expansion) const {
    std::string head = "run,id,scene";
    for (const sweep::Axis& a : sweep.axes) head += "," + a.key;
    fmt::print("{},replicate,seed,backend,steps,boids,status\n", head);
    for (const sweep::Plan& plan : expansion.plans) {
      std::string line = fmt::format("{},{},{}", plan.index, plan.id, plan.scene);
      for (const std::string& v : plan.values) line += "," + v;
      fmt::print("{},{},{},{},{},{},{}\n", line, plan.replicate, plan.seed, plan.backend, plan.steps,
                 plan.boids, plan.invalid.empty() ? "ok" : "refused: " + plan.invalid);
    }
  }

  static void saveSweep(const sweep::SweepFile& sweep, const fs::path& dir) {
    const std::string saved = fmt::format("# {} as murmur sweep ran it\n{}", sweep.path, sweep.text);
    const std::string path = (dir / kSavedSweep).string();
    core::writeAfterWork(path, "--out", [&] {
      core::writeFileAtomically(path, "--out", [&](std::FILE* f) {
        return std::fwrite(saved.data(), 1, saved.size(), f) == saved.size();
      });
    });
  }

  int writeSlurm(const std::string& file, const fs::path& dir) const {
    if (dir.empty()) throw InputError("", 0, "--out", "is required with --emit-slurm");
    const std::size_t shards = std::size_t(shards_ > 0 ? shards_ : 8);
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    const std::string script = fmt::format(
        "#!/bin/bash\n"
        "# murmur sweep --emit-slurm: {} as {} array tasks; when they have ended: murmur sweep --gather {}\n"
        "#SBATCH --job-name=murmur-sweep\n"
        "#SBATCH --array=0-{}\n"
        "#SBATCH --cpus-per-task={}\n"
        "#SBATCH --output={}/slurm-%A_%a.out\n"
        "set -euo pipefail\n"
        "# --shard comes from SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT\n"
        "exec '{}' sweep '{}' --out '{}'{} --jobs {} --threads \"${{SLURM_CPUS_PER_TASK:-0}}\"\n",
        file, shards, fs::absolute(dir).string(), shards - 1, threads_ > 0 ? threads_ : 1,
        fs::absolute(dir).string(), self.empty() ? "murmur" : self.string(), fs::absolute(file).string(),
        fs::absolute(dir).string(), reduced_ ? " --reduced" : "", jobs_);
    core::writeFileAtomically(emitSlurm_, "--emit-slurm", [&](std::FILE* f) {
      return std::fwrite(script.data(), 1, script.size(), f) == script.size();
    });
    fs::permissions(emitSlurm_, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add, error);
    fmt::print(stderr, "wrote {}: sbatch {}, then murmur sweep --gather {}\n", emitSlurm_, emitSlurm_,
               dir.string());
    return 0;
  }

  std::string sweepFile_, out_, shard_, emitSlurm_, gather_, report_, errors_ = "slow";
  std::vector<int> devices_;
  std::vector<std::string> dataDirs_;
  int jobs_ = 1, threads_ = 0;
  std::int64_t shards_ = 0;
  bool reduced_ = false, dryRun_ = false, force_ = false;
};

}  // namespace

MURMUR_REGISTER_COMMAND(SweepCommand, "sweep",
                        "Run a sweep over parameters and seeds, resumable, into one table");

}  // namespace murmur::app
