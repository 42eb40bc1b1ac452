// The YAML reader on arbitrary bytes: a tree or an error with a location,
// never a crash, a hang or a read out of bounds.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "yaml/reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  tjr::Result<std::vector<tjr::doc::Node>> documents = tjr::yaml::ReadStream(text, "fuzz.yaml");
  if (!documents.ok() && !documents.error().location.known()) __builtin_trap();  // every error has its file
  return 0;
}
