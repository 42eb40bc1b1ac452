// The loader as `tjrender check .` runs it on a folder (source/loader.h
// LoadManifests on a tree held in memory), where the readers that only a
// walk of files reaches run: the unrendered-template scan of a file's text
// (source/unrendered_template.h), the runtimes a ConfigMap carries in
// data."runtimes.yaml" (source/embedded_runtimes.h), and the type check of
// a kustomize patch's TrainJob (validate::ValidateTrainJobPatchTypes). The
// input after the first byte is in/manifests.yaml, or that and a second
// file cut at the first line "%%". The first byte: bits 0-1 the Trainer
// release of the patch check (pipeline::SupportedTargets(), wrapping); bit
// 2 set makes the second file in/patch.yaml, named by an
// in/kustomization.yaml under patchesStrategicMerge (unset: in/more.yaml).
// Never a crash or a hang; every error is located; every location that
// names an input file is on one of its lines, the nodes of every object
// kept too (an embedded runtime's lines are shifted into the file); the same
// tree loads to the same objects and diagnostics twice.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "line_count.h"
#include "pipeline/pipeline.h"
#include "pipeline/target.h"
#include "source/loader.h"
#include "source/memory_tree.h"
#include "validate/validate.h"
#include "yaml/writer.h"

namespace {

using LineCounts = std::map<std::string, std::uint32_t>;  // file -> lines

// `slack`: lines a location may lie past the last one. A parse error at the
// end of the stream is on the line after it, as goyaml places it (its
// stream end forces a new line: scannerc.go yaml_parser_fetch_stream_end;
// `a: [\n[b,` fails at 3:1), so diagnostics get 1; nodes get none.
void CheckLocation(const tjr::Location& location, const LineCounts& lines, std::uint32_t slack = 0) {
  if (!location.known()) return;
  auto file = lines.find(*location.file);
  if (file != lines.end() && location.line > file->second + slack) __builtin_trap();  // past the file's end
}

void CheckNodes(const tjr::doc::Node& node, const LineCounts& lines) {
  CheckLocation(node.location(), lines);
  if (node.is_sequence()) {
    for (const tjr::doc::Node& item : node.items()) CheckNodes(item, lines);
  } else if (node.is_mapping()) {
    for (const tjr::doc::Field& field : node.fields()) {
      CheckLocation(field.key_location, lines);
      CheckNodes(field.value, lines);
    }
  }
}

void CheckDiagnostics(const tjr::Diagnostics& diagnostics, const LineCounts& lines, std::string* out) {
  for (const tjr::Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.severity == tjr::Severity::kError && !diagnostic.location.known()) __builtin_trap();
    CheckLocation(diagnostic.location, lines, 1);
    *out += diagnostic.ToString() + "\n";
  }
}

// Everything one load gives, as text: the objects kept, the patches'
// findings, every diagnostic.
std::string Load(const tjr::source::MemoryTree& tree, const LineCounts& lines, const std::string& target) {
  tjr::source::LoadOptions options;
  options.threads = 1;
  tjr::source::ManifestSet set = tjr::source::LoadManifests(tree, {"."}, options);
  std::string out;
  std::vector<tjr::doc::Node> objects;
  for (const tjr::source::Manifest& manifest : set.manifests) {
    CheckNodes(manifest.object, lines);
    objects.push_back(manifest.object);
    out += manifest.file + "\n";
  }
  out += tjr::yaml::WriteStream(objects);
  CheckDiagnostics(set.diagnostics, lines, &out);
  const tjr::pipeline::TargetProfile* profile = tjr::pipeline::FindTarget(target);
  if (profile == nullptr) __builtin_trap();
  for (const tjr::doc::Node& patch : set.trainjob_patches) {
    CheckNodes(patch, lines);
    CheckDiagnostics(tjr::validate::ValidateTrainJobPatchTypes(patch, profile->version), lines, &out);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::vector<std::string>& targets = tjr::pipeline::SupportedTargets();
  const std::string& target = targets[(data[0] & 3) % targets.size()];
  const bool patch = (data[0] & 4) != 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::map<std::string, std::string_view> files;
  const std::size_t cut = text.starts_with("%%\n") ? 0 : text.find("\n%%\n");
  if (cut == std::string_view::npos) {
    files["in/manifests.yaml"] = text;
  } else {
    files["in/manifests.yaml"] = text.substr(0, cut == 0 ? 0 : cut + 1);
    files[patch ? "in/patch.yaml" : "in/more.yaml"] = text.substr(cut == 0 ? 3 : cut + 4);
  }
  tjr::source::MemoryTree tree;
  LineCounts lines;
  for (const auto& [path, bytes] : files) {
    tree.Put(path, std::string(bytes));
    lines[path] = tjr::fuzz::MostLines(bytes);
  }
  if (patch) tree.Put("in/kustomization.yaml", "resources:\n- manifests.yaml\npatchesStrategicMerge:\n- patch.yaml\n");
  if (Load(tree, lines, target) != Load(tree, lines, target)) __builtin_trap();  // not deterministic
  return 0;
}
