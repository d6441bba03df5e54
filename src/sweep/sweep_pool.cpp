#include "sweep/sweep_pool.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/output_path.hpp"

#ifdef MURMUR_HAVE_MPI
#include <mpi.h>
#endif

namespace murmur::sweep {
namespace {

using Clock = std::chrono::steady_clock;

// The plans still to hand out, and the counts of those handed out, for every runner of the job.
class Dispatcher {
 public:
  Dispatcher(const std::vector<std::size_t>& todo, std::size_t runners, ErrorLevel errors,
             std::function<void(const Progress&)> progress)
      : todo_(todo),
        runners_(std::max<std::size_t>(runners, 1)),
        errors_(errors),
        progress_(std::move(progress)) {
    counts_.total = todo.size();
  }

  std::optional<std::size_t> take() {
    std::lock_guard lock(mutex_);
    if (closed_ || next_ == todo_.size()) return std::nullopt;
    ++counts_.running;
    return todo_[next_++];
  }

  void finish(bool ok, double wallSeconds) {
    std::lock_guard lock(mutex_);
    --counts_.running;
    ++(ok ? counts_.done : counts_.failed);
    wallSum_ += wallSeconds;
    if (!ok && errors_ == ErrorLevel::Fast) {
      closed_ = true;
      stoppedOnError_ = true;
      cancel_ = true;
    }
    report();
  }

  // A run stopped by a signal: neither done nor failed.
  void abandon() {
    std::lock_guard lock(mutex_);
    --counts_.running;
  }

  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }

  const std::atomic<bool>& cancel() const { return cancel_; }

  PoolResult result() {
    std::lock_guard lock(mutex_);
    return {counts_.done, counts_.failed, stoppedOnError_};
  }

 private:
  void report() {
    counts_.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start_).count();
    const std::size_t ended = counts_.done + counts_.failed;
    // The mean wall time of the runs so far, over the runners that share what is left.
    counts_.leftSeconds =
        ended == 0 ? -1.0 : wallSum_ / double(ended) * double(counts_.total - ended) / double(runners_);
    if (progress_) progress_(counts_);
  }

  std::mutex mutex_;
  std::vector<std::size_t> todo_;
  std::size_t next_ = 0;
  std::size_t runners_;
  ErrorLevel errors_;
  std::function<void(const Progress&)> progress_;
  Progress counts_;
  double wallSum_ = 0.0;
  bool closed_ = false, stoppedOnError_ = false;
  std::atomic<bool> cancel_{false};
  Clock::time_point start_ = Clock::now();
};

// The runners of this process: the cores shared out, the devices in turn.
std::vector<Runner> localRunners(const PoolOptions& options, int rank) {
  const int jobs = std::max(options.jobs, 1);
  const int cores =
      options.threads > 0 ? options.threads : int(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<Runner> runners(static_cast<std::size_t>(jobs));
  for (int i = 0; i < jobs; ++i) {
    runners[std::size_t(i)].device =
        options.devices.empty() ? -1 : options.devices[std::size_t(i) % options.devices.size()];
    runners[std::size_t(i)].threads = std::max(1, cores / jobs);
    runners[std::size_t(i)].rank = rank;
  }
  return runners;
}

// Runs the plans the dispatcher hands out until it has none; false when a stop ended it.
void runnerLoop(const SweepFile& sweep, const Expansion& expansion, const PoolOptions& options,
                const Runner& runner, Dispatcher& dispatcher) {
  while (const std::optional<std::size_t> index = dispatcher.take()) {
    try {
      const RunOutcome outcome = runPlan(sweep, expansion.plans[*index], runner, options.dir,
                                         options.dataDirs, options.force, dispatcher.cancel());
      dispatcher.finish(outcome.ok, outcome.wallSeconds);
    } catch (const StopRequested&) {
      dispatcher.abandon();
      return;
    } catch (const std::exception&) {  // its status could not be written (a full disk): failed, unrecorded
      dispatcher.finish(false, 0.0);
    }
  }
}

void joinAndCheck(std::vector<std::thread>& threads) {
  for (std::thread& t : threads) t.join();
  core::throwIfStopRequested();
}

}  // namespace

PoolResult runLocal(const SweepFile& sweep, const Expansion& expansion, const std::vector<std::size_t>& todo,
                    const PoolOptions& options, const std::function<void(const Progress&)>& progress) {
  const std::vector<Runner> runners = localRunners(options, 0);
  Dispatcher dispatcher(todo, runners.size(), options.errors, progress);
  std::vector<std::thread> threads;
  for (const Runner& runner : runners)
    threads.emplace_back([&, runner] { runnerLoop(sweep, expansion, options, runner, dispatcher); });
  joinAndCheck(threads);
  return dispatcher.result();
}

#ifdef MURMUR_HAVE_MPI
namespace {

// Rank -> 0: {slot, plan just ended or -1, ok, wall time in microseconds, stopping}; 0 -> rank, on
// tag kReplyTag + slot: the next plan, or -1 when the slot is done.
constexpr int kRequestTag = 1, kReplyTag = 1000;
enum Request { kSlot, kEnded, kOk, kWallMicros, kStopping, kRequestSize };

std::mutex mpiMutex;  // MPI_THREAD_SERIALIZED: one thread in MPI at a time

}  // namespace

