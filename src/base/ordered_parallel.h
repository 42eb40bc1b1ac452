#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace tjr {

/// How many consecutive indices an OrderedParallelFor worker claims at a
/// time: enough to take most of the locking out of small work items (a
/// TrainJob renders in well under a millisecond), few enough that the
/// window still keeps every worker busy.
inline std::size_t OrderedClaimSize(unsigned threads, std::size_t window) {
  return std::clamp<std::size_t>(window / (2 * std::size_t{std::max(threads, 1u)}), 1, 8);
}

/// Runs `work(i)` for i in [0, count) on `threads` workers and hands the
/// results to `sink` on the calling thread in index order. At most `window`
/// results are computed ahead of the sink, so memory does not grow with
/// `count`. `work` must be safe to call concurrently; `sink` is called by one
/// thread only. With one thread everything runs on the calling thread.
///
/// Workers claim OrderedClaimSize indices at a time and store their results
/// together, and a thread is woken only when it can go on: the sink when the
/// result it waits for arrives, a worker when the sink has made room in the
/// window.
template <class Work, class Sink>
void OrderedParallelFor(std::size_t count, unsigned threads, std::size_t window, Work work,
                        Sink sink) {
  using Value = decltype(work(std::size_t{0}));
  window = std::max<std::size_t>(window, 1);
  if (threads <= 1 || count <= 1) {
    for (std::size_t i = 0; i < count; ++i) sink(work(i));
    return;
  }
  const std::size_t claim = OrderedClaimSize(threads, window);
  // Slot i % window holds result i until the sink takes it.
  std::vector<std::optional<Value>> slots(window);
  std::mutex mutex;
  std::condition_variable room;    // a worker may claim again
  std::condition_variable filled;  // the sink's next result is there
  std::size_t next_claim = 0;      // the next index a worker takes
  std::size_t next_sink = 0;       // the next index the sink takes
  std::size_t waiting_workers = 0;
  bool sink_waiting = false;

  auto worker = [&] {
    std::vector<Value> done;  // a claim's results, stored under one lock
    done.reserve(claim);
    std::unique_lock lock(mutex);
    for (;;) {
      while (next_claim < count && next_claim >= next_sink + window) {
        ++waiting_workers;
        room.wait(lock);
        --waiting_workers;
      }
      if (next_claim == count) return;
      const std::size_t first = next_claim;
      const std::size_t last = std::min({first + claim, count, next_sink + window});
      next_claim = last;
      lock.unlock();
      for (std::size_t index = first; index < last; ++index) done.push_back(work(index));
      lock.lock();
      for (std::size_t index = first; index < last; ++index) {
        slots[index % window].emplace(std::move(done[index - first]));
      }
      done.clear();
      if (sink_waiting && next_sink >= first && next_sink < last) filled.notify_one();
    }
  };
  std::vector<std::thread> workers;
  workers.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) workers.emplace_back(worker);
  {
    std::unique_lock lock(mutex);
    while (next_sink < count) {
      std::optional<Value>& slot = slots[next_sink % window];
      while (!slot.has_value()) {
        sink_waiting = true;
        filled.wait(lock);
        sink_waiting = false;
      }
      Value value = std::move(*slot);
      slot.reset();
      ++next_sink;
      const bool wake = waiting_workers > 0;
      lock.unlock();
      if (wake) room.notify_one();  // one index of room: one claim
      sink(std::move(value));
      lock.lock();
    }
  }
  room.notify_all();  // workers still waiting for room find nothing left to claim
  for (std::thread& thread : workers) thread.join();
}

}  // namespace tjr
