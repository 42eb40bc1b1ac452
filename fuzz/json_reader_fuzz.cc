// The JSON reader on arbitrary bytes: values or an error with a location,
// never a crash. What it accepts it writes as encoding/json does, and those
// bytes are a fixed point: read and written again, they come back the same.
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
    const std::string written = tjr::json::Write(value, false);
    tjr::Result<std::vector<tjr::doc::Node>> again = tjr::json::ReadStream(written, "again.json");
    if (!again.ok() || again->size() != 1 || tjr::json::Write(again->front(), false) != written) __builtin_trap();
  }
  return 0;
}
