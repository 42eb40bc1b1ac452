// The JSON reader on arbitrary bytes: values or an error with a location,
// never a crash. What it accepts it writes as encoding/json does, and from the
// second pass on those bytes are a fixed point. The first pass may still change
// them, as it does in Go: -1e-400 reads as the float -0, which is written "-0",
// which reads back as the integer 0.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "json/json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  tjr::Result<std::vector<tjr::doc::Node>> values = tjr::json::ReadStream(text, "fuzz.json");
  if (!values.ok()) {
    if (!values.error().location.known()) __builtin_trap();
    return 0;
  }
  for (const tjr::doc::Node& value : *values) {
    tjr::Result<std::vector<tjr::doc::Node>> once = tjr::json::ReadStream(tjr::json::Write(value, false), "once.json");
    if (!once.ok() || once->size() != 1) __builtin_trap();
    const std::string written = tjr::json::Write(once->front(), false);
    tjr::Result<std::vector<tjr::doc::Node>> again = tjr::json::ReadStream(written, "again.json");
    if (!again.ok() || again->size() != 1 || tjr::json::Write(again->front(), false) != written) __builtin_trap();
  }
  return 0;
}
