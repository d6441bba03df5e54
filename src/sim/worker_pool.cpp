#include "sim/worker_pool.hpp"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace murmur::sim {
namespace {

// Waits until `value` is no longer `old`: a short spin first (about 50 us: the step's loops follow
// one another within microseconds, and waking a sleeping thread costs tens of them), then asleep in
// the kernel, so a thread that waits longer never holds a core another thread or process needs.
template <class T>
void awaitChange(const std::atomic<T>& value, T old) {
  constexpr int kSpins = 2000;
  for (int spin = 0; spin < kSpins; ++spin) {
    if (value.load(std::memory_order_acquire) != old) return;
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
  }
  value.wait(old, std::memory_order_acquire);
}

}  // namespace

WorkerPool::WorkerPool(int threads) {
  const int wanted =
      std::min(kMaxThreads,
               threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  workers_.reserve(static_cast<std::size_t>(wanted - 1));
  for (int t = 1; t < wanted; ++t) workers_.emplace_back([this](std::stop_token stop) { workerLoop(stop); });
}

WorkerPool::~WorkerPool() {
  for (std::jthread& worker : workers_) worker.request_stop();
  published_.fetch_add(1, std::memory_order_release);  // wakes every sleeper to see the stop
  published_.notify_all();
  workers_.clear();  // joins
}

void WorkerPool::run(std::size_t n, std::size_t chunk, void* body, Invoke invoke) {
  const std::size_t chunks = (n + chunk - 1) / chunk;
  // The new generation, with nothing to claim yet, before any field changes: a thread still looking
  // at the last loop (all of whose chunks are claimed) could otherwise read the new, larger chunk
  // count, pass the bounds check and claim a chunk past the last loop's end while claim_ still
  // holds its generation, then run it with the fields half rewritten. chunks_ is stored with release
  // and loaded with acquire, so a thread that sees the new count sees this store too.
  ++generation_;
  claim_.store((std::uint64_t(generation_) << 32) | kNothingToClaim, std::memory_order_relaxed);
  n_.store(n, std::memory_order_relaxed);
  chunk_.store(chunk, std::memory_order_relaxed);
  chunks_.store(chunks, std::memory_order_release);
  body_.store(body, std::memory_order_relaxed);
  invoke_.store(invoke, std::memory_order_relaxed);
  done_.store(0, std::memory_order_relaxed);
  claim_.store(std::uint64_t(generation_) << 32, std::memory_order_release);
  published_.store(generation_, std::memory_order_release);
  published_.notify_all();
  work(generation_);
  // Chunks still held by a worker: sleep until the last one is done (its thread may be waiting for
  // a core; this thread gives its own up meanwhile).
  std::size_t seen = done_.load(std::memory_order_acquire);
  if (seen == chunks) return;
  const auto start = std::chrono::steady_clock::now();
  for (; seen < chunks; seen = done_.load(std::memory_order_acquire)) awaitChange(done_, seen);
  waitedSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void WorkerPool::work(std::uint32_t generation) {
  for (;;) {
    std::uint64_t current = claim_.load(std::memory_order_acquire);
    std::size_t index = 0;
    for (;;) {
      if (std::uint32_t(current >> 32) != generation) return;  // a newer loop: this one is over
      index = std::size_t(current & 0xffffffffu);
      if (index >= chunks_.load(std::memory_order_acquire)) return;
      if (claim_.compare_exchange_weak(current, current + 1, std::memory_order_acq_rel)) break;
    }
    // Holding an unfinished chunk of this generation keeps the loop (and its fields) alive.
    const std::size_t chunk = chunk_.load(std::memory_order_relaxed);
    const std::size_t chunks = chunks_.load(std::memory_order_relaxed);
    const std::size_t begin = index * chunk;
    invoke_.load(std::memory_order_relaxed)(body_.load(std::memory_order_relaxed), begin,
                                            std::min(n_.load(std::memory_order_relaxed), begin + chunk));
    if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == chunks) done_.notify_all();
  }
}

void ThreadChoice::record(double seconds) {
  if (threads_ <= 1) return;
  if (trialStepsLeft_ == 0) {
    // A mean of the last 8 or so steps: recent enough to see the machine change within a wait,
    // smooth enough that one late step does not decide.
    chosenSeconds_ = timed_ ? chosenSeconds_ + (seconds - chosenSeconds_) / 8.0 : seconds;
    timed_ = true;
    if (--untilTrial_ == 0) {
      trialStepsLeft_ = kTrialSteps;
      trialSeconds_ = 0.0;
    }
    return;
  }
  trialSeconds_ += seconds;
  if (--trialStepsLeft_ > 0) return;
  if (trialSeconds_ / kTrialSteps < chosenSeconds_) {
    serial_ = !serial_;
    wait_ = firstWait();
    chosenSeconds_ = trialSeconds_ / kTrialSteps;  // the trial's steps are the new choice's first
  }
  untilTrial_ = wait_;
  wait_ = std::min(2 * wait_, longestWait());
}

void WorkerPool::workerLoop(std::stop_token stop) {
  std::uint32_t seen = 0;
  while (!stop.stop_requested()) {
    awaitChange(published_, seen);
    seen = published_.load(std::memory_order_acquire);
    if (stop.stop_requested()) return;
    work(seen);
  }
}

}  // namespace murmur::sim