bool MpiJob::available() {
  return true;
}

MpiJob::MpiJob() {
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (size == nullptr) size = std::getenv("PMI_SIZE");
  if (size == nullptr || std::atoi(size) <= 1) return;
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    throw std::runtime_error("MPI: this Open MPI does not offer MPI_THREAD_SERIALIZED");
  }
  initialized_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiJob::~MpiJob() {
  if (initialized_) MPI_Finalize();
}

PoolResult MpiJob::run(const SweepFile& sweep, const Expansion& expansion,
                       const std::vector<std::size_t>& todo, const PoolOptions& options,
                       const std::function<void(const Progress&)>& progress) {
  if (!initialized_) return runLocal(sweep, expansion, todo, options, progress);
  const std::vector<Runner> runners = localRunners(options, rank_);
  int slots = int(runners.size());
  std::vector<int> allSlots(static_cast<std::size_t>(size_));
  MPI_Gather(&slots, 1, MPI_INT, allSlots.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<std::thread> threads;
  if (rank_ == 0) {
    int remoteSlots = 0;
    for (int r = 1; r < size_; ++r) remoteSlots += allSlots[std::size_t(r)];
    std::size_t everyRunner = 0;
    for (int s : allSlots) everyRunner += std::size_t(s);
    Dispatcher dispatcher(todo, everyRunner, options.errors, progress);
    for (const Runner& runner : runners)
      threads.emplace_back([&, runner] { runnerLoop(sweep, expansion, options, runner, dispatcher); });
    for (int retired = 0; retired < remoteSlots;) {
      if (core::stopSignal() != 0) dispatcher.close();
      long long request[kRequestSize];
      MPI_Status status;
      int flag = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, kRequestTag, MPI_COMM_WORLD, &flag, &status);
      if (!flag) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        continue;
      }
      MPI_Recv(request, kRequestSize, MPI_LONG_LONG, status.MPI_SOURCE, kRequestTag, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      if (request[kEnded] >= 0) {
        if (request[kStopping] != 0)
          dispatcher.abandon();
        else
          dispatcher.finish(request[kOk] != 0, double(request[kWallMicros]) * 1e-6);
      }
      long long next = -1;
      if (request[kStopping] == 0)
        if (const std::optional<std::size_t> index = dispatcher.take()) next = static_cast<long long>(*index);
      if (next < 0) ++retired;
      MPI_Send(&next, 1, MPI_LONG_LONG, status.MPI_SOURCE, kReplyTag + int(request[kSlot]), MPI_COMM_WORLD);
    }
    joinAndCheck(threads);
    return dispatcher.result();
  }
  PoolResult mine;
  std::mutex mineMutex;
  for (std::size_t slot = 0; slot < runners.size(); ++slot)
    threads.emplace_back([&, slot] {
      const std::atomic<bool> never{false};
      long long request[kRequestSize] = {static_cast<long long>(slot), -1, 0, 0, 0};
      while (true) {
        long long next = -1;
        {
          std::lock_guard lock(mpiMutex);
          MPI_Send(request, kRequestSize, MPI_LONG_LONG, 0, kRequestTag, MPI_COMM_WORLD);
          MPI_Recv(&next, 1, MPI_LONG_LONG, 0, kReplyTag + int(slot), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        if (next < 0 || request[kStopping] != 0) return;
        request[kEnded] = next;
        try {
          const RunOutcome outcome = runPlan(sweep, expansion.plans[std::size_t(next)], runners[slot],
                                             options.dir, options.dataDirs, options.force, never);
          request[kOk] = outcome.ok;
          request[kWallMicros] = static_cast<long long>(outcome.wallSeconds * 1e6);
          std::lock_guard lock(mineMutex);
          ++(outcome.ok ? mine.done : mine.failed);
        } catch (const StopRequested&) {
          request[kStopping] = 1;  // rank 0 retires the slot and hands it nothing more
        } catch (const std::exception&) {
          request[kOk] = 0;
        }
      }
    });
  joinAndCheck(threads);
  return mine;
}

#else

bool MpiJob::available() {
  return false;
}

MpiJob::MpiJob() {
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (size == nullptr) size = std::getenv("PMI_SIZE");
  if (size != nullptr && std::atoi(size) > 1)
    throw InputError(
        "", 0, "mpirun",
        "this murmur was built without MPI (libopenmpi-dev; docs/sweeps.md): every rank would run "
        "the whole sweep; use --jobs or --shard instead");
}

MpiJob::~MpiJob() = default;

PoolResult MpiJob::run(const SweepFile& sweep, const Expansion& expansion,
                       const std::vector<std::size_t>& todo, const PoolOptions& options,
                       const std::function<void(const Progress&)>& progress) {
  return runLocal(sweep, expansion, todo, options, progress);
}

#endif

}  // namespace murmur::sweep
