#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace tjr {

/// Runs `work(i)` for i in [0, count) on `threads` workers and hands the
/// results to `sink` on the calling thread in index order. At most `window`
/// results are computed ahead of the sink, so memory does not grow with
/// `count`. `work` must be safe to call concurrently; `sink` is called by one
/// thread only. With one thread everything runs on the calling thread.
template <class Work, class Sink>
void OrderedParallelFor(std::size_t count, unsigned threads, std::size_t window, Work work,
                        Sink sink) {
  using Value = decltype(work(std::size_t{0}));
  window = std::max<std::size_t>(window, 1);
  if (threads <= 1 || count <= 1) {
    for (std::size_t i = 0; i < count; ++i) sink(work(i));
    return;
  }
  // Slot i % window holds result i until the sink takes it.
  std::vector<std::optional<Value>> slots(window);
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t next_claim = 0;  // the next index a worker takes
  std::size_t next_sink = 0;   // the next index the sink takes

  auto worker = [&] {
    std::unique_lock lock(mutex);
    for (;;) {
      changed.wait(lock, [&] { return next_claim == count || next_claim < next_sink + window; });
      if (next_claim == count) return;
      std::size_t index = next_claim++;
      lock.unlock();
      Value value = work(index);
      lock.lock();
      slots[index % window].emplace(std::move(value));
      changed.notify_all();
    }
  };
  std::vector<std::thread> workers;
  workers.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) workers.emplace_back(worker);
  {
    std::unique_lock lock(mutex);
    while (next_sink < count) {
      std::optional<Value>& slot = slots[next_sink % window];
      changed.wait(lock, [&] { return slot.has_value(); });
      Value value = std::move(*slot);
      slot.reset();
      ++next_sink;
      changed.notify_all();
      lock.unlock();
      sink(std::move(value));
      lock.lock();
    }
  }
  for (std::thread& thread : workers) thread.join();
}

}  // namespace tjr
