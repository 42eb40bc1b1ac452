#include "render/typed_memo.h"

#include <array>
#include <cstddef>
#include <optional>

#include "typed/round_trip.h"

namespace tjr::render {
namespace {

struct Entry {
  doc::Node input;
  const schema::Type* type = nullptr;
  std::optional<Result<doc::Node>> output;
};

// A handful of runtimes are in play at once; round-robin replacement is
// enough and keeps the lookup a short linear scan.
constexpr std::size_t kEntries = 8;

struct Memo {
  std::array<Entry, kEntries> entries;
  std::size_t next = 0;
};

}  // namespace

Result<doc::Node> TypedRoundTripMemo(const doc::Node& value, const schema::Type& type) {
  // Scalars are cheap and their representations are not shared the same way.
  if (value.is_scalar()) return typed::TypedRoundTrip(value, type);
  thread_local Memo memo;
  for (const Entry& entry : memo.entries) {
    if (entry.type == &type && entry.output.has_value() && entry.input.SharesRepresentationWith(value)) {
      return *entry.output;
    }
  }
  Entry& slot = memo.entries[memo.next];
  memo.next = (memo.next + 1) % kEntries;
  slot.input = value;
  slot.type = &type;
  slot.output = typed::TypedRoundTrip(value, type);
  return *slot.output;
}

}  // namespace tjr::render
