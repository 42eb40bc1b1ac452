// The YAML writer on whatever the reader accepts: what it writes reads back,
// and from the second pass on it reads back to the same tree. (The first
// pass may change a tree as kubectl's would: a float 1.0 is written "1" and
// read back as an integer, NEL folds to a space.)
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "yaml/reader.h"
#include "yaml/writer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  tjr::Result<std::vector<tjr::doc::Node>> documents = tjr::yaml::ReadStream(text, "fuzz.yaml");
  if (!documents.ok()) return 0;
  for (const tjr::doc::Node& document : *documents) {
    if (document.is_null()) continue;
    const std::string once = tjr::yaml::Write(document);
    tjr::Result<std::vector<tjr::doc::Node>> first = tjr::yaml::ReadStream(once, "once.yaml");
    if (!first.ok() || first->size() != 1) __builtin_trap();  // written YAML that does not read back
    const std::string twice = tjr::yaml::Write(first->front());
    tjr::Result<std::vector<tjr::doc::Node>> second = tjr::yaml::ReadStream(twice, "twice.yaml");
    if (!second.ok() || second->size() != 1 || second->front() != first->front()) __builtin_trap();
  }
  return 0;
}
