// The YAML reader read twice on the same bytes, on each of its paths (the
// default one, which takes the hand-written block-subset reader where it
// can, and libfyaml alone): both reads give the same trees, values, key
// order, source text and FILE:LINE:COL alike, or the same error text.
// Same input, same bytes: libfyaml once returned different bytes on
// repeated reads of some scalars (issue 14): bytes read from memory it
// had not written. So that such bytes differ from one read to the next,
// this target's allocator neither fills new blocks nor holds freed ones
// back, and each read starts on a heap left full of a different byte.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "yaml/reader.h"

extern "C" const char* __asan_default_options() {
  return "max_malloc_fill_size=0:quarantine_size_mb=0";
}

namespace {

bool SameLocation(const tjr::Location& a, const tjr::Location& b) {
  return a.file == b.file && a.line == b.line && a.column == b.column;
}

// Equal as data (doc::Node's ==) and also in what == ignores.
bool Same(const tjr::doc::Node& a, const tjr::doc::Node& b) {
  if (a.kind() != b.kind() || !SameLocation(a.location(), b.location())) return false;
  if (a.is_sequence()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!Same(a[i], b[i])) return false;
    }
    return true;
  }
  if (a.is_mapping()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const tjr::doc::Field& x = a.fields()[i];
      const tjr::doc::Field& y = b.fields()[i];
      if (x.key != y.key || !SameLocation(x.key_location, y.key_location) || !Same(x.value, y.value)) {
        return false;
      }
    }
    return true;
  }
  return a == b && a.source_text() == b.source_text();
}

// Leaves blocks of every small size freed with `fill` in them, for the next
// read's allocations to get.
void DirtyHeap(unsigned char fill) {
  std::vector<void*> blocks;
  for (std::size_t size = 8; size <= 16384; size += size / 4 + 8) {
    for (int i = 0; i < 4; ++i) {
      void* block = std::malloc(size);
      if (block == nullptr) continue;
      std::memset(block, fill, size);
      blocks.push_back(block);
    }
  }
  for (void* block : blocks) std::free(block);
}

void ReadTwice(std::string_view text, const tjr::yaml::ReadOptions& options) {
  DirtyHeap(0x00);
  tjr::Result<std::vector<tjr::doc::Node>> first = tjr::yaml::ReadStream(text, "fuzz.yaml", options);
  DirtyHeap(0x5a);
  tjr::Result<std::vector<tjr::doc::Node>> second = tjr::yaml::ReadStream(text, "fuzz.yaml", options);
  if (first.ok() != second.ok()) __builtin_trap();
  if (!first.ok()) {
    if (first.error().ToString() != second.error().ToString()) __builtin_trap();
    return;
  }
  if (first->size() != second->size()) __builtin_trap();
  for (std::size_t i = 0; i < first->size(); ++i) {
    if (!Same((*first)[i], (*second)[i])) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ReadTwice(text, {});
  tjr::yaml::ReadOptions libfyaml;
  libfyaml.libfyaml_only = true;
  ReadTwice(text, libfyaml);
  return 0;
}
