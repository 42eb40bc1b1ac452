#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "doc/node.h"

namespace tjr::smp {

/// The capacity Go's append gives a []interface{} that must grow from
/// capacity `old_capacity` to hold `needed` elements (runtime.growslice with
/// size-class rounding and the malloc header of Go >= 1.22, 16-byte elements).
std::size_t GoGrowCapacity(std::size_t old_capacity, std::size_t needed);

/// The capacity of a []interface{} of `length` elements as encoding/json
/// decodes it: appended one by one starting from an empty slice.
std::size_t GoDecodedCapacity(std::size_t length);

/// A Go slice header over a shared backing array.
///
/// The upstream merge code appends to, shifts and deduplicates the decoded
/// original list in place; when the backing array has room, those writes are
/// visible through every other header over the same array, and the order
/// code later reads the original list through such a header. Copying a
/// GoSlice copies the header, exactly like assigning a Go slice.
class GoSlice {
 public:
  GoSlice() = default;
  /// A slice as the JSON decoder builds it from `items`.
  static GoSlice Decoded(const std::vector<doc::Node>& items);
  /// A slice holding exactly `items`, with capacity == length.
  static GoSlice Of(std::vector<doc::Node> items);

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::size_t capacity() const { return backing_ ? backing_->size() : 0; }
  const doc::Node& operator[](std::size_t index) const { return (*backing_)[index]; }

  /// s[index] = value
  void Set(std::size_t index, doc::Node value) { (*backing_)[index] = std::move(value); }
  /// s = append(s, value)
  void Append(doc::Node value);
  /// s = append(s, values...)
  void AppendAll(const std::vector<doc::Node>& values);
  /// s = append(s[:index], s[index+1:]...)
  void RemoveAt(std::size_t index);
  /// s = s[:length]
  void Truncate(std::size_t length) { size_ = length; }

  std::vector<doc::Node> ToVector() const;

 private:
  void Reallocate(std::size_t needed);

  std::shared_ptr<std::vector<doc::Node>> backing_;
  std::size_t size_ = 0;
};

}  // namespace tjr::smp
