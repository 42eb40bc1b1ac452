// The scan for the Trainer release a repository pins (app/target_pin.h),
// as a run with no --target and no .tjrender.yaml makes it, on a tree held
// in memory: the input after the first byte is one file, or two cut at the
// first line "%%", in folders a/ and b/. The first byte names them: bits
// 0-1 the first file's name, bits 2-3 the second's (kustomization.yaml,
// Chart.yaml, Kustomization, or trainer-helmrelease.yaml, a name the scan
// reads Flux HelmReleases and Argo CD Applications from). Never a crash or
// a hang; every pin names a file of the tree and a line inside it, and its
// evidence shows the version it read; ChooseFromPins' warnings are located;
// the same tree gives the same pins and the same choice twice.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "line_count.h"
#include "app/target_pin.h"
#include "source/memory_tree.h"

namespace {

constexpr const char* kNames[] = {"kustomization.yaml", "Chart.yaml", "Kustomization", "trainer-helmrelease.yaml"};

struct File {
  std::string path;
  std::string_view bytes;
};

// Everything one scan gives, as text.
std::string Scan(const tjr::source::MemoryTree& tree, const std::vector<File>& files) {
  std::string out;
  const std::vector<tjr::app::TargetPin> pins = tjr::app::FindTargetPins(tree, {"."});
  for (const tjr::app::TargetPin& pin : pins) {
    auto file = std::find_if(files.begin(), files.end(), [&](const File& f) { return f.path == pin.file; });
    if (file == files.end()) __builtin_trap();  // a pin in no file of the tree
    if (pin.line < 1 || pin.line > tjr::fuzz::MostLines(file->bytes)) __builtin_trap();  // a line outside the file
    if (pin.version.empty() || pin.evidence.find(pin.version) == std::string::npos) __builtin_trap();
    out += pin.file + ":" + std::to_string(pin.line) + " " + pin.version + " " + pin.target + " " + pin.evidence + "\n";
  }
  const tjr::app::PinnedTarget chosen = tjr::app::ChooseFromPins(pins, "trainer-default");
  if (!chosen.target.empty() && (pins.empty() || !chosen.warnings.empty())) __builtin_trap();
  for (const tjr::Diagnostic& warning : chosen.warnings) {
    if (!warning.location.known()) __builtin_trap();
    out += warning.ToString() + "\n";
  }
  return out + chosen.target + "\n" + chosen.note + "\n";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::vector<File> files;
  const std::size_t cut = text.starts_with("%%\n") ? 0 : text.find("\n%%\n");
  if (cut == std::string_view::npos) {
    files.push_back({std::string("a/") + kNames[data[0] & 3], text});
  } else {
    files.push_back({std::string("a/") + kNames[data[0] & 3], text.substr(0, cut == 0 ? 0 : cut + 1)});
    files.push_back({std::string("b/") + kNames[(data[0] >> 2) & 3], text.substr(cut == 0 ? 3 : cut + 4)});
  }
  tjr::source::MemoryTree tree;
  for (const File& file : files) tree.Put(file.path, std::string(file.bytes));
  if (Scan(tree, files) != Scan(tree, files)) __builtin_trap();  // not deterministic
  return 0;
}
