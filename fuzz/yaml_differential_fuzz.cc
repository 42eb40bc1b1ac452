// The two YAML readers on the same bytes: the hand-written block-subset
// reader (yaml/block_subset.cc, most manifests) and libfyaml (the rest).
// Whenever both accept a stream they must give the same trees.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "yaml/reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  tjr::Result<std::vector<tjr::doc::Node>> either = tjr::yaml::ReadStream(text, "fuzz.yaml");
  tjr::yaml::ReadOptions options;
  options.libfyaml_only = true;
  tjr::Result<std::vector<tjr::doc::Node>> libfyaml = tjr::yaml::ReadStream(text, "fuzz.yaml", options);
  if (either.ok() && libfyaml.ok() && *either != *libfyaml) __builtin_trap();
  return 0;
}
