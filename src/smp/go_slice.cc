#include "smp/go_slice.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace tjr::smp {
namespace {

constexpr std::size_t kElementSize = 16;  // sizeof(interface{}) on 64-bit
constexpr std::size_t kMaxSmallSize = 32768;
constexpr std::size_t kMallocHeaderSize = 8;
constexpr std::size_t kMinSizeForMallocHeader = 512;
constexpr std::size_t kPageSize = 8192;

// runtime/sizeclasses.go class_to_size.
constexpr std::array<std::uint16_t, 68> kClassToSize = {
    0,     8,     16,    24,    32,    48,    64,    80,    96,    112,   128,   144,
    160,   176,   192,   208,   224,   240,   256,   288,   320,   352,   384,   416,
    448,   480,   512,   576,   640,   704,   768,   896,   1024,  1152,  1280,  1408,
    1536,  1792,  2048,  2304,  2688,  3072,  3200,  3456,  4096,  4864,  5376,  6144,
    6528,  6784,  6912,  8192,  9472,  9728,  10240, 10880, 12288, 13568, 14336, 16384,
    18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768};

// runtime.roundupsize for an allocation that contains pointers.
std::size_t RoundUpSize(std::size_t size) {
  std::size_t request = size;
  if (request <= kMaxSmallSize - kMallocHeaderSize) {
    if (request > kMinSizeForMallocHeader) request += kMallocHeaderSize;
    const auto* cls = std::lower_bound(kClassToSize.begin(), kClassToSize.end(), request);
    return *cls - (request - size);
  }
  request += kPageSize - 1;
  return request & ~(kPageSize - 1);
}

// runtime.nextslicecap
std::size_t NextSliceCap(std::size_t needed, std::size_t old_capacity) {
  std::size_t capacity = old_capacity;
  const std::size_t doubled = capacity + capacity;
  if (needed > doubled) return needed;
  constexpr std::size_t kThreshold = 256;
  if (old_capacity < kThreshold) return doubled;
  while (true) {
    // Moves smoothly from doubling for small slices to 1.25x for large ones.
    capacity += (capacity + 3 * kThreshold) >> 2;
    if (capacity >= needed) return capacity;
  }
}

}  // namespace

std::size_t GoGrowCapacity(std::size_t old_capacity, std::size_t needed) {
  const std::size_t capacity = NextSliceCap(needed, old_capacity);
  return RoundUpSize(capacity * kElementSize) / kElementSize;
}

std::size_t GoDecodedCapacity(std::size_t length) {
  std::size_t capacity = 0;
  for (std::size_t size = 1; size <= length; ++size) {
    if (size > capacity) capacity = GoGrowCapacity(capacity, size);
  }
  return capacity;
}

GoSlice GoSlice::Decoded(const std::vector<doc::Node>& items) {
  GoSlice slice;
  slice.backing_ = std::make_shared<std::vector<doc::Node>>(GoDecodedCapacity(items.size()));
  std::copy(items.begin(), items.end(), slice.backing_->begin());
  slice.size_ = items.size();
  return slice;
}

GoSlice GoSlice::Of(std::vector<doc::Node> items) {
  GoSlice slice;
  slice.size_ = items.size();
  slice.backing_ = std::make_shared<std::vector<doc::Node>>(std::move(items));
  return slice;
}

void GoSlice::Reallocate(std::size_t needed) {
  auto grown = std::make_shared<std::vector<doc::Node>>(GoGrowCapacity(capacity(), needed));
  if (backing_) std::copy(backing_->begin(), backing_->begin() + size_, grown->begin());
  backing_ = std::move(grown);
}

void GoSlice::Append(doc::Node value) {
  if (size_ + 1 > capacity()) Reallocate(size_ + 1);
  (*backing_)[size_++] = std::move(value);
}

void GoSlice::AppendAll(const std::vector<doc::Node>& values) {
  if (values.empty()) return;
  if (size_ + values.size() > capacity()) Reallocate(size_ + values.size());
  for (const doc::Node& value : values) (*backing_)[size_++] = value;
}

void GoSlice::RemoveAt(std::size_t index) {
  for (std::size_t i = index; i + 1 < size_; ++i) (*backing_)[i] = (*backing_)[i + 1];
  --size_;
}

std::vector<doc::Node> GoSlice::ToVector() const {
  if (!backing_) return {};
  return std::vector<doc::Node>(backing_->begin(), backing_->begin() + size_);
}

}  // namespace tjr::smp
